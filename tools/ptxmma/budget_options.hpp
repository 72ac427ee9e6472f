// The command-line options that raise (or lower) the run's budget (sim/util/budget.hpp), on the
// top-level app so every subcommand has them.
#pragma once
#include <CLI/CLI.hpp>

namespace ptxmma::cli {

void add_budget_options(CLI::App& app);

}  // namespace ptxmma::cli
