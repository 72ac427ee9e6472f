"""Merges snippet_capture files of one kernel source into one test file, so that xz stores their
shared input words once (the CUDA samples' captures: same inputs, two kernels, two targets).

    python tools/kernels/merge_cases.py OUT.test.yaml "DESCRIPTION" IN.test.yaml...

Each case keeps its capture's comment (the snippet_capture command) and is named
"<PTX file stem> <entry> case <n>"; nothing else of the captures changes.
"""
import re
import sys


def main():
    out, description, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    lines = ["# Merged by tools/kernels/merge_cases.py; each capture's snippet_capture command precedes its cases.",
             "# Expected values are the words the GPU stored; do not edit.",
             f'description: "{description}"', "target: sm_90a", "cases:"]
    for path in inputs:
        head, cases = open(path).read().split("\ncases:\n", 1)
        lines += ["  " + c for c in head.split("\n") if c.startswith("#") and not c.startswith("# Expected")]

        def name(m):
            stem = re.search(r"^    snippet_file: (\S+)\.ptx$", cases, re.M).group(1)
            entry = re.search(r"^    entry: (\S+)$", cases, re.M).group(1)
            return f"  - name: {stem} {entry} case {m.group(1)}"

        lines.append(re.sub(r"^  - name: \S+ case (\d+)$", name, cases, flags=re.M).rstrip("\n"))
    open(out, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
