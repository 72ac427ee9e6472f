// sin.approx.f32 and cos.approx.f32 as sm_90 computes them (docs/hardware/special-functions-sm90.md):
// r = FMUL.RZ(x, 1/(2 pi)) in turns, then MUFU.SIN / MUFU.COS, which read |r| as a fixed-point
// number with 25 fraction bits, truncated, the integer part dropped (whole turns): one table of
// 2^25 results each (configs/special/{sin,cos}.approx.f32.xz), sin odd and cos even in r. The
// .ftz forms give the same bits.
#pragma once
#include <cstdint>

#include "sim/numeric/special_key.hpp"

namespace ptxmma {

SpecialKey sin_approx_key(std::uint32_t x, unsigned index_bits);
SpecialKey cos_approx_key(std::uint32_t x, unsigned index_bits);
inline std::uint32_t sin_approx_f32(const SpecialTable& t, std::uint32_t x) { return apply(t, sin_approx_key(x, t.index_bits)); }
inline std::uint32_t cos_approx_f32(const SpecialTable& t, std::uint32_t x) { return apply(t, cos_approx_key(x, t.index_bits)); }

}  // namespace ptxmma
