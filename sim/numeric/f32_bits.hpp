// f32 bit patterns <-> host floats, and the few exact operations the special-function wrappers
// that ptxas emits around MUFU perform (scaling by powers of two, FMUL.RZ).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

namespace ptxmma {

inline float f32_of(std::uint32_t b) { return std::bit_cast<float>(b); }
inline std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
inline bool f32_is_nan(std::uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }
inline bool f32_is_subnormal(std::uint32_t b) { return (b & 0x7f800000u) == 0 && (b & 0x7fffffu) != 0; }

// a * b rounded to nearest even, subnormals kept (the host's IEEE multiply).
inline std::uint32_t fmul_rn(std::uint32_t a, float b) { return bits_of(f32_of(a) * b); }

// a * b rounded toward zero: the exact product fits a double (24 + 24 bits), so round that.
inline std::uint32_t fmul_rz(std::uint32_t a, std::uint32_t b) {
  const double p = static_cast<double>(f32_of(a)) * static_cast<double>(f32_of(b));
  float r = static_cast<float>(p);
  if (std::fabs(static_cast<double>(r)) > std::fabs(p)) r = std::nextafter(r, 0.0f);
  return bits_of(r);
}

// FMUL as the GPU rounds it (to nearest even): any NaN result is the canonical 0x7fffffff; with
// .ftz, subnormal inputs are zeros and a product tiny after rounding (rounded to 24 bits with an
// unbounded exponent, below 2^-126) is a signed zero (docs/hardware/alu-sm90.md). The exact
// product fits a double; scaled by 2^64 its rounding to float is that unbounded one.
inline std::uint32_t fmul_gpu(std::uint32_t a, std::uint32_t b, bool ftz) {
  if (ftz) {
    if (f32_is_subnormal(a)) a &= 0x80000000u;
    if (f32_is_subnormal(b)) b &= 0x80000000u;
  }
  const double p = static_cast<double>(f32_of(a)) * static_cast<double>(f32_of(b));
  if (std::isnan(p)) return 0x7fffffffu;
  if (ftz && std::fabs(static_cast<double>(static_cast<float>(p * 0x1p64))) < 0x1p-62)
    return bits_of(std::signbit(p) ? -0.0f : 0.0f);
  return bits_of(static_cast<float>(p));
}

// A finite binary32 rounded to f16, to nearest even: what convert() gives (tests/numeric/
// f16_rounding_test.cpp checks it), without its general path, for per-output hot loops. Past
// f16's range: Inf.
inline std::uint32_t f16_of_f32_rn(std::uint32_t x) {
  const std::uint32_t sign = x >> 16 & 0x8000U, a = x & 0x7fffffffU;
  if (a >= 0x477ff000U) return sign | 0x7c00U;  // 65520 and up: beyond the tie above 65504
  std::uint32_t h, rem, half;
  if (a >= 0x38800000U) {  // f16 normal: drop 13 of the 23 fraction bits (a carry is the next binade)
    h = ((a >> 23) - 112) << 10 | (a & 0x7fffffU) >> 13;
    rem = a & 0x1fffU;
    half = 0x1000U;
  } else {  // f16 subnormal or zero: multiples of 2^-24
    if (a <= 0x33000000U) return sign;  // up to 2^-25 (a tie: to the even 0)
    const std::uint32_t shift = 126 - (a >> 23), sig = (a & 0x7fffffU) | 0x800000U;
    h = sig >> shift;
    rem = sig & ((1U << shift) - 1);
    half = 1U << (shift - 1);
  }
  if (rem > half || (rem == half && (h & 1U) != 0)) ++h;
  return sign | h;
}

// A finite f16 code as the binary32 of the same value (exact): what convert() gives, without its
// general path. A subnormal m x 2^-24 is normalized by converting m to float.
inline std::uint32_t f32_of_f16(std::uint32_t h) {
  const std::uint32_t sign = (h & 0x8000U) << 16, biased = h >> 10 & 0x1fU, frac = h & 0x3ffU;
  if (biased != 0) return sign | (biased + 112) << 23 | frac << 13;
  return sign | bits_of(static_cast<float>(frac) * 0x1p-24F);
}

}  // namespace ptxmma
