// rcp.approx.f32 and rcp.approx.ftz.f32 as sm_90 computes them (docs/hardware/special-functions-sm90.md).
// MUFU.RCP's result significand depends only on the input's significand: one 2^23-entry table
// (configs/special/rcp.approx.f32.xz, the results for inputs in [1, 2)).
#pragma once
#include <cstdint>

#include "sim/numeric/special_key.hpp"

namespace ptxmma {

// The .ftz form: subnormal inputs count as zero, subnormal results are flushed.
SpecialKey rcp_approx_key(std::uint32_t x);
std::uint32_t rcp_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz);

// rcp.approx.ftz.f64: MUFU.RCP64H reads the input's high word only and gives the result's high
// word (the low word is 0); its significand depends on the 20 fraction bits of the high word: a
// 2^20-entry table (configs/special/rcp.approx.ftz.f64.xz, result high words for [1, 2)).
SpecialKey rcp_approx_f64_key(std::uint32_t high);
std::uint64_t rcp_approx_ftz_f64(const SpecialTable& t, std::uint64_t x);

}  // namespace ptxmma
