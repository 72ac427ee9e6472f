#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "sim/error.hpp"
#include "sim/util/config_dir.hpp"
#include "tools/ptxmma/budget_options.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"

int main(int argc, char** argv) {
  CLI::App app{"ptxmma: a bit-exact simulator of NVIDIA tensor-core instructions"};
  app.require_subcommand(1);
  bool verbose = false;
  std::string level = "warn";
  app.add_flag("-v,--verbose", verbose, "log what is being done (same as --log-level debug)");
  app.add_option("--log-level", level, "trace, debug, info, warn, error, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.parse_complete_callback([&] {
    spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::from_str(level));
  });
  spdlog::set_pattern("[%l] %v");
  // Names the configs/ in use: an installed program finds its prefix's (docs/install.md).
  app.set_version_flag("--version",
                       [] { return fmt::format("ptxmma {}\nconfigs: {}", PTXMMA_VERSION, ptxmma::config_dir()); });
  ptxmma::cli::add_budget_options(app);
  ptxmma::cli::add_format_command(app);
  ptxmma::cli::add_layout_command(app);
  ptxmma::cli::add_replay_command(app);
  ptxmma::cli::add_bench_command(app);
  ptxmma::cli::add_explain_command(app);
  ptxmma::cli::add_run_command(app);
  ptxmma::cli::add_debug_command(app);
  ptxmma::cli::add_test_command(app);
  ptxmma::cli::add_golden_command(app);
  ptxmma::cli::add_eval_command(app);
  ptxmma::cli::add_exec_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const ptxmma::Error& e) {
    std::cerr << "ptxmma: error: " << e.what() << "\n";
    if (ptxmma::cli::json_to_stdout(app)) std::cout << nlohmann::json{{"error", e.what()}}.dump(2) << "\n";
    return 1;
  } catch (const std::exception& e) {  // a bug: still a message and a status, not an abort
    std::cerr << "ptxmma: internal error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
