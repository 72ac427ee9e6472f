// Inputs of the ALU capture: for each source operand of a form, values drawn by its type from
// edge values (signed zeros, subnormals, extremes, infinities, NaNs with payloads, integer
// extremes, shift counts past the width), values near 1 (so arithmetic rounds) and random bits.
// Deterministic: splitmix64 of (seed, the operands' types, case, operand).
#pragma once
#include <cstdint>
#include <vector>

#include "tools/vectors/alu_forms.hpp"

namespace ptxmma {

// The edge values of an operand type (bits, masked to its width).
std::vector<std::uint64_t> alu_edge_values(ptx::PtxType t);

// cases x slots words (destination slots and immediates 0), case-major.
std::vector<std::uint64_t> alu_inputs(const AluForm& f, int cases, std::uint64_t seed);

}  // namespace ptxmma
