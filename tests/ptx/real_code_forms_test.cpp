// Forms compilers emit that hand-written snippets rarely do: integer immediates for predicates,
// the same label in two inline-asm blocks, elect.sync, griddepcontrol and nanosleep.
#include <gtest/gtest.h>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

TEST(RealCodeForms, PredicateImmediates) {
  const Ran r = run_ptx(R"(
.reg .pred %p<3>;
.reg .b32 %r<3>;
mov.pred %p0, -1;
mov.pred %p1, 0;
mov.pred %p2, 1;
selp.u32 %r0, 7, 9, %p0;
selp.u32 %r1, 7, 9, %p1;
selp.u32 %r2, 7, 9, %p2;
)");
  EXPECT_EQ(r.reg(0, "%p0"), 1U);
  EXPECT_EQ(r.reg(0, "%p1"), 0U);
  EXPECT_EQ(r.reg(0, "%p2"), 1U);
  EXPECT_EQ(r.reg(5, "%r0"), 7U);
  EXPECT_EQ(r.reg(5, "%r1"), 9U);
  EXPECT_EQ(r.reg(5, "%r2"), 7U);
  EXPECT_EQ(error_of(".reg .pred %p;\nmov.pred %p, 1.5;\n"),
            "test.ptx:2:14: error: the source of 'mov.pred' must be a predicate register, not an immediate ('1.5')");
}

// Two inline-asm blocks each define LAB_WAIT (as CUTLASS's barrier wait loops do); each branch
// goes to its own block's label, and an outer label is seen from inside.
TEST(RealCodeForms, LabelsAreScopedToTheirBlock) {
  const Ran r = run_ptx(R"(
.reg .b32 %r<4>;
mov.u32 %r0, 0;
{
  .reg .pred P1;
  LAB_WAIT:
  add.u32 %r0, %r0, 1;
  setp.lt.u32 P1, %r0, 3;
  @P1 bra LAB_WAIT;
}
mov.u32 %r1, 0;
{
  .reg .pred P1;
  LAB_WAIT:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 P1, %r1, 5;
  @P1 bra LAB_WAIT;
  bra.uni DONE;
}
mov.u32 %r2, 99;
DONE:
mov.u32 %r3, 1;
)");
  EXPECT_EQ(r.reg(0, "%r0"), 3U);
  EXPECT_EQ(r.reg(0, "%r1"), 5U);
  EXPECT_EQ(r.reg(0, "%r2"), 0U);  // skipped by the branch to the outer DONE
  EXPECT_EQ(r.reg(0, "%r3"), 1U);
  EXPECT_EQ(r.program->labels.count("LAB_WAIT#2"), 1U);
  EXPECT_EQ(error_of("L:\nL:\nret;\n"), "test.ptx:2:1: error: label 'L' is already defined in this block");
  EXPECT_EQ(error_of("{\nIN:\nret;\n}\nbra IN;\n"),
            "test.ptx:5:5: error: undeclared identifier 'IN' (not a register, variable or label)");
}

TEST(RealCodeForms, ElectSyncPicksTheLowestLaneOfTheMask) {
  const Ran r = run_ptx(R"(
.reg .b32 %r<4>;
.reg .pred %p<3>;
mov.u32 %r0, %laneid;
elect.sync %r1|%p0, 0xffffffff;
setp.ge.u32 %p1, %r0, 5;
@%p1 elect.sync %r2|%p2, 0xffffffe0;
elect.sync _|%p1, 0xffffffff;
)");
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r.reg(lane, "%r1"), 0U);
    EXPECT_EQ(r.reg(lane, "%p0"), lane == 0 ? 1U : 0U);
    EXPECT_EQ(r.reg(lane, "%r2"), lane >= 5 ? 5U : 0U);
    EXPECT_EQ(r.reg(lane, "%p2"), lane == 5 ? 1U : 0U);
    EXPECT_EQ(r.reg(lane, "%p1"), lane == 0 ? 1U : 0U);
  }
  EXPECT_EQ(error_of(".reg .b32 %r;\n.reg .pred %p;\nelect.sync %r|%p, 0xffff;\n"),
            "test.ptx:3:1: error: 'elect.sync': lanes 16-31 execute elect but are not in its member mask 0x0000ffff");
  EXPECT_EQ(error_of(".reg .b32 %r;\nelect.sync %r, 0xffffffff;\n"),
            "test.ptx:2:12: error: 'elect.sync' needs the destinations d|p (either may be _), not '%r'");
}

TEST(RealCodeForms, GridDependencyControlAndNanosleepHaveNoEffect) {
  const Ran r = run_ptx(R"(
.reg .b32 %r<2>;
mov.u32 %r0, 40;
griddepcontrol.wait;
nanosleep.u32 %r0;
nanosleep.u32 100;
griddepcontrol.launch_dependents;
add.u32 %r1, %r0, 2;
)");
  EXPECT_EQ(r.reg(0, "%r1"), 42U);
  EXPECT_EQ(error_of("griddepcontrol.go;\n"), "test.ptx:1:1: error: 'griddepcontrol.go' needs .launch_dependents or .wait");
}

// bar.red over three warps: .popc counts the lanes whose predicate holds, .and/.or combine them;
// with one warp the reduction is the warp's own. Mixed with a bar.sync at the barrier: an error.
TEST(RealCodeForms, BarrierReductions) {
  InterpreterOptions o;
  o.ntid = {96, 1, 1};
  const Ran r = run_ptx(R"(
.reg .b32 %r<4>;
.reg .pred %p<6>;
mov.u32 %r0, %tid.x;
rem.u32 %r1, %r0, 5;
setp.eq.u32 %p0, %r1, 0;
bar.red.popc.u32 %r2, 0, %p0;
setp.ne.u32 %p1, %r0, 77;
barrier.red.and.aligned.pred %p2, 1, %p1;
bar.red.or.pred %p3, 2, 96, !%p1;
bar.red.and.pred %p4, 3, %p0;
)",
                        {}, o);
  for (int t = 0; t < 96; ++t) {
    EXPECT_EQ(r.reg(t, "%r2"), 20U) << t;  // 0, 5, ..., 95
    EXPECT_EQ(r.reg(t, "%p2"), 0U);
    EXPECT_EQ(r.reg(t, "%p3"), 1U);
    EXPECT_EQ(r.reg(t, "%p4"), 0U);
  }
  const Ran one = run_ptx(".reg .b32 %r;\n.reg .pred %p;\nsetp.lt.u32 %p, %laneid, 7;\nbar.red.popc.u32 %r, 0, %p;");
  EXPECT_EQ(one.reg(31, "%r"), 7U);
  o.ntid = {64, 1, 1};
  EXPECT_NE(error_of(".reg .b32 %r<2>;\n.reg .pred %p;\nmov.u32 %r0, %warpid;\nsetp.eq.u32 %p, %r0, 0;\n@%p bra A;\n"
                     "bar.sync 0;\nbra.uni B;\nA:\nbar.red.popc.u32 %r1, 0, %p;\nB:\nret;",
                     o)
                .find("bar.red and another barrier instruction"),
            std::string::npos);
  EXPECT_NE(error_of(".reg .pred %p;\nbar.red.popc.pred %p, 0, %p;").find(".popc needs the type .u32"), std::string::npos);
}

TEST(RealCodeForms, SetmaxnregIsCheckedAndBrkptStops) {
  (void)run_ptx("setmaxnreg.inc.sync.aligned.u32 240;\nsetmaxnreg.dec.sync.aligned.u32 24;");
  EXPECT_NE(error_of("setmaxnreg.dec.sync.aligned.u32 100;").find("a register count of 100; it must be a multiple of 8 "
                                                                  "in 24..256"),
            std::string::npos);
  EXPECT_NE(error_of(".reg .b32 %r;\nsetmaxnreg.inc.sync.aligned.u32 %r;").find("must be an integer constant"),
            std::string::npos);
  EXPECT_EQ(error_of(".reg .pred %p;\nsetp.eq.u32 %p, %laneid, 3;\n@%p brkpt;"),
            "test.ptx:3:5: error: 'brkpt': breakpoint (brkpt) reached by lanes 3");
}

}  // namespace
}  // namespace ptxmma::test
