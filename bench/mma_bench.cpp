// Throughput of the simulator: instructions per second per variant family (mma and wgmma, the
// wgmma shapes m64nNk16 for N = 8 ... 256 to show the cost growing with M*N*K), and golden-set
// replay in cases per second on one and two threads.
#include <benchmark/benchmark.h>

#include <random>

#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/replay.hpp"
#include "tools/vectors/throughput.hpp"
#include "tools/vectors/wgmma_golden.hpp"
#include "tools/vectors/wgmma_replay.hpp"

namespace ptxmma {
namespace {

// items = instructions; the counter MNK/s is multiply-adds per second.
void instruction(benchmark::State& state, const char* ptx) {
  std::mt19937_64 rng(1);
  long mnk = 0;
  const Execution run = prepare_execution(ptx, "sm_90a", rng, mnk);
  for (auto _ : state) run();
  state.SetItemsProcessed(state.iterations());
  state.counters["MNK/s"] = benchmark::Counter(static_cast<double>(state.iterations() * mnk), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(instruction, f16_f32_m16n8k16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
BENCHMARK_CAPTURE(instruction, bf16_f32_m16n8k16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
BENCHMARK_CAPTURE(instruction, f16_f16_m16n8k16, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
BENCHMARK_CAPTURE(instruction, tf32_m16n8k8, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
BENCHMARK_CAPTURE(instruction, e4m3_f32_m16n8k32, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
BENCHMARK_CAPTURE(instruction, s8_m16n8k32, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
BENCHMARK_CAPTURE(instruction, b1_m16n8k256, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc");
BENCHMARK_CAPTURE(instruction, f64_m16n8k16, "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64");
BENCHMARK_CAPTURE(instruction, f16_m8n8k4, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
BENCHMARK_CAPTURE(instruction, wgmma_m64n8k16, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16");
BENCHMARK_CAPTURE(instruction, wgmma_m64n16k16, "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16");
BENCHMARK_CAPTURE(instruction, wgmma_m64n32k16, "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16");
BENCHMARK_CAPTURE(instruction, wgmma_m64n64k16, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16");
BENCHMARK_CAPTURE(instruction, wgmma_m64n128k16, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16");
BENCHMARK_CAPTURE(instruction, wgmma_m64n256k16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16");
BENCHMARK_CAPTURE(instruction, wgmma_e4m3_m64n256k32, "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3");

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

// Replay of the H200 wgmma set; items = cases. Arg = jobs.
void replay_wgmma_h200(benchmark::State& state) {
  const WgmmaGoldenSet set = read_wgmma_golden_set(std::string(PTXMMA_SOURCE_DIR) + "/tests/data/wgmma-sm90");
  long cases = 0;
  for (auto _ : state) {
    const ReplayReport r = replay_wgmma(set, "sm_90a", static_cast<int>(state.range(0)));
    cases += r.passed_cases + r.failed_cases;
  }
  state.SetItemsProcessed(cases);
}
BENCHMARK(replay_wgmma_h200)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace ptxmma

BENCHMARK_MAIN();
