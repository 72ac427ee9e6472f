// ex2.approx and tanh.approx on f16 and bf16 (and their x2 forms, lane by lane) as sm_90 computes
// them: 2^16 inputs, so the model is the hardware's whole result table
// (configs/special/{ex2.approx.f16,ex2.approx.ftz.bf16,tanh.approx.f16,tanh.approx.bf16}.xz).
#pragma once
#include <cstdint>

#include "sim/numeric/special_table.hpp"

namespace ptxmma {

inline std::uint16_t half_special(const SpecialTable& t, std::uint16_t x) { return static_cast<std::uint16_t>(t[x]); }

inline std::uint32_t half_special_x2(const SpecialTable& t, std::uint32_t x) {
  return half_special(t, static_cast<std::uint16_t>(x)) |
         static_cast<std::uint32_t>(half_special(t, static_cast<std::uint16_t>(x >> 16))) << 16;
}

}  // namespace ptxmma
