#include "tools/ptxmma/budget_options.hpp"

#include <limits>

#include "sim/util/budget.hpp"

namespace ptxmma::cli {

void add_budget_options(CLI::App& app) {
  Budget& b = budget();
  // A budget of 0 would refuse everything and one past 2^62 is no budget; "-1" would wrap.
  const auto range = CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62);
  const auto add = [&](const char* name, std::uint64_t& field, const char* what) {
    app.add_option(name, field, what)->check(range)->capture_default_str()->group("Budgets (docs/robustness.md)");
  };
  add("--max-input-bytes", b.input_bytes, "bytes of one text input file (PTX, YAML, JSON, debug --commands)");
  add("--max-yaml-nodes", b.yaml_nodes, "nodes of one YAML file, aliases expanded");
  add("--max-exact-work", b.exact_units,
      "exact decimal arithmetic of one file, in units of w^2 a number (w: its 64-bit words)");
  add("--max-statements", b.ptx_statements, "statements of one PTX file");
  add("--max-line-length", b.ptx_line_bytes, "bytes of one PTX line");
  add("--max-register-words", b.register_words, "registers x threads of one run (every CTA's)");
  add("--max-shared-bytes", b.shared_bytes, "bytes of shared memory of all the CTAs of one run");
  add("--max-memory-pages", b.memory_pages, "4 KiB pages of global or const memory one run touches");
  add("--max-golden-bytes", b.golden_bytes, "decompressed golden-set bytes one replay job holds at a time");
  add("--max-golden-cases", b.golden_cases, "cases of all the entries of one golden-set manifest");
  app.fallthrough();  // the budget options may also come after the subcommand
}

}  // namespace ptxmma::cli
