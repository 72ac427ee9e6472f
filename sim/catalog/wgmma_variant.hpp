// One legal warpgroup-level wgmma.mma_async variant as the catalogue (configs/wgmma/variants.yaml)
// describes it, and the operands an instruction gives beside its registers.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sim/catalog/mma_variant.hpp"  // Shape, BitOp
#include "sim/layout/fragment_layout.hpp"
#include "sim/layout/register_codec.hpp"
#include "sim/layout/sparse_metadata.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

// The qualifiers that pick one catalogue entry: shape m64nNkK, types, .satfinite, .and.popc.
struct WgmmaSelector {
  Shape shape;
  Type d = Type::f32, a = Type::f16, b = Type::f16;
  bool satfinite = false;
  BitOp bitop = BitOp::none;
  bool sparse = false;  // wgmma.mma_async.sp
};

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

struct WgmmaVariant {
  Shape shape;  // m = 64
  Type d = Type::f32, a = Type::f16, b = Type::f16;
  bool satfinite = false;
  BitOp bitop = BitOp::none;
  const FragmentLayout* la = nullptr;  // A in registers (register form); owned by the catalogue
  const FragmentLayout* ld = nullptr;  // C and D
  bool imm_scale = false;              // takes imm-scale-a, imm-scale-b
  bool trans_a = false, trans_b = false;  // takes imm-trans-a (descriptor form only), imm-trans-b
  std::string family;                  // machine path, keys the rounding model: hgmma, qgmma, igmma, bgmma
  std::vector<std::string> targets;    // the targets that assemble it (sm_90a)
  std::string ptx_version;             // e.g. "8.0"
  int row = 0;                         // row of the catalogue table (docs/wgmma-catalogue.md §1)
  std::string ptx;                     // canonical spelling, e.g. "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"
  // wgmma.mma_async.sp: A holds 64 x K/2 stored elements; each warp w places rows 16w..16w+15 by
  // its lanes' sp-meta words as the warp-level class `metadata` does (configs/mma/sparse.yaml).
  bool sparse = false;
  SparsePattern pattern = SparsePattern::two_of_four;
  const SparseMetadata* metadata = nullptr;
  [[nodiscard]] int a_cols() const { return sparse ? shape.k / 2 : shape.k; }

  [[nodiscard]] Type c() const { return d; }
  // 32-bit registers per thread: A (register form) and C/D.
  [[nodiscard]] int a_regs() const { return la->regs; }
  [[nodiscard]] int d_regs() const { return ld->regs; }
  // How A (register form) and C/D sit in the 128 threads' register words.
  [[nodiscard]] RegisterCodec a_codec() const { return RegisterCodec(*la, a); }
  [[nodiscard]] RegisterCodec d_codec() const { return RegisterCodec(*ld, d); }
  [[nodiscard]] WgmmaSelector selector() const { return WgmmaSelector{shape, d, a, b, satfinite, bitop, sparse}; }
  // The operand list of an instruction, e.g. "d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b,
  // imm-trans-a, imm-trans-b" (sparse: sp-meta, sp-sel after b-desc), and its length.
  [[nodiscard]] std::vector<std::string> operand_names(ASource s) const;

  // Throws Error (one line, naming the operand) when `o` is not legal for this variant: a scale
  // other than +-1, or -1 on an integer variant; imm-trans other than 0/1, or 1 where the variant
  // takes no transpose (tf32, FP8, integer, b1; trans-a with A in registers).
  void check(const WgmmaOperands& o) const;
};

}  // namespace ptxmma
