#!/usr/bin/env python3
"""`ptxmma bench` of two builds over the same variants, interleaved, per CPU second: the
before/after table a change to the engines owes (issue 17 asks that no variant be more than 5%
slower). Each round of a variant runs both builds at the same time, each pinned to a core of its
own (one logical CPU per physical core: two measurements on the hyperthreads of one core slow
each other by up to 2x), so that whatever else the machine does at that moment slows both; the
two swap cores every round. A variant's figure is the median over its rounds of new/old.

On a shared or virtual machine the same build's rounds can still differ by 1.5x. --instructions
counts instead: the host instructions one simulated instruction executes (valgrind's callgrind
inside `measure`, a 0.2 s and a 2 s bench, so that the setup cancels), the same on every run;
its ratio is old/new instructions, so that below 1 is slower here too.

    python3 bench/compare_builds.py OLD_PTXMMA NEW_PTXMMA [--old-configs DIR] [--new-configs DIR]
        [--variants FILE] [--seconds 0.2] [--rounds 3] [--cpus LIST (pairs)] [--instructions] [--json FILE]

The variants are the NEW build's `bench --all` list (each on the target it runs there) unless
--variants names a file of `ARCH INSTRUCTION` lines; those the OLD build refuses are listed, not
compared. --old-configs / --new-configs set PTXMMA_CONFIG_DIR for a build whose configs are not
where it was built. Prints one line per variant (slowest ratio first) and a summary.
"""
import argparse
import concurrent.futures
import json
import os
import queue
import random
import statistics
import subprocess
import sys
import tempfile


def variants_of(ptxmma, env):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([ptxmma, "bench", "--all", "--seconds", "0.01", "--json", f.name], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        return [(d["arch"], d["instruction"]) for d in json.load(open(f.name))]


def one_cpu_per_core():
    """One logical CPU of each physical core this process may run on (sysfs topology)."""
    cores = {}
    for cpu in sorted(os.sched_getaffinity(0)):
        path = f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"
        siblings = open(path).read().strip() if os.path.exists(path) else str(cpu)
        cores.setdefault(siblings, cpu)
    return sorted(cores.values())


def measure(ptxmma, env, arch, instruction, seconds, cpu):
    """Per CPU second on logical CPU `cpu`, or None when the build refuses the variant."""
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        r = subprocess.run([ptxmma, "bench", instruction, "--arch", arch, "--seconds", str(seconds), "--json", f.name],
                           env=env, capture_output=True, preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
        return json.load(open(f.name))[0]["per_cpu_second"] if r.returncode == 0 else None


def instructions(ptxmma, env, arch, instruction):
    """Host instructions per simulated one (callgrind), or None when the build refuses the variant."""
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        for seconds in (0.2, 2):
            out, fig = os.path.join(tmp, "callgrind.out"), os.path.join(tmp, "bench.json")
            r = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=ptxmma::measure*",
                                f"--callgrind-out-file={out}", ptxmma, "bench", instruction, "--arch", arch,
                                "--seconds", str(seconds), "--json", fig], env=env, capture_output=True)
            if r.returncode != 0:
                return None
            total = next(int(line.split()[1]) for line in open(out) if line.startswith("totals:"))
            counts.append((total, json.load(open(fig))[0]["instructions"]))
    (i1, n1), (i2, n2) = counts
    return (i2 - i1) / (n2 - n1) if n2 > n1 else None


def measure_rounds(a, variants, cpus, paths, envs, seen):
    """Both builds at once on a pair of cores, ROUNDS times a variant: seen[v] gets (old, new) per round."""
    if len(cpus) < 2:
        sys.exit("compare_builds: two cores are needed, one for each build")
    pairs = queue.Queue()
    for p in range(len(cpus) // 2):
        pairs.put((cpus[2 * p], cpus[2 * p + 1]))

    def round_of(v, r):
        pair = pairs.get()
        try:
            first, second = pair if r % 2 == 0 else pair[::-1]
            with concurrent.futures.ThreadPoolExecutor(2) as both:
                old = both.submit(measure, paths["old"], envs["old"], v[0], v[1], a.seconds, first)
                new = both.submit(measure, paths["new"], envs["new"], v[0], v[1], a.seconds, second)
                return old.result(), new.result()
        finally:
            pairs.put(pair)

    tasks = [(v, r) for v in variants for r in range(a.rounds)]
    random.Random(1).shuffle(tasks)
    with concurrent.futures.ThreadPoolExecutor(len(cpus) // 2) as pool:
        futures = {pool.submit(round_of, v, r): v for v, r in tasks}
        for f in concurrent.futures.as_completed(futures):
            seen[futures[f]].append(f.result())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--old-configs")
    p.add_argument("--new-configs")
    p.add_argument("--variants")
    p.add_argument("--seconds", type=float, default=0.2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--cpus", help="logical CPUs to measure on, comma-separated (default: one per physical core)")
    p.add_argument("--instructions", action="store_true", help="count host instructions (valgrind) instead of time")
    p.add_argument("--json")
    a = p.parse_args()

    envs = {}
    for build, configs in (("old", a.old_configs), ("new", a.new_configs)):
        envs[build] = dict(os.environ)
        if configs:
            envs[build]["PTXMMA_CONFIG_DIR"] = configs
    paths = {"old": a.old, "new": a.new}
    if a.variants:
        variants = [tuple(line.split()) for line in open(a.variants) if line.strip()]
    else:
        variants = variants_of(a.new, envs["new"])

    cpus = [int(c) for c in a.cpus.split(",")] if a.cpus else one_cpu_per_core()
    seen = {v: [] for v in variants}
    if a.instructions:  # one count per build: it is the same on every run
        with concurrent.futures.ThreadPoolExecutor(len(cpus)) as pool:
            counts = {(b, v): pool.submit(instructions, paths[b], envs[b], v[0], v[1]) for v in variants
                      for b in ("old", "new")}
            for v in variants:
                seen[v].append((counts[("old", v)].result(), counts[("new", v)].result()))
    else:
        measure_rounds(a, variants, cpus, paths, envs, seen)

    rows, refused = [], []
    for v in variants:
        if any(o is None or n is None for o, n in seen[v]):
            refused.append((v, "old" if any(o is None for o, _ in seen[v]) else "new"))
            continue
        ratios = [o / n if a.instructions else n / o for o, n in seen[v]]
        rows.append({"arch": v[0], "instruction": v[1], "old": statistics.median(o for o, _ in seen[v]),
                     "new": statistics.median(n for _, n in seen[v]), "ratio": statistics.median(ratios),
                     "rounds": ratios})
    rows.sort(key=lambda r: r["ratio"])
    unit, ratio = ("host instr.", "old/new") if a.instructions else ("per CPU s", "new/old")
    print(f"{'instruction':<78} {'arch':<8} {'old ' + unit:>16} {'new ' + unit:>16} {ratio:>8}")
    for r in rows:
        print(f"{r['instruction']:<78} {r['arch']:<8} {r['old']:>16.0f} {r['new']:>16.0f} {r['ratio']:>8.3f}")
    for v, build in refused:
        print(f"not compared ({build} build refuses it): {v[1]} on {v[0]}")
    ratios = [r["ratio"] for r in rows]
    if ratios:
        slower = [r for r in rows if r["ratio"] < 0.95]
        how = "host instructions" if a.instructions else f"{a.rounds} rounds of {a.seconds} s on {len(cpus) // 2} pairs of cores"
        print(f"compared {len(rows)} variants ({len(refused)} not compared), {how}: {ratio} min {min(ratios):.3f}, "
              f"median {statistics.median(ratios):.3f}, max {max(ratios):.3f}; {len(slower)} more than 5% slower")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "refused": [[v[0], v[1], b] for v, b in refused]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
