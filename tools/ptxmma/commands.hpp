// Each subcommand registers itself on the CLI11 app; main only wires them together.
#pragma once
#include <CLI/CLI.hpp>

namespace ptxmma::cli {

void add_format_command(CLI::App& app);
void add_layout_command(CLI::App& app);
void add_replay_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_explain_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_debug_command(CLI::App& app);
void add_test_command(CLI::App& app);
void add_golden_command(CLI::App& app);
void add_eval_command(CLI::App& app);
void add_exec_command(CLI::App& app);

}  // namespace ptxmma::cli
