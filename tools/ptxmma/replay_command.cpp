// `ptxmma replay PATH [--arch A] [--json [FILE]] [--html FILE] [-j/--jobs N]`: run a golden set and compare bit for bit.
#include <iostream>

#include "sim/error.hpp"

#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "tools/ptxmma/progress.hpp"
#include "tools/vectors/alu_golden.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/matlab_tc.hpp"
#include "tools/vectors/output_file.hpp"
#include "tools/vectors/parallel.hpp"
#include "tools/vectors/replay.hpp"
#include "tools/vectors/replay_html.hpp"
#include "tools/vectors/wgmma_golden.hpp"
#include "tools/vectors/wgmma_replay.hpp"

namespace ptxmma::cli {

void add_replay_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("replay", "run a golden set of GPU results (mma, wgmma or ordinary instructions) and compare every destination bit for bit");
  struct Opts {
    std::string path, arch = "sm_90a", html;
    int jobs = 1;
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("PATH", opts->path, "golden set directory (with manifest.json)")->required();
  auto* arch_opt = cmd->add_option("--arch", opts->arch, "architecture whose rounding model runs (default sm_90a; matlab-tc: each file's own)");
  opts->json.add(*cmd, "the summary and each failing variant's first failing case");
  cmd->add_option("--html", opts->html,
                  "also write an HTML report to FILE (per variant; the first failing case lane by lane; mma and wgmma sets)")
      ->each(check_output_path);
  cmd->add_option("-j,--jobs", opts->jobs, "threads (default 1); the output is the same for any number")
      ->check(CLI::Range(1, 256));
  cmd->callback([opts, arch_opt] {
    // Recorded single dot products (a .csv file, or a folder with or under a manifest.csv).
    if (is_matlab_tc_path(opts->path)) {
      if (!opts->html.empty()) throw Error("--html applies to mma and wgmma golden sets, not to recorded dot products");
      parallel_progress() = terminal_progress("files");
      const MatlabTcReport report =
          replay_matlab_tc(read_matlab_tc(opts->path), arch_opt->count() ? opts->arch : "", opts->jobs);
      if (opts->json.text()) print(report, std::cout);
      if (opts->json.on()) write_json(report, opts->json.path());
      if (!report.ok()) throw CLI::RuntimeError(1);
      return;
    }
    // The manifest's format picks the reader: ordinary instructions, warp-level mma or warpgroup wgmma.
    const std::string format = golden_format(opts->path);
    if (format == kAluGoldenFormat) {
      if (!opts->html.empty() || opts->json.on()) throw Error("--html and --json apply to mma and wgmma golden sets");
      parallel_progress() = terminal_progress("instruction forms");
      const AluReplayReport report = replay_alu(read_alu_golden_set(opts->path), opts->jobs);
      print(report, std::cout);
      if (!report.ok()) throw CLI::RuntimeError(1);
      return;
    }
    parallel_progress() = terminal_progress(format == kWgmmaGoldenFormat ? "entries" : "variants");
    const ReplayReport report = format == kWgmmaGoldenFormat
                                    ? replay_wgmma(read_wgmma_golden_set(opts->path), opts->arch, opts->jobs)
                                    : replay(read_golden_set(opts->path), opts->arch, opts->jobs);
    if (opts->json.text()) print(report, std::cout);
    if (opts->json.on()) write_json(report, opts->json.path());
    if (!opts->html.empty()) write_html(report, opts->html);
    if (!report.ok()) throw CLI::RuntimeError(1);
  });
}

}  // namespace ptxmma::cli
