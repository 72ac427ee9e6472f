// div.approx.f32 and div.full.f32 (with and without .ftz) as sm_90 computes them
// (docs/hardware/special-functions-sm90.md): MUFU.RCP of the divisor (rcp.approx.ftz.f32's table)
// times the dividend, after the scaling ptxas puts around them.
#pragma once
#include <cstdint>

#include "sim/numeric/special_table.hpp"

namespace ptxmma {

// The two factors of the final FMUL: MUFU.RCP of the scaled divisor, and the scaled dividend.
// ptxas fuses that FMUL with an add of the quotient (docs/hardware/contraction-sm90.md).
struct DivisionFactors {
  std::uint32_t reciprocal, dividend;
};

// `rcp` is the table of rcp.approx.f32 (configs/special/rcp.approx.f32.xz).
DivisionFactors div_approx_factors(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b, bool ftz);
DivisionFactors div_full_factors(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b, bool ftz);
std::uint32_t div_approx_f32(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b, bool ftz);
std::uint32_t div_full_f32(const SpecialTable& rcp, std::uint32_t a, std::uint32_t b, bool ftz);

}  // namespace ptxmma
