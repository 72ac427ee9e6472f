// Throughput of the simulator: mma per second per variant family, and golden-set replay in cases
// per second on one and more threads.
#include <benchmark/benchmark.h>

#include <random>

#include "isa/mma_instruction.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/replay.hpp"
#include "tools/vectors/throughput.hpp"

namespace ptxmma {
namespace {

void mma(benchmark::State& state, const char* ptx) {
  const MmaInstruction ins = parse_mma(ptx);
  const MmaVariant& v = *ins.variant;
  const MmaExecutor exec(v, models_for("sm_90a").select(v.family, v.a, v.d),
                         MmaOptions{ins.rounding.value_or(Rounding::rn), ins.satfinite});
  std::mt19937_64 rng(1);
  const auto a = random_operand(*v.la, v.a, v.container, rng), b = random_operand(*v.lb, v.b, v.container, rng);
  const auto c = random_operand(*v.lc, v.c, v.container, rng);
  std::vector<std::uint32_t> d(static_cast<std::size_t>(32 * words_per_lane(*v.ld, v.d, v.container)));
  const int wa = words_per_lane(*v.la, v.a, v.container), wb = words_per_lane(*v.lb, v.b, v.container);
  const int wc = words_per_lane(*v.lc, v.c, v.container);
  for (auto _ : state) {
    exec.run({a, wa}, {b, wb}, {c, wc}, d);
    benchmark::DoNotOptimize(d.data());
  }
  state.SetItemsProcessed(state.iterations());  // items = instructions
}

BENCHMARK_CAPTURE(mma, f16_f32_m16n8k16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
BENCHMARK_CAPTURE(mma, bf16_f32_m16n8k16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
BENCHMARK_CAPTURE(mma, tf32_m16n8k8, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
BENCHMARK_CAPTURE(mma, e4m3_f32_m16n8k32, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
BENCHMARK_CAPTURE(mma, s8_m16n8k32, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
BENCHMARK_CAPTURE(mma, b1_m16n8k256, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc");
BENCHMARK_CAPTURE(mma, f64_m16n8k16, "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64");
BENCHMARK_CAPTURE(mma, f16_m8n8k4, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");

// Replay of the H200 random set; items = cases. Arg = jobs.
void replay_h200(benchmark::State& state) {
  const GoldenSet set = read_golden_set(std::string(PTXMMA_SOURCE_DIR) + "/tests/data/mma-sm90-h200");
  long cases = 0;
  for (auto _ : state) {
    const ReplayReport r = replay(set, "sm_90a", static_cast<int>(state.range(0)));
    cases += r.passed_cases + r.failed_cases;
  }
  state.SetItemsProcessed(cases);
}
BENCHMARK(replay_h200)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace ptxmma

BENCHMARK_MAIN();
