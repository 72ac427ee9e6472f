// The resource budget of one run (docs/robustness.md, "Budgets"): everything an input can make
// ptxmma allocate or compute is counted against one of these limits before the allocation or the
// work, and crossing one is an Error that names the budget and the option that raises it. The
// command line sets them once, before anything is read; library users may set them too.
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace ptxmma {

struct Budget {
  std::uint64_t input_bytes = 16ULL << 20;   // one text input file (PTX, YAML, JSON, --commands)
  std::uint64_t yaml_nodes = 1ULL << 20;      // nodes of one YAML file, aliases expanded
  std::uint64_t exact_units = 1ULL << 20;     // exact decimal arithmetic of one file (w^2 a number, w its 64-bit words)
  std::uint64_t ptx_statements = 1ULL << 20;  // statements of one PTX file
  std::uint64_t ptx_line_bytes = 1ULL << 20;  // one line of PTX
  std::uint64_t register_words = 1ULL << 24;  // registers x threads of one machine, all CTAs (8 bytes each)
  std::uint64_t shared_bytes = 1ULL << 28;    // shared memory of all the CTAs one machine runs
  std::uint64_t memory_pages = 1ULL << 16;    // 4 KiB pages of sparse (global) memory one machine touches
  std::uint64_t golden_bytes = 1ULL << 30;    // decompressed golden-set bytes one job holds at a time
  std::uint64_t golden_cases = 1ULL << 20;    // cases of all the entries of one golden-set manifest
  std::uint64_t steps = 1'000'000;            // instructions per thread of one run
};

// The process's budget.
inline Budget& budget() {
  static Budget b;
  return b;
}

// "N WHAT, more than the budget of LIMIT (raise it with OPTION)", the tail of every such error.
inline std::string over_budget(std::uint64_t n, std::string_view what, std::uint64_t limit, std::string_view option) {
  return fmt::format("{} {}, more than the budget of {} (raise it with {})", n, what, limit, option);
}

}  // namespace ptxmma
