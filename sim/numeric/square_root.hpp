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

// rsqrt.approx.ftz.f64: MUFU.RSQ64H on the input's high word, giving the result's high word (low
// word 0); 2^21 entries (20 fraction bits and the exponent's parity; configs/special/
// rsqrt.approx.ftz.f64.xz, result high words for [1, 4)).
SpecialKey rsqrt_approx_f64_key(std::uint32_t high);
std::uint64_t rsqrt_approx_ftz_f64(const SpecialTable& t, std::uint64_t x);
// rsqrt.approx.f64: the MUFU.RSQ64H value (the .ftz form's table) refined by one Newton step in
// DMUL/DFMA; a subnormal input is scaled by 2^54 and its result by 2^27.
std::uint64_t rsqrt_approx_f64(const SpecialTable& t, std::uint64_t x);

}  // namespace ptxmma
