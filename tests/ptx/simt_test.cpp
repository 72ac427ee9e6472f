// Divergence and reconvergence (the post-dominator stack), exits, warp collectives under
// divergence, and the step limit.
#include <gtest/gtest.h>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma {
namespace {

using test::Ran;
using test::run_ptx;

TEST(PtxSimt, IfElseReconverges) {
  const Ran r = run_ptx(R"(
    .reg .b32 %r<8>;
    .reg .pred %p;
    mov.u32 %r0, %laneid;
    setp.lt.u32 %p, %r0, 10;
    @%p bra THEN;
    activemask.b32 %r1;          // else: lanes 10..31
    mov.u32 %r3, 2;
    bra DONE;
  THEN:
    activemask.b32 %r1;          // then: lanes 0..9
    mov.u32 %r3, 1;
  DONE:
    activemask.b32 %r2;          // together again
  )");
  EXPECT_EQ(r.reg(0, "%r1"), 0x3ffU);
  EXPECT_EQ(r.reg(20, "%r1"), 0xfffffc00U);
  EXPECT_EQ(r.reg(0, "%r2"), 0xffffffffU);
  EXPECT_EQ(r.reg(31, "%r2"), 0xffffffffU);
  EXPECT_EQ(r.reg(9, "%r3"), 1U);
  EXPECT_EQ(r.reg(10, "%r3"), 2U);
}

TEST(PtxSimt, LoopWithBreakAndNestedIf) {
  // lane l: i counts 0..; stop when i == l % 5 (break) or i == 3 (loop end); odd i adds i.
  const Ran r = run_ptx(R"(
    .reg .b32 %r<8>;
    .reg .pred %p<4>;
    mov.u32 %r0, %laneid;
    rem.u32 %r1, %r0, 5;        // break point
    mov.u32 %r2, 0;             // i
    mov.u32 %r3, 0;             // sum
  LOOP:
    setp.eq.u32 %p0, %r2, %r1;
    @%p0 bra AFTER;             // break
    and.b32 %r4, %r2, 1;
    setp.eq.u32 %p1, %r4, 0;
    @%p1 bra EVEN;
    add.u32 %r3, %r3, %r2;
  EVEN:
    add.u32 %r2, %r2, 1;
    setp.lt.u32 %p2, %r2, 3;
    @%p2 bra LOOP;
  AFTER:
    activemask.b32 %r5;
    mov.u32 %r6, %r2;
  )");
  // l%5 = 0: breaks at i = 0, sum 0; 1: i = 1, sum 0; 2: i = 2, sum 1; 3, 4: loop ends at i = 3, sum 1
  const unsigned want_i[5] = {0, 1, 2, 3, 3}, want_sum[5] = {0, 0, 1, 1, 1};
  for (int lane = 0; lane < 32; ++lane) {
    SCOPED_TRACE(lane);
    EXPECT_EQ(r.reg(lane, "%r6"), want_i[lane % 5]);
    EXPECT_EQ(r.reg(lane, "%r3"), want_sum[lane % 5]);
    EXPECT_EQ(r.reg(lane, "%r5"), 0xffffffffU);
  }
}

TEST(PtxSimt, ExitRetiresLanes) {
  const Ran r = run_ptx(R"(
    .reg .b32 %r<4>;
    .reg .pred %p;
    mov.u32 %r0, %laneid;
    setp.ge.u32 %p, %r0, 24;
    @%p exit;
    activemask.b32 %r1;
    mov.u32 %r2, 7;
  )");
  EXPECT_EQ(r.summary.exited.at(0), 0xff000000U);
  EXPECT_EQ(r.reg(0, "%r1"), 0x00ffffffU);
  EXPECT_EQ(r.reg(0, "%r2"), 7U);
  EXPECT_EQ(r.reg(24, "%r2"), 0U);
}

TEST(PtxSimt, ShuffleWithinABranch) {
  // Lanes 0..15 shuffle among themselves with member mask 0xffff.
  const Ran r = run_ptx(R"(
    .reg .b32 %r<4>;
    .reg .pred %p;
    mov.u32 %r0, %laneid;
    setp.lt.u32 %p, %r0, 16;
    @!%p bra END;
    shfl.sync.bfly.b32 %r1, %r0, 1, 31, 0xffff;
  END:
  )");
  EXPECT_EQ(r.reg(4, "%r1"), 5U);
  EXPECT_EQ(r.reg(20, "%r1"), 0U);
}

TEST(PtxSimt, CollectivesUnderDivergenceAreErrors) {
  const std::string head = ".reg .b32 %r<4>;\n.reg .pred %p;\nmov.u32 %r0, %laneid;\nsetp.lt.u32 %p, %r0, 16;\n@%p bra END;\n";
  EXPECT_EQ(test::error_of(head + "shfl.sync.bfly.b32 %r1, %r0, 1, 31, 0xffffffff;\nEND:\n"),
            "test.ptx:6:1: error: 'shfl.sync.bfly.b32': the member mask 0xffffffff names lanes 0-15, which do not "
            "execute this shfl (divergent or exited)");
  EXPECT_EQ(test::error_of(head + "shfl.sync.bfly.b32 %r1, %r0, 1, 31, 0xffff;\nEND:\n"),
            "test.ptx:6:1: error: 'shfl.sync.bfly.b32': lanes 16-31 execute shfl but are not in its member mask "
            "0x0000ffff");
  EXPECT_EQ(test::error_of(head + "bar.sync 0;\nEND:\n"),
            "test.ptx:6:1: error: 'bar.sync': the barrier is .aligned, but lanes 0-15 are on another path (a divergent "
            "barrier)");
  EXPECT_EQ(test::error_of(head + "movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r0;\nEND:\n"),
            "test.ptx:6:1: error: 'movmatrix.sync.aligned.m8n8.trans.b16': movmatrix needs all 32 lanes of the warp; "
            "the executing lanes are 16-31");
  EXPECT_EQ(test::error_of(".reg .b32 %r<4>;\n.reg .f32 %f<4>;\n.reg .pred %p;\nmov.u32 %r0, %laneid;\n"
                           "setp.lt.u32 %p, %r0, 8;\n"
                           "@%p mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%f0,%f1,%f2,%f3}, {%r0,%r1}, {%r2}, "
                           "{%f0,%f1,%f2,%f3};\n"),
            "test.ptx:6:5: error: 'mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32': mma needs all 32 lanes of the "
            "warp; the executing lanes are 0-7");
  EXPECT_EQ(test::error_of(head + "trap;\nEND:\n"), "test.ptx:6:1: error: 'trap': trap executed by lanes 16-31");
}

TEST(PtxSimt, StepLimitStopsEndlessLoops) {
  InterpreterOptions o;
  o.max_steps = 100;
  EXPECT_EQ(test::error_of(".reg .b32 %r;\nmov.u32 %r, 0;\nL:\n  add.u32 %r, %r, 1;\n  bra L;\n", o),
            "test.ptx:5:3: error: step limit: lane 0 has executed 100 instructions without finishing (an endless "
            "loop?); the limit is --max-steps");
  // Only some lanes loop forever: the others wait at the exit, the limit still ends the run.
  EXPECT_EQ(test::error_of(".reg .b32 %r;\n.reg .pred %p;\nmov.u32 %r, %laneid;\nsetp.eq.u32 %p, %r, 3;\n"
                           "L: @%p bra L;\n",
                           o),
            "test.ptx:5:8: error: step limit: lane 3 has executed 100 instructions without finishing (an endless "
            "loop?); the limit is --max-steps");
  // A loop that ends is under the limit.
  o.max_steps = 1000;
  const Ran r = run_ptx(".reg .b32 %r;\n.reg .pred %p;\nmov.u32 %r, 0;\nL: add.u32 %r, %r, 1;\nsetp.lt.u32 %p, %r, 300;\n@%p bra L;\n", {}, o);
  EXPECT_EQ(r.reg(0, "%r"), 300U);
  EXPECT_EQ(r.summary.steps[0], 1U + 3U * 300U);
}

TEST(PtxSimt, SmallBlockLaunchesFewerLanes) {
  const Ran r = run_ptx(".visible .entry k() .reqntid 12 { .reg .b32 %r; activemask.b32 %r; ret; }");
  EXPECT_EQ(r.reg(0, "%r"), 0xfffU);
  EXPECT_EQ(r.reg(12, "%r"), 0U);
}

}  // namespace
}  // namespace ptxmma
