// Executes one warp-level mma: gathers A, B, C from the lanes' registers through the fragment
// layouts, runs the model's TileKernel over the whole M x N tile of each problem (block-scaled
// kinds: dot() per element), scatters D.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/catalog/matrix_variant.hpp"
#include "sim/model/dot.hpp"
#include "sim/model/model.hpp"
#include "sim/model/tile.hpp"

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

// The metadata of a sparse mma: every lane's metadata word (lane order) and the sparsity selector.
struct SparseInput {
  std::span<const std::uint32_t> meta;
  int selector = 0;
};

// The scale factors of a block-scaled mma: every lane's scale-a-data and scale-b-data words (lane
// order) and the byte-id / thread-id selectors.
struct ScaleInput {
  std::span<const std::uint32_t> a, b;
  int byte_a = 0, tid_a = 0, byte_b = 0, tid_b = 0;
};

class MmaExecutor {
 public:
  MmaExecutor(const MatrixVariant& v, const Model& m, MmaOptions o);
  // Gathers the element codes through the layouts (b1: whole runs of bits), runs the model's
  // tile kernel over every problem and scatters D. Uses scratch space of its own: one executor
  // per thread.
  // A sparse variant is, per A row, a dense dot of its K/2 stored elements with the B rows the
  // metadata `e` picks (B's other rows are not read: an Inf there makes no NaN); an undefined
  // metadata nibble or selector is an Error.
  // A block-scaled variant reads its scales from `s` (selectors outside the legal values: Error).
  void run(WarpOperand a, WarpOperand b, WarpOperand c, std::span<std::uint32_t> d, SparseInput e = {},
           ScaleInput s = {}) const;
  // One output element with its steps (explain); d unchanged.
  std::uint64_t explain(WarpOperand a, WarpOperand b, WarpOperand c, int problem, int row, int col,
                        DotTrace& trace, SparseInput e = {}, ScaleInput s = {}) const;
  [[nodiscard]] const MatrixVariant& variant() const { return v_; }
  // Where an element sits: word index in the lane-major operand, and its bit offset.
  struct Source {
    std::uint32_t word;
    std::uint32_t shift;
  };

 private:
  // A run of consecutive b1 elements in one register word that land in one 32-bit half of a
  // word of packed bits.
  struct BitRun {
    std::uint32_t word;   // source word
    std::uint32_t shift;  // bit of the first element in it
    std::uint32_t bits;   // run length, 1..32
    std::uint32_t dst;    // bit index in the packed rows (word dst / 64)
  };
  std::vector<Source> sources(Operand o, int rows, int cols, bool transpose) const;
  // The words of an operand (rows x k per problem) whose every word holds 32 / bits consecutive
  // elements of one row in order from bit 0, as TileKernel::run_words takes them; none where the
  // layout does not.
  static std::vector<std::uint32_t> word_index(const std::vector<Source>& src, int bits, int rows, int k);
  [[nodiscard]] std::vector<BitRun> bit_runs(const std::vector<Source>& src, int cols) const;
  void gather(const std::vector<Source>& src, Type t, WarpOperand op, std::vector<std::uint64_t>& out) const;
  static void gather_bits(const std::vector<BitRun>& runs, WarpOperand op, std::vector<std::uint32_t>& halves,
                          std::vector<std::uint64_t>& out);
  std::uint64_t element(Operand o, WarpOperand op, int problem, int row, int col) const;
  DotRequest request(WarpOperand a, WarpOperand b, WarpOperand c, int problem, int row, int col,
                     std::uint64_t* a_codes, std::uint64_t* b_codes, SparseInput e) const;
  void check_sparse(SparseInput e) const;
  // The logical K column of each of a row's stored A elements: the B row it meets. Sparse: the K/2
  // the metadata picks (a dense dot of the stored elements with those rows); dense: 0 .. K-1.
  void columns_of(SparseInput e, int row, int* cols) const;
  void check_scales(ScaleInput s) const;
  // Gathers A, B, C and runs the tile kernel over every problem into d_codes_ (every variant but the
  // block-scaled ones).
  void run_products(WarpOperand a, WarpOperand b, WarpOperand c, SparseInput e) const;
  // Block-scaled variants (one problem): gather_scaled fills a_codes_, b_codes_, c_codes_ and the
  // scale codes; the tile kernel runs them, scaled_element computes one D element with its steps.
  void gather_scaled(WarpOperand a, WarpOperand b, WarpOperand c, SparseInput e, ScaleInput s) const;
  std::uint64_t scaled_element(SparseInput e, int row, int col, DotTrace* trace) const;
  void run_sparse(SparseInput e) const;
  // columns_ from the metadata: columns_of every row.
  void fill_columns(SparseInput e) const;
  // A D code of the variant's accumulate type rounded to D's type (MatrixVariant::accumulate).
  [[nodiscard]] std::uint64_t narrow_accumulator(std::uint64_t code) const;
  // A C code widened exactly to the accumulate type.
  [[nodiscard]] std::uint64_t widen_c(std::uint64_t code) const;
  const MatrixVariant& v_;
  const Model& m_;
  MmaOptions o_;
  // Matrix order: A by (problem, row, k), B by (problem, col, k), C and D by (problem, row, col).
  std::vector<Source> a_src_, b_src_, c_src_, d_dst_;
  std::vector<BitRun> a_runs_, b_runs_;  // packed-bit operands (a popc model)
  std::vector<std::uint32_t> c_word_, d_word_;    // the word of each C / D element, where the word is its code
  std::vector<std::uint32_t> c_pair_, d_pair_;    // the word of each pair of 16-bit C / D elements, where it holds just them
  std::vector<std::uint32_t> a_index_, b_index_;  // the word of each whole word of elements (TileKernel::run_words)
  mutable TileKernel kernel_;  // every problem (TileSpec::problems)
  mutable std::vector<std::uint64_t> a_codes_, b_codes_, c_codes_, d_codes_;
  mutable std::vector<int> columns_;  // sparse: the logical K of each stored A element, row by row
  mutable std::vector<std::uint64_t> sa_codes_, sb_codes_;  // block-scaled: scale codes per row of A, column of B
  mutable std::vector<std::uint32_t> halves_;  // packed bits as 32-bit halves (gather_bits)
};

}  // namespace ptxmma
