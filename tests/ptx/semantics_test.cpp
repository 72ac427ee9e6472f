// Bit-exact semantics of each instruction family, with expected values worked out by hand (the
// comments show the arithmetic) or from the number-format layer's documented rules.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/ptx/ptx_test_util.hpp"
#include "tests/special_edges.hpp"

namespace ptxmma {
namespace {

using test::Ran;
using test::run_ptx;

TEST(PtxSemantics, IntegerArithmetic) {
  const Ran r = run_ptx(R"(
    .reg .b32 %r<24>;
    .reg .b64 %rd<4>;
    mov.u32 %r0, 0x7fffffff;
    add.s32 %r1, %r0, 1;            // wraps: 0x80000000
    add.sat.s32 %r2, %r0, 1;        // 0x7fffffff
    sub.u32 %r3, 3, 5;              // 0xfffffffe
    mov.u32 %r4, 0x10000;
    mul.lo.u32 %r5, %r4, %r4;       // 2^32 -> 0
    mul.hi.u32 %r6, %r4, %r4;       // 1
    mul.wide.s32 %rd0, -2, 3;       // -6
    mul.hi.s32 %r7, -1, 1;          // high word of -1: 0xffffffff
    mad.lo.s32 %r8, 3, 4, 5;        // 17
    min.s32 %r9, -1, 1;             // -1
    min.u32 %r10, 0xffffffff, 1;    // 1
    neg.s32 %r11, 5;                // -5
    abs.s32 %r12, -7;               // 7
    div.s32 %r13, -7, 2;            // -3 (toward zero)
    rem.s32 %r14, -7, 2;            // -1
    max.s32 %r15, -8, -9;           // -8
    mad.wide.u32 %rd1, 0xffffffff, 0xffffffff, 1;   // (2^32-1)^2 + 1 = 0xfffffffe00000002
    sub.sat.s32 %r16, 0x80000000, 1;                // clamps at INT_MIN
  )");
  EXPECT_EQ(r.reg(0, "%r1"), 0x80000000U);
  EXPECT_EQ(r.reg(0, "%r2"), 0x7fffffffU);
  EXPECT_EQ(r.reg(0, "%r3"), 0xfffffffeU);
  EXPECT_EQ(r.reg(0, "%r5"), 0U);
  EXPECT_EQ(r.reg(0, "%r6"), 1U);
  EXPECT_EQ(r.reg(0, "%rd0"), 0xfffffffffffffffaULL);
  EXPECT_EQ(r.reg(0, "%r7"), 0xffffffffU);
  EXPECT_EQ(r.reg(0, "%r8"), 17U);
  EXPECT_EQ(r.reg(0, "%r9"), 0xffffffffU);
  EXPECT_EQ(r.reg(0, "%r10"), 1U);
  EXPECT_EQ(r.reg(0, "%r11"), 0xfffffffbU);
  EXPECT_EQ(r.reg(0, "%r12"), 7U);
  EXPECT_EQ(r.reg(0, "%r13"), 0xfffffffdU);
  EXPECT_EQ(r.reg(0, "%r14"), 0xffffffffU);
  EXPECT_EQ(r.reg(0, "%r15"), 0xfffffff8U);
  EXPECT_EQ(r.reg(0, "%rd1"), 0xfffffffe00000002ULL);
  EXPECT_EQ(r.reg(0, "%r16"), 0x80000000U);
}

// ex2, rsqrt and tanh run the GPU's tables (tests/data/special-sm90/edges.txt gives these results).
TEST(PtxSemantics, ApproximateSpecialFunctions) {
  const Ran r = run_ptx(R"(
    .reg .f32 %f<8>;
    .reg .b16 %h<4>;
    .reg .b32 %r<4>;
    ex2.approx.ftz.f32 %f0, 0fBF000000;      // 2^-0.5: 0x3f3504f2 (correctly rounded: ...f3)
    ex2.approx.f32 %f1, 0fC2FE0000;          // 2^-127 via 2^-63.5 squared: 0x003fffff
    ex2.approx.ftz.f32 %f2, 0fC2FE0000;      // flushed: 0
    rsqrt.approx.f32 %f3, 0f00000001;        // 2^74.5: 0x64b504f2
    rsqrt.approx.ftz.f32 %f4, 0f80000001;    // -0 after the flush: -Inf
    mov.b16 %h0, 0x3C00;
    ex2.approx.f16 %h1, %h0;                 // 2
    mov.b32 %r0, 0xBC003C00;
    ex2.approx.f16x2 %r1, %r0;               // (0.5, 2)
  )");
  EXPECT_EQ(r.reg(0, "%f0"), 0x3f3504f2U);
  EXPECT_EQ(r.reg(0, "%f1"), 0x003fffffU);
  EXPECT_EQ(r.reg(0, "%f2"), 0U);
  EXPECT_EQ(r.reg(0, "%f3"), 0x64b504f2U);
  EXPECT_EQ(r.reg(0, "%f4"), 0xff800000U);
  EXPECT_EQ(r.reg(0, "%h1"), 0x4000U);
  EXPECT_EQ(r.reg(0, "%r1"), 0x38004000U);
}

// Every f32 and f64 line of tests/data/special-sm90/edges.txt (rcp, sqrt, rsqrt, ex2, lg2 .approx,
// div.approx, div.full; NAME INPUT... OUTPUT) through the interpreter gives
// the GPU's result.
TEST(PtxSemantics, ApproximateFormsGiveTheGpuEdgeValues) {
  int checked = 0;
  for (const test::EdgeLine& e : test::special_edge_lines()) {
    const std::string& ptx = e.ptx;
    if (ptx.ends_with(".f64")) {
      const Ran r = run_ptx(fmt::format(".reg .f64 %d<2>;\nmov.b64 %d0, {:#018x};\n{} %d1, %d0;\n", e.in[0], ptx));
      EXPECT_EQ(r.reg(0, "%d1"), e.out) << ptx << " " << e.in[0];
    } else if (ptx.ends_with(".f32")) {
      std::string src = fmt::format(".reg .f32 %f<3>;\nmov.b32 %f0, {:#010x};\n", e.in[0]);
      if (e.in.size() == 2) src += fmt::format("mov.b32 %f1, {:#010x};\n", e.in[1]);
      const Ran r = run_ptx(src + ptx + " %f2, %f0" + (e.in.size() == 2 ? ", %f1" : "") + ";\n");
      EXPECT_EQ(r.reg(0, "%f2"), e.out) << ptx << " " << e.in[0];
    } else {
      continue;  // f16/bf16 forms: ApproximateSpecialFunctions
    }
    ++checked;
  }
  EXPECT_GT(checked, 5500);
}

TEST(PtxSemantics, LogicShiftsAndBitFields) {
  const Ran r = run_ptx(R"(


    .reg .f32 %f<24>;
    .reg .f64 %d<4>;
    .reg .b32 %h<4>;
    .reg .b16 %s<4>;
    add.rn.f32 %f0, 0f3F800000, 0f33800000;   // 1 + 2^-24: a tie, to even: 1
    add.rp.f32 %f1, 0f3F800000, 0f33800000;   // up: 1 + 2^-23
    add.rz.f32 %f2, 0f3F800000, 0f33C00000;   // 1 + 1.5 2^-24 toward zero: 1
    add.f32    %f3, 0f3F800000, 0f33C00000;   // .rn by default, above the tie: 1 + 2^-23
    add.rm.f32 %f4, 0fBF800000, 0fB3800000;   // -1 - 2^-24 down: -(1 + 2^-23)
    mul.rn.f32 %f5, 0f40400000, 0f3DCCCCCD;   // 3 x 0.1f = 40265319 2^-27 -> 10066330 2^-25: 0x3e99999a
    mul.rn.f32 %f6, 0f3F800001, 0f3F800001;   // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 -> 1 + 2^-22
    neg.f32    %f7, %f6;
    fma.rn.f32 %f8, 0f3F800001, 0f3F800001, %f7;   // the residual, exactly: 2^-46
    sub.f32    %f9, 0f3F800000, 0f3F800000;   // +0
    sub.rm.f32 %f10, 0f3F800000, 0f3F800000;  // -0 when rounding down
    mul.f32    %f11, 0f80000000, 0f40A00000;  // -0 x 5 = -0
    add.f32    %f12, 0f7FC00001, 0f3F800000;  // NaN in: the canonical NaN out
    add.f32    %f13, 0f00000001, 0f00000000;  // subnormals kept: 0x00000001
    add.ftz.f32 %f14, 0f00000001, 0f00000000; // flushed: +0
    add.sat.f32 %f15, 0f3F400000, 0f3F000000; // 1.25 clamps to 1
    add.sat.f32 %f16, 0fBF000000, 0f00000000; // -0.5 clamps to +0
    add.rn.f64 %d0, 0d3FB999999999999A, 0d3FC999999999999A;   // 0.1 + 0.2 = 0x3fd3333333333334
    mul.rn.f32 %f17, 0f7F800000, 0f00000000;  // Inf x 0: NaN
    add.rn.f16x2 %h0, 0x40003c00, 0x38003800; // (1, 2) + (0.5, 0.5) = (1.5, 2.5)
    mov.b16 %s0, 0x3f80;
    mov.b16 %s1, 0x4000;
    fma.rn.bf16 %s2, %s0, %s1, %s0;
    mul.rn.f16 %s3, %s1, %s1;
    abs.f32 %f18, 0fBF800000;
  )");
  EXPECT_EQ(r.reg(0, "%f0"), 0x3f800000U);
  EXPECT_EQ(r.reg(0, "%f1"), 0x3f800001U);
  EXPECT_EQ(r.reg(0, "%f2"), 0x3f800000U);
  EXPECT_EQ(r.reg(0, "%f3"), 0x3f800001U);
  EXPECT_EQ(r.reg(0, "%f4"), 0xbf800001U);
  EXPECT_EQ(r.reg(0, "%f5"), 0x3e99999aU);
  EXPECT_EQ(r.reg(0, "%f6"), 0x3f800002U);
  EXPECT_EQ(r.reg(0, "%f7"), 0xbf800002U);
  EXPECT_EQ(r.reg(0, "%f8"), 0x28800000U);
  EXPECT_EQ(r.reg(0, "%f9"), 0x00000000U);
  EXPECT_EQ(r.reg(0, "%f10"), 0x80000000U);
  EXPECT_EQ(r.reg(0, "%f11"), 0x80000000U);
  EXPECT_EQ(r.reg(0, "%f12"), 0x7fffffffU);
  EXPECT_EQ(r.reg(0, "%f13"), 0x00000001U);
  EXPECT_EQ(r.reg(0, "%f14"), 0x00000000U);
  EXPECT_EQ(r.reg(0, "%f15"), 0x3f800000U);
  EXPECT_EQ(r.reg(0, "%f16"), 0x00000000U);
  EXPECT_EQ(r.reg(0, "%d0"), 0x3fd3333333333334ULL);
  EXPECT_EQ(r.reg(0, "%f17"), 0x7fffffffU);
  EXPECT_EQ(r.reg(0, "%h0"), 0x41003e00U);
  EXPECT_EQ(r.reg(0, "%s2"), 0x4040U);  // bf16 3
  EXPECT_EQ(r.reg(0, "%s3"), 0x4400U);  // f16 4
  EXPECT_EQ(r.reg(0, "%f18"), 0x3f800000U);
}

TEST(PtxSemantics, MinMaxAndComparisons) {
  const Ran r = run_ptx(R"(
    .reg .f32 %f<8>;
    .reg .pred %p<12>;
    .reg .b32 %r<4>;
    min.f32 %f0, 0f7FC00000, 0f3F800000;      // a NaN gives the other operand: 1
    min.NaN.f32 %f1, 0f7FC00000, 0f3F800000;  // .NaN: the canonical NaN
    min.f32 %f2, 0f00000000, 0f80000000;      // -0 is below +0
    max.f32 %f3, 0f00000000, 0f80000000;      // +0
    max.f32 %f4, 0fC0000000, 0fBF800000;      // -1
    setp.lt.f32 %p0, 0f7FC00000, 0f3F800000;  // ordered with NaN: false
    setp.ltu.f32 %p1, 0f7FC00000, 0f3F800000; // unordered: true
    setp.eq.f32 %p2, 0f00000000, 0f80000000;  // -0 == +0
    setp.nan.f32 %p3, 0f3F800000, 0f7F800001; // true
    setp.num.f32 %p4, 0f3F800000, 0f7F800000; // Inf is a number: true
    setp.lt.s32 %p5, -1, 1;                   // true
    setp.lo.u32 %p6, 0xffffffff, 1;           // false
    setp.gt.and.s32 %p7|%p8, 5, 3, %p6;       // (true and false, false and false)
    setp.gt.or.s32 %p9|%p10, 5, 3, !%p6;      // (true or true, false or true)
    selp.b32 %r0, 11, 22, %p5;                // 11
    selp.b32 %r1, 11, 22, !%p5;               // 22
  )");
  EXPECT_EQ(r.reg(0, "%f0"), 0x3f800000U);
  EXPECT_EQ(r.reg(0, "%f1"), 0x7fffffffU);
  EXPECT_EQ(r.reg(0, "%f2"), 0x80000000U);
  EXPECT_EQ(r.reg(0, "%f3"), 0x00000000U);
  EXPECT_EQ(r.reg(0, "%f4"), 0xbf800000U);
  EXPECT_EQ(r.reg(0, "%p0"), 0U);
  EXPECT_EQ(r.reg(0, "%p1"), 1U);
  EXPECT_EQ(r.reg(0, "%p2"), 1U);
  EXPECT_EQ(r.reg(0, "%p3"), 1U);
  EXPECT_EQ(r.reg(0, "%p4"), 1U);
  EXPECT_EQ(r.reg(0, "%p5"), 1U);
  EXPECT_EQ(r.reg(0, "%p6"), 0U);
  EXPECT_EQ(r.reg(0, "%p7"), 0U);
  EXPECT_EQ(r.reg(0, "%p8"), 0U);
  EXPECT_EQ(r.reg(0, "%p9"), 1U);
  EXPECT_EQ(r.reg(0, "%p10"), 1U);
  EXPECT_EQ(r.reg(0, "%r0"), 11U);
  EXPECT_EQ(r.reg(0, "%r1"), 22U);
}

TEST(PtxSemantics, ScalarConversions) {
  const Ran r = run_ptx(R"(
    .reg .b16 %h<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<2>;
    .reg .f32 %f<8>;
    cvt.rn.f16.f32 %h0, 0f477FF000;            // 65520: the tie past 65504 rounds to Inf: 0x7c00
    cvt.rn.satfinite.f16.f32 %h1, 0f477FF000;  // 65504: 0x7bff
    cvt.rz.f16.f32 %h2, 0f47886800;            // 69840 toward zero: 0x7bff
    cvt.rni.s32.f32 %r0, 0f40200000;           // 2.5 -> 2 (even)
    cvt.rni.s32.f32 %r1, 0f40600000;           // 3.5 -> 4
    cvt.rni.s32.f32 %r2, 0fC0200000;           // -2.5 -> -2
    cvt.rmi.s32.f32 %r3, 0fBF000000;           // -0.5 -> -1
    cvt.rzi.s32.f32 %r4, 0f501502F9;           // 1e10 saturates: 0x7fffffff
    cvt.rzi.s32.f32 %r5, 0f7FC00000;           // NaN -> 0
    cvt.rni.u32.f32 %r6, 0fBF800000;           // -1 -> 0 (saturates)
    cvt.rzi.s64.f64 %rd0, 0d43D0000000000001;  // 2^62 + 1024 (one ulp) exactly
    cvt.rni.f32.f32 %f0, 0f40200000;           // 2.5 -> 2.0
    cvt.rni.f32.f32 %f1, 0fBECCCCCD;           // -0.4 -> -0
    cvt.rpi.f32.f32 %f2, 0f3F8CCCCD;           // 1.1 -> 2.0
    cvt.rn.f32.s32 %f3, 16777217;              // 2^24 + 1 -> 2^24: 0x4b800000
    cvt.rz.f32.u32 %f4, 0xffffffff;            // 0x4f7fffff
    cvt.rn.f32.u32 %f5, 0xffffffff;            // 2^32: 0x4f800000
    cvt.s8.s32 %r7, 200;                       // low byte 0xc8 = -56, sign-extended in the register
    cvt.sat.s8.s32 %r8, 300;                   // 127
    mov.u32 %r10, 0x1ff;
    cvt.u32.u8 %r9, %r10;                      // the source is the .u8 in a wider register: 0xff
    cvt.f32.f16 %f6, %h1;                      // 65504 widened exactly: 0x477fe000
    cvt.rn.f32.f64 %f7, 0d3FD5555555555555;    // 1/3 -> 0x3eaaaaab
  )");
  EXPECT_EQ(r.reg(0, "%h0"), 0x7c00U);
  EXPECT_EQ(r.reg(0, "%h1"), 0x7bffU);
  EXPECT_EQ(r.reg(0, "%h2"), 0x7bffU);
  EXPECT_EQ(r.reg(0, "%r0"), 2U);
  EXPECT_EQ(r.reg(0, "%r1"), 4U);
  EXPECT_EQ(r.reg(0, "%r2"), 0xfffffffeU);
  EXPECT_EQ(r.reg(0, "%r3"), 0xffffffffU);
  EXPECT_EQ(r.reg(0, "%r4"), 0x7fffffffU);
  EXPECT_EQ(r.reg(0, "%r5"), 0U);
  EXPECT_EQ(r.reg(0, "%r6"), 0U);
  EXPECT_EQ(r.reg(0, "%rd0"), 0x4000000000000400ULL);
  EXPECT_EQ(r.reg(0, "%f0"), 0x40000000U);
  EXPECT_EQ(r.reg(0, "%f1"), 0x80000000U);
  EXPECT_EQ(r.reg(0, "%f2"), 0x40000000U);
  EXPECT_EQ(r.reg(0, "%f3"), 0x4b800000U);
  EXPECT_EQ(r.reg(0, "%f4"), 0x4f7fffffU);
  EXPECT_EQ(r.reg(0, "%f5"), 0x4f800000U);
  EXPECT_EQ(r.reg(0, "%r7"), 0xffffffc8U);
  EXPECT_EQ(r.reg(0, "%r8"), 127U);
  EXPECT_EQ(r.reg(0, "%r9"), 0xffU);
  EXPECT_EQ(r.reg(0, "%f6"), 0x477fe000U);
  EXPECT_EQ(r.reg(0, "%f7"), 0x3eaaaaabU);
}

TEST(PtxSemantics, PackedConversions) {
  const Ran r = run_ptx(R"(
    .target sm_100a
    .reg .b16 %h<8>;
    .reg .b32 %r<8>;
    .reg .b8 %c<2>;
    cvt.rn.satfinite.e4m3x2.f32 %h0, 0f43FA0000, 0fBA800000;  // (500 -> 448 = 0x7e, -2^-10: a tie to -0 = 0x80)
    cvt.rn.f16x2.e4m3x2 %r0, %h0;              // (448 = 0x5f00, -0 = 0x8000), a in the high half
    cvt.rn.satfinite.e5m2x2.f32 %h1, 0f477FE000, 0f3F800000;  // 65504 > 57344 -> 0x7b; 1 -> 0x3c
    cvt.rn.satfinite.e2m1x2.f32 %c0, 0f40A00000, 0f3E800000;  // 5 -> 4 (tie to even, 0x6); 0.25 -> 0 (tie)
    cvt.rn.satfinite.e2m1x2.f32 %c1, 0f40E00000, 0fC0E00000;  // 7 -> 6 (0x7), -7 -> -6 (0xf)
    cvt.rn.f16x2.e2m1x2 %r1, %c1;              // (6, -6): 0x4600c600
    cvt.rn.satfinite.e3m2x2.f32 %h2, 0f41F00000, 0f3E200000;  // 30 -> 28 (0x1f), 0.15625 -> 0.125 (0x02): 0x1f02
    cvt.rn.satfinite.e2m3x2.f32 %h3, 0f40F00000, 0fBE000000;  // 7.5 (0x1f), -0.125 (0x21): 0x1f21
    cvt.rn.f16x2.e3m2x2 %r2, %h2;              // (28 = 0x4f00, 0.125 = 0x3000)
    cvt.rn.bf16x2.f32 %r3, 0f3F800000, 0f3F808000;   // (1, 1 + 2^-8 -> 1 by ties-to-even): 0x3f803f80
    cvt.rn.f16x2.f32 %r4, 0f3F800000, 0f40000000;    // (1, 2): 0x3c004000
    cvt.rn.relu.f16x2.f32 %r5, 0fBF800000, 0f40000000;   // relu: (0, 2): 0x00004000
    cvt.rz.satfinite.ue8m0x2.f32 %h4, 0f40400000, 0f3E99999A;  // 3 -> 2 (0x80), 0.3 -> 0.25 (0x7d)
    cvt.rp.satfinite.ue8m0x2.f32 %h5, 0f40400000, 0f3E99999A;  // 3 -> 4 (0x81), 0.3 -> 0.5 (0x7e)
    cvt.rn.bf16x2.ue8m0x2 %r6, %h5;            // (4 = 0x4080, 0.5 = 0x3f00)
    cvt.rn.satfinite.e4m3x2.f16x2 %h6, 0x5f003c00;   // (448, 1): 0x7e38
    cvt.rna.tf32.f32 %r7, 0f3F801000;          // a tie: away from zero, 0x3f802000
  )");
  EXPECT_EQ(r.reg(0, "%h0"), 0x7e80U);
  EXPECT_EQ(r.reg(0, "%r0"), 0x5f008000U);
  EXPECT_EQ(r.reg(0, "%h1"), 0x7b3cU);
  EXPECT_EQ(r.reg(0, "%c0"), 0x60U);
  EXPECT_EQ(r.reg(0, "%c1"), 0x7fU);
  EXPECT_EQ(r.reg(0, "%r1"), 0x4600c600U);
  EXPECT_EQ(r.reg(0, "%h2"), 0x1f02U);
  EXPECT_EQ(r.reg(0, "%h3"), 0x1f21U);
  EXPECT_EQ(r.reg(0, "%r2"), 0x4f003000U);
  EXPECT_EQ(r.reg(0, "%r3"), 0x3f803f80U);
  EXPECT_EQ(r.reg(0, "%r4"), 0x3c004000U);
  EXPECT_EQ(r.reg(0, "%r5"), 0x00004000U);
  EXPECT_EQ(r.reg(0, "%h4"), 0x807dU);
  EXPECT_EQ(r.reg(0, "%h5"), 0x817eU);
  EXPECT_EQ(r.reg(0, "%r6"), 0x40803f00U);
  EXPECT_EQ(r.reg(0, "%h6"), 0x7e38U);
  EXPECT_EQ(r.reg(0, "%r7"), 0x3f802000U);
}

TEST(PtxSemantics, Tf32Roundings) {
  const Ran r = run_ptx(R"(
    .reg .b32 %r<4>;
    cvt.rna.tf32.f32 %r0, 0f3F801000;     // the tie goes away from zero
    cvt.rn.tf32.f32 %r1, 0f3F801000;      // the tie goes to even
    cvt.rz.tf32.f32 %r2, 0f3F801FFF;      // truncated
    cvt.rna.satfinite.tf32.f32 %r3, 0f7F800000;   // Inf clamps to 0x7f7fe000
  )");
  EXPECT_EQ(r.reg(0, "%r0"), 0x3f802000U);
  EXPECT_EQ(r.reg(0, "%r1"), 0x3f800000U);
  EXPECT_EQ(r.reg(0, "%r2"), 0x3f800000U);
  EXPECT_EQ(r.reg(0, "%r3"), 0x7f7fe000U);
}

TEST(PtxSemantics, LoadsAndStores) {
  const Ran r = run_ptx(R"(
    .visible .entry k(.param .u64 out, .param .u32 n) {
      .reg .b32 %r<12>;
      .reg .b64 %rd<4>;
      .reg .b16 %h;
      .shared .align 16 .b32 buf[128];
      mov.u32 %r0, %laneid;
      mov.u32 %r1, buf;
      shl.b32 %r2, %r0, 4;
      add.s32 %r2, %r1, %r2;                 // 16 bytes per lane
      add.u32 %r3, %r0, 100;
      st.shared.v4.u32 [%r2], {%r0, %r3, 7, 0xdeadbeef};
      ld.shared.v2.u32 {%r4, %r5}, [%r2+8];  // (7, 0xdeadbeef)
      ld.shared.u8 %r6, [%r2+12];            // 0xef zero-extended
      ld.shared.s8 %r7, [%r2+12];            // 0xef sign-extended
      ld.shared.b16 %h, [%r2+14];            // 0xdead
      ld.param.u32 %r8, [n];
      ld.param.u64 %rd0, [out];
      mul.wide.u32 %rd1, %r0, 4;
      add.s64 %rd1, %rd0, %rd1;
      st.global.u32 [%rd1], %r3;
      ld.global.u32 %r9, [%rd1];
      ret;
    }
  )",
                        [](Ran& x) {
                          x.machine->param().store(0, 8, 0x10000);
                          x.machine->param().store(8, 4, 42);
                        });
  EXPECT_EQ(r.reg(3, "%r4"), 7U);
  EXPECT_EQ(r.reg(3, "%r5"), 0xdeadbeefU);
  EXPECT_EQ(r.reg(3, "%r6"), 0xefU);
  EXPECT_EQ(r.reg(3, "%r7"), 0xffffffefU);
  EXPECT_EQ(r.reg(3, "%h"), 0xdeadU);
  EXPECT_EQ(r.reg(3, "%r8"), 42U);
  EXPECT_EQ(r.reg(9, "%r9"), 109U);
  EXPECT_EQ(r.machine->shared().load(16 * 5 + 4, 4), 105U);
  EXPECT_EQ(r.machine->global().load(0x10000 + 4 * 31, 4), 131U);
}

TEST(PtxSemantics, MemoryErrorsAreLocated) {
  EXPECT_EQ(test::error_of(".reg .b32 %r;\n.reg .b64 %rd;\nmov.u64 %rd, 0x500;\nld.global.u32 %r, [%rd];\n"),
            "test.ptx:4:1: error: 'ld.global.u32': lane 0: global memory: byte 0x500 is not given by the initial state");
  EXPECT_EQ(test::error_of(".shared .b8 s[16];\n.reg .b32 %r;\nst.shared.u32 [s+0xc000], %r;\n"),
            "test.ptx:3:1: error: 'st.shared.u32': lane 0: shared memory: 4 bytes at 0xc000 are outside [0, 0xc000)");
  EXPECT_EQ(test::error_of(".shared .b8 s[16];\n.reg .b32 %r;\nld.shared.u32 %r, [s+2];\n"),
            "test.ptx:3:1: error: 'ld.shared.u32': lane 0: address 0x2 is not aligned to the 4-byte access");
}

// Shared memory with b16 element (m, r, c) = 0x1000 m + 0x10 r + c for four 8x8 matrices stored
// one after the other, row-major (16 bytes a row, 128 bytes a matrix).
void fill_matrices(Ran& r) {
  for (int m = 0; m < 4; ++m)
    for (int row = 0; row < 8; ++row)
      for (int c = 0; c < 8; ++c)
        r.machine->shared().store(static_cast<std::uint64_t>(128 * m + 16 * row + 2 * c), 2,
                                static_cast<std::uint64_t>(0x1000 * m + 0x10 * row + c));
}

std::uint32_t elem(int m, int row, int c) { return static_cast<std::uint32_t>(0x1000 * m + 0x10 * row + c); }

TEST(PtxSemantics, LdmatrixStmatrixMovmatrix) {
  const Ran r = run_ptx(R"(
    .shared .align 16 .b8 s[1024];
    .reg .b32 %r<8>, %a<4>, %t<4>, %m, %b<2>;
    mov.u32 %r0, %laneid;
    shl.b32 %r1, %r0, 4;                  // lane l gives row l: matrix l / 8, row l % 8
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%a0, %a1, %a2, %a3}, [%r1];
    ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%t0, %t1, %t2, %t3}, [%r1];
    ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r2}, [%r1];
    movmatrix.sync.aligned.m8n8.trans.b16 %m, %a1;
    add.u32 %r3, %r1, 512;
    stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r3], {%a0, %a1};
    ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%b0, %b1}, [%r3];
  )",
                        fill_matrices);
  for (int lane = 0; lane < 32; ++lane) {
    SCOPED_TRACE(lane);
    const int row = lane / 4, col = 2 * (lane % 4);
    for (int m = 0; m < 4; ++m) {
      EXPECT_EQ(r.reg(lane, "%a" + std::to_string(m)), elem(m, row, col) | (elem(m, row, col + 1) << 16));
      EXPECT_EQ(r.reg(lane, "%t" + std::to_string(m)), elem(m, col, row) | (elem(m, col + 1, row) << 16));
    }
    EXPECT_EQ(r.reg(lane, "%r2"), r.reg(lane, "%a0"));
    EXPECT_EQ(r.reg(lane, "%m"), r.reg(lane, "%t1"));  // movmatrix.trans of matrix 1 = ldmatrix.trans
    // stmatrix.trans wrote the transposes; loading them transposed again gives the originals.
    EXPECT_EQ(r.reg(lane, "%b0"), r.reg(lane, "%a0"));
    EXPECT_EQ(r.reg(lane, "%b1"), r.reg(lane, "%a1"));
  }
  // Row 3 of the stored transpose of matrix 0 is column 3 of matrix 0.
  for (int c = 0; c < 8; ++c) EXPECT_EQ(r.machine->shared().load(512 + 16 * 3 + 2 * static_cast<std::uint64_t>(c), 2), elem(0, c, 3));
}

TEST(PtxSemantics, Shuffles) {
  const Ran r = run_ptx(R"(
    .reg .b32 %r<12>;
    .reg .pred %p<4>;
    mov.u32 %r0, %laneid;
    mul.lo.u32 %r1, %r0, 10;
    shfl.sync.up.b32 %r2|%p0, %r1, 3, 0, 0xffffffff;      // from lane - 3; lanes 0..2 keep theirs
    shfl.sync.down.b32 %r3|%p1, %r1, 3, 31, 0xffffffff;   // from lane + 3; lanes 29..31 keep theirs
    shfl.sync.bfly.b32 %r4, %r1, 5, 31, 0xffffffff;       // from lane ^ 5
    shfl.sync.idx.b32 %r5, %r1, 7, 31, 0xffffffff;        // from lane 7
    shfl.sync.idx.b32 %r6, %r1, 3, 0x181f, 0xffffffff;    // segments of 8 lanes: lane 8k + 3
    shfl.sync.down.b32 %r7|%p2, %r1, 2, 0x181f, 0xffffffff; // within 8-lane segments
    vote.sync.ballot.b32 %r8, %p0, 0xffffffff;            // lanes 3..31
    vote.sync.all.pred %p3, %p0, 0xffffffff;              // false
  )");
  EXPECT_EQ(r.reg(5, "%r2"), 20U);
  EXPECT_EQ(r.reg(5, "%p0"), 1U);
  EXPECT_EQ(r.reg(1, "%r2"), 10U);
  EXPECT_EQ(r.reg(1, "%p0"), 0U);
  EXPECT_EQ(r.reg(5, "%r3"), 80U);
  EXPECT_EQ(r.reg(30, "%r3"), 300U);
  EXPECT_EQ(r.reg(30, "%p1"), 0U);
  EXPECT_EQ(r.reg(9, "%r4"), 120U);
  EXPECT_EQ(r.reg(20, "%r5"), 70U);
  EXPECT_EQ(r.reg(21, "%r6"), 190U);
  EXPECT_EQ(r.reg(13, "%r7"), 150U);
  EXPECT_EQ(r.reg(14, "%r7"), 140U);  // 16 is past the segment 8..15: keeps its own
  EXPECT_EQ(r.reg(14, "%p2"), 0U);
  EXPECT_EQ(r.reg(0, "%r8"), 0xfffffff8U);
  EXPECT_EQ(r.reg(0, "%p3"), 0U);
}

TEST(PtxSemantics, SpecialRegisters) {
  InterpreterOptions o;
  o.ntid = {8, 4, 2};
  o.warpid = 1;
  const Ran r = run_ptx(R"(
    .reg .b32 %r<10>;
    mov.u32 %r0, %tid.x;
    mov.u32 %r1, %tid.y;
    mov.u32 %r2, %tid.z;
    mov.u32 %r3, %ntid.y;
    mov.u32 %r4, %warpid;
    mov.u32 %r5, %lanemask_lt;
    mov.u32 %r6, %nwarpid;
  )",
                        {}, o);
  // lane 5 of warp 1 is thread 37 of an 8 x 4 x 2 block: (5, 0, 1)
  EXPECT_EQ(r.reg(5, "%r0"), 5U);
  EXPECT_EQ(r.reg(5, "%r1"), 0U);
  EXPECT_EQ(r.reg(5, "%r2"), 1U);
  EXPECT_EQ(r.reg(13, "%r1"), 1U);
  EXPECT_EQ(r.reg(5, "%r3"), 4U);
  EXPECT_EQ(r.reg(5, "%r4"), 1U);
  EXPECT_EQ(r.reg(5, "%r5"), 0x1fU);
  EXPECT_EQ(r.reg(5, "%r6"), 2U);
}

// mma m16n8k16 from registers set by lane: A[i][k] = 1 for k < 8 else 2 (f16), B = 0.5, C = i.
TEST(PtxSemantics, MmaThroughExecuteMma) {
  const Ran r = run_ptx(R"(
    .reg .b32 %a<4>, %b<2>;
    .reg .f32 %c<4>, %d<4>;
    .reg .b32 %l, %row;
    mov.b32 %a0, 0x3c003c00;   // A rows g, k 0..7: 1
    mov.b32 %a1, 0x3c003c00;   // rows g + 8
    mov.b32 %a2, 0x40004000;   // k 8..15: 2
    mov.b32 %a3, 0x40004000;
    mov.b32 %b0, 0x38003800;   // 0.5
    mov.b32 %b1, 0x38003800;
    mov.u32 %l, %laneid;
    shr.u32 %row, %l, 2;
    cvt.rn.f32.u32 %c0, %row;
    mov.f32 %c1, %c0;
    add.u32 %row, %row, 8;
    cvt.rn.f32.u32 %c2, %row;
    mov.f32 %c3, %c2;
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};
  )");
  // sum_k A B = 8 x 0.5 + 8 x 1 = 12; D = 12 + row
  EXPECT_EQ(r.reg(0, "%d0"), 0x41400000U);   // 12
  EXPECT_EQ(r.reg(7, "%d1"), 0x41500000U);   // row 1: 13
  EXPECT_EQ(r.reg(31, "%d2"), 0x41d80000U);  // row 15: 27
}

}  // namespace
}  // namespace ptxmma
