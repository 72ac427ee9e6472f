// lg2.approx.f32 and lg2.approx.ftz.f32 as sm_90 computes them (docs/hardware/special-functions-sm90.md).
// MUFU.LG2 of a positive normal 2^e * 1.f is e + T(f) rounded toward zero to f32, T(f) a fixed-point
// value with 37 fraction bits per 23-bit fraction f; 1.0 gives exactly 0. The table
// (configs/special/lg2.approx.f32.xz) has 2^24 entries: T's low 32 bits for each f, then its high bits.
#pragma once
#include <cstdint>

#include "sim/numeric/special_table.hpp"

namespace ptxmma {

inline constexpr int kLg2FractionBits = 37;

std::uint32_t lg2_approx_f32(const SpecialTable& t, std::uint32_t x, bool ftz);

// |v| * 2^-fraction_bits rounded toward zero to f32, v's sign kept; |v| * 2^-fraction_bits must be
// a normal f32 or zero.
std::uint32_t f32_from_fixed_rz(std::int64_t v, int fraction_bits);

}  // namespace ptxmma
