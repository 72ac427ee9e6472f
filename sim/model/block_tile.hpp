// The block-FMA engine (docs/numerics.md §2.1) over a whole tile: the fixed-point form of dot.cpp's
// block_fma, for the models and types where it is exact in 32-bit lanes.
//
// Every element is decoded once into a float m (its signed significand scaled into [0, 2)) and
// its exponent e. A term aligned to the block's largest exponent E and truncated to F fraction
// bits is then trunc(m_a * m_b * 2^(e_a + e_b - E + F)): m_a * m_b is exact in a float (at most
// 24 significand bits), the power of two is exact, and the truncating float-to-int conversion
// drops exactly the bits below 2^(E - F); a value below 2^-126 is below 1 and truncates to 0
// whatever its rounding. The products of a block sum exactly in int32 lanes, a chunk of at most
// 2^31 / 2^(F+2) products at a time (16 for F = 25: the 32 products of kind::f8f6f4 take two),
// the chunks and the running sum (C or the previous block, aligned the same way) exactly in
// doubles, and the total is rounded once. The loops run over
// 8 columns at a time for 4 rows of A, so they compile to vector code. Where both element types
// have narrow exponents (f16, FP8), m holds the element's value and one scale per column serves
// every product (values_fit).
//
// Block-scaled kinds (run_scaled, docs/numerics.md §4.6). Where each product's exponent is raised
// by both scales' (scale_group 0, one power-of-two scale per row and column: mxf8f6f4), the scales'
// exponents are added to the decoded elements' and the loops above run unchanged. Where groups of
// G products are summed exactly and scaled (mxf4, mxf4nvf4), the group sums are float sums of the
// elements' values (exact: e2m1 products are multiples of 2^-2 below 2^6), each scaled group sum
// and C are truncated to the block's grid in doubles (below 2^53, so exact), and the total is
// rounded once (group_rows).
#pragma once
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/model/model.hpp"
#include "sim/model/term.hpp"
#include "sim/model/tile.hpp"
#include "sim/numeric/rounding_lanes.hpp"

namespace ptxmma {

// Element code -> (m, e) of one floating-point type: a table per code for types of 16 bits or
// fewer, per sign and exponent field (at most 512 entries) otherwise.
class ElementDecoder {
 public:
  static constexpr std::int32_t kZeroExp = -(1 << 22);  // a zero that sets no exponent
  // NaN or Inf (m = 0): a product with such a factor has an exponent sum of at least
  // kSpecial + kZeroExp, above any other.
  static constexpr std::int32_t kSpecial = 1 << 24;
  // values: m is the element's value m 2^e instead (where that is a normal float or 0).
  ElementDecoder(Type t, bool zeros_set_exponent, bool values = false);
  void decode(std::uint64_t code, float& m, std::int32_t& e) const {
    code &= mask_;
    if (codes_m_) {
      m = codes_m_[code];
      e = codes_e_[code];
      return;
    }
    by_fields(code, m, e);
  }

 private:
  void by_fields(std::uint64_t code, float& m, std::int32_t& e) const {
    const Field& f = fields_[code >> man_bits_];
    const auto frac = static_cast<std::uint32_t>(code & frac_mask_);
    const std::uint32_t sig = frac | f.hidden;
    const bool special = frac >= f.special_from;
    m = special ? 0.0F : static_cast<float>(sig) * f.scale;
    e = special ? kSpecial : sig != 0 || zeros_set_ ? f.exp : kZeroExp;
    if (values_ && m != 0) m *= std::bit_cast<float>(static_cast<std::uint32_t>(e + 127) << 23);
  }
  struct Field {
    float scale;                 // +-2^-man_bits: the significand times this is m
    std::int32_t exp;            // max(floor(log2 |x|), emin)
    std::uint32_t hidden;        // the implicit bit of normal numbers
    std::uint32_t special_from;  // fractions from this one up are NaN or Inf
  };
  std::vector<Field> fields_;
  const float* codes_m_ = nullptr;  // per code, shared by every decoder of the type (built once)
  const std::int32_t* codes_e_ = nullptr;
  int man_bits_;
  std::uint64_t mask_, frac_mask_;
  bool zeros_set_, values_;
};

class BlockTile {
 public:
  static constexpr int kLanes = 8;  // columns per pass of the inner loops
  // kLanes columns in one value (GCC/Clang vector extensions: one AVX2 register, or two SSE2 ones).
  typedef std::int32_t Ints __attribute__((vector_size(32)));
  typedef std::uint32_t UInts __attribute__((vector_size(32)));
  typedef float Floats __attribute__((vector_size(32)));
  typedef double Doubles __attribute__((vector_size(64)));  // exact integer sums of 8 columns

  // Null where the fixed-point loops would not be exact (then dot() runs every output).
  static std::unique_ptr<BlockTile> make(const Model& m, const TileSpec& s);
  BlockTile(const Model& m, const TileSpec& s);

  // Every output; those whose row of A or column of B holds a NaN or Inf are left for dot():
  // special(i, j) says which.
  void run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d);
  // The same from register words, whole words at a time (TileKernel::run_words).
  void run_words(WordSource a, WordSource b, const std::uint64_t* c, std::uint64_t* d);
  // A sparse A against the B rows each row's metadata picks (TileKernel::run_sparse): B is decoded
  // once over its 2K rows, and each row of A reads its own 8-column vectors of it.
  void run_sparse(const std::uint64_t* a, const std::uint64_t* b, const int* cols, const std::uint64_t* c,
                  std::uint64_t* d);
  // Block-scaled kinds (TileKernel::run_scaled); cols: run_sparse's, or null. Outputs whose row or
  // column has a NaN scale are left for dot() as specials are.
  void run_scaled(const std::uint64_t* a, const std::uint64_t* b, const int* cols, const std::uint64_t* sa,
                  const std::uint64_t* sb, const std::uint64_t* c, std::uint64_t* d);
  [[nodiscard]] static bool takes_words(const TileSpec& s);
  [[nodiscard]] bool special(int i, int j) const {
    return a_special_[static_cast<std::size_t>(i)] != 0 || b_special_[static_cast<std::size_t>(j)] != 0;
  }
  [[nodiscard]] bool any_special() const { return any_special_; }
  // The problems (TileSpec::problems) one run or run_words takes: all of them in one_block()'s
  // loops, else 1. Rows i and columns j of special() number them across the problems.
  [[nodiscard]] int problems() const { return problems_; }

 private:
  // A's rows in block order; B's in block order too, or (natural) in their own order (sparse).
  void decode_codes(const std::uint64_t* a, const std::uint64_t* b, bool natural_b);
  void set_b_rows(const int* cols);  // b_at_ (one_block_: cols_) from the sparse rows' B rows
  struct WordFormat;
  // decode_codes for one operand whose type WordFormat decodes (lanes_a_, lanes_b_).
  void decode_lanes(const WordFormat& f, const std::uint64_t* codes, int rows, int K, bool natural, std::size_t stride,
                    float* m, std::int32_t* e) const;
  void decode_words(WordSource a, WordSource b);
  static void gather_words(WordSource src, std::size_t n, std::uint32_t* to);
  template <int PerWord>
  void decode_words_of(const WordFormat& f, const std::uint32_t* words, int rows, std::size_t stride, float* m,
                       std::int32_t* e) const;
  // a_special_ / b_special_ from the decoded exponents (where run_rows found a special term).
  void find_specials();
  static bool values_fit(const Model& m, const TileSpec& s);
  // Whether the elements are decoded to their values (values_fit, and no scale exponents to add).
  static bool uses_values(const Model& m, const TileSpec& s);
  // Whether run_scaled applies: power-of-two scales added to the exponents, or exact group sums.
  static bool scales_fit(const Model& m, const TileSpec& s);
  // scale_group 0: the scales' exponents added to those of A's and B's elements; a NaN scale makes
  // its row's (column's) elements special.
  void add_scale_exponents(const std::uint64_t* sa, const std::uint64_t* sb);
  // The same for one operand: `rows` scale codes, `count` elements per row, k-major `stride` apart.
  void add_scales(const std::uint64_t* codes, int rows, int count, int stride, float* m, std::int32_t* e);
  // scale_group > 0: the scales' values and exponents per row of A and column of B; a NaN scale
  // marks its row or column special.
  void set_group_scales(const std::uint64_t* sa, const std::uint64_t* sb);
  template <int R, bool Sparse>
  void group_rows(int i0, const std::uint64_t* c, std::uint64_t* d) const;
  template <bool Sparse>
  void group_rows_all(const std::uint64_t* c, std::uint64_t* d) const;
  void run_groups(const std::uint64_t* c, std::uint64_t* d) const;
  void run_groups_sparse(const std::uint64_t* c, std::uint64_t* d) const;
  static constexpr int kRows = 4;   // rows of A per pass
  static constexpr int kMaxGroups = 16;  // scaled group sums of one output held at once
  // worst: the largest block exponent E seen, which tells whether a term had a NaN or Inf factor.
  // Sparse: row i's product at block position p takes B's row at b_at_[i * K + p] (times np_).
  // Chunked: a block has more products than one int32 sum takes (chunk_).
  template <int R, bool Sparse, bool Chunked>
  void rows(int i0, const std::uint64_t* c, std::uint64_t* d, Ints& worst) const;
  // Whether any term had a NaN or Inf factor.
  template <bool Sparse, bool Chunked>
  bool rows_all(const std::uint64_t* c, std::uint64_t* d) const;
  // One block of all K products and C, C an IEEE f32 or f16 and the products' int32 sum
  // unchunked (one_block_): rows() without what chained blocks, chunks and a final addition need,
  // every row; whether a C was NaN or Inf (decide_specials() then sets those outputs). Wide: C's
  // term and the products' sum may pass 2^31 together (wide_). Kc: K, or 0 (s_.k).
  template <bool Sparse, bool Wide, int Kc>
  bool one_block(const std::uint64_t* c, std::uint64_t* d, Ints& worst) const;
  void decide_specials(const std::uint64_t* c, std::uint64_t* d) const;
  template <bool Sparse, bool Wide>
  bool one_block_all(const std::uint64_t* c, std::uint64_t* d) const;
  bool run_rows(const std::uint64_t* c, std::uint64_t* d) const;
  bool run_rows_sparse(const std::uint64_t* c, std::uint64_t* d) const;
  // Rounds 8 columns of total * 2^cut (exact integers in doubles, below 2^53) into D as a block
  // sum does (round_sum_lanes); NaN/Inf running sums are decided before.
  void round_all(const Doubles& total, const Ints& cut, UInts& code) const;
  // round_all for f32 D rounded toward zero or (all 23 bits) to nearest.
  void round_f32(const Doubles& total, const Ints& cut, UInts& code) const;
  // round_all for f16 D rounded (all 10 bits) to nearest.
  void round_f16(const Doubles& total, const Ints& cut, UInts& code) const;
  [[nodiscard]] std::uint64_t special_result(Type t, std::uint64_t code) const;
  [[nodiscard]] std::uint64_t final_add(std::uint64_t acc, std::uint64_t c) const;

  const Model& m_;
  TileSpec s_;
  ElementDecoder da_, db_, dc_, dd_;
  // The k in block order (a block's products contiguous), and where each block starts in it.
  std::vector<int> order_, block_start_;
  std::vector<std::uint32_t> slot_;  // the place of each k in order_
  // An element type decoded by arithmetic, 8 elements at once (decode_words, decode_lanes): the
  // same m and e as ElementDecoder's, without a table.
  struct WordFormat {
    std::uint32_t mask, mag_mask;  // the element's bits; less the sign (the magnitude)
    std::int32_t frac_mask;
    std::int32_t special_from;  // magnitudes from this one up are NaN or Inf
    int man_bits, sign_at;
    std::int32_t bias;
    float fraction_unit;  // 2^-man_bits
    bool values, zeros_set_exponent;
    void decode(const UInts& code, Floats& m, Ints& e) const;
  } wa_, wb_;
  bool lanes_a_, lanes_b_;  // decode_codes decodes A's (B's) codes 8 at a time by wa_ (wb_)
  std::int32_t frac_bits_;
  int chunk_;  // products per int32 sum: each is below 2^(F+2)
  bool chunked_ = false;  // some block has more products than chunk_
  bool one_block_ = false, wide_ = false;  // one_block() applies; with Wide
  std::int32_t exp_floor_;
  int out_frac_;                          // fraction bits the block sum keeps (<= D's)
  std::int64_t keep_mask_;                // a double's bits that keep out_frac_ fraction bits
  Rounding out_round_;
  bool f32_round_;                        // round_f32 applies
  bool f16_round_;                        // round_f16 applies
  bool host_add_;                         // final_add is the host's binary32 addition (f32 C and D, rn)
  bool half_add_;                         // final_add is an f16 addition to nearest (f16 C and D)
  SumFormat sum_;  // D's format, the block sum's fraction bits and rounding
  struct RunFormat {  // the running sum's format (C's, D's) for decoding 8 codes at once
    bool vector;       // an IEEE format with Inf: f32, f16
    int man_bits, sign_at, frac_shift;
    std::uint32_t exp_all, frac_mask;
    int bias, emin;
  } run_c_, run_d_;
  int problems_ = 1;  // problems() (TileSpec::problems where one_block() runs them)
  int pn_;            // N rounded up to kLanes: one problem's columns of B
  int mp_, np_;       // all problems' rows of A, columns of B (pn_ each), rounded up to kLanes
  int bk_;       // B's rows: K, or 2K for a sparse A
  bool values_;  // am_ and bm_ hold the elements' values, not their m (values_fit)
  // Decoded operands, k-major: A at k * mp_ + i, B at k * np_ + j (8 rows or columns per vector);
  // k in block order.
  std::vector<float> am_, bm_;
  std::vector<std::int32_t> ae_, be_;
  std::vector<std::uint32_t> words_;  // run_words: A's words, then B's, in their WordSource order
  std::vector<std::uint32_t> b_at_;  // sparse: where each row's products find their B row
  const int* cols_ = nullptr;        // sparse: run_sparse's cols (one_block() reads them as they are)
  std::vector<char> a_special_, b_special_;
  bool any_special_ = false;
  // Block-scaled kinds. scale_group > 0 (group_): the scale of row i's group g is at
  // [i * V + v] in sa_*, of column j's at [v * np_ + j] in sb_* (v = g's run of k): its value
  // (0 for NaN) and its exponent.
  int group_ = 0;
  int scale_k_ = 0;          // consecutive (stored) k per scale
  bool element_specials_;    // A's or B's type has NaN or Inf codes
  const Term* scale_terms_ = nullptr;  // the scale type's codes decoded (term_table)
  std::vector<std::int32_t> scale_exp_;  // scale_group 0: each row's (column's) scale exponent
  std::vector<double> scale_value_;    // scale_group > 0: each scale code's value (0 for NaN)
  std::vector<double> sa_value_, sb_value_;
  std::vector<std::int32_t> sa_exp_, sb_exp_;
};

}  // namespace ptxmma
