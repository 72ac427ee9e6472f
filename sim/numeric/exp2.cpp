#include "sim/numeric/exp2.hpp"

#include "sim/numeric/f32_bits.hpp"

namespace ptxmma {

std::uint64_t f32_fixed_point(std::uint32_t x, unsigned fraction_bits) {
  const std::uint32_t e = (x >> 23) & 0xff;
  const std::uint64_t m = (x & 0x7fffffu) | (e ? 0x800000u : 0u);
  const int s = static_cast<int>(e ? e : 1) - 150 + static_cast<int>(fraction_bits);
  if (s >= 0) return m << s;
  return -s < 64 ? m >> -s : 0;
}

SpecialKey ex2_approx_key(std::uint32_t x, unsigned index_bits) {
  if (f32_is_nan(x)) return SpecialKey::fixed(kF32NaN);
  const bool negative = (x & kF32Sign) != 0;
  if ((x & 0x7fffffffu) >= 0x43800000u) return SpecialKey::fixed(negative ? 0 : kF32Inf);  // |x| >= 256
  const unsigned f = index_bits - 1;
  const std::uint64_t q = f32_fixed_point(x, f);
  const auto whole = static_cast<std::int32_t>(q >> f);
  const auto index = static_cast<std::uint32_t>(q & ((std::uint64_t{1} << f) - 1)) | (negative ? 1u << f : 0u);
  return {false, 0, index, negative ? -whole : whole, false};
}

std::uint32_t ex2_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz) {
  // Without .ftz, ptxas halves an input below -126 and squares MUFU's result (an FMUL that can
  // round to a subnormal).
  if (!ftz && f32_of(x) < -126.0f) {
    const std::uint32_t half = apply(t, ex2_approx_key(fmul_rn(x, 0.5f), t.index_bits));
    return fmul_rn(half, f32_of(half));
  }
  return apply(t, ex2_approx_key(x, t.index_bits));
}

}  // namespace ptxmma
