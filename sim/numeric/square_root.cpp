#include "sim/numeric/square_root.hpp"

#include <bit>
#include <cmath>

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

SpecialKey rsqrt_approx_f64_key(std::uint32_t high) {
  const std::uint32_t e = (high >> 20) & 0x7ff;
  if (e == 0x7ff && (high & 0xfffffu)) return SpecialKey::fixed(kF64HighNaN);
  if (e == 0) return SpecialKey::fixed((high & kF32Sign) | kF64HighInf);
  if (high & kF32Sign) return SpecialKey::fixed(kF64HighNaN);
  if (e == 0x7ff) return SpecialKey::fixed(0);
  const std::int32_t u = static_cast<std::int32_t>(e) - 1023;
  const std::int32_t parity = u & 1;
  return {false, 0, (static_cast<std::uint32_t>(parity) << 20) | (high & 0xfffffu), -((u - parity) / 2), false};
}

std::uint64_t rsqrt_approx_ftz_f64(const SpecialTable& t, std::uint64_t x) {
  return std::uint64_t{apply(t, rsqrt_approx_f64_key(static_cast<std::uint32_t>(x >> 32)), kF64HighExponent)} << 32;
}

// The SASS ptxas emits (docs/hardware/special-functions-sm90.md): y = MUFU.RSQ64H, e = 1 - x y^2
// (DMUL, then DFMA), y + (y e) (0.5 + 0.375 e) (DFMA, DMUL, DFMA), each rounded to nearest; the
// host's double multiply and std::fma round the same way. Inputs other than positive normals take
// the slow path: +-0 -> +-Inf, NaN -> quietened, negative -> the default NaN, +Inf -> +0.
std::uint64_t rsqrt_approx_f64(const SpecialTable& t, std::uint64_t x) {
  const auto refined = [&](double v) {
    const double y = std::bit_cast<double>(rsqrt_approx_ftz_f64(t, std::bit_cast<std::uint64_t>(v)));
    const double e = std::fma(v, -(y * y), 1.0);
    return std::fma(std::fma(e, 0.375, 0.5), y * e, y);
  };
  constexpr std::uint64_t kSign = 1ULL << 63, kInf = 0x7ff0000000000000ULL;
  const auto high = static_cast<std::uint32_t>(x >> 32);
  if (high - 0x00100000u < 0x7fe00000u) return std::bit_cast<std::uint64_t>(refined(std::bit_cast<double>(x)));
  if ((x & ~kSign) == 0) return (x & kSign) | kInf;
  if ((x & ~kSign) > kInf) return x | (1ULL << 51);
  if (x & kSign) return 0xfff8000000000000ULL;
  if (x == kInf) return 0;
  return std::bit_cast<std::uint64_t>(refined(std::bit_cast<double>(x) * 0x1p54) * 0x1p27);
}

}  // namespace ptxmma
