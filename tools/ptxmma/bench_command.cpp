// `ptxmma bench [VARIANT...] [--all] [--seconds S] [-j/--jobs N] [--json [FILE]]`: instructions per second;
// `ptxmma bench --kernel PTX[=STATE.yaml]...`: the interpreter's warp-instructions per second.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "sim/catalog/mma_family.hpp"
#include "sim/catalog/wgmma_family.hpp"
#include "sim/catalog/wmma_family.hpp"
#include "sim/error.hpp"
#include "sim/util/target.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "tools/vectors/kernel_throughput.hpp"
#include "tools/vectors/throughput.hpp"

namespace ptxmma::cli {
namespace {

struct Entry {
  std::string ptx;
  std::string arch;
};

// Every variant of the mma (with each rounding of f64), wmma and wgmma catalogues (wgmma: every
// N), on `arch` where it assembles there, else on the first target that assembles it.
std::vector<Entry> every_variant(const std::string& arch) {
  std::vector<Entry> out;
  for (const MatrixCatalog* catalog : {&mma_catalog(), &wmma_catalog(), &wgmma_catalog()})
    for (const MatrixVariant& v : catalog->variants()) {
      const std::string on = target_shortfall(v.targets, arch) ? v.targets.first : arch;
      out.push_back({v.ptx, on});
      if (catalog != &mma_catalog()) continue;
      // mma spells the rounding after the layouts: ...<alayout>.<blayout>.rz.f64...
      const std::string layouts = fmt::format(".{}.{}.", name(v.alayout), name(v.blayout));
      const std::size_t at = v.ptx.find(layouts);
      for (std::size_t r = 1; r < v.roundings.size() && at != std::string::npos; ++r)
        out.push_back({std::string(v.ptx).insert(at + layouts.size(), fmt::format("{}.", name(v.roundings[r]))), on});
    }
  return out;
}

// --kernel: each kernel run to its end again and again for --seconds.
void bench_kernels(const std::vector<std::string>& specs, const std::string& arch, double seconds, JsonOutput& json) {
  std::vector<KernelThroughput> rows;
  if (json.text())
    std::cout << fmt::format("{:<60} {:>12} {:>12} {:>14} {:>5}\n", "kernel", "warp-instrs", "per second",
                             "per CPU second", "runs");
  for (const std::string& spec : specs) {
    const std::size_t eq = spec.find('=');
    if (eq == 0 || eq + 1 == spec.size())
      throw CLI::ValidationError("--kernel", fmt::format("'{}' is not PTX or PTX=STATE.yaml", spec));
    const std::string ptx = spec.substr(0, eq), state = eq == std::string::npos ? "" : spec.substr(eq + 1);
    const KernelThroughput t = measure_kernel(ptx, state, arch, seconds);
    if (json.text())
      std::cout << fmt::format("{:<60} {:>12} {:>12.0f} {:>14.0f} {:>5}\n", ptx, t.warp_instructions / t.runs,
                               t.per_second(), t.per_cpu_second(), t.runs)
                << std::flush;
    rows.push_back(t);
  }
  nlohmann::json out = nlohmann::json::array();
  for (const KernelThroughput& t : rows)
    out.push_back({{"kernel", t.kernel}, {"state", t.state}, {"runs", t.runs},
                   {"warp_instructions", t.warp_instructions}, {"seconds", t.seconds}, {"cpu_seconds", t.cpu_seconds},
                   {"per_second", t.per_second()}, {"per_cpu_second", t.per_cpu_second()}});
  json.write(out);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "measure simulated instructions per second on random inputs");
  struct Opts {
    std::vector<std::string> variants, kernels;
    bool all = false;
    double seconds = 1.0;
    int jobs = 1;
    std::string arch = "sm_90a";
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("VARIANT", opts->variants, "mma, wmma or wgmma instructions to measure (default: one per family)");
  cmd->add_flag("--all", opts->all,
                "every catalogue variant (mma with each f64 rounding, wmma, wgmma for every N), each on --arch where "
                "it assembles there, else on its first target; sorted, slowest per multiply-add first "
                "(default --seconds 0.05)");
  auto* seconds = cmd->add_option("--seconds", opts->seconds, "time per variant (default 1)")->check(CLI::Range(0.01, 3600.0));
  cmd->add_option("-j,--jobs", opts->jobs, "threads, each with its own inputs (default 1)")->check(CLI::Range(1, 256));
  cmd->add_option("--kernel", opts->kernels,
                  "measure the PTX interpreter instead: warp-instructions per second of running this kernel to its "
                  "end, from STATE.yaml as `run --init` has it (PTX or PTX=STATE.yaml, repeatable; the runs alone are "
                  "timed, not parsing or set-up)");
  cmd->add_option("--arch", opts->arch, "architecture whose rounding model runs (default sm_90a)");
  opts->json.add(*cmd, "the figures");
  cmd->callback([opts, seconds] {
    // NaN passes CLI::Range (it fails both comparisons).
    if (!(opts->seconds >= 0.01 && opts->seconds <= 3600.0))
      throw Error(fmt::format("--seconds: {} is not in [0.01, 3600]", opts->seconds));
    if (opts->all && !opts->variants.empty()) throw Error("--all measures every variant: give no VARIANT with it");
    if (!opts->kernels.empty()) {
      if (opts->all || !opts->variants.empty())
        throw Error("--kernel measures the interpreter: give no VARIANT or --all with it");
      bench_kernels(opts->kernels, opts->arch, opts->seconds, opts->json);
      return;
    }
    std::vector<Entry> entries;
    if (opts->all) {
      entries = every_variant(opts->arch);
      if (seconds->count() == 0) opts->seconds = 0.05;
    } else {
      std::vector<std::string> variants = opts->variants;
      if (variants.empty())
        variants = {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
                    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                    "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
                    "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
                    "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc",
                    "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64",
                    "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32",
                    "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32",
                    "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"};
      for (auto& v : variants) entries.push_back({v, opts->arch});
    }
    struct Row {
      Entry e;
      Throughput t;
      double ns_per_mnk;
      std::string skipped;  // why it was not measured (--all: no model on its target)
    };
    std::vector<Row> rows;
    const auto header = [&] {
      std::cout << fmt::format("{:<80} {:>8} {:>12} {:>14} {:>10} {:>5}\n", "instruction", "arch", "per second",
                               "per CPU second", "ns per MNK", "jobs");
    };
    const auto print = [&](const Row& r) {
      if (!r.skipped.empty()) {
        std::cout << fmt::format("{:<80} {:>8} not measured: {}\n", r.e.ptx, r.e.arch, r.skipped);
        return;
      }
      std::cout << fmt::format("{:<80} {:>8} {:>12.0f} {:>14.0f} {:>10.3f} {:>5}\n", r.e.ptx, r.e.arch,
                               r.t.per_second(), r.t.per_cpu_second(), r.ns_per_mnk, r.t.jobs)
                << std::flush;
    };
    // per CPU second: the threads' own CPU time, so that other processes on the machine do not
    // count; ns per MNK: CPU nanoseconds per multiply-add (M * N * K of one instruction; sparse:
    // the K/2 stored columns).
    if (opts->json.text() && !opts->all) header();
    for (const auto& e : entries) {
      Row r{e, {}, 0, {}};
      try {
        r.t = measure(e.ptx, e.arch, opts->seconds, opts->jobs, 1);
      } catch (const Error& err) {
        if (!opts->all) throw;
        r.skipped = err.what();
      }
      r.ns_per_mnk = r.t.per_cpu_second() > 0 ? 1e9 / r.t.per_cpu_second() / static_cast<double>(r.t.mnk) : 0;
      if (opts->json.text() && !opts->all) print(r);
      rows.push_back(std::move(r));
    }
    if (opts->all) {
      std::stable_sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
        if (x.skipped.empty() != y.skipped.empty()) return x.skipped.empty();
        return x.ns_per_mnk > y.ns_per_mnk;
      });
      if (opts->json.text()) {
        header();
        for (const Row& r : rows) print(r);
      }
    }
    nlohmann::json out = nlohmann::json::array();
    for (const Row& r : rows) {
      if (!r.skipped.empty()) {
        out.push_back({{"instruction", r.e.ptx}, {"arch", r.e.arch}, {"skipped", r.skipped}});
        continue;
      }
      const Throughput& t = r.t;
      out.push_back({{"instruction", r.e.ptx}, {"arch", r.e.arch}, {"per_second", t.per_second()},
                     {"per_cpu_second", t.per_cpu_second()}, {"ns_per_mnk", r.ns_per_mnk},
                     {"instructions", t.instructions}, {"seconds", t.seconds}, {"cpu_seconds", t.cpu_seconds},
                     {"mnk", t.mnk}, {"jobs", t.jobs}});
    }
    opts->json.write(out);
  });
}

}  // namespace ptxmma::cli
