#include "sim/model/tile.hpp"

#include <algorithm>
#include <bit>
#include <climits>

#include "sim/model/block_tile.hpp"
#include "sim/model/dot.hpp"
#include "sim/model/add_tree_tile.hpp"
#include "sim/model/fma_tile.hpp"
#include "sim/model/simd.hpp"
#include "sim/numeric/fields.hpp"

namespace ptxmma {
namespace {

Term term_of(Type t, std::uint64_t code) {
  const Term* table = info(t).bits <= 16 ? term_table(t) : nullptr;
  return table ? table[code & info(t).mask()] : make_term(t, code);
}

bool finite(const Term* t, int n) {
  for (int i = 0; i < n; ++i)
    if (t[i].cls == FpClass::nan || t[i].cls == FpClass::infinity) return false;
  return true;
}

// Exact dot products of 8-bit or narrower integers: 16-bit lanes whose products sum in int32
// (at most 2^16 each, K at most 64 for these types).
PTXMMA_MULTIVERSION
void integer_tile(const std::int16_t* a, const std::int16_t* b, const std::uint64_t* c, std::uint64_t* d, int m,
                  int n, int k, bool satfinite) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const std::int16_t* __restrict x = a + static_cast<std::size_t>(i * k);
      const std::int16_t* __restrict y = b + static_cast<std::size_t>(j * k);
      std::int32_t s = 0;
      for (int kk = 0; kk < k; ++kk) s += static_cast<std::int32_t>(x[kk]) * static_cast<std::int32_t>(y[kk]);
      const std::size_t at = static_cast<std::size_t>(i * n + j);
      const std::int64_t sum = static_cast<std::int64_t>(static_cast<std::int32_t>(c[at])) + s;  // C is s32
      const std::int64_t out = satfinite ? std::clamp<std::int64_t>(sum, INT32_MIN, INT32_MAX) : sum;
      d[at] = static_cast<std::uint32_t>(out);
    }
}

// The same with a sparse A: row i's stored element kk meets B's row cols[i * k + kk] of 2k.
PTXMMA_MULTIVERSION
void integer_sparse_tile(const std::int16_t* a, const std::int16_t* b, const int* cols, const std::uint64_t* c,
                         std::uint64_t* d, int m, int n, int k, bool satfinite) {
  for (int i = 0; i < m; ++i) {
    const int* col = cols + static_cast<std::size_t>(i * k);
    for (int j = 0; j < n; ++j) {
      const std::int16_t* __restrict x = a + static_cast<std::size_t>(i * k);
      const std::int16_t* __restrict y = b + static_cast<std::size_t>(j * 2 * k);
      std::int32_t s = 0;
      for (int kk = 0; kk < k; ++kk) s += static_cast<std::int32_t>(x[kk]) * static_cast<std::int32_t>(y[col[kk]]);
      const std::size_t at = static_cast<std::size_t>(i * n + j);
      const std::int64_t sum = static_cast<std::int64_t>(static_cast<std::int32_t>(c[at])) + s;
      const std::int64_t out = satfinite ? std::clamp<std::int64_t>(sum, INT32_MIN, INT32_MAX) : sum;
      d[at] = static_cast<std::uint32_t>(out);
    }
  }
}

// W words per row held in registers (W = 0: any number, from memory).
template <bool And, int W>
[[gnu::always_inline]] inline void popc_rows(const std::uint64_t* __restrict a, const std::uint64_t* __restrict b,
                                             const std::uint64_t* __restrict c, std::uint64_t* __restrict d, int m,
                                             int n, int words) {
  const int w_count = W ? W : words;
  for (int i = 0; i < m; ++i) {
    const std::uint64_t* x = a + static_cast<std::size_t>(i * w_count);
    for (int j = 0; j < n; ++j) {
      const std::uint64_t* y = b + static_cast<std::size_t>(j * w_count);
      std::uint32_t count = 0;
      for (int w = 0; w < w_count; ++w) count += static_cast<std::uint32_t>(std::popcount(And ? x[w] & y[w] : x[w] ^ y[w]));
      const std::size_t at = static_cast<std::size_t>(i * n + j);
      d[at] = static_cast<std::uint32_t>(c[at]) + count;
    }
  }
}

template <bool And>
[[gnu::always_inline]] inline void popc_any(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c,
                                            std::uint64_t* d, int m, int n, int words) {
  switch (words) {
    case 2: return popc_rows<And, 2>(a, b, c, d, m, n, words);  // k128
    case 4: return popc_rows<And, 4>(a, b, c, d, m, n, words);  // k256
    default: return popc_rows<And, 0>(a, b, c, d, m, n, words);
  }
}

PTXMMA_MULTIVERSION
void popc_tile(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d, int m,
               int n, int words, bool and_op) {
  if (and_op) popc_any<true>(a, b, c, d, m, n, words);
  else popc_any<false>(a, b, c, d, m, n, words);
}

// Codes of 0/1 into rows of packed bits (TileKernel::run_bits).
void pack_bits(const std::uint64_t* codes, int rows, int k, std::vector<std::uint64_t>& out) {
  const int words = (k + 63) / 64;
  out.assign(static_cast<std::size_t>(rows * words), 0);
  for (int r = 0; r < rows; ++r)
    for (int kk = 0; kk < k; ++kk)
      out[static_cast<std::size_t>(r * words + kk / 64)] |= (codes[static_cast<std::size_t>(r * k + kk)] & 1) << (kk % 64);
}

}  // namespace

TileKernel::TileKernel(const Model& m, const TileSpec& s)
    : m_(m), s_(s), block_(BlockTile::make(m, s)), fma_(FmaTile::make(m, s)), add_tree_(AddTreeTile::make(m, s)) {
  const auto mk = static_cast<std::size_t>(s.m) * static_cast<std::size_t>(s.k);
  const auto nk = static_cast<std::size_t>(s.n) * static_cast<std::size_t>(s.k);
  integer_ = m.engine == Engine::integer && !info(s.a).is_float && !info(s.b).is_float && info(s.a).bits <= 8 &&
             info(s.b).bits <= 8 && s.k <= 64 && s.c == Type::s32;
  const std::size_t b_rows = s.sparse ? 2 : 1;  // B's rows per stored column of A
  if (integer_) {
    ia_.resize(mk);
    ib_.resize(nk * b_rows);
  }
  if (s.sparse && m.engine == Engine::popc) {
    pa_.resize(static_cast<std::size_t>(words_per_row()));
    pb_.resize(static_cast<std::size_t>(s.n * words_per_row()));
    b_row_.resize(nk);
  }
  ta_.resize(mk);
  tb_.resize(nk * b_rows);
  if (s.sparse) picked_.resize(static_cast<std::size_t>(s.k));
}

TileKernel::~TileKernel() = default;
TileKernel::TileKernel(TileKernel&&) noexcept = default;

void TileKernel::reference(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d,
                           int i, int j, int b_k, const int* cols, const std::uint64_t* sa, const std::uint64_t* sb) {
  const int K = s_.k, V = s_.scale_vec;
  if (b_k == 0) b_k = K;
  for (int k = 0; k < K; ++k) {
    ta_[static_cast<std::size_t>(k)] = term_of(s_.a, a[static_cast<std::size_t>(i * K + k)]);
    const int row = cols ? cols[i * K + k] : k;
    tb_[static_cast<std::size_t>(k)] = term_of(s_.b, b[static_cast<std::size_t>(j * b_k + row)]);
  }
  const std::size_t at = static_cast<std::size_t>(i * s_.n + j);
  const Term ct = make_term(s_.c, c[at]);
  DotOperands r{s_.a, s_.b, s_.c, s_.d, ta_.data(), tb_.data(), K, &ct, s_.rounding, s_.satfinite, s_.bitop};
  Term scale_a[4], scale_b[4];  // .scale_vec is at most 4X
  if (sa) {
    for (int v = 0; v < V; ++v) {
      scale_a[v] = make_term(s_.scale, sa[i * V + v]);
      scale_b[v] = make_term(s_.scale, sb[j * V + v]);
    }
    r.a_scales = scale_a;
    r.b_scales = scale_b;
    r.scale_k = K / V;
  }
  d[at] = dot(m_, r);
}

void TileKernel::run_reference(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d,
                               const int* cols, const std::uint64_t* sa, const std::uint64_t* sb) {
  const int K = s_.k, b_k = cols ? 2 * K : K, V = s_.scale_vec;
  for (std::size_t x = 0; x < ta_.size(); ++x) ta_[x] = term_of(s_.a, a[x]);
  const auto nb = static_cast<std::size_t>(s_.n) * static_cast<std::size_t>(b_k);
  for (std::size_t x = 0; x < nb; ++x) tb_[x] = term_of(s_.b, b[x]);
  DotOperands r{s_.a, s_.b, s_.c, s_.d, nullptr, nullptr, K, nullptr, s_.rounding, s_.satfinite, s_.bitop};
  Term scale_a[4], scale_b[4];  // .scale_vec is at most 4X
  if (sa) {
    r.a_scales = scale_a;
    r.b_scales = scale_b;
    r.scale_k = K / V;  // sparse: a run of 2K/V logical k holds K/V stored elements
  }
  for (int i = 0; i < s_.m; ++i) {
    r.a_terms = ta_.data() + static_cast<std::size_t>(i * K);
    const bool a_finite = finite(r.a_terms, K);
    const int* row_cols = cols ? cols + static_cast<std::size_t>(i * K) : nullptr;
    for (int v = 0; sa && v < V; ++v) scale_a[v] = make_term(s_.scale, sa[i * V + v]);
    for (int j = 0; j < s_.n; ++j) {
      const Term* column = tb_.data() + static_cast<std::size_t>(j * b_k);
      if (row_cols) {  // the B rows row i's metadata picks
        for (int k = 0; k < K; ++k) picked_[static_cast<std::size_t>(k)] = column[row_cols[k]];
        column = picked_.data();
      }
      r.b_terms = column;
      r.finite_ab = a_finite && finite(column, K);
      for (int v = 0; sb && v < V; ++v) scale_b[v] = make_term(s_.scale, sb[j * V + v]);
      const std::size_t at = static_cast<std::size_t>(i * s_.n + j);
      const Term ct = make_term(s_.c, c[at]);
      r.c_term = &ct;
      d[at] = dot(m_, r);
    }
  }
}

void TileKernel::widen(const std::uint64_t* a, const std::uint64_t* b) {
  // integer_value() of 8 bits or fewer: the code's bits at the top of 16, shifted back (arithmetic
  // for signed types).
  const auto to16 = [](Type t, const std::uint64_t* codes, std::vector<std::int16_t>& out) {
    const int up = 16 - info(t).bits;
    if (info(t).is_signed)
      for (std::size_t x = 0; x < out.size(); ++x)
        out[x] = static_cast<std::int16_t>(static_cast<std::int16_t>(codes[x] << up) >> up);
    else
      for (std::size_t x = 0; x < out.size(); ++x) out[x] = static_cast<std::int16_t>(codes[x] & ((1U << (16 - up)) - 1));
  };
  to16(s_.a, a, ia_);
  to16(s_.b, b, ib_);
}

template <class Fast, class... More>
void TileKernel::reference_where(const Fast& fast, int problems, const std::uint64_t* a, const std::uint64_t* b,
                                 const std::uint64_t* c, std::uint64_t* d, More... more) {
  const auto mk = static_cast<std::size_t>(s_.m * s_.k), nk = static_cast<std::size_t>(s_.n * s_.k);
  const auto mn = static_cast<std::size_t>(s_.m * s_.n);
  for (int p = 0; p < problems; ++p) {
    const auto up = static_cast<std::size_t>(p);
    for (int i = 0; i < s_.m; ++i)
      for (int j = 0; j < s_.n; ++j)
        if (fast.special(p * s_.m + i, p * s_.n + j))
          reference(a + up * mk, b + up * nk, c + up * mn, d + up * mn, i, j, more...);
  }
}

bool TileKernel::batched() const { return block_ && block_->problems() == s_.problems; }

void TileKernel::run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  if (batched()) {
    block_->run(a, b, c, d);
    if (block_->any_special()) reference_where(*block_, s_.problems, a, b, c, d);
    return;
  }
  const auto mk = static_cast<std::size_t>(s_.m * s_.k), nk = static_cast<std::size_t>(s_.n * s_.k);
  const auto mn = static_cast<std::size_t>(s_.m * s_.n);
  for (std::size_t p = 0; p < static_cast<std::size_t>(s_.problems); ++p)
    run_one(a + p * mk, b + p * nk, c + p * mn, d + p * mn);
}

void TileKernel::run_one(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  if (block_) {
    block_->run(a, b, c, d);
    if (block_->any_special()) reference_where(*block_, 1, a, b, c, d);
    return;
  }
  if (fma_) {
    if (fma_->run(a, b, c, d)) reference_where(*fma_, 1, a, b, c, d);
    return;
  }
  if (add_tree_) {
    if (add_tree_->run(a, b, c, d)) reference_where(*add_tree_, 1, a, b, c, d);
    return;
  }
  if (integer_) {
    widen(a, b);
    return integer_tile(ia_.data(), ib_.data(), c, d, s_.m, s_.n, s_.k, s_.satfinite);
  }
  if (m_.engine == Engine::popc) {
    pack_bits(a, s_.m, s_.k, pa_);
    pack_bits(b, s_.n, s_.k, pb_);
    return run_bits_rows(pa_.data(), pb_.data(), c, d, s_.m);
  }
  run_reference(a, b, c, d);
}

void TileKernel::run_sparse(const std::uint64_t* a, const std::uint64_t* b, const int* cols, const std::uint64_t* c,
                            std::uint64_t* d) {
  const int K = s_.k, M = s_.m, N = s_.n;
  if (block_) {
    block_->run_sparse(a, b, cols, c, d);
    if (block_->any_special()) reference_where(*block_, 1, a, b, c, d, 2 * K, cols);
    return;
  }
  if (integer_) {
    widen(a, b);
    return integer_sparse_tile(ia_.data(), ib_.data(), cols, c, d, M, N, K, s_.satfinite);
  }
  if (m_.engine == Engine::popc) {  // row by row: the row's bits against its B rows' bits
    for (int i = 0; i < M; ++i) {
      const int* col = cols + static_cast<std::size_t>(i * K);
      for (int j = 0; j < N; ++j)
        for (int s = 0; s < K; ++s)
          b_row_[static_cast<std::size_t>(j * K + s)] = b[static_cast<std::size_t>(j * 2 * K + col[s])];
      pack_bits(a + static_cast<std::size_t>(i * K), 1, K, pa_);
      pack_bits(b_row_.data(), N, K, pb_);
      run_bits_rows(pa_.data(), pb_.data(), c + static_cast<std::size_t>(i * N), d + static_cast<std::size_t>(i * N), 1);
    }
    return;
  }
  run_reference(a, b, c, d, cols);
}

void TileKernel::run_scaled(const std::uint64_t* a, const std::uint64_t* b, const int* cols, const std::uint64_t* sa,
                            const std::uint64_t* sb, const std::uint64_t* c, std::uint64_t* d) {
  if (!block_) return run_reference(a, b, c, d, cols, sa, sb);
  block_->run_scaled(a, b, cols, sa, sb, c, d);
  if (block_->any_special()) reference_where(*block_, 1, a, b, c, d, cols ? 2 * s_.k : s_.k, cols, sa, sb);
}

bool TileKernel::takes_words() const { return block_ && BlockTile::takes_words(s_); }

void TileKernel::run_words(WordSource a, WordSource b, const std::uint64_t* c, std::uint64_t* d) {
  if (batched()) return run_words_one(a, b, c, d);
  const auto words = static_cast<std::size_t>(s_.k / (32 / info(s_.a).bits));  // per row
  const auto mn = static_cast<std::size_t>(s_.m * s_.n);
  for (std::size_t p = 0; p < static_cast<std::size_t>(s_.problems); ++p)
    run_words_one({a.words, a.index + p * static_cast<std::size_t>(s_.m) * words},
                  {b.words, b.index + p * static_cast<std::size_t>(s_.n) * words}, c + p * mn, d + p * mn);
}

// One problem, or all of them where the block engine runs them at once.
void TileKernel::run_words_one(WordSource a, WordSource b, const std::uint64_t* c, std::uint64_t* d) {
  block_->run_words(a, b, c, d);
  if (block_->any_special()) {  // the reference engines take codes
    const int problems = block_->problems(), K = s_.k;
    const auto codes = [&](WordSource w, Type t, int rows, std::vector<std::uint64_t>& out) {
      const int bits = info(t).bits, per_word = 32 / bits, words = K / per_word;
      out.resize(static_cast<std::size_t>(problems * rows * K));
      for (int p = 0; p < problems; ++p)
        for (int r = 0; r < rows; ++r)
          for (int k = 0; k < K; ++k)
            out[static_cast<std::size_t>((p * rows + r) * K + k)] =
                (w.words[w.index[(p * words + k / per_word) * rows + r]] >> (k % per_word * bits)) & ((1U << bits) - 1);
    };
    codes(a, s_.a, s_.m, pa_);
    codes(b, s_.b, s_.n, pb_);
    reference_where(*block_, problems, pa_.data(), pb_.data(), c, d);
  }
}

void TileKernel::run_bits(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  const auto words = static_cast<std::size_t>(words_per_row()), mn = static_cast<std::size_t>(s_.m * s_.n);
  for (std::size_t p = 0; p < static_cast<std::size_t>(s_.problems); ++p)
    run_bits_rows(a + p * static_cast<std::size_t>(s_.m) * words, b + p * static_cast<std::size_t>(s_.n) * words,
                  c + p * mn, d + p * mn, s_.m);
}

void TileKernel::run_bits_rows(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d,
                               int rows) {
  popc_tile(a, b, c, d, rows, s_.n, words_per_row(), s_.bitop == BitOp::and_popc);
}

}  // namespace ptxmma
