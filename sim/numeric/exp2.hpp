// ex2.approx.f32 and ex2.approx.ftz.f32 as sm_90 computes them (docs/hardware/special-functions-sm90.md).
// MUFU.EX2 reads |x| as a fixed-point number: the integer part moves the result by binades, the
// fraction's top F bits and the sign index one table of 2^(F+1) entries
// (configs/special/ex2.approx.f32.xz; F = index_bits - 1).
#pragma once
#include <cstdint>

#include "sim/numeric/special_key.hpp"

namespace ptxmma {

SpecialKey ex2_approx_key(std::uint32_t x, unsigned index_bits);
std::uint32_t ex2_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz);

// trunc(|x| * 2^fraction_bits) (the fixed-point value MUFU reads); |x| * 2^fraction_bits < 2^63.
std::uint64_t f32_fixed_point(std::uint32_t x, unsigned fraction_bits);

}  // namespace ptxmma
