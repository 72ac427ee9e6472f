#include "sim/numeric/division.hpp"

#include "sim/numeric/f32_bits.hpp"
#include "sim/numeric/reciprocal.hpp"

namespace ptxmma {

namespace {

constexpr std::uint32_t k2p24 = 0x4b800000u;    // 2^24
constexpr std::uint32_t kQuarter = 0x3e800000u;  // 0.25

// FSETP.GEU |b|, 2^-126: false only for zeros and subnormals (a NaN compares unordered: true).
bool below_normal(std::uint32_t b) { return (b & 0x7fffffffu) < 0x00800000u; }
// FSETP.GT |b|, 2^126: false for a NaN.
bool above_2p126(std::uint32_t b) { return (b & 0x7fffffffu) > 0x7e800000u && !f32_is_nan(b); }

// MUFU.RCP of the divisor (it flushes a subnormal input and result) and the dividend.
DivisionFactors factors(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b) {
  return {apply(rcp, rcp_approx_key(b)), a};
}

}  // namespace

// .ftz: MUFU.RCP and FMUL.FTZ, nothing around them (a divisor above 2^126 has a subnormal
// reciprocal, flushed: the quotient is 0). Without .ftz, a zero or subnormal divisor scales both
// operands by 2^24 first.
DivisionFactors div_approx_factors(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b, bool ftz) {
  if (!ftz && below_normal(b)) {
    a = fmul_gpu(a, k2p24, false);
    b = fmul_gpu(b, k2p24, false);
  }
  return factors(rcp, a, b);
}

// Both forms scale a divisor above 2^126 by 1/4 (and the dividend with it); without .ftz a zero or
// subnormal divisor scales both by 2^24, after that test.
DivisionFactors div_full_factors(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b, bool ftz) {
  const bool small = !ftz && below_normal(b);
  if (above_2p126(b)) {
    b = fmul_gpu(b, kQuarter, ftz);
    a = fmul_gpu(a, kQuarter, ftz);
  }
  if (small) {
    b = fmul_gpu(b, k2p24, false);
    a = fmul_gpu(a, k2p24, false);
  }
  return factors(rcp, a, b);
}

// The quotient: the FMUL of the factors.
std::uint32_t div_approx_f32(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b, bool ftz) {
  const DivisionFactors f = div_approx_factors(rcp, a, b, ftz);
  return fmul_gpu(f.reciprocal, f.dividend, ftz);
}
std::uint32_t div_full_f32(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b, bool ftz) {
  const DivisionFactors f = div_full_factors(rcp, a, b, ftz);
  return fmul_gpu(f.reciprocal, f.dividend, ftz);
}

}  // namespace ptxmma
