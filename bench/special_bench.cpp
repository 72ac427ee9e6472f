// Throughput of the approximate special functions (sim/catalog/special_function.hpp): evaluations
// of one lane per second, per modelled instruction, on pseudo-random register bits (every class of
// input, as a kernel's registers would hold them; the tables are loaded before timing).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "sim/catalog/special_function.hpp"

namespace ptxmma {
namespace {

void special(benchmark::State& state, const std::string& ptx) {
  const SpecialInstruction s = *parse_special_instruction(ptx);
  std::mt19937_64 rng(1);
  std::vector<std::uint64_t> in(4096);
  for (auto& x : in) x = rng();
  evaluate(s, in[0], in[1]);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(evaluate(s, in[i], in[i + 1]));
    i = (i + 2) & (in.size() - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

[[maybe_unused]] const bool registered = [] {
  for (const std::string& n : special_instruction_names())
    benchmark::RegisterBenchmark(n.c_str(), [n](benchmark::State& st) { special(st, n); });
  return true;
}();

}  // namespace
}  // namespace ptxmma

BENCHMARK_MAIN();
