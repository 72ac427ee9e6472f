// Several warps in the interpreter: barriers between warps, wgmma.mma_async on a warpgroup, and
// the diagnostics of wgmma's asynchronous semantics (sim/exec/wgmma_async.hpp).
#include <gtest/gtest.h>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma {
namespace {

using test::error_of;
using test::Ran;
using test::run_ptx;

InterpreterOptions block(int threads, bool strict = false) {
  InterpreterOptions o;
  o.ntid = {threads, 1, 1};
  o.strict = strict;
  return o;
}

// A (64x16 f16) at shared 0 and B (16x8 f16) at 2048, 8x8 core matrices of 128 bytes, K-major:
// A core matrix (i, k) at (2 i + k) * 128 (LBO 128, SBO 256), B core matrix k at 2048 + 128 k.
constexpr std::uint64_t kDescA = 0x0000001000080000ULL, kDescB = 0x0000001000080080ULL;

const std::string kDecl = R"(
  .reg .b64 %da, %db;
  .reg .f32 %d<4>;
  .reg .f32 %x;
  .reg .b32 %w;
)";
const std::string kMma =
    "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %da, %db, 1, 1, 1, 0, 0;\n";

// Every A and B element 1.0, the descriptors in every thread.
void ones(Ran& r) {
  for (std::uint64_t a = 0; a < 2048 + 256; a += 2) r.machine->shared().store(a, 2, 0x3c00);
  for (int t = 0; t < r.machine->threads(); ++t) {
    r.machine->set_reg(t, r.index("%da"), kDescA);
    r.machine->set_reg(t, r.index("%db"), kDescB);
  }
}

TEST(Warpgroup, WgmmaRunsOnFourWarps) {
  const Ran r = run_ptx(kDecl + "wgmma.fence.sync.aligned;\n" + kMma +
                            "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nmov.f32 %x, %d0;\n",
                        ones, block(128));
  EXPECT_EQ(warnings(r), "");
  ASSERT_EQ(r.machine->warps(), 4);
  for (int t = 0; t < 128; ++t) EXPECT_EQ(r.machine->reg(t, r.index("%x")), 0x41800000U) << t;  // 16 products of 1
}

TEST(Warpgroup, AccumulatorTouchedBeforeTheWaitIsReported) {
  const std::string text = kDecl + "wgmma.fence.sync.aligned;\n" + kMma +
                           "mov.f32 %x, %d0;\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
  const Ran r = run_ptx(text, ones, block(128));
  EXPECT_EQ(warnings(r),
            "test.ptx:8:1: warning: warp 0: %d0 is an accumulator of the wgmma.mma_async at line 7, which is still in "
            "flight (use wgmma.commit_group and wgmma.wait_group before touching it)\n"
            "test.ptx:8:1: warning: warp 1: %d0 is an accumulator of the wgmma.mma_async at line 7, which is still in "
            "flight (use wgmma.commit_group and wgmma.wait_group before touching it)\n"
            "test.ptx:8:1: warning: warp 2: %d0 is an accumulator of the wgmma.mma_async at line 7, which is still in "
            "flight (use wgmma.commit_group and wgmma.wait_group before touching it)\n"
            "test.ptx:8:1: warning: warp 3: %d0 is an accumulator of the wgmma.mma_async at line 7, which is still in "
            "flight (use wgmma.commit_group and wgmma.wait_group before touching it)\n");
  try {
    (void)run_ptx(text, ones, block(128, true));
    FAIL() << "no error under strict";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "test.ptx:8:1: error: warp 0: %d0 is an accumulator of the wgmma.mma_async at line 7, which is still in "
              "flight (use wgmma.commit_group and wgmma.wait_group before touching it) (an error under --strict)");
  }
}

TEST(Warpgroup, WaitGroupOneRetiresOnlyTheOlderGroup) {
  const std::string two = kDecl + ".reg .f32 %e<4>;\nwgmma.fence.sync.aligned;\n" + kMma +
                          "wgmma.commit_group.sync.aligned;\n"
                          "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%e0, %e1, %e2, %e3}, %da, %db, 0, 1, 1, "
                          "0, 0;\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 1;\n";
  const Ran ok = run_ptx(two + "mov.f32 %x, %d0;\nwgmma.wait_group.sync.aligned 0;\nmov.f32 %x, %e0;\n", ones, block(128));
  EXPECT_EQ(warnings(ok), "");
  const Ran bad = run_ptx(two + "mov.f32 %x, %e0;\nwgmma.wait_group.sync.aligned 0;\n", ones, block(128));
  ASSERT_EQ(bad.summary.warnings.size(), 4U);
  EXPECT_NE(bad.summary.warnings[0].message.find("%e0 is an accumulator of the wgmma.mma_async at line 10"),
            std::string::npos);
}

TEST(Warpgroup, MissingFenceAndMissingWaitAreReported) {
  const Ran r = run_ptx(kDecl + kMma, ones, block(128));
  const std::string w = warnings(r);
  EXPECT_NE(w.find("test.ptx:6:1: warning: warp 0: wgmma.mma_async without an earlier wgmma.fence"), std::string::npos) << w;
  EXPECT_NE(w.find("test.ptx:6:1: warning: warp 3: this wgmma.mma_async is still in flight when the program ends"),
            std::string::npos) << w;
}

TEST(Warpgroup, DescriptorThatDiffersBetweenWarpsIsReported) {
  const auto setup = [](Ran& r) {
    ones(r);
    r.machine->set_reg(70, r.index("%db"), kDescB + 8);  // warp 2, lane 6
  };
  const std::string text = kDecl + "wgmma.fence.sync.aligned;\n" + kMma +
                           "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n";
  const Ran r = run_ptx(text, setup, block(128));
  EXPECT_EQ(warnings(r),
            "test.ptx:7:1: warning: the B descriptor %db differs between threads of the warpgroup (warp 0 lane 0: "
            "0x1000080080, warp 2 lane 6: 0x1000080088); warp 0 lane 0's value is used\n");
  EXPECT_EQ(r.machine->reg(0, r.index("%d0")), 0x41800000U);
  try {
    (void)run_ptx(text, setup, block(128, true));
    FAIL() << "no error under strict";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("test.ptx:7:1: error: the B descriptor %db differs"), std::string::npos);
  }
}

TEST(Warpgroup, WgmmaNeedsWholeWarpgroups) {
  EXPECT_EQ(error_of(kDecl + kMma, block(64)),
            "test.ptx:6:1: error: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16' needs whole warpgroups of 128 "
            "threads; the block has 64 threads");
}

TEST(Warpgroup, DescriptorOutsideSharedMemoryNamesTheInstruction) {
  const auto setup = [](Ran& r) {
    ones(r);
    for (int t = 0; t < 128; ++t) r.machine->set_reg(t, r.index("%db"), kDescB | 0x3ff0);  // start near 256 KiB
  };
  try {
    (void)run_ptx(kDecl + "wgmma.fence.sync.aligned;\n" + kMma, setup, block(128));
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("test.ptx:7:1: error: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16' (warpgroup of warps 0-3): ", 0), 0U) << m;
    EXPECT_NE(m.find("shared memory"), std::string::npos) << m;
  }
}

TEST(Warpgroup, BarrierOrdersSharedMemoryBetweenWarps) {
  // Warp 1 stores its warp id; after the barrier every warp reads what warp 1 stored.
  const Ran r = run_ptx(R"(
    .reg .b32 %w, %v;
    .reg .pred %p;
    mov.u32 %w, %warpid;
    setp.eq.u32 %p, %w, 1;
    @%p st.shared.u32 [0], 41;
    bar.sync 0;
    ld.shared.u32 %v, [0];
  )", {}, block(96));
  for (int t = 0; t < 96; ++t) EXPECT_EQ(r.reg(t, "%v"), 41U) << t;
}

TEST(Warpgroup, BarrierCountsWarpsThatExitedAsArrived) {
  // Warp 1 leaves early; warp 0's two barriers complete without it (its first one together with
  // warp 1's barrier at DONE, which has the same number).
  const Ran r = run_ptx(R"(
    .reg .b32 %w, %n;
    .reg .pred %p;
    mov.u32 %w, %warpid;
    setp.eq.u32 %p, %w, 1;
    @%p bra DONE;
    bar.sync 0;
    bar.sync 0;
    mov.u32 %n, 7;
  DONE:
    bar.sync 0;
  )", {}, block(64));
  EXPECT_EQ(r.reg(0, "%n"), 7U);
}

TEST(Warpgroup, ABarrierWithAThreadCountCompletesWhenThatManyArrive) {
  // As a CUTLASS epilogue: warps 1 and 2 meet at barrier 1 (64 threads) while warp 0 waits at
  // barrier 2 (64 threads), which warp 2 reaches afterwards.
  const Ran r = run_ptx(R"(
    .reg .b32 %w, %n;
    .reg .pred %p;
    mov.u32 %w, %warpid;
    setp.eq.u32 %p, %w, 0;
    @%p bra ZERO;
    bar.sync 1, 64;
    mov.u32 %n, 7;
    setp.eq.u32 %p, %w, 1;
    @%p ret;
  ZERO:
    bar.sync 2, 64;
    add.u32 %n, %n, 1;
  )", {}, block(96));
  EXPECT_EQ(r.reg(0, "%n"), 1U);
  EXPECT_EQ(r.reg(32, "%n"), 7U);
  EXPECT_EQ(r.reg(64, "%n"), 8U);
  EXPECT_EQ(test::warnings(r), "");
}

TEST(Warpgroup, BarArriveCountsTowardsABarrierWithoutWaiting) {
  // Producer warp 1 signals consumer warp 0 twice through barrier 1 (bar.arrive, as CUTLASS's
  // NamedBarrier::arrive); between the two it waits alone at barrier 2.
  const Ran r = run_ptx(R"(
    .reg .b32 %w, %v, %u;
    .reg .pred %p;
    mov.u32 %w, %warpid;
    setp.eq.u32 %p, %w, 1;
    @%p bra PRODUCER;
    bar.sync 1, 64;
    ld.shared.u32 %v, [0];
    bar.sync 1, 64;
    ld.shared.u32 %u, [4];
    ret;
  PRODUCER:
    st.shared.u32 [0], 41;
    bar.arrive 1, 64;
    bar.sync 2, 32;
    st.shared.u32 [4], 42;
    bar.arrive 1, 64;
  )", {}, block(64));
  EXPECT_EQ(r.reg(0, "%v"), 41U);
  EXPECT_EQ(r.reg(0, "%u"), 42U);
  EXPECT_EQ(test::warnings(r), "");
}

TEST(Warpgroup, WarpsWaitingAtDifferentBarriersDeadlock) {
  EXPECT_EQ(error_of(R"(
    .reg .b32 %w;
    .reg .pred %p;
    mov.u32 %w, %warpid;
    setp.eq.u32 %p, %w, 1;
    @%p bra ONE;
    bar.sync 0;
    ret;
  ONE:
    bar.sync 1;
  )", block(64)),
            "test.ptx:7:5: error: deadlock: no warp can go on (warp 0 at line 7 (bar.sync); warp 1 at line 10 "
            "(bar.sync)); a barrier needs every live warp of the block or its thread count, a wgmma.mma_async the "
            "four warps of its warpgroup at the same instruction, an mbarrier wait the arrivals and transactions of its phase");
}

}  // namespace
}  // namespace ptxmma
