// tanh.approx.f32 as sm_90 computes it (docs/hardware/special-functions-sm90.md): one MUFU.TANH,
// odd in x (tanh(-x) is -tanh(x) bit for bit). Below 2^-8 it returns x, from 8 on 1.0; in each
// binade between, the result depends only on the leading fraction bits (17 to 21 of them, as the
// GPU's results show per binade), whose results the table holds
// (configs/special/tanh.approx.f32.xz, 2^23 entries, the binades one after another).
#pragma once
#include <cstdint>

#include "sim/numeric/special_key.hpp"

namespace ptxmma {

SpecialKey tanh_approx_key(std::uint32_t x);
inline std::uint32_t tanh_approx_f32(const SpecialTable& t, std::uint32_t x) { return apply(t, tanh_approx_key(x)); }

}  // namespace ptxmma
