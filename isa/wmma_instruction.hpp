// wmma instruction strings: `wmma.mma` decoded into its qualifiers and checked against the wmma
// catalogue and a target, and `wmma.load` / `wmma.store` decoded into the fragment they move
// between registers and memory (the same layouts, configs/wmma/layouts.yaml).
#pragma once
#include <string>
#include <string_view>

#include "isa/mma_instruction.hpp"
#include "sim/catalog/wmma_family.hpp"

namespace ptxmma {

// wmma.mma[.xor.popc|.and.popc].sync.aligned.<alayout>.<blayout>.<shape>[.rnd].<types>[.satfinite],
// the types .dtype.ctype for f16, else .dtype.atype.btype.ctype. Throws Error "<text>: <why>" for a
// malformed or illegal instruction, as parse_mma does.
MmaInstruction parse_wmma(std::string_view text, std::string_view target = "sm_90a");
MmaInstruction parse_wmma(std::string_view text, std::string_view target, const MatrixCatalog& catalog);

// An instruction of a warp-level family whose operands are register fragments: parse_wmma for
// "wmma.mma...", else parse_mma. Tools that take either (replay, explain, layout, test vectors,
// Python) go through it.
MmaInstruction parse_warp_mma(std::string_view text, std::string_view target = "sm_90a");

// wmma.load.<a|b|c>.sync.aligned.<layout>.<shape>[.<space>].<type> and
// wmma.store.d.sync.aligned.<layout>.<shape>[.<space>].<type>: which fragment moves, and how the
// matrix sits in memory (element (i, j) at element offset i * stride + j for .row, j * stride + i
// for .col; the stride in elements, by default the leading dimension).
struct WmmaTransfer {
  std::string text;
  Operand operand = Operand::a;      // a, b, c (loads) or d (store)
  MatrixLayout layout = MatrixLayout::row;
  Shape shape;
  Type type = Type::f16;
  std::string space;                 // "global", "shared", "shared::cta" or "" (generic)
  const FragmentLayout* fragment = nullptr;
  int bits = 0;                      // element bits

  [[nodiscard]] int default_stride() const { return layout == MatrixLayout::row ? fragment->cols : fragment->rows; }
  // Element offset of (row, col) from the start of the matrix.
  [[nodiscard]] std::uint64_t offset(int row, int col, std::uint64_t stride) const {
    return layout == MatrixLayout::row ? static_cast<std::uint64_t>(row) * stride + static_cast<std::uint64_t>(col)
                                       : static_cast<std::uint64_t>(col) * stride + static_cast<std::uint64_t>(row);
  }
  // The PTX ISA's alignment of the address and of every row (column) start: the fragment's bytes.
  [[nodiscard]] int fragment_bytes() const { return fragment->regs * (bits == 64 ? 8 : 4); }
};

// Throws Error "<text>: <why>": a malformed instruction, a type the operand does not take, a
// layout the shape's sub-byte fragments do not take (.row for A, .col for B), a shape or type
// `target` does not have. The fragment is the target's (wmma_catalog(target)) and, for A and B,
// that of the memory layout (Volta's differ between .row and .col).
WmmaTransfer parse_wmma_transfer(std::string_view text, std::string_view target = "sm_90a");
WmmaTransfer parse_wmma_transfer(std::string_view text, std::string_view target, const MatrixCatalog& catalog);

}  // namespace ptxmma
