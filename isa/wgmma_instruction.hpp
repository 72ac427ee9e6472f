// A warpgroup-level wgmma instruction (`wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16`)
// decoded into its qualifiers and checked against the wgmma catalogue and a target; and a whole
// statement with its operands (`... {%f0, ...}, %rd1, %rd2, %p1, 1, -1, 0, 1;`).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/matrix_legality.hpp"
#include "sim/catalog/wgmma_family.hpp"
#include "sim/catalog/wgmma_family.hpp"

namespace ptxmma {

// The decoded qualifiers (row.col, C = D, no kind) and, after parse_wgmma, the variant.
struct WgmmaInstruction : MatrixInstruction {};

// Syntax only. Accepts .satfinite after the shape or as the last token (both assemble), and
// .and.popc / .xor.popc after the types, and the sparse form wgmma.mma_async.sp. Throws Error
// "<text>: <what is wrong>": not wgmma, a missing shape, 4 types (wgmma has no .ctype), ...
WgmmaInstruction parse_wgmma_syntax(std::string_view text);

// The catalogue entry of a parsed instruction, legal on `target`. One-line Errors, e.g.
//   "...m64n20k16.f32.f16.f16: N = 20 is not legal for f16 inputs (N = 8..256 in steps of 8)"
//   "...m64n8k16.f16.bf16.bf16: bf16 inputs need f32 D"
//   "...m64n8k16.f32.f16.f16: wgmma needs sm_90a; the target is sm_90"
const MatrixVariant& check_wgmma(const WgmmaInstruction& ins, std::string_view target = "sm_90a",
                                const MatrixCatalog& catalog = wgmma_catalog());

// parse_wgmma_syntax + check_wgmma; the result's `variant` is set.
WgmmaInstruction parse_wgmma(std::string_view text, std::string_view target = "sm_90a",
                             const MatrixCatalog& catalog = wgmma_catalog());

// A whole statement: the instruction and its operands, in PTX order
//   d, a-desc | {a0, a1, a2, a3}, b-desc[, sp-meta, sp-sel], scale-d[, imm-scale-a, imm-scale-b][, imm-trans-a][, imm-trans-b]
// (which immediates exist depends on the variant and the form: wgmma_operand_names).
struct WgmmaStatement {
  WgmmaInstruction ins;
  WgmmaOperands operands;               // form and immediates
  std::vector<std::string> d;           // accumulator registers
  std::vector<std::string> a;           // register form: the 4 A registers
  std::string a_desc, b_desc;           // descriptor registers
  std::optional<std::string> scale_d_predicate;  // a predicate register, or
  bool scale_d = true;                           // the constant 0 / 1
  std::string sp_meta;                           // sparse: the metadata register
  int sp_sel = 0;                                // sparse: the sparsity selector (a constant)
};

// Errors name the operand: a wrong operand count (listing the expected operands), a wrong number
// of D registers, an immediate that is not a constant or not legal (MatrixVariant::check).
WgmmaStatement parse_wgmma_statement(std::string_view text, std::string_view target = "sm_90a",
                                     const MatrixCatalog& catalog = wgmma_catalog());

}  // namespace ptxmma
