// sqrt.approx.f32 and rsqrt.approx.f32 (with and without .ftz) as sm_90 computes them
// (docs/hardware/special-functions-sm90.md). MUFU.SQRT's and MUFU.RSQ's result significands depend
// on the input's significand and the parity of its exponent: 2^24-entry tables
// (configs/special/{sqrt,rsqrt}.approx.f32.xz, the results for inputs in [1, 4)).
#pragma once
#include <cstdint>

#include "sim/numeric/special_key.hpp"

namespace ptxmma {

SpecialKey sqrt_approx_key(std::uint32_t x);
SpecialKey rsqrt_approx_key(std::uint32_t x);
std::uint32_t sqrt_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz);
std::uint32_t rsqrt_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz);

}  // namespace ptxmma
