// f16_of_f32_rn (sim/numeric/f32_bits.hpp), the hot loops' binary32 -> f16 rounding, against
// convert(): every exponent and sign with the fraction bits next to each possible rounding
// position set in the patterns that decide a rounding (below, at and above the tie, odd and even
// kept bits), and a million random finite patterns.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "sim/numeric/f32_bits.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {
namespace {

std::uint32_t oracle(std::uint32_t x) {
  return static_cast<std::uint32_t>(convert(Type::f32, x, Type::f16, ConvertFlags{Rounding::rn}));
}

TEST(F16Rounding, FastPathMatchesConvertAtEveryRoundingPosition) {
  long checked = 0, wrong = 0;
  const auto check = [&](std::uint32_t x) {
    ++checked;
    if (f16_of_f32_rn(x) != oracle(x) && ++wrong <= 5)
      ADD_FAILURE() << std::hex << x << ": " << f16_of_f32_rn(x) << ", convert " << oracle(x);
  };
  for (std::uint32_t sign : {0U, 0x80000000U})
    for (std::uint32_t e = 0; e < 255; ++e)
      for (int cut = 1; cut <= 23; ++cut)  // the bits below bit `cut` are the ones rounded away
        for (std::uint32_t kept : {0U, 1U, 2U, 3U, 0x3ffU, 0x7fffffU})
          for (std::uint32_t low : {0U, 1U, 2U, 3U})  // below, at, above the tie
            {
              const std::uint32_t half = 1U << (cut - 1);
              const std::uint32_t rest = low == 0 ? 0 : low == 1 ? half - 1 : low == 2 ? half : half + 1;
              const std::uint32_t frac = ((kept << cut) | (rest & ((1U << cut) - 1))) & 0x7fffffU;
              check(sign | e << 23 | frac);
            }
  std::mt19937 rng(7);
  for (int i = 0; i < 1000000; ++i) {
    const std::uint32_t x = rng();
    if ((x & 0x7f800000U) != 0x7f800000U) check(x);
  }
  EXPECT_EQ(wrong, 0) << "of " << checked;
}

}  // namespace
}  // namespace ptxmma
