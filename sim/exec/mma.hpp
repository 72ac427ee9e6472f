// Executes one warp-level mma: gathers A, B, C from the lanes' registers through the fragment
// layouts, runs the rounding model per output element, scatters D.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/catalog/mma_variant.hpp"
#include "sim/model/dot.hpp"
#include "sim/model/model.hpp"
#include "sim/model/term.hpp"
#include "sim/state/warp.hpp"

namespace ptxmma {

struct MmaOptions {
  Rounding rounding = Rounding::rn;  // f64 only
  bool satfinite = false;            // integer only
};

// 32-bit words of one operand for every lane, lane-major: words[lane * per_lane + w]. A 64-bit
// register is two words, low word first.
struct WarpOperand {
  std::span<const std::uint32_t> words;
  int per_lane = 0;
};

// Bits per element as the registers hold it (FP6/FP4 under kind::f8f6f4 take a byte).
int element_bits(Type t, Container c);
// An element's format code from its bits in the register (FP6/FP4 leave their container).
std::uint64_t element_code(Type t, Container c, std::uint32_t raw);
// Registers' 32-bit words per lane that a layout of element type t needs.
int words_per_lane(const FragmentLayout& l, Type t, Container c);

class MmaExecutor {
 public:
  MmaExecutor(const MmaVariant& v, const Model& m, MmaOptions o);
  // Decodes every A, B and C element once, then runs the model per D element. Uses scratch
  // space of its own: one executor per thread.
  void run(WarpOperand a, WarpOperand b, WarpOperand c, std::span<std::uint32_t> d) const;
  // One output element with its steps (explain); d unchanged.
  std::uint64_t explain(WarpOperand a, WarpOperand b, WarpOperand c, int problem, int row, int col,
                        DotTrace& trace) const;
  [[nodiscard]] const MmaVariant& variant() const { return v_; }

 private:
  // Where an element sits: word index in the lane-major operand, and its bit offset.
  struct Source {
    std::uint32_t word;
    std::uint32_t shift;
  };
  std::vector<Source> sources(const FragmentLayout& l, Type t, int rows, int cols, bool transpose) const;
  void decode(const std::vector<Source>& src, Type t, WarpOperand op, std::vector<Term>& out) const;
  std::uint64_t element(const FragmentLayout& l, Type t, WarpOperand op, int problem, int row, int col) const;
  DotRequest request(WarpOperand a, WarpOperand b, WarpOperand c, int problem, int row, int col,
                     std::uint64_t* a_codes, std::uint64_t* b_codes) const;
  const MmaVariant& v_;
  const Model& m_;
  MmaOptions o_;
  // Matrix order: A by (problem, row, k), B by (problem, col, k), C and D by (problem, row, col).
  std::vector<Source> a_src_, b_src_, c_src_, d_dst_;
  mutable std::vector<Term> a_terms_, b_terms_, c_terms_;
  mutable std::vector<char> a_finite_, b_finite_;  // per row of A, per column of B: no NaN or Inf
};

// The registers an mma instruction names, per operand: d, a, b, c.
struct MmaRegisters {
  std::vector<std::string> d, a, b, c;
};

// Executes on a warp's named registers. Errors: lanes inactive (mma.sync needs the whole warp),
// wrong register counts or widths.
void execute_mma(Warp& w, const MmaExecutor& x, const MmaRegisters& regs);

}  // namespace ptxmma
