#include "sim/numeric/reciprocal.hpp"

#include "sim/numeric/f32_bits.hpp"

namespace ptxmma {

SpecialKey rcp_approx_key(std::uint32_t x) {
  const std::uint32_t sign = x & kF32Sign;
  const std::uint32_t e = (x >> 23) & 0xff;
  if (f32_is_nan(x)) return SpecialKey::fixed(kF32NaN);
  if (e == 255) return SpecialKey::fixed(sign);         // 1/inf = 0
  if (e == 0) return SpecialKey::fixed(sign | kF32Inf);  // 0 and flushed subnormals
  return {false, 0, x & 0x7fffffu, 127 - static_cast<std::int32_t>(e), sign != 0};
}

std::uint32_t rcp_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz) {
  if (!ftz) {
    // Without .ftz the code around MUFU.RCP scales a subnormal input up by 2^24, and an input of
    // 2^126 or more (a subnormal result) down by 2^24, undoing it on the result with an FMUL.
    constexpr float k2p24 = 16777216.0f, k2m24 = 1.0f / 16777216.0f;
    if (f32_is_subnormal(x)) return fmul_rn(apply(t, rcp_approx_key(fmul_rn(x, k2p24))), k2p24);
    if ((x & 0x7fffffffu) >= 0x7e800000u && (x & 0x7fffffffu) < kF32Inf)
      return fmul_rn(apply(t, rcp_approx_key(fmul_rn(x, k2m24))), k2m24);
  }
  return apply(t, rcp_approx_key(x));
}

SpecialKey rcp_approx_f64_key(std::uint32_t high) {
  const std::uint32_t sign = high & kF32Sign;
  const std::uint32_t e = (high >> 20) & 0x7ff;
  if (e == 0x7ff) return SpecialKey::fixed((high & 0xfffffu) ? kF64HighNaN : sign);  // NaN; 1/inf = 0
  if (e == 0) return SpecialKey::fixed(sign | kF64HighInf);                            // 0 and subnormals
  return {false, 0, high & 0xfffffu, 1023 - static_cast<std::int32_t>(e), sign != 0};
}

std::uint64_t rcp_approx_ftz_f64(const SpecialTable& t, std::uint64_t x) {
  return std::uint64_t{apply(t, rcp_approx_f64_key(static_cast<std::uint32_t>(x >> 32)), kF64HighExponent)} << 32;
}

}  // namespace ptxmma
