// `ptxmma bench [VARIANT...] [--seconds S] [-j/--jobs N] [--json [FILE]]`: instructions per second.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "tools/vectors/throughput.hpp"

namespace ptxmma::cli {

void add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "measure simulated instructions per second on random inputs");
  struct Opts {
    std::vector<std::string> variants;
    double seconds = 1.0;
    int jobs = 1;
    std::string arch = "sm_90a";
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("VARIANT", opts->variants, "mma, wmma or wgmma instructions to measure (default: one per family)");
  cmd->add_option("--seconds", opts->seconds, "time per variant (default 1)")->check(CLI::Range(0.01, 3600.0));
  cmd->add_option("-j,--jobs", opts->jobs, "threads, each with its own inputs (default 1)")->check(CLI::Range(1, 256));
  cmd->add_option("--arch", opts->arch, "architecture whose rounding model runs (default sm_90a)");
  opts->json.add(*cmd, "the figures");
  cmd->callback([opts] {
    // NaN passes CLI::Range (it fails both comparisons).
    if (!(opts->seconds >= 0.01 && opts->seconds <= 3600.0))
      throw Error(fmt::format("--seconds: {} is not in [0.01, 3600]", opts->seconds));
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
    nlohmann::json out = nlohmann::json::array();
    // per CPU second: the threads' own CPU time, so that other processes on the machine do not
    // count; ns per MNK: CPU nanoseconds per multiply-add (M * N * K) of one instruction.
    if (opts->json.text())
      std::cout << fmt::format("{:<62} {:>12} {:>14} {:>10} {:>5}\n", "instruction", "per second", "per CPU second",
                               "ns per MNK", "jobs");
    for (const auto& v : variants) {
      const Throughput t = measure(v, opts->arch, opts->seconds, opts->jobs, 1);
      const double ns_per_mnk = t.per_cpu_second() > 0 ? 1e9 / t.per_cpu_second() / static_cast<double>(t.mnk) : 0;
      if (opts->json.text())
        std::cout << fmt::format("{:<62} {:>12.0f} {:>14.0f} {:>10.3f} {:>5}\n", v, t.per_second(), t.per_cpu_second(),
                                 ns_per_mnk, t.jobs) << std::flush;
      out.push_back({{"instruction", v}, {"per_second", t.per_second()}, {"per_cpu_second", t.per_cpu_second()},
                     {"ns_per_mnk", ns_per_mnk}, {"instructions", t.instructions}, {"seconds", t.seconds},
                     {"cpu_seconds", t.cpu_seconds}, {"mnk", t.mnk}, {"jobs", t.jobs}});
    }
    opts->json.write(out);
  });
}

}  // namespace ptxmma::cli
