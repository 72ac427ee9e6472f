#include "sim/exec/mma.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <vector>

#include "sim/error.hpp"
#include "sim/model/simd.hpp"
#include "sim/numeric/exact.hpp"
#include "sim/numeric/f32_bits.hpp"
#include "sim/numeric/fields.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {
namespace {

#if PTXMMA_AVX2_INTRINSICS
// gather_codes' 8 sources at a time: their words and shifts split out of the (word, shift) pairs,
// one gather, per-lane shifts, widened to 64-bit codes.
__attribute__((target("avx2"))) std::size_t gather_codes_avx2(const std::uint32_t* w, const MmaExecutor::Source* from,
                                                              std::size_t n, std::uint32_t mask, int code_shift,
                                                              std::uint32_t code_mask, std::uint64_t* to) {
  static_assert(sizeof(MmaExecutor::Source) == 8 && offsetof(MmaExecutor::Source, shift) == 4);
  const __m256i split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);  // words low, shifts high
  const __m256i m = _mm256_set1_epi32(static_cast<int>(mask)), cm = _mm256_set1_epi32(static_cast<int>(code_mask));
  const __m128i cs = _mm_cvtsi32_si128(code_shift);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i p0 = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + i)), split);
    const __m256i p1 =
        _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + i + 4)), split);
    const __m256i word = _mm256_permute2x128_si256(p0, p1, 0x20), shift = _mm256_permute2x128_si256(p0, p1, 0x31);
    const __m256i x = _mm256_i32gather_epi32(reinterpret_cast<const int*>(w), word, 4);
    const __m256i code = _mm256_and_si256(_mm256_srl_epi32(_mm256_and_si256(_mm256_srlv_epi32(x, shift), m), cs), cm);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + i), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(code)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + i + 4),
                        _mm256_cvtepu32_epi64(_mm256_extracti128_si256(code, 1)));
  }
  return i;
}
#endif

// The element codes of n sources (gather's loop).
void gather_codes(const std::uint32_t* w, const MmaExecutor::Source* from, std::size_t n, std::uint32_t mask,
                  int code_shift, std::uint32_t code_mask, std::uint64_t* to) {
  std::size_t i = 0;
#if PTXMMA_AVX2_INTRINSICS
  if (__builtin_cpu_supports("avx2")) i = gather_codes_avx2(w, from, n, mask, code_shift, code_mask, to);
#endif
  for (; i < n; ++i) to[i] = (((w[from[i].word] >> from[i].shift) & mask) >> code_shift) & code_mask;
}

#if PTXMMA_AVX2_INTRINSICS
// copy_words' and split_pairs' 8 words at a time: one gather, zero-extended to 64-bit codes.
__attribute__((target("avx2"))) __m256i gather8(const std::uint32_t* w, const std::uint32_t* word) {
  return _mm256_i32gather_epi32(reinterpret_cast<const int*>(w),
                                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(word)), 4);
}

__attribute__((target("avx2"))) std::size_t copy_words_avx2(const std::uint32_t* w, const std::uint32_t* word,
                                                            std::size_t n, std::uint64_t* to) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = gather8(w, word + i);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + i), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(x)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + i + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(x, 1)));
  }
  return i;
}

// A word's two halves lie low first in memory, so 4 consecutive halves widened are 2 words' codes.
__attribute__((target("avx2"))) std::size_t split_pairs_avx2(const std::uint32_t* w, const std::uint32_t* word,
                                                             std::size_t n, std::uint64_t* to) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = gather8(w, word + i);
    const __m128i lo = _mm256_castsi256_si128(x), hi = _mm256_extracti128_si256(x, 1);
    std::uint64_t* out = to + 2 * i;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvtepu16_epi64(lo));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4), _mm256_cvtepu16_epi64(_mm_srli_si128(lo, 8)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8), _mm256_cvtepu16_epi64(hi));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 12), _mm256_cvtepu16_epi64(_mm_srli_si128(hi, 8)));
  }
  return i;
}
#endif

// C codes that are whole register words (c_word_).
void copy_words(const std::uint32_t* w, const std::uint32_t* word, std::size_t n, std::uint64_t* to) {
  std::size_t i = 0;
#if PTXMMA_AVX2_INTRINSICS
  if (__builtin_cpu_supports("avx2")) i = copy_words_avx2(w, word, n, to);
#endif
  for (; i < n; ++i) to[i] = w[word[i]];
}

// 16-bit C codes, two to a register word (c_pair_).
void split_pairs(const std::uint32_t* w, const std::uint32_t* word, std::size_t n, std::uint64_t* to) {
  std::size_t i = 0;
#if PTXMMA_AVX2_INTRINSICS
  if (__builtin_cpu_supports("avx2")) i = split_pairs_avx2(w, word, n, to);
#endif
  for (; i < n; ++i) {
    const std::uint32_t x = w[word[i]];
    to[2 * i] = x & 0xffffU;
    to[2 * i + 1] = x >> 16;
  }
}

}  // namespace

std::uint64_t MmaExecutor::element(Operand o, WarpOperand op, int problem, int row, int col) const {
  const RegisterCodec codec = v_.codec(o);
  return codec.code(op.words, problem * codec.layout().rows + row, col);
}

void MmaExecutor::check_sparse(SparseInput e) const {
  if (v_.sparse == Sparsity::dense) return;
  if (e.meta.size() != 32) throw Error(fmt::format("{}: needs the 32 lanes' metadata words", v_.ptx));
  if (e.selector < 0 || e.selector >= v_.metadata->selectors)
    throw Error(fmt::format("{}: sparsity selector {} is out of range (0..{})", v_.ptx, e.selector,
                            v_.metadata->selectors - 1));
}

void MmaExecutor::check_scales(ScaleInput s) const {
  if (s.a.size() != 32 || s.b.size() != 32)
    throw Error(fmt::format("{}: needs the 32 lanes' scale-a-data and scale-b-data words", v_.ptx));
  try {
    v_.scales->check(v_.scale_vec, s.byte_a, s.tid_a, s.byte_b, s.tid_b);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", v_.ptx, e.what()));
  }
}

void MmaExecutor::gather_scaled(WarpOperand a, WarpOperand b, WarpOperand c, SparseInput e, ScaleInput s) const {
  check_scales(s);
  check_sparse(e);
  gather(a_src_, v_.a, a, a_codes_);
  gather(b_src_, v_.b, b, b_codes_);
  gather(c_src_, v_.c, c, c_codes_);
  const int V = v_.scale_vec;
  const TypeInfo& st = info(*v_.stype);
  for (int row = 0; row < v_.shape.m; ++row)
    for (int i = 0; i < V; ++i)
      sa_codes_[static_cast<std::size_t>(row * V + i)] =
          code_of(st, ScaleLayout::code(v_.scales->a, s.a, V, s.tid_a, s.byte_a, row, i));
  for (int col = 0; col < v_.shape.n; ++col)
    for (int i = 0; i < V; ++i)
      sb_codes_[static_cast<std::size_t>(col * V + i)] =
          code_of(st, ScaleLayout::code(v_.scales->b, s.b, V, s.tid_b, s.byte_b, col, i));
}

void MmaExecutor::columns_of(SparseInput e, int row, int* cols) const {
  if (v_.sparse == Sparsity::dense)
    for (int i = 0; i < v_.shape.k; ++i) cols[i] = i;
  else
    v_.metadata->row_columns(v_.pattern, v_.sparse == Sparsity::ordered, e.meta, e.selector, row, cols);
}

std::uint64_t MmaExecutor::scaled_element(SparseInput e, int row, int col, DotTrace* trace) const {
  const int logical_k = v_.shape.k, V = v_.scale_vec;
  const bool sparse = v_.sparse != Sparsity::dense;
  const int k = sparse ? logical_k / 2 : logical_k;
  Term at[kMaxK], bt[kMaxK], sa[4], sb[4];
  int cols[kMaxK];
  if (sparse) columns_of(e, row, cols);
  const std::uint64_t* a_row = &a_codes_[static_cast<std::size_t>(row * k)];
  const std::uint64_t* b_col = &b_codes_[static_cast<std::size_t>(col * logical_k)];
  for (int i = 0; i < k; ++i) {
    at[i] = make_term(v_.a, a_row[i]);
    bt[i] = make_term(v_.b, b_col[sparse ? cols[i] : i]);
  }
  for (int i = 0; i < V; ++i) {
    sa[i] = make_term(*v_.stype, sa_codes_[static_cast<std::size_t>(row * V + i)]);
    sb[i] = make_term(*v_.stype, sb_codes_[static_cast<std::size_t>(col * V + i)]);
  }
  const Term ct = make_term(v_.c, c_codes_[static_cast<std::size_t>(row * v_.shape.n + col)]);
  DotOperands r{v_.a, v_.b, v_.c, v_.d, at, bt, k, &ct, o_.rounding, o_.satfinite, v_.bitop};
  r.a_scales = sa;
  r.b_scales = sb;
  r.scale_k = k / V;  // sparse: a block of K/V logical columns holds K/V/2 stored elements
  if (trace) {
    if (sparse) trace->logical_k.assign(cols, cols + k);
    for (int i = 0; i < V; ++i)
      trace->scales.push_back(fmt::format("k {}..{}: scale A {:#04x} = {}, scale B {:#04x} = {} ({})", i * logical_k / V,
                                         (i + 1) * logical_k / V - 1, sa[i].code, exact_text(*v_.stype, sa[i].code),
                                         sb[i].code, exact_text(*v_.stype, sb[i].code), name(*v_.stype)));
  }
  return dot(m_, r, trace);
}

DotRequest MmaExecutor::request(WarpOperand a, WarpOperand b, WarpOperand c, int problem, int row, int col,
                                std::uint64_t* a_codes, std::uint64_t* b_codes, SparseInput e) const {
  check_sparse(e);
  const int k = v_.sparse == Sparsity::dense ? v_.shape.k : v_.shape.k / 2;
  int cols[kMaxK];
  columns_of(e, row, cols);
  for (int s = 0; s < k; ++s) {
    a_codes[s] = element(Operand::a, a, problem, row, s);
    b_codes[s] = element(Operand::b, b, problem, cols[s], col);
  }
  DotRequest r;
  r.a = v_.a;
  r.b = v_.b;
  r.c = v_.accumulate.value_or(v_.c);
  r.d = v_.accumulate.value_or(v_.d);
  r.a_codes = a_codes;
  r.b_codes = b_codes;
  r.k = k;
  r.c_code = element(Operand::c, c, problem, row, col);
  if (v_.accumulate && *v_.accumulate != v_.c) r.c_code = convert(v_.c, r.c_code, *v_.accumulate, ConvertFlags{});
  r.rounding = o_.rounding;
  r.satfinite = o_.satfinite;
  r.bitop = v_.bitop;
  return r;
}

namespace {

// Sparse variants: K/2 stored elements per row of A against the B rows they pick.
TileSpec tile_spec(const MatrixVariant& v, MmaOptions o) {
  const bool sparse = v.sparse != Sparsity::dense;
  return TileSpec{v.a,
                  v.b,
                  v.accumulate.value_or(v.c),
                  v.accumulate.value_or(v.d),
                  v.shape.m,
                  v.shape.n,
                  sparse ? v.shape.k / 2 : v.shape.k,
                  o.rounding,
                  o.satfinite,
                  v.bitop,
                  sparse,
                  v.block_scale ? v.scale_vec : 0,
                  v.stype.value_or(Type::ue8m0),
                  v.problems()};
}

}  // namespace

MmaExecutor::MmaExecutor(const MatrixVariant& v, const Model& m, MmaOptions o)
    : v_(v), m_(m), o_(o), kernel_(m, tile_spec(v, o)) {
  const Shape s = v.shape;
  const bool sparse = v.sparse != Sparsity::dense;
  a_src_ = sources(Operand::a, s.m, sparse ? s.k / 2 : s.k, false);
  b_src_ = sources(Operand::b, s.n, s.k, true);
  c_src_ = sources(Operand::c, s.m, s.n, false);
  d_dst_ = sources(Operand::d, s.m, s.n, false);
  if (kernel_.takes_bits() && element_bits(v.a, v.container) == 1 && element_bits(v.b, v.container) == 1) {
    a_runs_ = bit_runs(a_src_, s.k);
    b_runs_ = bit_runs(b_src_, s.k);
    a_codes_.resize(a_src_.size() / static_cast<std::size_t>(s.k) * static_cast<std::size_t>(kernel_.words_per_row()));
    b_codes_.resize(b_src_.size() / static_cast<std::size_t>(s.k) * static_cast<std::size_t>(kernel_.words_per_row()));
    halves_.resize(2 * std::max(a_codes_.size(), b_codes_.size()));
  } else if (sparse) {
    a_codes_.resize(a_src_.size());
    b_codes_.resize(b_src_.size());
    columns_.resize(static_cast<std::size_t>(s.m * (s.k / 2)));
  } else {
    a_codes_.resize(a_src_.size());
    b_codes_.resize(b_src_.size());
  }
  // A and B decoded straight from the registers where an element is its code (no container,
  // no shift within the format's bits).
  const auto plain = [&](Type t) {
    return element_bits(t, v.container) == info(t).bits && info(t).shift == 0 && !in_container(t);
  };
  if (!sparse && kernel_.takes_words() && plain(v.a) && plain(v.b)) {
    a_index_ = word_index(a_src_, info(v.a).bits, s.m, s.k);
    b_index_ = word_index(b_src_, info(v.b).bits, s.n, s.k);
    if (a_index_.empty() || b_index_.empty()) a_index_.clear();
  }
  c_codes_.resize(c_src_.size());
  d_codes_.resize(d_dst_.size());
  if (v.block_scale) {
    sa_codes_.resize(static_cast<std::size_t>(s.m * v.scale_vec));
    sb_codes_.resize(static_cast<std::size_t>(s.n * v.scale_vec));
  }
  const auto whole = [&](Type t, const std::vector<Source>& src, std::vector<std::uint32_t>& word) {
    if (element_bits(t, v.container) == 32 && info(t).shift == 0)
      for (const Source& x : src) word.push_back(x.word);
  };
  whole(v.c, c_src_, c_word_);
  whole(v.d, d_dst_, d_word_);
  // 16-bit C and D (f16x2 registers): elements 2i and 2i + 1 the low and high half of one word.
  const auto pairs = [&](Type t, const std::vector<Source>& src, std::vector<std::uint32_t>& word) {
    if (element_bits(t, v.container) != 16 || info(t).shift != 0 || src.size() % 2 != 0) return;
    for (std::size_t x = 0; x < src.size(); x += 2) {
      if (src[x].word != src[x + 1].word || src[x].shift != 0 || src[x + 1].shift != 16) {
        word.clear();
        return;
      }
      word.push_back(src[x].word);
    }
  };
  pairs(v.c, c_src_, c_pair_);
  pairs(v.d, d_dst_, d_pair_);
}

std::vector<MmaExecutor::Source> MmaExecutor::sources(Operand o, int rows, int cols, bool transpose) const {
  const RegisterCodec codec = v_.codec(o);
  std::vector<Source> out;
  for (int p = 0; p < codec.layout().problems; ++p)
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const RegisterCodec::Place at = transpose ? codec.place(p, j, i) : codec.place(p, i, j);
        out.push_back(Source{at.word, at.shift});
      }
  return out;
}

std::vector<std::uint32_t> MmaExecutor::word_index(const std::vector<Source>& src, int bits, int rows, int k) {
  const auto per_word = static_cast<std::size_t>(32 / bits), words = static_cast<std::size_t>(k) / per_word;
  const auto r_count = static_cast<std::size_t>(rows), per_problem = r_count * static_cast<std::size_t>(k);
  std::vector<std::uint32_t> index(src.size() / per_word);
  for (std::size_t x = 0; x < src.size(); x += per_word) {
    for (std::size_t f = 0; f < per_word; ++f)
      if (src[x + f].word != src[x].word || src[x + f].shift != f * static_cast<std::size_t>(bits)) return {};
    const std::size_t problem = x / per_problem, row = x % per_problem / static_cast<std::size_t>(k);
    const std::size_t q = x % static_cast<std::size_t>(k) / per_word;
    index[problem * r_count * words + q * r_count + row] = src[x].word;  // word-major within a problem
  }
  return index;
}

std::vector<MmaExecutor::BitRun> MmaExecutor::bit_runs(const std::vector<Source>& src, int cols) const {
  const auto words = static_cast<std::uint32_t>(kernel_.words_per_row());
  std::vector<BitRun> runs;
  for (std::size_t i = 0; i < src.size(); ++i) {
    const auto row = static_cast<std::uint32_t>(i / static_cast<std::size_t>(cols));
    const auto k = static_cast<std::uint32_t>(i % static_cast<std::size_t>(cols));
    const std::uint32_t dst = row * words * 64 + k;
    if (!runs.empty()) {
      BitRun& r = runs.back();
      if (r.word == src[i].word && r.shift + r.bits == src[i].shift && r.dst + r.bits == dst && dst % 32 != 0) {
        ++r.bits;
        continue;
      }
    }
    runs.push_back(BitRun{src[i].word, src[i].shift, 1, dst});
  }
  return runs;
}

void MmaExecutor::gather(const std::vector<Source>& src, Type t, WarpOperand op, std::vector<std::uint64_t>& out) const {
  const int bits = element_bits(t, v_.container);
  const std::uint32_t* w = op.words.data();
  // Locals: the stores below cannot change them.
  const Source* from = src.data();
  std::uint64_t* to = out.data();
  const std::size_t n = src.size();
  if (bits == 64) {  // two consecutive words, low first: one load on a little-endian host
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::endian::native == std::endian::little)
        std::memcpy(&to[i], w + from[i].word, sizeof(std::uint64_t));
      else
        to[i] = w[from[i].word] | (static_cast<std::uint64_t>(w[from[i].word + 1]) << 32);
    }
    return;
  }
  const std::uint32_t mask = bits == 32 ? ~0U : (1U << bits) - 1;
  const TypeInfo& ti = info(t);
  // element_code: FP6/FP4 leave their container, tf32 its b32.
  const int code_shift = in_container(t) ? container_shift(t, v_.container) : ti.shift;
  const std::uint64_t code_mask = ti.mask();
  gather_codes(w, from, n, mask, code_shift, static_cast<std::uint32_t>(code_mask), to);
}

void MmaExecutor::gather_bits(const std::vector<BitRun>& runs, WarpOperand op, std::vector<std::uint32_t>& halves,
                              std::vector<std::uint64_t>& out) {
  // 32-bit halves first: a whole register word is one store; then the 64-bit words.
  std::fill(halves.begin(), halves.end(), 0);
  const std::uint32_t* w = op.words.data();
  for (const BitRun& r : runs) {
    if (r.bits == 32) {
      halves[r.dst / 32] = w[r.word];
    } else {
      const std::uint32_t mask = (1U << r.bits) - 1;
      halves[r.dst / 32] |= ((w[r.word] >> r.shift) & mask) << (r.dst % 32);
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = halves[2 * i] | (static_cast<std::uint64_t>(halves[2 * i + 1]) << 32);
}

void MmaExecutor::run_products(WarpOperand a, WarpOperand b, WarpOperand c, SparseInput e) const {
  const bool packed = !a_runs_.empty(), words = !a_index_.empty();
  if (packed) {
    gather_bits(a_runs_, a, halves_, a_codes_);
    gather_bits(b_runs_, b, halves_, b_codes_);
  } else if (v_.sparse != Sparsity::dense) {
    check_sparse(e);
    gather(a_src_, v_.a, a, a_codes_);
    gather(b_src_, v_.b, b, b_codes_);
  } else if (!words) {
    gather(a_src_, v_.a, a, a_codes_);
    gather(b_src_, v_.b, b, b_codes_);
  }
  if (!c_word_.empty()) {
    copy_words(c.words.data(), c_word_.data(), c_word_.size(), c_codes_.data());
  } else if (!c_pair_.empty()) {
    split_pairs(c.words.data(), c_pair_.data(), c_pair_.size(), c_codes_.data());
  } else {
    gather(c_src_, v_.c, c, c_codes_);
  }
  if (v_.accumulate && *v_.accumulate != v_.c)  // C widened exactly (an f16 subnormal becomes a normal f32)
    for (std::uint64_t& code : c_codes_) code = widen_c(code);
  // Every problem in one call (a sparse variant has one).
  if (v_.sparse != Sparsity::dense)
    run_sparse(e);
  else if (packed)
    kernel_.run_bits(a_codes_.data(), b_codes_.data(), c_codes_.data(), d_codes_.data());
  else if (words)
    kernel_.run_words({a.words.data(), a_index_.data()}, {b.words.data(), b_index_.data()}, c_codes_.data(),
                      d_codes_.data());
  else
    kernel_.run(a_codes_.data(), b_codes_.data(), c_codes_.data(), d_codes_.data());
}

void MmaExecutor::run(WarpOperand a, WarpOperand b, WarpOperand c, std::span<std::uint32_t> d, SparseInput e,
                      ScaleInput sc) const {
  if (v_.block_scale) {
    gather_scaled(a, b, c, e, sc);
    const bool sparse = v_.sparse != Sparsity::dense;
    if (sparse) fill_columns(e);
    kernel_.run_scaled(a_codes_.data(), b_codes_.data(), sparse ? columns_.data() : nullptr, sa_codes_.data(),
                       sb_codes_.data(), c_codes_.data(), d_codes_.data());
  } else {
    run_products(a, b, c, e);
  }
  if (v_.accumulate && *v_.accumulate != v_.d)
    for (std::uint64_t& code : d_codes_) code = narrow_accumulator(code);
  const int bits = element_bits(v_.d, v_.container);
  const TypeInfo& di = info(v_.d);
  const std::uint32_t mask = bits >= 32 ? ~0U : (1U << bits) - 1;
  // Locals: the stores to d cannot change them.
  std::uint32_t* words = d.data();
  const std::uint64_t* codes = d_codes_.data();
  if (!d_word_.empty()) {
    const std::uint32_t* word = d_word_.data();
    const std::size_t count = d_word_.size();
#pragma GCC unroll 8
    for (std::size_t i = 0; i < count; ++i) words[word[i]] = static_cast<std::uint32_t>(codes[i]);
    return;
  }
  if (!d_pair_.empty()) {
    const std::uint32_t* word = d_pair_.data();
    const std::size_t count = d_pair_.size();
#pragma GCC unroll 8
    for (std::size_t i = 0; i < count; ++i)
      words[word[i]] = static_cast<std::uint32_t>(codes[2 * i] & 0xffffU) | static_cast<std::uint32_t>(codes[2 * i + 1]) << 16;
    return;
  }
  const Source* dsts = d_dst_.data();
  const std::size_t count = d_dst_.size();
  if (bits == 32) {
    const int code_shift = di.shift;
    for (std::size_t out = 0; out < count; ++out) words[dsts[out].word] = static_cast<std::uint32_t>(codes[out] << code_shift);
    return;
  }
  if (bits == 64) {
    for (std::size_t out = 0; out < count; ++out) {
      const std::uint64_t code = codes[out];
      if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(&words[dsts[out].word], &code, sizeof code);
      } else {
        words[dsts[out].word] = static_cast<std::uint32_t>(code);
        words[dsts[out].word + 1] = static_cast<std::uint32_t>(code >> 32);
      }
    }
    return;
  }
  const int code_shift = di.shift;  // container_of
  for (std::size_t out = 0; out < count; ++out) {
    const Source dst = dsts[out];
    const auto element = static_cast<std::uint32_t>(codes[out] << code_shift) & mask;
    words[dst.word] = (words[dst.word] & ~(mask << dst.shift)) | element << dst.shift;
  }
}

// The metadata class describes M rows of K / 2 stored elements (the catalogue checks it).
void MmaExecutor::fill_columns(SparseInput e) const {
  v_.metadata->all_columns(v_.pattern, v_.sparse == Sparsity::ordered, e.meta, e.selector, columns_.data());
}

void MmaExecutor::run_sparse(SparseInput e) const {
  fill_columns(e);
  kernel_.run_sparse(a_codes_.data(), b_codes_.data(), columns_.data(), c_codes_.data(), d_codes_.data());
}

std::uint64_t MmaExecutor::explain(WarpOperand a, WarpOperand b, WarpOperand c, int problem, int row, int col,
                                   DotTrace& trace, SparseInput e, ScaleInput s) const {
  for (const auto& [o, op] : {std::pair{Operand::a, a}, std::pair{Operand::b, b}, std::pair{Operand::c, c}})
    if (op.per_lane != v_.words(o) || op.words.size() != static_cast<std::size_t>(32 * op.per_lane))
      throw Error(fmt::format("{}: operand {} needs 32 lanes x {} words, given {} words of {} per lane", v_.ptx, name(o),
                              v_.words(o), op.words.size(), op.per_lane));
  if (v_.block_scale) {
    gather_scaled(a, b, c, e, s);
    return scaled_element(e, row, col, &trace);
  }
  std::vector<std::uint64_t> a_codes(static_cast<std::size_t>(v_.shape.k)), b_codes(a_codes.size());
  if (v_.sparse != Sparsity::dense) {
    check_sparse(e);
    int cols[kMaxK];
    columns_of(e, row, cols);
    trace.logical_k.assign(cols, cols + v_.shape.k / 2);
  }
  const std::uint64_t d = dot(m_, request(a, b, c, problem, row, col, a_codes.data(), b_codes.data(), e), &trace);
  if (!v_.accumulate || *v_.accumulate == v_.d) return d;
  const std::uint64_t narrowed = narrow_accumulator(d);
  trace.notes.push_back(fmt::format("D rounded from {} {:#x} = {} to {} {:#x} = {} (round to nearest, ties to even)",
                                    name(*v_.accumulate), d, exact_text(*v_.accumulate, d), name(v_.d), narrowed,
                                    exact_text(v_.d, narrowed)));
  return narrowed;
}

// f16 <-> f32 (every such variant) through the exact bit operations of f32_bits.hpp where the
// value is finite; convert() for NaN and Inf and any other pair.
std::uint64_t MmaExecutor::narrow_accumulator(std::uint64_t code) const {
  if (*v_.accumulate == Type::f32 && v_.d == Type::f16 && (code & 0x7f800000U) != 0x7f800000U)
    return f16_of_f32_rn(static_cast<std::uint32_t>(code));
  return convert(*v_.accumulate, code, v_.d, ConvertFlags{Rounding::rn});
}

std::uint64_t MmaExecutor::widen_c(std::uint64_t code) const {
  if (v_.c == Type::f16 && *v_.accumulate == Type::f32 && (code & 0x7c00U) != 0x7c00U)
    return f32_of_f16(static_cast<std::uint32_t>(code));
  return convert(v_.c, code, *v_.accumulate, ConvertFlags{});
}

}  // namespace ptxmma
