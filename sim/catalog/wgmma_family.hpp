// The warpgroup-level wgmma.mma_async family: its catalogue (configs/wgmma/variants.yaml,
// docs/wgmma-catalogue.md) through the one loader, its spelling, and the operands an instruction
// gives beside its registers, with their legality.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sim/catalog/matrix_catalog.hpp"
#include "sim/catalog/matrix_variant.hpp"

namespace ptxmma {

// "wgmma.mma_async[.sp].sync.aligned.m64n<N>k<K>[.satfinite].<d>.<a>.<b>[.and.popc]"
std::string wgmma_ptx(const MatrixSelector& s);

// Reads <config_dir>/wgmma/layouts.yaml and variants.yaml (and the sparse metadata classes of
// <config_dir>/mma/sparse.yaml, which each warp follows), building every layout a variant uses.
MatrixCatalog load_wgmma_catalog(const std::string& config_dir);

// The process-wide catalogue (process_catalog).
const MatrixCatalog& wgmma_catalog();

// Where A comes from: a matrix descriptor (the "SS" form) or four registers per thread ("RS").
enum class ASource : std::uint8_t { descriptor, registers };
constexpr std::string_view name(ASource s) { return s == ASource::descriptor ? "descriptor" : "registers"; }

// The operand form and the immediates of one instruction (scale-d, a predicate, is an input of
// each execution). imm-scale -1 negates every element of that operand; imm-trans 1 reads that
// operand M-major (A) / N-major (B) from shared memory instead of K-major.
struct WgmmaOperands {
  ASource a_source = ASource::descriptor;
  int imm_scale_a = 1, imm_scale_b = 1;
  int imm_trans_a = 0, imm_trans_b = 0;
};

// The operand list of an instruction, e.g. "d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b,
// imm-trans-a, imm-trans-b" (sparse: sp-meta, sp-sel after b-desc).
std::vector<std::string> wgmma_operand_names(const MatrixVariant& v, ASource s);

// Throws Error (one line, naming the operand) when `o` is not legal for `v`: a scale other than
// +-1, or -1 on an integer variant; imm-trans other than 0/1, or 1 where the variant takes no
// transpose (tf32, FP8, integer, b1; trans-a with A in registers).
void check_wgmma_operands(const MatrixVariant& v, const WgmmaOperands& o);

}  // namespace ptxmma
