// Exhaustive checks of every encoding of every element format of 19 bits or fewer:
// the parameters of docs/numerics.md §1.1, decode() and exact_value() against an independent decoder
// written from the §1.1 formulas, and re-encoding into the same format by the fast path
// (round_to, convert) and by the rational oracle (round_exact).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/numeric/exact.hpp"
#include "sim/numeric/fields.hpp"
#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {
namespace {

constexpr Rounding kModes[] = {Rounding::rn, Rounding::rna, Rounding::rz, Rounding::rm, Rounding::rp};

// docs/numerics.md §1.1, copied by hand (not derived from type.cpp).
enum class NanRule { ieee, all_ones_low, only_ff, none };
struct Spec {
  Type type;
  int bits, e, m, bias;
  bool is_signed, has_inf, subnormals;
  NanRule nan;
  std::uint64_t max_code;   // largest finite, positive
  double max_value;
  double min_subnormal;     // ue8m0: its smallest value 2^-127
  std::uint64_t canonical;  // canonical NaN code (FP6/FP4: 0, none)
};

const Spec kSpecs[] = {
    {Type::f16, 16, 5, 10, 15, true, true, true, NanRule::ieee, 0x7bff, 65504.0, 0x1p-24, 0x7fff},
    {Type::bf16, 16, 8, 7, 127, true, true, true, NanRule::ieee, 0x7f7f, 0x1.fep127, 0x1p-133, 0x7fff},
    // tf32 codes are bits [31:13] of the b32: max 0x7F7FE000 >> 13.
    {Type::tf32, 19, 8, 10, 127, true, true, true, NanRule::ieee, 0x7f7fe000 >> 13, 0x1.ffcp127, 0x1p-136,
     0x7fffe000 >> 13},
    {Type::e4m3, 8, 4, 3, 7, true, false, true, NanRule::all_ones_low, 0x7e, 448.0, 0x1p-9, 0x7f},
    {Type::e5m2, 8, 5, 2, 15, true, true, true, NanRule::ieee, 0x7b, 57344.0, 0x1p-16, 0x7f},
    {Type::e3m2, 6, 3, 2, 3, true, false, true, NanRule::none, 0x1f, 28.0, 0x1p-4, 0},
    {Type::e2m3, 6, 2, 3, 1, true, false, true, NanRule::none, 0x1f, 7.5, 0x1p-3, 0},
    {Type::e2m1, 4, 2, 1, 1, true, false, true, NanRule::none, 0x7, 6.0, 0.5, 0},
    {Type::ue8m0, 8, 8, 0, 127, false, false, false, NanRule::only_ff, 0xfe, 0x1p127, 0x1p-127, 0xff},
    {Type::ue4m3, 7, 4, 3, 7, false, false, true, NanRule::all_ones_low, 0x7e, 448.0, 0x1p-9, 0x7f},
};

struct RefValue {
  bool sign = false, nan = false, inf = false;
  std::uint32_t e = 0;
  std::uint64_t m = 0;
  double value = 0;  // finite only; every value of these formats is a double
};

// The §1.1 formulas: normal (-1)^S 2^(E-bias) (1 + M/2^m); E = 0: (-1)^S 2^(1-bias) (M/2^m).
RefValue ref_decode(const Spec& s, std::uint64_t code) {
  RefValue r;
  r.sign = s.is_signed && ((code >> (s.bits - 1)) & 1);
  r.e = static_cast<std::uint32_t>((code >> s.m) & ((1u << s.e) - 1));
  r.m = code & ((1ull << s.m) - 1);
  const bool top = r.e == (1u << s.e) - 1;
  switch (s.nan) {
    case NanRule::ieee: r.nan = top && r.m != 0; break;
    case NanRule::all_ones_low: r.nan = top && r.m == (1ull << s.m) - 1; break;
    case NanRule::only_ff: r.nan = top; break;
    case NanRule::none: break;
  }
  r.inf = s.has_inf && top && r.m == 0;
  if (r.nan || r.inf) return r;
  double mag;
  if (r.e == 0 && s.subnormals)
    mag = std::ldexp(static_cast<double>(r.m), 1 - s.bias - s.m);
  else
    mag = std::ldexp(static_cast<double>((1ull << s.m) + r.m), static_cast<int>(r.e) - s.bias - s.m);
  r.value = r.sign ? -mag : mag;
  return r;
}

Rational exact_rational(double d) {
  if (d == 0) return Rational(0);
  int e = 0;
  const double frac = std::frexp(d, &e);  // d = frac * 2^e, 0.5 <= |frac| < 1
  const auto n = static_cast<std::int64_t>(std::ldexp(frac, 53));
  const int k = e - 53;
  const BigInt one = 1;
  return k >= 0 ? Rational(BigInt(n) * (one << k)) : Rational(BigInt(n), one << -k);
}

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

class FloatFormat : public ::testing::TestWithParam<Spec> {};

TEST_P(FloatFormat, ParametersMatchNumericsTable) {
  const Spec& s = GetParam();
  const TypeInfo& ti = info(s.type);
  EXPECT_TRUE(ti.is_float);
  EXPECT_EQ(ti.bits, s.bits);
  EXPECT_EQ(ti.exp_bits, s.e);
  EXPECT_EQ(ti.man_bits, s.m);
  EXPECT_EQ(ti.bias, s.bias);
  EXPECT_EQ(ti.is_signed, s.is_signed);
  EXPECT_EQ(ti.has_inf, s.has_inf);
  EXPECT_EQ(ti.has_subnormals, s.subnormals);
  EXPECT_EQ(ti.max_finite(), s.max_code);
  EXPECT_EQ(ti.canonical_nan(), s.canonical);
  EXPECT_EQ(ti.shift, s.type == Type::tf32 ? 13 : 0);
  EXPECT_EQ(ref_decode(s, s.max_code).value, s.max_value);
  EXPECT_EQ(ref_decode(s, s.subnormals ? 1 : 0).value, s.min_subnormal);
  if (s.has_inf) {
    EXPECT_TRUE(ref_decode(s, ti.inf_bits(false)).inf);
    EXPECT_TRUE(ref_decode(s, ti.inf_bits(true)).inf);
    EXPECT_TRUE(ref_decode(s, ti.inf_bits(true)).sign);
  }
  if (s.nan != NanRule::none) {
    EXPECT_TRUE(ref_decode(s, s.canonical).nan);
  }
}

// decode() and exact_value() of every code against the independent decoder.
TEST_P(FloatFormat, EveryCodeDecodesLikeTheFormulas) {
  const Spec& s = GetParam();
  const TypeInfo& ti = info(s.type);
  int bad = 0;
  for (std::uint64_t c = 0; c < (1ull << s.bits) && bad < 10; ++c) {
    const RefValue r = ref_decode(s, c);
    const Fields f = decode(s.type, c);
    const ExactValue x = exact_value(s.type, c);
    const std::string at = std::string(ti.name) + " " + hex(c);
    bool ok = f.sign == r.sign && f.biased_exp == r.e && f.fraction == r.m;
    FpClass cls;
    if (r.nan) cls = FpClass::nan;
    else if (r.inf) cls = FpClass::infinity;
    else if (r.value == 0) cls = FpClass::zero;
    else if (s.subnormals && r.e == 0) cls = FpClass::subnormal;
    else cls = FpClass::normal;
    ok = ok && f.cls == cls && x.cls == cls && x.negative == r.sign;
    if (cls != FpClass::nan && cls != FpClass::infinity) {
      // value = (-1)^sign * significand * 2^(exponent - man_bits)
      const double from_fields = std::ldexp(static_cast<double>(f.significand), f.exponent - s.m);
      ok = ok && (r.sign ? -from_fields : from_fields) == r.value;
      ok = ok && x.value == exact_rational(r.value);
      if (cls == FpClass::normal) ok = ok && (f.significand >> s.m) == 1;
    }
    if (!ok) {
      ++bad;
      ADD_FAILURE() << at << ": decode sign " << f.sign << " exp " << f.biased_exp << "/" << f.exponent << " frac "
                    << f.fraction << " sig " << f.significand << " class " << name(f.cls) << "; exact "
                    << name(x.cls) << " " << x.value.str() << "; expected value " << r.value << " class "
                    << name(cls);
    }
  }
}

// The fast path: round_to (from decode's fields) and convert (same type in and out) give the code
// back under every mode, with and without satfinite. NaNs follow convert's documented rule:
// f16/bf16/tf32 keep sign and payload (quietened); e5m2 (§1.6) and the others become the canonical NaN.
TEST_P(FloatFormat, EveryCodeReencodesThroughFastPath) {
  const Spec& s = GetParam();
  const TypeInfo& ti = info(s.type);
  int bad = 0;
  for (std::uint64_t c = 0; c < (1ull << s.bits) && bad < 10; ++c) {
    const RefValue r = ref_decode(s, c);
    const Fields f = decode(s.type, c);
    for (const Rounding mode : kModes) {
      for (const bool sat : {false, true}) {
        const ConvertFlags flags{mode, sat, false};
        std::uint64_t want = c;
        if (r.nan) {
          want = s.nan == NanRule::ieee && s.bits >= 16 ? c | (1ull << (s.m - 1)) : s.canonical;
        } else if (r.inf && sat) {
          want = s.max_code | (r.sign ? 1ull << (s.bits - 1) : 0);
        }
        const std::uint64_t got_convert = convert(s.type, c, s.type, flags);
        std::uint64_t got_round = want;
        if (!r.nan && !r.inf)
          got_round = round_to(s.type, Unrounded{f.sign, f.exponent - s.m, f.significand, false}, flags);
        if (got_convert != want || got_round != want) {
          if (++bad <= 10)
            ADD_FAILURE() << ti.name << " " << hex(c) << " ." << name(mode) << (sat ? ".satfinite" : "")
                          << ": convert " << hex(got_convert) << ", round_to " << hex(got_round) << ", expected "
                          << hex(want);
        }
      }
    }
  }
}

// The rational oracle: round_exact(exact_value(c)) == c. Every mode for formats of 8 bits or fewer,
// .rn for f16/bf16/tf32 (the oracle is slow). NaN -> canonical NaN (FP6/FP4 have none).
TEST_P(FloatFormat, EveryCodeReencodesThroughRationalOracle) {
  const Spec& s = GetParam();
  const TypeInfo& ti = info(s.type);
  int bad = 0;
  for (std::uint64_t c = 0; c < (1ull << s.bits) && bad < 10; ++c) {
    const RefValue r = ref_decode(s, c);
    const ExactValue x = exact_value(s.type, c);
    for (const Rounding mode : kModes) {
      if (s.bits > 8 && mode != Rounding::rn) continue;
      const std::uint64_t want = r.nan ? s.canonical : c;
      const std::uint64_t got = round_exact(s.type, x, ConvertFlags{mode, false, false});
      if (got != want && ++bad <= 10)
        ADD_FAILURE() << ti.name << " " << hex(c) << " ." << name(mode) << ": round_exact " << hex(got)
                      << ", expected " << hex(want);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Exhaustive, FloatFormat, ::testing::ValuesIn(kSpecs),
                         [](const ::testing::TestParamInfo<Spec>& p) { return std::string(name(p.param.type)); });

// Integer element types of 16 bits or fewer (§1.1): value, and re-encoding by convert (every
// mode) and round_exact (every mode).
struct IntSpec {
  Type type;
  int bits;
  bool is_signed;
};
const IntSpec kIntSpecs[] = {
    {Type::s8, 8, true}, {Type::u8, 8, false}, {Type::s4, 4, true}, {Type::u4, 4, false}, {Type::b1, 1, false},
};

class IntegerFormat : public ::testing::TestWithParam<IntSpec> {};

TEST_P(IntegerFormat, EveryCodeDecodesAndReencodes) {
  const IntSpec& s = GetParam();
  const TypeInfo& ti = info(s.type);
  EXPECT_FALSE(ti.is_float);
  EXPECT_EQ(ti.bits, s.bits);
  EXPECT_EQ(ti.is_signed, s.is_signed);
  for (std::uint64_t c = 0; c < (1ull << s.bits); ++c) {
    const std::int64_t want =
        s.is_signed && (c >> (s.bits - 1)) ? static_cast<std::int64_t>(c) - (std::int64_t{1} << s.bits)
                                           : static_cast<std::int64_t>(c);
    EXPECT_EQ(integer_value(s.type, c), want) << ti.name << " " << hex(c);
    // Bits above the width are ignored.
    EXPECT_EQ(integer_value(s.type, c | (0xABCull << s.bits)), want) << ti.name << " " << hex(c);
    const ExactValue x = exact_value(s.type, c);
    EXPECT_EQ(x.value, Rational(want)) << ti.name << " " << hex(c);
    EXPECT_EQ(x.cls, want == 0 ? FpClass::zero : FpClass::normal);
    for (const Rounding mode : kModes) {
      EXPECT_EQ(convert(s.type, c, s.type, ConvertFlags{mode}), c) << ti.name << " " << hex(c) << " " << name(mode);
      EXPECT_EQ(round_exact(s.type, x, ConvertFlags{mode}), c) << ti.name << " " << hex(c) << " " << name(mode);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Exhaustive, IntegerFormat, ::testing::ValuesIn(kIntSpecs),
                         [](const ::testing::TestParamInfo<IntSpec>& p) { return std::string(name(p.param.type)); });

TEST(IntegerFormat, S32Extremes) {
  for (const std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1}, std::int64_t{2147483647},
                               std::int64_t{-2147483648LL}, std::int64_t{-12345678}}) {
    const std::uint64_t c = static_cast<std::uint64_t>(v) & 0xffffffffu;
    EXPECT_EQ(integer_value(Type::s32, c), v);
    EXPECT_EQ(exact_value(Type::s32, c).value, Rational(v));
    EXPECT_EQ(convert(Type::s32, c, Type::s32, ConvertFlags{}), c);
    EXPECT_EQ(round_exact(Type::s32, exact_value(Type::s32, c), ConvertFlags{}), c);
  }
}

}  // namespace
}  // namespace ptxmma
