// ptxas's multiply-add contraction (isa/contraction.hpp, docs/hardware/contraction-sm90.md): which
// add/sub the parser marks, and that the marked ones give the fused result. The values: a = b =
// 1 + 2^-12, so a*b = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 (a tie, to even); fused with -1 it is
// 2^-11 (1 + 2^-13) = 0x3a000400, unfused 2^-11 = 0x3a000000.
#include <gtest/gtest.h>

#include "isa/contraction.hpp"
#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma {
namespace {

using test::Ran;
using test::run_ptx;

constexpr const char* kSetup = R"(
  .reg .pred %p<2>;
  .reg .f32 %f<16>;
  .reg .f64 %fd<8>;
  .reg .b32 %r<4>;
  mov.b32 %f1, 0f3F800800;
  mov.b32 %f2, 0fBF800000;
  mov.b32 %f3, 0f3F800000;
)";

std::uint64_t f(const Ran& r, const char* reg) { return r.reg(0, reg); }

TEST(Contraction, FusesWhatPtxasFuses) {
  const Ran r = run_ptx(std::string(kSetup) + R"(
    mul.f32 %f4, %f1, %f1;
    add.f32 %f5, %f4, %f2;          // fused: 0x3a000400
    mul.f32 %f6, %f1, %f1;
    sub.f32 %f7, %f3, %f6;          // 1 - p, fused: -(2^-11 + 2^-24)
    mul.f32 %f8, %f1, %f1;
    neg.f32 %f9, %f8;
    add.f32 %f10, %f3, %f9;         // through neg: the same
    mul.f32 %f11, %f1, %f1;
    add.f32 %f12, %f11, %f2;        // two adds of one product: both fused
    add.f32 %f13, %f11, %f2;
    mov.b64 %fd1, 0d3FF0000002000000;  // f64: 1 + 2^-27
    mul.f64 %fd2, %fd1, %fd1;
    add.f64 %fd3, %fd2, 0dBFF0000000000000;
  )");
  EXPECT_EQ(f(r, "%f5"), 0x3a000400U);
  EXPECT_EQ(f(r, "%f7"), 0xba000400U);
  EXPECT_EQ(f(r, "%f10"), 0xba000400U);
  EXPECT_EQ(f(r, "%f12"), 0x3a000400U);
  EXPECT_EQ(f(r, "%f13"), 0x3a000400U);
  EXPECT_EQ(r.reg(0, "%fd3"), 0x3e50000001000000U);  // 2^-26 (1 + 2^-28), unfused 2^-26
}

TEST(Contraction, LeavesWhatPtxasLeaves) {
  const Ran r = run_ptx(std::string(kSetup) + R"(
    mul.rn.f32 %f4, %f1, %f1;
    add.f32 %f5, %f4, %f2;          // mul.rn
    mul.f32 %f6, %f1, %f1;
    add.rn.f32 %f7, %f6, %f2;       // add.rn
    mul.f32 %f8, %f1, %f1;
    add.f32 %f9, %f8, %f2;
    mov.b32 %r1, %f8;               // the product has another use
    mul.ftz.f32 %f10, %f1, %f1;
    add.f32 %f11, %f10, %f2;        // .ftz differs
    mul.f32 %f12, %f1, %f1;
    setp.eq.f32 %p1, %f3, %f3;
    @%p1 bra NEXT;
  NEXT:
    add.f32 %f13, %f12, %f2;        // another basic block
    mul.f32 %f14, %f1, %f1;
    mov.b32 %f1, 0f3F800000;
    add.f32 %f15, %f14, %f2;        // a factor written in between
  )");
  for (const char* reg : {"%f5", "%f7", "%f9", "%f11", "%f13", "%f15"}) EXPECT_EQ(f(r, reg), 0x3a000000U) << reg;
}

TEST(Contraction, MarksTheFirstProductAndDivisions) {
  const ptx::Program p = ptx::parse_ptx(std::string(kSetup) + R"(
    mul.f32 %f4, %f1, %f1;
    mul.f32 %f5, %f2, %f2;
    add.f32 %f6, %f4, %f5;
    div.full.f32 %f7, %f1, %f3;
    sub.f32 %f8, %f2, %f7;
    div.rn.f32 %f9, %f1, %f3;
    add.f32 %f10, %f9, %f2;
  )", "test.ptx");
  const auto& add = p.code[5].d.contraction;
  ASSERT_TRUE(add);
  EXPECT_EQ(add->x.reg, p.find_register("%f1"));
  EXPECT_EQ(add->other, 2);
  const auto& sub = p.code[7].d.contraction;
  ASSERT_TRUE(sub);
  EXPECT_EQ(sub->product, ptx::Contraction::Product::div_full);
  EXPECT_TRUE(sub->negate_product);
  EXPECT_EQ(sub->other, 1);
  EXPECT_FALSE(p.code[9].d.contraction);  // div.rn is a subroutine, not fused
}

}  // namespace
}  // namespace ptxmma
