// The batch API of the engines: every output of one matrix product D = A*B + C of an instruction
// (M x N outputs, dot products of length K) under a rounding model, for many executions of that
// instruction. Operands are decoded once per execution into per-row and per-column tables; the
// block-FMA, fma-chain (f64), integer and popc engines then run tight loops over them with no
// allocation. An output whose row of A or column of B holds a NaN or Inf (f64: or its C), and a
// model the fast loops do not cover, goes through dot() (the reference engines), which stays the
// oracle of the tests.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/model/model.hpp"
#include "sim/model/term.hpp"
#include "sim/numeric/bit_op.hpp"

namespace ptxmma {

struct TileSpec {
  Type a = Type::f16, b = Type::f16, c = Type::f32, d = Type::f32;
  int m = 0, n = 0, k = 0;
  Rounding rounding = Rounding::rn;  // f64 .rn/.rz/.rm/.rp
  bool satfinite = false;            // integer clamp
  BitOp bitop = BitOp::none;
  bool sparse = false;               // A's k stored columns meet B rows picked from 2k (run_sparse)
  // Block-scaled kinds (run_scaled): each row of A and column of B has scale_vec scales of type
  // `scale`, one per run of K / scale_vec consecutive k (logical k when sparse); 0: unscaled.
  int scale_vec = 0;
  Type scale = Type::ue8m0;
  // Independent problems of M x N x K (m8n8k4 .f16: one per quad-pair), each one's A, B, C and D
  // after the previous one's in the arrays run(), run_words() and run_bits() take (run_words:
  // each one's words after the previous one's in the index). Dense and unscaled only.
  int problems = 1;
};

class AddTreeTile;
class BlockTile;
class FmaTile;

// Elements read straight from 32-bit register words, a whole word at a time: word q of row r of A
// (column r of B) is words[index[q * rows + r]] (rows: M for A, N for B), holding elements
// k = q * per_word + f at bit f * bits (per_word = 32 / bits).
struct WordSource {
  const std::uint32_t* words = nullptr;
  const std::uint32_t* index = nullptr;
};

// One per instruction and thread: it owns the scratch tables.
class TileKernel {
 public:
  TileKernel(const Model& m, const TileSpec& s);
  ~TileKernel();
  TileKernel(TileKernel&&) noexcept;
  TileKernel& operator=(TileKernel&&) = delete;

  // Element codes: a[i * K + k] (row i of A), b[j * K + k] (column j of B), c and d[i * N + j].
  void run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d);
  // b1 only: row i of A and column j of B as K bits packed into words_per_row() 64-bit words
  // (element k at bit k % 64 of word k / 64, unused bits 0).
  void run_bits(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d);
  [[nodiscard]] int words_per_row() const { return (s_.k + 63) / 64; }
  // A and B straight from register words, decoded as they are read (no array of codes between).
  // Only where takes_words(): the block engine on 8- or 16-bit types, K a whole number of words.
  void run_words(WordSource a, WordSource b, const std::uint64_t* c, std::uint64_t* d);
  [[nodiscard]] bool takes_words() const;
  // Sparse A (mma.sp, wgmma.sp; spec().sparse): a holds M x K stored codes (K = spec().k), b the N
  // columns of B's 2K rows (column j at b[j * 2K]); cols[i * K + s] is the B row (the logical k) of
  // row i's stored element s, as its metadata says. B's other rows are never read.
  void run_sparse(const std::uint64_t* a, const std::uint64_t* b, const int* cols, const std::uint64_t* c,
                  std::uint64_t* d);
  // Block-scaled kinds (spec().scale_vec = V > 0): sa[i * V + v] and sb[j * V + v] are the scale
  // codes of row i of A and column j of B for the v-th run of k. cols: as run_sparse's, or null
  // (dense).
  void run_scaled(const std::uint64_t* a, const std::uint64_t* b, const int* cols, const std::uint64_t* sa,
                  const std::uint64_t* sb, const std::uint64_t* c, std::uint64_t* d);
  // Whether the model counts bits (popc): run_bits() applies.
  [[nodiscard]] bool takes_bits() const { return m_.engine == Engine::popc; }
  [[nodiscard]] const TileSpec& spec() const { return s_; }

 private:
  // Output (i, j) by dot() (an element the fast loops leave to the reference engines); b_k: the
  // length of a column of b; cols: row i's B rows (sparse), or null; sa, sb: the scale codes
  // (run_scaled), or null.
  void reference(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d, int i,
                 int j, int b_k = 0, const int* cols = nullptr, const std::uint64_t* sa = nullptr,
                 const std::uint64_t* sb = nullptr);
  // reference() for every output the fast engine left for dot() (fast.special(i, j)), over
  // `problems` problems (the engine's rows and columns numbered across them); more: the arguments
  // after j.
  template <class Fast, class... More>
  void reference_where(const Fast& fast, int problems, const std::uint64_t* a, const std::uint64_t* b,
                       const std::uint64_t* c, std::uint64_t* d, More... more);
  // run() and run_words() for one problem.
  void run_one(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d);
  void run_words_one(WordSource a, WordSource b, const std::uint64_t* c, std::uint64_t* d);
  // Whether the block engine runs all problems at once.
  [[nodiscard]] bool batched() const;
  // Every output by dot(), A and B decoded once; cols as for reference(); sa, sb: the scale codes
  // (run_scaled), or null.
  void run_reference(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d,
                     const int* cols = nullptr, const std::uint64_t* sa = nullptr, const std::uint64_t* sb = nullptr);
  // A and B's codes into ia_ and ib_ (the integer engine's 16-bit lanes).
  void widen(const std::uint64_t* a, const std::uint64_t* b);
  void run_bits_rows(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d, int rows);
  const Model& m_;
  TileSpec s_;
  std::unique_ptr<BlockTile> block_;  // the block-FMA engine, where the model and types allow it
  std::unique_ptr<FmaTile> fma_;      // the fma-chain engine on f64
  std::unique_ptr<AddTreeTile> add_tree_;  // addition orders in binary32 (m8n8k4 .f16)
  bool integer_ = false;              // the integer engine's 16-bit path applies
  std::vector<std::int16_t> ia_, ib_;
  std::vector<std::uint64_t> pa_, pb_;  // packed bits of codes given to run()
  std::vector<std::uint64_t> b_row_;    // sparse popc: the B rows one row of A picks
  std::vector<Term> ta_, tb_;         // decoded operands for the reference engines
  std::vector<Term> picked_;          // sparse: one row's B terms for one column
};

}  // namespace ptxmma
