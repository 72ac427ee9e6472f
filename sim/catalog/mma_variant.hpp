// One legal warp-level mma variant as the catalogue (configs/mma/variants.yaml) describes it.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/layout/fragment_layout.hpp"
#include "sim/layout/register_codec.hpp"
#include "sim/layout/scale_layout.hpp"
#include "sim/layout/sparse_metadata.hpp"
#include "sim/numeric/bit_op.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

struct Shape {
  int m = 0, n = 0, k = 0;
  friend bool operator==(const Shape&, const Shape&) = default;
};

enum class MatrixLayout : std::uint8_t { row, col };
// `.kind::` of the sm_120a instructions.
enum class MmaKind : std::uint8_t { none, f8f6f4, mxf8f6f4, mxf4, mxf4nvf4 };
enum class Operand : std::uint8_t { a, b, c, d };
// mma.sync (dense), mma.sp, mma.sp::ordered_metadata: the sparse forms read A compressed.
enum class Sparsity : std::uint8_t { dense, sp, ordered };

constexpr std::string_view name(MatrixLayout l) { return l == MatrixLayout::row ? "row" : "col"; }
constexpr std::string_view name(MmaKind k) {
  switch (k) {
    case MmaKind::f8f6f4: return "f8f6f4";
    case MmaKind::mxf8f6f4: return "mxf8f6f4";
    case MmaKind::mxf4: return "mxf4";
    case MmaKind::mxf4nvf4: return "mxf4nvf4";
    default: return "";
  }
}
constexpr std::string_view name(Sparsity s) {
  return s == Sparsity::sp ? "sp" : s == Sparsity::ordered ? "sp::ordered_metadata" : "";
}
constexpr std::string_view name(Operand o) {
  return o == Operand::a ? "A" : o == Operand::b ? "B" : o == Operand::c ? "C" : "D";
}

// The qualifiers that pick one catalogue entry: what a decoded instruction (isa/mma_instruction.hpp)
// and a catalogue variant share. Rounding is not here: it is chosen per instruction among the
// variant's `roundings`.
struct MmaSelector {
  Shape shape;
  MatrixLayout alayout = MatrixLayout::row, blayout = MatrixLayout::col;
  Type a = Type::f16, b = Type::f16, c = Type::f32, d = Type::f32;
  bool satfinite = false;
  BitOp bitop = BitOp::none;
  MmaKind kind = MmaKind::none;
  bool block_scale = false;
  int scale_vec = 0;             // .scale_vec::1X/2X/4X -> 1/2/4; 0 = not written (the kind's default)
  std::optional<Type> stype;     // scale type of block-scaled mma (ue8m0, ue4m3)
  Sparsity sparse = Sparsity::dense;
};

struct MmaVariant {
  Shape shape;
  Type a = Type::f16, b = Type::f16, c = Type::f32, d = Type::f32;
  MatrixLayout alayout = MatrixLayout::row, blayout = MatrixLayout::col;
  BitOp bitop = BitOp::none;
  Container container = Container::packed;   // how FP6/FP4 elements sit in their bytes
  // Fragment layouts (owned by the catalogue).
  const FragmentLayout* la = nullptr;
  const FragmentLayout* lb = nullptr;
  const FragmentLayout* lc = nullptr;
  const FragmentLayout* ld = nullptr;
  std::string family;       // machine path, keys the rounding model: e.g. "hmma", "fp8_via_hmma", "dmma"
  std::string min_target;   // e.g. "sm_80"
  std::string ptx_version;  // e.g. "7.0"

  // Qualifiers beyond shape, types and layouts.
  bool satfinite = false;             // integer clamp (a separate variant from the wrapping one)
  MmaKind kind = MmaKind::none;
  bool block_scale = false;
  int scale_vec = 0;                  // 1, 2 or 4 for block-scaled variants, else 0
  bool scale_vec_is_default = false;  // an instruction that omits .scale_vec gets this variant
  std::optional<Type> stype;          // ue8m0 / ue4m3 for block-scaled variants
  std::vector<Rounding> roundings;    // allowed rounding qualifiers, the default first; empty: none
  // Sparse variants: A holds M x K/2 stored elements, placed by the metadata register's class
  // under a sparsity selector 0 .. metadata->selectors - 1 (configs/mma/sparse.yaml).
  Sparsity sparse = Sparsity::dense;
  SparsePattern pattern = SparsePattern::two_of_four;
  const SparseMetadata* metadata = nullptr;
  // Block-scaled variants: where the scale-data registers hold each scale (configs/mma/block_scale.yaml).
  const ScaleLayout* scales = nullptr;

  int row = 0;              // row of the catalogue table (docs/mma-catalogue.md §1, §3.1), for messages
  std::string ptx;          // canonical spelling, e.g. "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"

  [[nodiscard]] int problems() const { return la ? la->problems : 1; }
  [[nodiscard]] const FragmentLayout& layout(Operand o) const {
    return *(o == Operand::a ? la : o == Operand::b ? lb : o == Operand::c ? lc : ld);
  }
  [[nodiscard]] Type type(Operand o) const { return o == Operand::a ? a : o == Operand::b ? b : o == Operand::c ? c : d; }
  // How an operand's matrix sits in the lanes' register words.
  [[nodiscard]] RegisterCodec codec(Operand o) const { return RegisterCodec(layout(o), type(o), container); }
  // Registers of an operand per lane (f64: 64-bit registers) and 32-bit words per lane.
  [[nodiscard]] int regs(Operand o) const { return layout(o).regs; }
  [[nodiscard]] int words(Operand o) const { return codec(o).words_per_thread(); }

  [[nodiscard]] MmaSelector selector() const {
    return MmaSelector{shape, alayout, blayout, a, b, c, d, satfinite, bitop, kind, block_scale, scale_vec, stype, sparse};
  }
};

}  // namespace ptxmma
