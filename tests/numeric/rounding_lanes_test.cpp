// The engines' 8-lane roundings (sim/numeric/rounding_lanes.hpp) against convert(), value by
// value: every exponent and sign with the bits next to each possible rounding position set in the
// patterns that decide a rounding (below, at and above the tie, odd and even kept bits), as
// f16_rounding_test does for the scalar f16_of_f32_rn, and random values.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/numeric/f32_bits.hpp"
#include "sim/numeric/rounding_lanes.hpp"

namespace ptxmma {
namespace {

// Each pattern of f32_of_f16 / f16_of_f32 rounding-position cases, 8 to a vector.
template <class F>
void in_lanes(const std::vector<std::uint32_t>& xs, F&& check) {
  for (std::size_t at = 0; at < xs.size(); at += 8) {
    UInts8 x{};
    for (std::size_t l = 0; l < 8; ++l) x[l] = xs[std::min(at + l, xs.size() - 1)];
    check(x);
  }
}

TEST(RoundingLanes, F16OfF32MatchesConvertAtEveryRoundingPosition) {
  std::vector<std::uint32_t> xs;
  for (std::uint32_t sign : {0U, 0x80000000U})
    for (std::uint32_t e = 0; e < 255; ++e)
      for (int cut = 1; cut <= 23; ++cut)
        for (std::uint32_t kept : {0U, 1U, 2U, 3U, 0x3ffU, 0x7fffffU})
          for (std::uint32_t low : {0U, 1U, 2U, 3U}) {
            const std::uint32_t half = 1U << (cut - 1);
            const std::uint32_t rest = low == 0 ? 0 : low == 1 ? half - 1 : low == 2 ? half : half + 1;
            xs.push_back(sign | e << 23 | (((kept << cut) | (rest & ((1U << cut) - 1))) & 0x7fffffU));
          }
  std::mt19937 rng(8);
  for (int i = 0; i < 1000000; ++i)
    if (const std::uint32_t x = rng(); (x & 0x7f800000U) != 0x7f800000U) xs.push_back(x);
  long wrong = 0;
  in_lanes(xs, [&](const UInts8& x) {
    UInts8 h;
    f16_of_f32_rn_lanes(x, h);
    for (int l = 0; l < 8; ++l) {
      const auto want = convert(Type::f32, x[l], Type::f16, ConvertFlags{Rounding::rn});
      if (h[l] != want && ++wrong <= 5) ADD_FAILURE() << std::hex << x[l] << ": " << h[l] << ", convert " << want;
    }
  });
  EXPECT_EQ(wrong, 0) << "of " << xs.size();
}

// The lanes and the scalar f32_of_f16 (f32_bits.hpp).
TEST(RoundingLanes, F32OfF16IsExactForEveryFiniteCode) {
  std::vector<std::uint32_t> codes;
  for (std::uint32_t h = 0; h < 0x10000U; ++h)
    if ((h & 0x7c00U) != 0x7c00U) codes.push_back(h);
  in_lanes(codes, [&](const UInts8& h) {
    Floats8 f;
    f32_of_f16_lanes(h, f);
    for (int l = 0; l < 8; ++l) {
      const auto want = convert(Type::f16, h[l], Type::f32, ConvertFlags{});
      ASSERT_EQ(std::bit_cast<std::uint32_t>(f[l]), want) << std::hex << h[l];
      ASSERT_EQ(f32_of_f16(h[l]), want) << "scalar " << std::hex << h[l];
    }
  });
}

// round_sum_lanes with all of D's fraction bits is IEEE rounding of the exact value, but for the
// block sum's two rules: overflow is Inf in every mode, and a zero is +0. The exact value
// total * 2^cut is an f64 here (total below 2^53, cut within range), which convert() rounds.
void check_sums(Type d, Rounding mode) {
  const TypeInfo& di = info(d);
  const SumFormat f{di.emin(), di.man_bits, di.man_bits, mode, di.max_finite(), di.sign_bit(), di.inf_bits(false), di.inf_bits(true)};
  std::vector<std::pair<double, int>> sums;  // total, cut
  const double largest = std::bit_cast<double>(convert(d, di.max_finite(), Type::f64, ConvertFlags{}));
  const int top_exp = std::ilogb(largest) + 1;  // the binade past the largest finite value
  for (const double sign : {1.0, -1.0})
    for (int e = di.emin() - di.man_bits - 3; e <= top_exp + 1; ++e)  // the value's binade 2^e
      for (int width = di.man_bits + 1; width <= 53; width += std::max(1, (53 - di.man_bits) / 6)) {
        // total has `width` significant bits, so the bits past the kept ones vary with e.
        for (const std::uint64_t kept : {0ULL, 1ULL, 2ULL, 3ULL})
          for (int low = 0; low < 4; ++low) {
            const int below = width - 1 - di.man_bits;  // total's bits under D's last kept bit, at normal e
            std::uint64_t t = (1ULL << (width - 1)) | kept << std::max(below, 0);
            if (below > 0) {
              const std::uint64_t half = 1ULL << (below - 1);
              t |= low == 0 ? 0 : low == 1 ? half - 1 : low == 2 ? half : half + 1;
            }
            sums.emplace_back(sign * static_cast<double>(t), e - (width - 1));
          }
      }
  std::mt19937_64 rng(9);
  for (int i = 0; i < 200000; ++i) {
    const auto t = static_cast<double>(rng() >> (11 + rng() % 50)) * ((rng() & 1) ? 1 : -1);
    sums.emplace_back(t, static_cast<int>(rng() % 80) - 60 + di.emin());
  }
  long wrong = 0;
  for (std::size_t at = 0; at < sums.size(); at += 8) {
    Doubles8 total{};
    Ints8 cut{};
    for (std::size_t l = 0; l < 8 && at + l < sums.size(); ++l) {
      total[l] = sums[at + l].first;
      cut[l] = sums[at + l].second;
    }
    UInts8 got;
    round_sum_lanes(f, total, cut, got);
    for (int l = 0; l < 8; ++l) {
      const double exact = std::ldexp(total[l], cut[l]);
      std::uint64_t want = convert(Type::f64, std::bit_cast<std::uint64_t>(exact), d, ConvertFlags{mode});
      // From the binade past the largest finite value on: Inf in every mode (where the
      // largest finite value would be IEEE's).
      if (std::fabs(exact) >= std::ldexp(1.0, top_exp)) want = di.inf_bits(exact < 0);
      if (want == di.sign_bit()) want = 0;
      if (got[l] != want && ++wrong <= 5)
        ADD_FAILURE() << name(d) << " " << name(mode) << ": " << total[l] << " * 2^" << cut[l] << ": " << std::hex
                      << got[l] << ", convert " << want;
    }
  }
  EXPECT_EQ(wrong, 0) << name(d) << " " << name(mode) << ", of " << sums.size();
}

TEST(RoundingLanes, BlockSumsMatchConvertAtEveryRoundingPosition) {
  for (const Type d : {Type::f16, Type::f32})
    for (const Rounding r : {Rounding::rn, Rounding::rna, Rounding::rz, Rounding::rm, Rounding::rp}) check_sums(d, r);
}

}  // namespace
}  // namespace ptxmma
