#include "sim/numeric/square_root.hpp"

#include "sim/numeric/f32_bits.hpp"

namespace ptxmma {

namespace {

// A positive normal input 2^u * 1.m reads entry (u & 1, m) and moves it by (u - (u & 1)) / 2
// binades (sqrt) or minus that (rsqrt).
SpecialKey root_key(std::uint32_t x, std::int32_t direction) {
  const std::int32_t u = static_cast<std::int32_t>((x >> 23) & 0xff) - 127;
  const std::int32_t parity = u & 1;
  return {false, 0, (static_cast<std::uint32_t>(parity) << 23) | (x & 0x7fffffu), direction * ((u - parity) / 2), false};
}

constexpr float k2p24 = 16777216.0f;

}  // namespace

SpecialKey sqrt_approx_key(std::uint32_t x) {
  const std::uint32_t e = (x >> 23) & 0xff;
  if (f32_is_nan(x)) return SpecialKey::fixed(kF32NaN);
  if (e == 0) return SpecialKey::fixed(x & kF32Sign);  // +-0 and flushed subnormals keep their sign
  if (x & kF32Sign) return SpecialKey::fixed(kF32NaN);
  if (e == 255) return SpecialKey::fixed(kF32Inf);
  return root_key(x, 1);
}

SpecialKey rsqrt_approx_key(std::uint32_t x) {
  const std::uint32_t e = (x >> 23) & 0xff;
  if (f32_is_nan(x)) return SpecialKey::fixed(kF32NaN);
  if (e == 0) return SpecialKey::fixed((x & kF32Sign) | kF32Inf);
  if (x & kF32Sign) return SpecialKey::fixed(kF32NaN);
  if (e == 255) return SpecialKey::fixed(0);
  return root_key(x, -1);
}

// Without .ftz a subnormal input is scaled up by 2^24 (exactly) and the result by 2^-12 (sqrt) or
// 2^12 (rsqrt), also exactly: the result of a subnormal input is a normal number. A negative
// subnormal is then an ordinary negative input: NaN.
std::uint32_t sqrt_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz) {
  if (!ftz && f32_is_subnormal(x))
    return (x & kF32Sign) ? kF32NaN : fmul_rn(apply(t, sqrt_approx_key(fmul_rn(x, k2p24))), 1.0f / 4096.0f);
  return apply(t, sqrt_approx_key(x));
}

std::uint32_t rsqrt_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz) {
  if (!ftz && f32_is_subnormal(x))
    return (x & kF32Sign) ? kF32NaN : fmul_rn(apply(t, rsqrt_approx_key(fmul_rn(x, k2p24))), 4096.0f);
  return apply(t, rsqrt_approx_key(x));
}

}  // namespace ptxmma
