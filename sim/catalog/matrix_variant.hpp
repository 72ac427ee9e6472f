// One legal variant of a matrix instruction (mma.sync, wgmma.mma_async, wmma.mma), as its
// family's catalogue (configs/<family>/variants.yaml) describes it: the selector, the operands'
// types, where each operand comes from and, for those in registers, its fragment layout; the
// machine path that keys the rounding model; the targets and PTX version; and the options of the
// engine (sparse A, block scaling). One description for every family, so that the catalogue
// loader, the legality check and the executors' gather and scatter are written once.
#pragma once
#include <cstdint>
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
#include "sim/util/target.hpp"

namespace ptxmma {

struct Shape {
  int m = 0, n = 0, k = 0;
  friend bool operator==(const Shape&, const Shape&) = default;
};
// "m16n8k16" -> {16, 8, 16}; nullopt if the text is not of the form m<M>n<N>k<K>.
std::optional<Shape> parse_shape(std::string_view text);
std::string shape_name(const Shape& s);  // "m16n8k16"

// How A and B are read: row.col is K-major A and B, the only form of wgmma without imm-trans.
enum class MatrixLayout : std::uint8_t { row, col };
// `.kind::` of the sm_120a instructions.
enum class MmaKind : std::uint8_t { none, f8f6f4, mxf8f6f4, mxf4, mxf4nvf4 };
enum class Operand : std::uint8_t { a, b, c, d };
// Dense, or A held compressed with metadata: `.sp` (mma.sp, wgmma.mma_async.sp) or
// `.sp::ordered_metadata` (mma only).
enum class Sparsity : std::uint8_t { dense, sp, ordered };
// Where an operand can come from; a variant allows a set of them (bits).
enum class Source : std::uint8_t {
  registers = 1,   // a fragment of the threads' registers (the operand's layout)
  descriptor = 2,  // shared memory through a 64-bit matrix descriptor (sim/exec/descriptor)
  // tensor memory (tcgen05) takes the next bit
};

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

// The qualifiers that pick one catalogue entry: what a decoded instruction (isa/*_instruction.hpp)
// and a catalogue variant share. A family leaves the qualifiers it lacks at their defaults
// (wgmma: row.col, C = D, no kind). Rounding is not here: an instruction chooses it among the
// variant's `roundings`.
struct MatrixSelector {
  Shape shape;
  MatrixLayout alayout = MatrixLayout::row, blayout = MatrixLayout::col;
  Type a = Type::f16, b = Type::f16, c = Type::f32, d = Type::f32;
  bool satfinite = false;
  BitOp bitop = BitOp::none;
  MmaKind kind = MmaKind::none;
  bool block_scale = false;
  int scale_vec = 0;          // .scale_vec::1X/2X/4X -> 1/2/4; 0 = not written (the kind's default)
  std::optional<Type> stype;  // scale type of block-scaled mma (ue8m0, ue4m3)
  Sparsity sparse = Sparsity::dense;
};

struct MatrixVariant : MatrixSelector {
  Container container = Container::packed;  // how FP6/FP4 elements sit in their bytes
  // Register fragments, owned by the catalogue; null for an operand never in registers (wgmma B).
  const FragmentLayout* la = nullptr;
  const FragmentLayout* lb = nullptr;
  const FragmentLayout* lc = nullptr;
  const FragmentLayout* ld = nullptr;
  // Per operand A, B, C, D the Source bits it may come from.
  std::uint8_t sources[4] = {0, 0, 0, 0};
  std::string family;       // machine path, keys the rounding model: e.g. "hmma", "fp8_via_hmma", "hgmma"
  Targets targets;          // the targets that assemble it
  std::string ptx_version;  // e.g. "7.0"

  std::vector<Rounding> roundings;    // allowed rounding qualifiers, the default first; empty: none
  // Where C and D differ in type, the type the machine path accumulates in: C converted into it
  // exactly, D rounded to nearest even from it (wmma's mixed f16 forms on sm_90: an f32 HMMA,
  // then a conversion; docs/hardware/wmma-sm90.md).
  std::optional<Type> accumulate;
  bool scale_vec_is_default = false;  // an instruction that omits .scale_vec gets this variant
  // Operands of wgmma beside the registers: imm-scale-a/b (negate A or B), imm-trans-a/b (read A
  // M-major, B N-major from shared memory).
  bool imm_scale = false;
  bool trans_a = false, trans_b = false;
  // Sparse variants: A holds M x K/2 stored elements, placed by the metadata class (per warp for
  // wgmma) under a sparsity selector 0 .. metadata->selectors - 1 (configs/mma/sparse.yaml).
  SparsePattern pattern = SparsePattern::two_of_four;
  const SparseMetadata* metadata = nullptr;
  // Block-scaled variants: where the scale-data registers hold each scale (configs/mma/block_scale.yaml).
  const ScaleLayout* scales = nullptr;

  int row = 0;      // row of the family's catalogue table (docs/<family>-catalogue.md), for messages
  std::string ptx;  // canonical spelling, e.g. "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"

  [[nodiscard]] bool is_sparse() const { return sparse != Sparsity::dense; }
  [[nodiscard]] int a_cols() const { return is_sparse() ? shape.k / 2 : shape.k; }  // A's stored columns
  [[nodiscard]] bool takes(Operand o, Source s) const {
    return (sources[static_cast<int>(o)] & static_cast<std::uint8_t>(s)) != 0;
  }
  [[nodiscard]] int problems() const { return ld ? ld->problems : 1; }
  [[nodiscard]] const FragmentLayout& layout(Operand o) const {
    return *(o == Operand::a ? la : o == Operand::b ? lb : o == Operand::c ? lc : ld);
  }
  [[nodiscard]] Type type(Operand o) const { return o == Operand::a ? a : o == Operand::b ? b : o == Operand::c ? c : d; }
  // How an operand's matrix sits in the threads' register words.
  [[nodiscard]] RegisterCodec codec(Operand o) const { return RegisterCodec(layout(o), type(o), container); }
  // Registers of an operand per thread (f64: 64-bit registers) and 32-bit words per thread.
  [[nodiscard]] int regs(Operand o) const { return layout(o).regs; }
  [[nodiscard]] int words(Operand o) const { return codec(o).words_per_thread(); }
  [[nodiscard]] const MatrixSelector& selector() const { return *this; }
};

}  // namespace ptxmma
