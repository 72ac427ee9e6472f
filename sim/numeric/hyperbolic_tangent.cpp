#include "sim/numeric/hyperbolic_tangent.hpp"

#include <array>

#include "sim/numeric/f32_bits.hpp"

namespace ptxmma {

namespace {

constexpr std::uint32_t kFirstExponent = 119;  // 2^-8: below it the result is x
constexpr std::uint32_t kOneExponent = 130;    // 8: from it on the result is 1
// Leading fraction bits that decide the result, per biased exponent 119 ... 129.
constexpr std::array<unsigned, kOneExponent - kFirstExponent> kBits = {17, 17, 17, 18, 18, 19, 19, 19, 20, 21, 20};

constexpr std::array<std::uint32_t, kBits.size()> offsets() {
  std::array<std::uint32_t, kBits.size()> o{};
  std::uint32_t at = 0;
  for (std::size_t i = 0; i < kBits.size(); ++i) {
    o[i] = at;
    at += 1u << kBits[i];
  }
  return o;
}
constexpr std::array<std::uint32_t, kBits.size()> kOffset = offsets();
static_assert(kOffset.back() + (1u << kBits.back()) <= (1u << 23), "the binades fit a 2^23-entry table");

}  // namespace

SpecialKey tanh_approx_key(std::uint32_t x) {
  if (f32_is_nan(x)) return SpecialKey::fixed(kF32NaN);
  const std::uint32_t sign = x & kF32Sign, e = (x >> 23) & 0xff;
  if (e < kFirstExponent) return SpecialKey::fixed(x);
  if (e >= kOneExponent) return SpecialKey::fixed(sign | 0x3f800000u);
  const std::size_t b = e - kFirstExponent;
  return {false, 0, kOffset[b] + ((x & 0x7fffffu) >> (23 - kBits[b])), 0, sign != 0};
}

}  // namespace ptxmma
