// Hand-written cvt cases from docs/numerics.md §1.3-§1.6, and the packing helpers of §1.2/§1.4.
// Every conversion case is checked on the fast path (convert) and on the rational oracle
// (round_exact), except NaN payload rules, which only convert sees.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "sim/numeric/exact.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {
namespace {

constexpr ConvertFlags kRn{Rounding::rn, false, false};
constexpr ConvertFlags kRnSat{Rounding::rn, true, false};
constexpr ConvertFlags kRnSatRelu{Rounding::rn, true, true};
constexpr ConvertFlags kRz{Rounding::rz, false, false};
constexpr ConvertFlags kRzSat{Rounding::rz, true, false};
constexpr ConvertFlags kRp{Rounding::rp, false, false};
constexpr ConvertFlags kRpSat{Rounding::rp, true, false};
constexpr ConvertFlags kRm{Rounding::rm, false, false};
constexpr ConvertFlags kRna{Rounding::rna, false, false};
constexpr ConvertFlags kRnaSat{Rounding::rna, true, false};

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

std::string text(std::uint32_t x, Type dst, ConvertFlags f) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "f32 0x%08x (%.9g) -> %s.%s%s%s", x, static_cast<double>(std::bit_cast<float>(x)),
                std::string(name(dst)).c_str(), std::string(name(f.mode)).c_str(), f.satfinite ? ".satfinite" : "",
                f.relu ? ".relu" : "");
  return buf;
}

// f32 bits -> dst code, by both implementations.
void expect_cvt(std::uint32_t x, Type dst, ConvertFlags f, std::uint64_t want) {
  EXPECT_EQ(convert(Type::f32, x, dst, f), want) << "convert " << text(x, dst, f);
  EXPECT_EQ(round_exact(dst, exact_value(Type::f32, x), f), want) << "round_exact " << text(x, dst, f);
}
void expect_cvt(float x, Type dst, ConvertFlags f, std::uint64_t want) { expect_cvt(bits(x), dst, f, want); }

constexpr std::uint32_t kInf = 0x7f800000, kNegInf = 0xff800000, kNaN = 0x7fc00000, kNegNaN = 0xffc00000;
constexpr std::uint32_t kSNaN = 0x7f800001;

TEST(CvtE4M3, MaxTieAndSaturation) {
  expect_cvt(448.0f, Type::e4m3, kRnSat, 0x7e);
  expect_cvt(-448.0f, Type::e4m3, kRnSat, 0xfe);
  expect_cvt(464.0f, Type::e4m3, kRnSat, 0x7e);   // tie between 448 (even) and 480: 448
  expect_cvt(464.0f, Type::e4m3, kRn, 0x7e);      // ... with or without satfinite
  expect_cvt(-464.0f, Type::e4m3, kRnSat, 0xfe);
  expect_cvt(std::nextafter(464.0f, 1e9f), Type::e4m3, kRnSat, 0x7e);  // past the tie: clamps
  expect_cvt(std::nextafter(464.0f, 1e9f), Type::e4m3, kRn, 0x7f);     // no satfinite: NaN (no Inf)
  expect_cvt(1e30f, Type::e4m3, kRnSat, 0x7e);
  expect_cvt(-1e30f, Type::e4m3, kRnSat, 0xfe);
  expect_cvt(kInf, Type::e4m3, kRnSat, 0x7e);
  expect_cvt(kNegInf, Type::e4m3, kRnSat, 0xfe);
  expect_cvt(kNaN, Type::e4m3, kRnSat, 0x7f);
  expect_cvt(kNegNaN, Type::e4m3, kRnSat, 0x7f);  // canonical, positive (like CUDA's host code)
  expect_cvt(416.0f, Type::e4m3, kRnSat, 0x7d);
  expect_cvt(432.0f, Type::e4m3, kRnSat, 0x7e);   // tie 416 (0x7d, odd) / 448: 448
  // Subnormals: min 2^-9; half of it is a tie with 0 -> +0 / -0.
  expect_cvt(0x1p-9f, Type::e4m3, kRnSat, 0x01);
  expect_cvt(0x1p-10f, Type::e4m3, kRnSat, 0x00);
  expect_cvt(-0x1p-10f, Type::e4m3, kRnSat, 0x80);
  expect_cvt(std::nextafter(0x1p-10f, 1.0f), Type::e4m3, kRnSat, 0x01);
  expect_cvt(0x3p-10f, Type::e4m3, kRnSat, 0x02);  // 1.5 x min subnormal: tie -> 2 (even)
  expect_cvt(0x1p-6f, Type::e4m3, kRnSat, 0x08);   // min normal
  expect_cvt(0x1.ep-7f, Type::e4m3, kRnSat, 0x08); // tie between 7 x 2^-9 (odd) and 2^-6
  expect_cvt(1.0f, Type::e4m3, kRnSat, 0x38);
}

TEST(CvtE5M2, MaxTieAndSaturation) {
  expect_cvt(57344.0f, Type::e5m2, kRnSat, 0x7b);
  expect_cvt(61440.0f, Type::e5m2, kRnSat, 0x7b);  // tie 57344 (odd) / 65536: overflow, clamped
  expect_cvt(61440.0f, Type::e5m2, kRn, 0x7c);     // ... or +Inf without satfinite
  expect_cvt(-61440.0f, Type::e5m2, kRn, 0xfc);
  expect_cvt(std::nextafter(61440.0f, 0.0f), Type::e5m2, kRn, 0x7b);
  expect_cvt(kInf, Type::e5m2, kRnSat, 0x7b);
  expect_cvt(kNegInf, Type::e5m2, kRnSat, 0xfb);
  expect_cvt(kInf, Type::e5m2, kRn, 0x7c);
  expect_cvt(kNaN, Type::e5m2, kRnSat, 0x7f);
  expect_cvt(kNegNaN, Type::e5m2, kRnSat, 0x7f);
  expect_cvt(0x1p-16f, Type::e5m2, kRnSat, 0x01);
  expect_cvt(0x1p-17f, Type::e5m2, kRnSat, 0x00);
}

TEST(CvtF16BF16, SatfiniteAndDirectedOverflow) {
  expect_cvt(65504.0f, Type::f16, kRn, 0x7bff);
  expect_cvt(65519.0f, Type::f16, kRn, 0x7bff);
  expect_cvt(65520.0f, Type::f16, kRn, 0x7c00);      // tie 65504 (odd) / 65536 -> Inf
  expect_cvt(65520.0f, Type::f16, kRnSat, 0x7bff);
  expect_cvt(-65520.0f, Type::f16, kRnSat, 0xfbff);
  expect_cvt(1e10f, Type::f16, kRz, 0x7bff);         // rz never overflows to Inf
  expect_cvt(-1e10f, Type::f16, kRm, 0xfc00);        // toward -Inf: away for negatives
  expect_cvt(-1e10f, Type::f16, kRp, 0xfbff);
  expect_cvt(1e10f, Type::f16, kRp, 0x7c00);
  expect_cvt(1e10f, Type::f16, kRm, 0x7bff);
  expect_cvt(kInf, Type::f16, kRnSat, 0x7bff);
  expect_cvt(kNegInf, Type::f16, kRnSat, 0xfbff);
  expect_cvt(kInf, Type::f16, kRz, 0x7c00);          // Inf is exact: stays Inf
  expect_cvt(kNaN, Type::f16, kRnSat, 0x7fff);
  expect_cvt(0x1p-25f, Type::f16, kRn, 0x0000);      // half the min subnormal -> 0
  expect_cvt(0x1p-25f, Type::f16, kRp, 0x0001);
  expect_cvt(-0x1p-25f, Type::f16, kRm, 0x8001);
  expect_cvt(-0x1p-25f, Type::f16, kRz, 0x8000);
  expect_cvt(bits(1e38f), Type::bf16, kRnSat, 0x7e96);  // 0x7E967699: low half below the tie
  expect_cvt(0x7f7fffffu, Type::bf16, kRnSat, 0x7f7f);
  expect_cvt(0xff7fffffu, Type::bf16, kRnSat, 0xff7f);
  expect_cvt(0x7f7fffffu, Type::bf16, kRn, 0x7f80);
  expect_cvt(kInf, Type::bf16, kRnSat, 0x7f7f);
  expect_cvt(kNaN, Type::bf16, kRn, 0x7fff);
}

TEST(CvtTF32, RnaAndTheAddAndMaskSequence) {
  // Codes are bits [31:13]; container_of gives the b32 register value.
  const TypeInfo& tf = info(Type::tf32);
  const auto tf32 = [&](std::uint32_t x, ConvertFlags f) {
    const std::uint64_t a = convert(Type::f32, x, Type::tf32, f);
    EXPECT_EQ(round_exact(Type::tf32, exact_value(Type::f32, x), f), a) << text(x, Type::tf32, f);
    return static_cast<std::uint32_t>(container_of(tf, a));
  };
  EXPECT_EQ(tf32(0x3f801000, kRna), 0x3f802000u);  // 1 + 2^-11: tie, away
  EXPECT_EQ(tf32(0x3f801000, kRn), 0x3f800000u);   // ... to even
  EXPECT_EQ(tf32(0x3f803000, kRn), 0x3f804000u);
  EXPECT_EQ(tf32(0xbf801000, kRna), 0xbf802000u);
  EXPECT_EQ(tf32(0x3f801fff, kRz), 0x3f800000u);
  EXPECT_EQ(tf32(0x7f7ff000, kRna), 0x7f800000u);     // carries into Inf
  EXPECT_EQ(tf32(0x7f7ff000, kRnaSat), 0x7f7fe000u);  // satfinite: max 0x7F7FE000
  EXPECT_EQ(tf32(0x7f800000, kRna), 0x7f800000u);
  EXPECT_EQ(tf32(0x00001000, kRna), 0x00002000u);     // subnormal tie
  EXPECT_EQ(tf32(kNaN, kRna), 0x7fffe000u);           // canonical NaN (unverified, §5)
  // §1.5: Ampere's rna is (x + 0x1000) & 0xFFFFE000, equal to rna for every finite input.
  // Fast path on 1,000,000 pseudo-random finite inputs, both implementations on the first 2,000.
  std::uint32_t x = 0x12345678;
  int bad = 0;
  for (int i = 0; i < 1000000 && bad < 10; ++i) {
    x = x * 1664525u + 1013904223u;
    if ((x & 0x7f800000u) == 0x7f800000u) continue;
    const std::uint32_t want = (x + 0x1000u) & 0xffffe000u;
    const auto got = i < 2000 ? tf32(x, kRna) : static_cast<std::uint32_t>(container_of(tf, convert(Type::f32, x, Type::tf32, kRna)));
    if (got != want) {
      ++bad;
      ADD_FAILURE() << std::hex << "f32 0x" << x << ": rna 0x" << got << ", add-and-mask 0x" << want;
    }
  }
}

TEST(CvtFP6FP4, NaNBecomesPositiveMaxAndSaturation) {
  for (const std::uint32_t nan : {kNaN, kNegNaN, kSNaN, 0xffffffffu}) {
    for (const ConvertFlags f : {kRnSat, kRnSatRelu, kRzSat}) {
      expect_cvt(nan, Type::e2m3, f, 0x1f);  // 7.5
      expect_cvt(nan, Type::e3m2, f, 0x1f);  // 28
      expect_cvt(nan, Type::e2m1, f, 0x7);   // 6
    }
  }
  expect_cvt(kInf, Type::e2m3, kRnSat, 0x1f);
  expect_cvt(kNegInf, Type::e2m3, kRnSat, 0x3f);
  expect_cvt(kNegInf, Type::e3m2, kRnSat, 0x3f);
  expect_cvt(kNegInf, Type::e2m1, kRnSat, 0xf);
  expect_cvt(kNegInf, Type::e2m1, kRnSatRelu, 0x0);
  expect_cvt(100.0f, Type::e2m1, kRnSat, 0x7);
  expect_cvt(-100.0f, Type::e3m2, kRnSat, 0x3f);
  // e2m1 grid: 0 0.5 1 1.5 2 3 4 6.
  expect_cvt(0.25f, Type::e2m1, kRnSat, 0x0);  // tie 0 / 0.5 -> 0
  expect_cvt(-0.25f, Type::e2m1, kRnSat, 0x8); // -0
  expect_cvt(0.75f, Type::e2m1, kRnSat, 0x2);  // tie 0.5 (odd) / 1 -> 1
  expect_cvt(2.5f, Type::e2m1, kRnSat, 0x4);   // tie 2 / 3 (odd) -> 2
  expect_cvt(3.5f, Type::e2m1, kRnSat, 0x6);   // tie 3 (odd) / 4 -> 4
  expect_cvt(5.0f, Type::e2m1, kRnSat, 0x6);   // tie 4 / 6 (odd) -> 4
  expect_cvt(5.5f, Type::e2m1, kRnSat, 0x7);
  expect_cvt(7.0f, Type::e2m1, kRnSat, 0x7);   // tie 6 / 8: overflow, clamped
  expect_cvt(5.9f, Type::e2m1, kRzSat, 0x6);
  expect_cvt(7.5f, Type::e2m3, kRnSat, 0x1f);
  expect_cvt(7.75f, Type::e2m3, kRnSat, 0x1f);
  expect_cvt(0.0625f, Type::e2m3, kRnSat, 0x00);  // half of min subnormal 0.125
  expect_cvt(28.0f, Type::e3m2, kRnSat, 0x1f);
  expect_cvt(30.0f, Type::e3m2, kRnSat, 0x1f);
  expect_cvt(0.0625f, Type::e3m2, kRnSat, 0x01);
}

TEST(CvtRelu, NegativesAndNegativeZeroBecomePlusZero) {
  ConvertFlags relu = kRn;
  relu.relu = true;
  expect_cvt(-1.0f, Type::f16, relu, 0x0000);
  expect_cvt(0x80000000u, Type::f16, relu, 0x0000);  // -0 -> +0 (unverified choice, §5 item 10)
  expect_cvt(0x80000000u, Type::bf16, relu, 0x0000);
  expect_cvt(-1e-30f, Type::e4m3, kRnSatRelu, 0x00);
  expect_cvt(kNegInf, Type::f16, relu, 0x0000);
  expect_cvt(kNegNaN, Type::f16, relu, 0x7fff);      // NaN -> canonical NaN
  expect_cvt(kNegNaN, Type::e4m3, kRnSatRelu, 0x7f);
  expect_cvt(2.0f, Type::f16, relu, 0x4000);
  // A NaN of a wider IEEE source keeps its payload without relu, and is canonical with it.
  EXPECT_EQ(convert(Type::f16, 0xfd01, Type::f16, kRn), 0xff01u);
  EXPECT_EQ(convert(Type::f16, 0xfd01, Type::f16, relu), 0x7fffu);
  EXPECT_EQ(convert(Type::f16, 0xfd01, Type::f32, kRn), 0xffe02000u);
}

TEST(CvtUE8M0, RoundTowardZeroAndUpRules) {
  for (const ConvertFlags f : {kRz, kRzSat, kRp, kRpSat}) {
    expect_cvt(0.0f, Type::ue8m0, f, 0x00);  // no zero: smallest code
    expect_cvt(0x80000000u, Type::ue8m0, f, 0x00);
    expect_cvt(1.0f, Type::ue8m0, f, 0x7f);
    expect_cvt(-1.0f, Type::ue8m0, f, 0x7f);  // sign ignored
    expect_cvt(0x1p-126f, Type::ue8m0, f, 0x01);
    expect_cvt(0x1p127f, Type::ue8m0, f, 0xfe);
    expect_cvt(kNaN, Type::ue8m0, f, 0xff);
    expect_cvt(kNegNaN, Type::ue8m0, f, 0xff);
    expect_cvt(kInf, Type::ue8m0, f, f.satfinite ? 0xfe : 0xff);
    expect_cvt(kNegInf, Type::ue8m0, f, f.satfinite ? 0xfe : 0xff);
    expect_cvt(0x1p-127f, Type::ue8m0, f, 0x00);  // 2^-127 (an f32 subnormal)
    expect_cvt(0x1p-149f, Type::ue8m0, f, 0x00);
  }
  // rz: floor(log2|x|); everything below 2^-126 -> 0x00.
  expect_cvt(3.0f, Type::ue8m0, kRz, 0x80);
  expect_cvt(-3.0f, Type::ue8m0, kRz, 0x80);
  expect_cvt(std::nextafter(0x1p-126f, 0.0f), Type::ue8m0, kRz, 0x00);
  expect_cvt(0x7f7fffffu, Type::ue8m0, kRz, 0xfe);
  // rp: ceil(log2|x|); 2^-127 < |x| <= 2^-126 -> 0x01; results of 2^128 -> 0xFF, or 0xFE with satfinite.
  expect_cvt(3.0f, Type::ue8m0, kRp, 0x81);
  expect_cvt(-3.0f, Type::ue8m0, kRp, 0x81);
  expect_cvt(2.0f, Type::ue8m0, kRp, 0x80);
  expect_cvt(0x00400001u, Type::ue8m0, kRp, 0x01);  // just above 2^-127
  expect_cvt(std::nextafter(0x1p-126f, 0.0f), Type::ue8m0, kRp, 0x01);
  expect_cvt(std::nextafter(0x1p127f, 3e38f), Type::ue8m0, kRp, 0xff);
  expect_cvt(std::nextafter(0x1p127f, 3e38f), Type::ue8m0, kRpSat, 0xfe);
  expect_cvt(0x7f7fffffu, Type::ue8m0, kRp, 0xff);
  expect_cvt(0x7f7fffffu, Type::ue8m0, kRpSat, 0xfe);
}

TEST(CvtUpConversions, FromNarrowFormats) {
  // ue8m0 -> bf16: k -> k << 7, 0x00 -> 0x0040 (2^-127, a bf16 subnormal), 0xFF -> 0x7FFF.
  EXPECT_EQ(convert(Type::ue8m0, 0x00, Type::bf16, kRn), 0x0040u);
  EXPECT_EQ(convert(Type::ue8m0, 0xff, Type::bf16, kRn), 0x7fffu);
  for (std::uint64_t k = 1; k < 0xff; ++k) EXPECT_EQ(convert(Type::ue8m0, k, Type::bf16, kRn), k << 7);
  // FP8 NaNs -> 0x7FFF, sign dropped; e5m2 +-Inf -> f16 +-Inf.
  for (const std::uint64_t nan : {0x7fu, 0xffu})
    EXPECT_EQ(convert(Type::e4m3, nan, Type::f16, kRn), 0x7fffu);
  for (const std::uint64_t nan : {0x7du, 0x7eu, 0x7fu, 0xfdu, 0xfeu, 0xffu}) {
    EXPECT_EQ(convert(Type::e5m2, nan, Type::f16, kRn), 0x7fffu) << nan;
    EXPECT_EQ(convert(Type::e5m2, nan, Type::bf16, kRn), 0x7fffu) << nan;
  }
  EXPECT_EQ(convert(Type::e5m2, 0x7c, Type::f16, kRn), 0x7c00u);
  EXPECT_EQ(convert(Type::e5m2, 0xfc, Type::f16, kRn), 0xfc00u);
  // Every finite FP8/FP6/FP4 code is exact in f16, bf16 and f32.
  for (const Type src : {Type::e4m3, Type::e5m2, Type::e3m2, Type::e2m3, Type::e2m1, Type::ue4m3}) {
    for (std::uint64_t c = 0; c <= info(src).mask(); ++c) {
      const ExactValue x = exact_value(src, c);
      if (x.cls == FpClass::nan || x.cls == FpClass::infinity) continue;
      for (const Type dst : {Type::f16, Type::bf16, Type::f32}) {
        const std::uint64_t y = convert(src, c, dst, kRn);
        EXPECT_EQ(exact_value(dst, y).value, x.value) << name(src) << " " << c << " -> " << name(dst);
        EXPECT_EQ(exact_value(dst, y).negative, x.negative) << name(src) << " " << c << " -> " << name(dst);
      }
    }
  }
}

TEST(CvtOverflowToInf, TensorCoreFlag) {
  ConvertFlags f = kRz;
  f.overflow_to_inf = true;
  expect_cvt(1e10f, Type::f16, f, 0x7c00);
  expect_cvt(-1e10f, Type::f16, f, 0xfc00);
  f.mode = Rounding::rm;
  expect_cvt(1e10f, Type::f16, f, 0x7c00);
  f.satfinite = true;  // satfinite still wins
  expect_cvt(1e10f, Type::f16, f, 0x7bff);
}

TEST(CvtToInteger, SaturationNaNAndModes) {
  const auto s = [](std::uint32_t x, Type dst, Rounding m, std::uint64_t want) {
    EXPECT_EQ(convert(Type::f32, x, dst, ConvertFlags{m}), want) << text(x, dst, ConvertFlags{m});
    EXPECT_EQ(round_exact(dst, exact_value(Type::f32, x), ConvertFlags{m}), want) << text(x, dst, ConvertFlags{m});
  };
  s(bits(127.5f), Type::s8, Rounding::rn, 127);   // 128 saturates
  s(bits(-128.5f), Type::s8, Rounding::rn, 0x80);
  s(bits(300.0f), Type::s8, Rounding::rz, 127);
  s(kNegInf, Type::s8, Rounding::rn, 0x80);
  s(kInf, Type::u8, Rounding::rn, 255);
  s(kNaN, Type::s32, Rounding::rn, 0);
  s(bits(-1.0f), Type::u8, Rounding::rn, 0);
  s(bits(-0.4f), Type::u8, Rounding::rn, 0);
  s(bits(2147483648.0f), Type::s32, Rounding::rn, 0x7fffffff);
  s(bits(-2147483648.0f), Type::s32, Rounding::rn, 0x80000000);
  s(bits(1e30f), Type::s32, Rounding::rn, 0x7fffffff);
  s(bits(2.5f), Type::s32, Rounding::rn, 2);
  s(bits(2.5f), Type::s32, Rounding::rna, 3);
  s(bits(-2.5f), Type::s32, Rounding::rm, static_cast<std::uint32_t>(-3));
  s(bits(-2.5f), Type::s32, Rounding::rp, static_cast<std::uint32_t>(-2));
  s(bits(7.5f), Type::s4, Rounding::rn, 7);
  s(bits(-9.0f), Type::s4, Rounding::rn, 0x8);
  s(bits(15.4f), Type::u4, Rounding::rn, 15);
  // An exact zero with a large exponent is still zero.
  EXPECT_EQ(round_to_integer(Type::s8, Unrounded{false, 100, 0, false}, Rounding::rn), 0u);
}

// ---------------------------------------------------------------------------------------------
// Packing (§1.2, §1.4).

TEST(Packing, PairOrderHighOperandFirst) {
  // cvt d, a, b: a -> high element, b -> low element.
  EXPECT_EQ(pack_pair(Type::f16, 0x3c00, 0x4000), 0x3c004000u);
  EXPECT_EQ(pack_pair(Type::bf16, 0xabcd, 0x1234), 0xabcd1234u);
  EXPECT_EQ(pack_pair(Type::e4m3, 0x7e, 0x01), 0x7e01u);
  EXPECT_EQ(pack_pair(Type::e5m2, 0xfb, 0x7c), 0xfb7cu);
  EXPECT_EQ(pack_pair(Type::ue8m0, 0x7f, 0x80), 0x7f80u);
  EXPECT_EQ(pack_pair(Type::e2m1, 0x7, 0x9), 0x79u);               // a -> [7:4], b -> [3:0]
  EXPECT_EQ(pack_pair(Type::e2m3, 0x3f, 0x21), 0x3f21u);           // a -> [13:8], b -> [5:0]
  EXPECT_EQ(pack_pair(Type::e3m2, 0xff, 0xff) & 0xc0c0u, 0u);      // [15:14] and [7:6] stay zero
  EXPECT_EQ(pack_pair(Type::e3m2, 0xff, 0xff), 0x3f3fu);
  EXPECT_EQ(pack_pair(Type::e2m1, 0xff, 0xff), 0xffu);
  EXPECT_EQ(pack_pair(Type::e4m3, 0x1ff, 0x100), 0xff00u);         // excess bits of a code dropped
  for (const Type t : {Type::f16, Type::bf16, Type::e4m3, Type::e5m2, Type::e3m2, Type::e2m3, Type::e2m1,
                       Type::ue8m0}) {
    const auto m = static_cast<std::uint32_t>(info(t).mask());
    for (std::uint32_t a = 0; a <= m; a += (m >> 3) | 1)
      for (std::uint32_t b = 0; b <= m; b += (m >> 2) | 1) {
        const std::uint32_t p = pack_pair(t, a, b);
        EXPECT_EQ(pair_high(t, p), a) << name(t);
        EXPECT_EQ(pair_low(t, p), b) << name(t);
      }
  }
}

TEST(Packing, F8F6F4ContainerPutsE2M1InBits5To2) {
  EXPECT_EQ(container_shift(Type::e2m1, Container::f8f6f4), 2);
  EXPECT_EQ(container_shift(Type::e2m1, Container::packed), 0);
  EXPECT_EQ(container_shift(Type::e3m2, Container::f8f6f4), 0);
  EXPECT_EQ(container_shift(Type::e2m3, Container::f8f6f4), 0);
  EXPECT_EQ(container_shift(Type::e4m3, Container::f8f6f4), 0);
  for (std::uint32_t c = 0; c < 16; ++c) {
    EXPECT_EQ(to_container(Type::e2m1, Container::f8f6f4, c), c << 2);
    // Padding bits [7:6] and [1:0] are ignored on the way in.
    EXPECT_EQ(from_container(Type::e2m1, Container::f8f6f4, (c << 2) | 0xc3), c);
    EXPECT_EQ(from_container(Type::e2m1, Container::packed, c), c);
  }
  EXPECT_EQ(to_container(Type::e2m1, Container::f8f6f4, 0x7), 0x1cu);  // 6.0
  for (std::uint32_t c = 0; c < 64; ++c) {
    EXPECT_EQ(to_container(Type::e3m2, Container::f8f6f4, c), c);
    EXPECT_EQ(from_container(Type::e3m2, Container::f8f6f4, c | 0xc0), c);
    EXPECT_EQ(from_container(Type::e2m3, Container::f8f6f4, c | 0xc0), c);
  }
  EXPECT_EQ(from_container(Type::e4m3, Container::f8f6f4, 0xab), 0xabu);
}

TEST(Packing, ElementsOfARegister) {
  EXPECT_EQ(get_element(0x12345678u, 8, 0), 0x78u);
  EXPECT_EQ(get_element(0x12345678u, 8, 3), 0x12u);
  EXPECT_EQ(get_element(0x12345678u, 4, 1), 0x7u);
  EXPECT_EQ(get_element(0x12345678u, 16, 1), 0x1234u);
  EXPECT_EQ(get_element(0x80000000u, 1, 31), 1u);
  EXPECT_EQ(get_element(0xdeadbeefu, 32, 0), 0xdeadbeefu);
  EXPECT_EQ(set_element(0x12345678u, 8, 2, 0xab), 0x12ab5678u);
  EXPECT_EQ(set_element(0x12345678u, 4, 7, 0xff), 0xf2345678u);
  EXPECT_EQ(set_element(0u, 32, 0, 0xcafef00du), 0xcafef00du);
  // tf32: the code is bits [31:13] of the b32.
  const TypeInfo& tf = info(Type::tf32);
  EXPECT_EQ(code_of(tf, 0x3f801fffu), 0x3f801fffu >> 13);
  EXPECT_EQ(container_of(tf, code_of(tf, 0x3f802000u)), 0x3f802000u);
}

TEST(ParseDecimal, AcceptsAndRejects) {
  EXPECT_TRUE(parse_decimal("1.5e+3").has_value());
  EXPECT_EQ(parse_decimal("1.5e+3")->value, Rational(1500));
  EXPECT_EQ(parse_decimal("-0.125")->value, Rational(-1, 8));
  EXPECT_TRUE(parse_decimal("-0")->negative);
  EXPECT_EQ(parse_decimal("-inf")->cls, FpClass::infinity);
  EXPECT_EQ(parse_decimal("NaN")->cls, FpClass::nan);
  for (const char* bad : {"", "-", ".", "1.2.3", "1e", "1e+", "1e+-5", "1e--5", "e5", "0x10", "1 ", " 1", "++1", "1f"})
    EXPECT_FALSE(parse_decimal(bad).has_value()) << "'" << bad << "'";
}

}  // namespace
}  // namespace ptxmma
