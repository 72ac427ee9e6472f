#include "sim/numeric/log2.hpp"

#include <bit>

#include "sim/numeric/f32_bits.hpp"
#include "sim/numeric/special_key.hpp"

namespace ptxmma {

namespace {

// MUFU.LG2: subnormal inputs are zeros.
std::uint32_t mufu_lg2(const SpecialTable& t, std::uint32_t x) {
  const std::uint32_t e = (x >> 23) & 0xff;
  if (f32_is_nan(x)) return kF32NaN;
  if (e == 0) return kF32Sign | kF32Inf;  // log2(+-0) = -inf
  if (x & kF32Sign) return kF32NaN;
  if (e == 255) return kF32Inf;
  if (x == 0x3f800000u) return 0;  // T(0) is about 2^-23, but log2(1) is exactly 0
  const std::uint32_t f = x & 0x7fffffu;
  const auto tv = static_cast<std::int64_t>(std::uint64_t{t[(1u << 23) | f]} << 32 | t[f]);
  // |e| < 2^7: the sum is exact in 44 bits.
  return f32_from_fixed_rz((static_cast<std::int64_t>(e) - 127) * (std::int64_t{1} << kLg2FractionBits) + tv,
                           kLg2FractionBits);
}

}  // namespace

std::uint32_t f32_from_fixed_rz(std::int64_t v, int fraction_bits) {
  if (v == 0) return 0;
  const std::uint32_t sign = v < 0 ? kF32Sign : 0;
  const std::uint64_t a = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  const int msb = 63 - std::countl_zero(a);
  const std::uint64_t m = msb > 23 ? a >> (msb - 23) : a << (23 - msb);
  return sign | static_cast<std::uint32_t>(msb - fraction_bits + 127) << 23 | (static_cast<std::uint32_t>(m) & 0x7fffffu);
}

// Without .ftz, ptxas scales a subnormal input by 2^24 and subtracts 24 from MUFU's result (FADD).
std::uint32_t lg2_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz) {
  if (ftz || !f32_is_subnormal(x)) return mufu_lg2(t, x);
  const std::uint32_t r = mufu_lg2(t, fmul_rn(x, 16777216.0f));
  if (f32_is_nan(r)) return kF32NaN;
  return bits_of(static_cast<float>(static_cast<double>(f32_of(r)) - 24.0));
}

}  // namespace ptxmma
