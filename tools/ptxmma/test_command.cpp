// `ptxmma test FILE... [-j/--jobs N] [--arch A] [--json [FILE]]`: runs YAML test vectors (docs/test-vectors.md), one line per
// case `PASS|FAIL file: case name` (a failure followed by its differing cells or registers), then
// `test: N passed, M failed`. Exit status 1 on any failure or error. Cases run on N threads; the
// output is the same for any N.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "tools/ptxmma/progress.hpp"
#include "tools/vectors/parallel.hpp"
#include "tools/vectors/test_vectors.hpp"

namespace ptxmma::cli {

void add_test_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("test", "run YAML test vector files and compare exact bits");
  struct Opts {
    std::vector<std::string> files;
    int jobs = 1;
    std::string arch = "sm_90a";
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("FILE", opts->files, "vector files (docs/test-vectors.md)")->required();
  cmd->add_option("-j,--jobs", opts->jobs, "threads (default 1): cases run in parallel, and the clusters of a grid on the threads the cases leave over")->check(CLI::Range(1, 64));
  opts->json.add(*cmd, "each case's result");
  cmd->add_option("--arch", opts->arch, "target of the files that name none (default sm_90a; a file's target: wins)");
  cmd->callback([opts] {
    parallel_progress() = terminal_progress("cases");
    const std::vector<CaseResult> results = run_vector_files(opts->files, opts->jobs, opts->arch);
    int passed = 0, failed = 0;
    std::string out;
    for (const CaseResult& r : results) {
      out += fmt::format("{} {}: {}\n", r.passed ? "PASS" : "FAIL", r.file, r.name);
      out += r.detail;
      (r.passed ? passed : failed)++;
    }
    out += fmt::format("test: {} passed, {} failed\n", passed, failed);
    if (opts->json.text()) std::cout << out << std::flush;
    if (opts->json.on()) {
      nlohmann::json cases = nlohmann::json::array();
      for (const CaseResult& r : results)
        cases.push_back({{"file", r.file}, {"name", r.name}, {"passed", r.passed}, {"detail", r.detail}});
      opts->json.write({{"cases", std::move(cases)}, {"passed", passed}, {"failed", failed}});
    }
    if (failed) throw CLI::RuntimeError(1);
  });
}

}  // namespace ptxmma::cli
