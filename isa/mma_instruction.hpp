// A warp-level mma instruction string (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`)
// decoded into its qualifiers and checked against the catalogue and a target architecture.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "isa/matrix_legality.hpp"
#include "sim/catalog/mma_family.hpp"
#include "sim/catalog/matrix_variant.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {

// The decoded qualifiers and, after parse_mma, the variant.
struct MmaInstruction : MatrixInstruction {
  std::optional<Rounding> rounding;  // as written; nullopt: the variant's default (f64: .rn)
};

// Syntax only: splits the qualifiers and classifies them through the qualifier tables. Accepts
// the spellings ptxas accepts: the rounding token after .row.col or last, .satfinite before the
// types or last, .kind/.block_scale/.scale_vec before or after the shape. Throws Error
// "<text>: <what is wrong>" for an unknown token, a missing shape, a wrong number of types, ...
MmaInstruction parse_mma_syntax(std::string_view text);

// The catalogue entry of a parsed instruction, legal on `target` (sm_70 ... sm_120a). Throws a
// one-line Error saying what is illegal, e.g.
//   "mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f32: bf16 inputs need f32 C and D"
//   "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32: needs sm_80 or later; the target is sm_75"
const MatrixVariant& check_mma(const MmaInstruction& ins, std::string_view target = "sm_90a",
                            const MatrixCatalog& catalog = mma_catalog());

// parse_mma_syntax + check_mma; the result's `variant` is set.
MmaInstruction parse_mma(std::string_view text, std::string_view target = "sm_90a",
                         const MatrixCatalog& catalog = mma_catalog());

}  // namespace ptxmma
