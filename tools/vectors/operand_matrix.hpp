// An mma or wgmma operand seen as its matrix: the registers the instruction names, read from a
// Machine and gathered through the catalogue's fragment layout (`ptxmma run --matrix`, the
// debugger's `matrix`).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/exec/interpreter.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

struct OperandMatrix {
  std::string title;  // e.g. "D of mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (line 12)"
  int rows = 0, cols = 0;
  Type type = Type::f32;
  int bits = 32;                      // element width in the registers (tf32: 32, b1: 1)
  std::vector<std::uint64_t> cells;   // row-major; m8n8k4 f16's four problems stacked
};

// The instruction `--matrix` shows: the last mma or wgmma.mma_async on `line` or, with line 0,
// in the program. Error naming the line when there is none.
int matrix_instruction(const ptx::Program& p, int line = 0);

// Operand `which` (A, B, C or D) of instruction `pc` from the registers of warp `warp` (mma) or of
// the warpgroup holding that warp (wgmma). Error for an operand in shared memory (a wgmma
// descriptor) or an instruction that is neither. `cta`: the c-th CTA run.
OperandMatrix operand_matrix(const Machine& m, int pc, std::string_view which, int warp = 0, int cta = 0);

// Rows of typed values, columns aligned, with the title and a header of column numbers.
std::string format_matrix(const OperandMatrix& om);

}  // namespace ptxmma
