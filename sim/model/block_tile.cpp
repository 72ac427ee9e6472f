#include "sim/model/block_tile.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>

#include "sim/model/dot.hpp"
#include "sim/model/simd.hpp"
#include "sim/model/term.hpp"
#include "sim/numeric/fields.hpp"
#include "sim/numeric/rounding_lanes.hpp"

namespace ptxmma {
namespace {

int field_bits(const TypeInfo& t) { return t.bits - t.man_bits; }

bool decodable(Type t) {
  const TypeInfo& ti = info(t);
  return ti.is_float && ti.has_subnormals && field_bits(ti) <= 9 && ti.man_bits + 1 <= 24;
}

bool special(const Fields& f) { return f.cls == FpClass::nan || f.cls == FpClass::infinity; }

typedef BlockTile::Ints Ints;
typedef BlockTile::UInts UInts;
typedef BlockTile::Floats Floats;
typedef BlockTile::Doubles Doubles;

// Whether any lane of a comparison's result is true.
[[gnu::always_inline]] inline bool any(const Ints& mask) {
  typedef std::int64_t Longs4 __attribute__((vector_size(32)));
  const auto x = reinterpret_cast<Longs4>(mask);
  return (x[0] | x[1] | x[2] | x[3]) != 0;
}

// A row's `lanes` result codes (a whole pass: kLanes) to d, widened to 64 bits.
[[gnu::always_inline]] inline void store_codes(std::uint64_t* d, const UInts& out, int lanes) {
  if (lanes == BlockTile::kLanes) {  // two halves: GCC passes one 64-byte value through memory
    const auto lo = __builtin_convertvector(__builtin_shufflevector(out, out, 0, 1, 2, 3), ULongs4);
    const auto hi = __builtin_convertvector(__builtin_shufflevector(out, out, 4, 5, 6, 7), ULongs4);
    std::memcpy(d, &lo, sizeof lo);
    std::memcpy(d + 4, &hi, sizeof hi);
  } else {
    for (int l = 0; l < lanes; ++l) d[l] = out[l];
  }
}

// Whether any lane of x or y is an f16 NaN or Inf.
[[gnu::always_inline]] inline bool any_f16_special(const UInts& x, const UInts& y) {
  return any(((x & 0x7c00U) == 0x7c00U) | ((y & 0x7c00U) == 0x7c00U));
}

// The magnitudes (codes without the sign) from which a signed type's codes are NaN or Inf
// (2^(bits - 1): none), where its specials are such a range (every type the word and lane paths
// take). Found once per type, by decoding every magnitude (2^18 for tf32).
std::optional<std::uint32_t> special_magnitudes(Type t) {
  static std::array<std::once_flag, 32> once;
  static std::array<std::optional<std::uint32_t>, 32> found;
  const auto at = static_cast<std::size_t>(t);
  std::call_once(once.at(at), [&] {
    const std::uint32_t top = 1U << (info(t).bits - 1);
    std::uint32_t from = top;
    for (std::uint32_t mag = 0; mag < top; ++mag) {
      const bool s = special(ptxmma::decode(t, mag));
      if (s && from == top) from = mag;
      if (s != (mag >= from)) return;
    }
    found[at] = from;
  });
  return found[at];
}

// Whether WordFormat::decode takes the type's codes: a signed float type of at most 19 bits
// (tf32's; special_magnitudes decodes each magnitude once) whose NaN and Inf codes are one range.
bool lane_decodable(Type t) { return info(t).is_signed && info(t).bits <= 19 && special_magnitudes(t).has_value(); }

// Whether every code of a scale type is NaN or a power of two (ue8m0): such a scale only adds its
// exponent to a product's.
bool powers_of_two(Type t) {
  if (info(t).bits > 16) return false;
  const Term* table = term_table(t);
  for (std::uint64_t code = 0; code <= info(t).mask(); ++code) {
    const Term& x = table[code];
    if (x.cls != FpClass::nan && (x.sig != 1 || x.exp != x.lsb)) return false;
  }
  return true;
}

}  // namespace

ElementDecoder::ElementDecoder(Type t, bool zeros_set_exponent, bool values)
    : man_bits_(info(t).man_bits),
      mask_(info(t).mask()),
      frac_mask_((1ULL << info(t).man_bits) - 1),
      zeros_set_(zeros_set_exponent),
      values_(values) {
  const TypeInfo& ti = info(t);
  fields_.resize(std::size_t{1} << field_bits(ti));
  for (std::size_t se = 0; se < fields_.size(); ++se) {
    const std::uint64_t code = se << man_bits_;
    const Fields low = ptxmma::decode(t, code), high = ptxmma::decode(t, code | frac_mask_);
    Field& f = fields_[se];
    f.scale = (low.sign ? -1.0F : 1.0F) / static_cast<float>(1ULL << man_bits_);
    f.exp = low.exponent;
    f.hidden = special(low) ? 0 : static_cast<std::uint32_t>(low.significand);
    f.special_from = static_cast<std::uint32_t>(special(low) ? 0 : special(high) ? frac_mask_ : frac_mask_ + 1);
  }
  if (ti.bits > 16) return;
  struct Codes {
    std::vector<float> m;
    std::vector<std::int32_t> e;
  };
  static std::array<std::once_flag, 128> once;
  static std::array<Codes, 128> tables;
  const std::size_t at = static_cast<std::size_t>(t) * 4 + (zeros_set_exponent ? 2 : 0) + (values ? 1 : 0);
  std::call_once(once[at], [&] {
    Codes& c = tables[at];
    c.m.resize(std::size_t{1} << ti.bits);
    c.e.resize(c.m.size());
    for (std::size_t code = 0; code < c.m.size(); ++code) by_fields(code, c.m[code], c.e[code]);
  });
  codes_m_ = tables[at].m.data();
  codes_e_ = tables[at].e.data();
}

std::unique_ptr<BlockTile> BlockTile::make(const Model& m, const TileSpec& s) {
  if (m.engine != Engine::block_fma || (s.scale_vec != 0 && !scales_fit(m, s))) return nullptr;
  if (!decodable(s.a) || !decodable(s.b) || !decodable(s.c) || !decodable(s.d)) return nullptr;
  if (s.d != Type::f32 && s.d != Type::f16) return nullptr;
  if (info(s.a).man_bits + 1 + info(s.b).man_bits + 1 > 24) return nullptr;  // m_a * m_b exact in a float
  // A term is below 2^(F + 2): an int32 lane (group sums are truncated in doubles instead).
  if (m.block.frac_bits + 2 > 31 && (s.scale_vec == 0 || m.block.scale_group == 0)) return nullptr;
  return std::make_unique<BlockTile>(m, s);
}

bool BlockTile::scales_fit(const Model& m, const TileSpec& s) {
  const BlockFma& p = m.block;
  const TypeInfo& st = info(s.scale);
  // dot() takes one block with C in it and no other (it says so for any other model).
  if (p.blocks != 1 || p.c_entry != BlockFma::CEntry::first_block || s.k % s.scale_vec != 0 || st.has_inf) return false;
  if (p.scale_group == 0) return s.scale_vec == 1 && powers_of_two(s.scale);
  const int g = p.scale_group, groups = s.k / g;
  if ((s.k / s.scale_vec) % g != 0 || groups > kMaxGroups || !values_fit(m, s)) return false;
  // A group sum is a float sum of products of values below 2^high on the grid 2^(low_a + low_b).
  const auto low = [](Type t) { return info(t).emin() - info(t).man_bits; };
  const auto high = [](Type t) { return static_cast<int>(info(t).exp_max_code()) - info(t).bias + 1; };
  const int span = high(s.a) + high(s.b) - low(s.a) - low(s.b);
  if (span + std::bit_width(static_cast<unsigned>(g)) > 24) return false;
  // On the block's grid 2^(E - F) a scaled group sum is below g 2^(high_a + high_b + 2 + F) (each
  // scale below twice 2^its exponent, E at least both exponents' sum), C below 2^(F + 1): the
  // total of the truncated terms must stay below 2^52 (truncate()).
  const double bound = std::ldexp(groups * g, high(s.a) + high(s.b) + 2 + p.frac_bits) + std::ldexp(1, p.frac_bits + 1);
  return bound < 0x1p52;
}

BlockTile::BlockTile(const Model& m, const TileSpec& s)
    : m_(m),
      s_(s),
      da_(s.a, m.block.zeros_set_exponent, uses_values(m, s)),
      db_(s.b, m.block.zeros_set_exponent, uses_values(m, s)),
      dc_(s.c, m.block.zeros_set_exponent),
      dd_(s.d, m.block.zeros_set_exponent),
      frac_bits_(m.block.frac_bits),
      chunk_(static_cast<int>(INT32_MAX / ((std::int64_t{1} << std::min(m.block.frac_bits + 2, 31)) - 1))) {
  const BlockFma& p = m.block;
  block_start_.push_back(0);
  for (int b = 0; b < p.blocks; ++b) {
    for (int k = 0; k < s.k; ++k)
      if ((k / p.run) % p.blocks == b) order_.push_back(k);
    block_start_.push_back(static_cast<int>(order_.size()));
  }
  const BlockFma::Output& out = p.output(s.d);
  exp_floor_ = out.exp_floor ? *out.exp_floor : ElementDecoder::kZeroExp;
  out_frac_ = out.frac ? *out.frac : info(s.d).man_bits;
  keep_mask_ = ~static_cast<std::int64_t>((1ULL << (52 - out_frac_)) - 1);
  out_round_ = out.round;
  host_add_ = s.d == Type::f32 && s.c == Type::f32 && p.final_add_round == Rounding::rn;
  half_add_ = s.d == Type::f16 && s.c == Type::f16 && p.final_add_round == Rounding::rn;
  f32_round_ = s.d == Type::f32 && (out.round == Rounding::rz || (out.round == Rounding::rn && out_frac_ == 23));
  f16_round_ = s.d == Type::f16 && out.round == Rounding::rn && out_frac_ == 10;
  const TypeInfo& di = info(s.d);
  sum_ = SumFormat{di.emin(), di.man_bits, out_frac_, out.round, di.max_finite(), di.sign_bit(), di.inf_bits(false),
                   di.inf_bits(true)};
  const auto run_format = [](Type t) {
    const TypeInfo& ti = info(t);
    return RunFormat{ti.nan == NanCode::ieee && ti.has_inf && ti.bits <= 32 && ti.man_bits <= 23,
                     ti.man_bits,
                     ti.bits - 1,
                     23 - ti.man_bits,
                     ti.exp_max_code(),
                     static_cast<std::uint32_t>((1ULL << ti.man_bits) - 1),
                     ti.bias,
                     ti.emin()};
  };
  run_c_ = run_format(s.c);
  run_d_ = run_format(s.d);
  slot_.resize(order_.size());
  for (std::size_t b = 0; b + 1 < block_start_.size(); ++b) chunked_ |= block_start_[b + 1] - block_start_[b] > chunk_;
  for (std::size_t at = 0; at < order_.size(); ++at) slot_[static_cast<std::size_t>(order_[at])] = static_cast<std::uint32_t>(at);
  // Products below 2^(F + 2) and C's term below 2^(F + 1) (on the grid 2^(E - F)).
  one_block_ = block_start_.size() == 2 && p.c_entry == BlockFma::CEntry::first_block && !chunked_ && run_c_.vector;
  wide_ = static_cast<std::int64_t>(s.k) * ((std::int64_t{1} << (p.frac_bits + 2)) - 1) + (std::int64_t{1} << (p.frac_bits + 1)) >
          INT32_MAX;
  problems_ = one_block_ && !s.sparse && s.scale_vec == 0 ? std::max(s.problems, 1) : 1;
  pn_ = (s.n + kLanes - 1) / kLanes * kLanes;
  // The last problem's rows decoded 8 at a time (decode_words) may pass its last row.
  mp_ = ((problems_ - 1) * s.m + (s.m + kLanes - 1) / kLanes * kLanes + kLanes - 1) / kLanes * kLanes;
  np_ = problems_ * pn_;
  values_ = uses_values(m, s);
  const auto word_format = [&](Type t) {
    const TypeInfo& ti = info(t);
    const auto mask = static_cast<std::uint32_t>(ti.mask());
    return WordFormat{mask,
                      mask >> 1,
                      static_cast<std::int32_t>((1U << ti.man_bits) - 1),
                      lane_decodable(t) ? static_cast<std::int32_t>(*special_magnitudes(t)) : 0,
                      ti.man_bits,
                      ti.bits - 1,
                      ti.bias,
                      1.0F / static_cast<float>(1U << ti.man_bits),
                      values_,
                      p.zeros_set_exponent};
  };
  wa_ = word_format(s.a);
  wb_ = word_format(s.b);
  lanes_a_ = lane_decodable(s.a);
  lanes_b_ = lane_decodable(s.b);
  const auto mk = static_cast<std::size_t>(mp_) * static_cast<std::size_t>(s.k);
  bk_ = s.sparse ? 2 * s.k : s.k;
  const auto nk = static_cast<std::size_t>(np_) * static_cast<std::size_t>(bk_);
  if (s.sparse) b_at_.resize(static_cast<std::size_t>(s.m) * static_cast<std::size_t>(s.k));
  am_.assign(mk, 0.0F);  // padding rows and columns: zero terms
  ae_.assign(mk, ElementDecoder::kZeroExp);
  bm_.assign(nk, 0.0F);
  be_.assign(nk, ElementDecoder::kZeroExp);
  if (takes_words(s)) words_.resize(static_cast<std::size_t>(problems_ * (s.m + s.n) * s.k / (32 / info(s.a).bits)));
  a_special_.resize(static_cast<std::size_t>(problems_ * s.m));
  b_special_.resize(static_cast<std::size_t>(problems_ * s.n));
  const auto has_specials = [](Type t) { return info(t).has_inf || info(t).nan != NanCode::none; };
  element_specials_ = has_specials(s.a) || has_specials(s.b);
  if (s.scale_vec != 0) scale_terms_ = term_table(s.scale);
  if (s.scale_vec != 0 && p.scale_group == 0) scale_exp_.resize(static_cast<std::size_t>(std::max(mp_, np_)));
  if (s.scale_vec != 0 && p.scale_group > 0) {
    for (std::uint64_t code = 0; code <= info(s.scale).mask(); ++code) {
      const Term& t = scale_terms_[code];
      scale_value_.push_back(t.cls == FpClass::nan ? 0.0 : std::ldexp(static_cast<double>(t.sig), t.lsb));
    }
    group_ = p.scale_group;
    scale_k_ = s.k / s.scale_vec;
    const auto v = static_cast<std::size_t>(s.scale_vec);
    sa_value_.resize(static_cast<std::size_t>(s.m) * v);
    sa_exp_.resize(sa_value_.size());
    sb_value_.assign(static_cast<std::size_t>(np_) * v, 0.0);  // padding columns: zero scales
    sb_exp_.assign(sb_value_.size(), ElementDecoder::kZeroExp);
  }
}

bool BlockTile::uses_values(const Model& m, const TileSpec& s) {
  return values_fit(m, s) && (s.scale_vec == 0 || m.block.scale_group > 0);
}

// The products as floats (m_a 2^e_a) (m_b 2^e_b) where the elements and their products are
// normal floats, and a column whose scale 2^(F - E) would pass 2^127 has only zero products
// (its E is then C's or the floor, below the smallest nonzero product).
bool BlockTile::values_fit(const Model& m, const TileSpec& s) {
  const auto lowest = [](Type t) { return info(t).emin() - info(t).man_bits; };
  const auto highest = [](Type t) { return static_cast<int>(info(t).exp_max_code()) - info(t).bias + 1; };
  return lowest(s.a) >= -126 && lowest(s.b) >= -126 && lowest(s.a) + lowest(s.b) >= -126 &&
         highest(s.a) + highest(s.b) <= 127 && lowest(s.a) + lowest(s.b) >= m.block.frac_bits - 127;
}

void BlockTile::decode_codes(const std::uint64_t* a, const std::uint64_t* b, bool natural_b) {
  // rows x K codes (k in order_, or natural) to m and e at r + k * stride.
  const auto decode = [&](const ElementDecoder& dec, const std::uint64_t* codes, int rows, int K, bool natural,
                          std::size_t stride, float* m, std::int32_t* e) {
    for (int r = 0; r < rows; ++r) {
      const std::uint64_t* row = codes + static_cast<std::size_t>(r * K);
      std::size_t at = static_cast<std::size_t>(r);
      for (int k = 0; k < K; ++k, at += stride)
        dec.decode(row[natural ? k : order_[static_cast<std::size_t>(k)]], m[at], e[at]);
    }
  };
  const auto mp = static_cast<std::size_t>(mp_), np = static_cast<std::size_t>(np_);
  // A's rows of all problems one after another; each problem's columns of B from a multiple of 8.
  if (lanes_a_) decode_lanes(wa_, a, problems_ * s_.m, s_.k, false, mp, am_.data(), ae_.data());
  else decode(da_, a, problems_ * s_.m, s_.k, false, mp, am_.data(), ae_.data());
  for (int p = 0; p < problems_; ++p) {
    const std::uint64_t* codes = b + static_cast<std::size_t>(p * s_.n * bk_);
    const auto first = static_cast<std::size_t>(p * pn_);
    if (lanes_b_) decode_lanes(wb_, codes, s_.n, bk_, natural_b, np, bm_.data() + first, be_.data() + first);
    else decode(db_, codes, s_.n, bk_, natural_b, np, bm_.data() + first, be_.data() + first);
  }
}

// 8 rows (columns of B) at a time: their codes of one k into a vector, decoded at once. Rows past
// the last stay zero terms.
PTXMMA_MULTIVERSION
void BlockTile::decode_lanes(const WordFormat& format, const std::uint64_t* codes, int rows, int K, bool natural,
                             std::size_t stride, float* m, std::int32_t* e) const {
  const WordFormat f = format;  // locals: the stores below cannot change them
  const int* order = order_.data();
  for (int r0 = 0; r0 < rows; r0 += kLanes) {
    const int lanes = std::min(kLanes, rows - r0);
    const std::uint64_t* first = codes + static_cast<std::size_t>(r0 * K);
    for (int k = 0; k < K; ++k) {
      const std::uint64_t* code = first + (natural ? k : order[k]);
      UInts w{};
      for (int l = 0; l < lanes; ++l) w[l] = static_cast<std::uint32_t>(code[static_cast<std::size_t>(l * K)]);
      Floats vm;
      Ints ve;
      f.decode(w, vm, ve);
      if (lanes < kLanes) {
        const Ints real = Ints{0, 1, 2, 3, 4, 5, 6, 7} < lanes;
        vm = real ? vm : Floats{};
        ve = real ? ve : Ints{} + ElementDecoder::kZeroExp;
      }
      const std::size_t at = static_cast<std::size_t>(k) * stride + static_cast<std::size_t>(r0);
      std::memcpy(m + at, &vm, sizeof vm);
      std::memcpy(e + at, &ve, sizeof ve);
    }
  }
}

// The significand (fraction and the hidden bit of a normal number) converted exactly and scaled
// by a power of two: no subnormal float arises.
[[gnu::always_inline]] inline void BlockTile::WordFormat::decode(const UInts& code, Floats& m, Ints& e) const {
  const auto mag = reinterpret_cast<Ints>(code & mag_mask);  // below 2^15: signed compares apply
  const Ints biased = mag >> man_bits;
  const Ints sig = (mag & frac_mask) | ((biased != 0) & (frac_mask + 1));
  e = (biased > 1 ? biased : 1) - bias;  // subnormals: emin
  const Floats scale = values ? reinterpret_cast<Floats>((e + (127 - man_bits)) << 23) : Floats{} + fraction_unit;
  const UInts sign = (code >> sign_at) << 31;
  m = reinterpret_cast<Floats>(reinterpret_cast<UInts>(__builtin_convertvector(sig, Floats) * scale) | sign);
  if (!zeros_set_exponent) e = mag == 0 ? Ints{} + ElementDecoder::kZeroExp : e;
  const Ints special = mag >= special_from;
  m = special ? Floats{} : m;
  e = special ? Ints{} + ElementDecoder::kSpecial : e;
}

// Rows r0..r0+7 of an operand (rows of A, columns of B) at once: their word q (8 consecutive
// words of `words`, gathered by gather_words) in one vector, whose PerWord fields land in 8
// consecutive places of the k-major operand.
template <int PerWord>
[[gnu::always_inline]] inline void BlockTile::decode_words_of(const WordFormat& format, const std::uint32_t* words,
                                                              int rows, std::size_t stride, float* m,
                                                              std::int32_t* e) const {
  constexpr int bits = 32 / PerWord;
  const int per_row = s_.k / PerWord;
  const WordFormat f = format;  // locals: the stores below cannot change them
  const std::uint32_t* slot = slot_.data();
  for (int r0 = 0; r0 < rows; r0 += kLanes) {
    const int lanes = std::min(kLanes, rows - r0);
    const std::uint32_t* word = words + r0;
    for (int q = 0; q < per_row; ++q, word += rows) {
      UInts w{};
      if (lanes == kLanes) std::memcpy(&w, word, sizeof w);
      else
        for (int l = 0; l < lanes; ++l) w[l] = word[l];
      for (int x = 0; x < PerWord; ++x) {
        Floats vm;
        Ints ve;
        f.decode((w >> (x * bits)) & f.mask, vm, ve);
        const std::size_t at = slot[q * PerWord + x] * stride + static_cast<std::size_t>(r0);
        std::memcpy(m + at, &vm, sizeof vm);
        std::memcpy(e + at, &ve, sizeof ve);
      }
    }
  }
}

#if PTXMMA_AVX2_INTRINSICS
// The indices are far below 2^31, as the gather's signed 32-bit offsets need.
__attribute__((target("avx2"))) static void gather_avx2(const std::uint32_t* words, const std::uint32_t* index,
                                                        std::size_t n, std::uint32_t* to) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(index + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + i),
                        _mm256_i32gather_epi32(reinterpret_cast<const int*>(words), at, 4));
  }
  for (; i < n; ++i) to[i] = words[index[i]];
}
#endif

// The words of a WordSource in its index's order, for decode_words_of to read 8 at a time.
void BlockTile::gather_words(WordSource src, std::size_t n, std::uint32_t* to) {
#if PTXMMA_AVX2_INTRINSICS
  if (__builtin_cpu_supports("avx2")) {
    gather_avx2(src.words, src.index, n, to);
    return;
  }
#endif
  for (std::size_t i = 0; i < n; ++i) to[i] = src.words[src.index[i]];
}

PTXMMA_MULTIVERSION
void BlockTile::decode_words(WordSource a, WordSource b) {
  const auto mp = static_cast<std::size_t>(mp_), np = static_cast<std::size_t>(np_);
  const bool bytes = info(s_.a).bits == 8;
  const auto words = static_cast<std::size_t>(s_.k / (bytes ? 4 : 2));  // per row
  const std::size_t a_words = static_cast<std::size_t>(problems_ * s_.m) * words;
  gather_words(a, a_words, words_.data());
  gather_words(b, static_cast<std::size_t>(problems_ * s_.n) * words, words_.data() + a_words);
  // Problem by problem, in order: a problem's rows past a multiple of 8 are zero terms until the
  // next one's overwrite them.
  for (int p = 0; p < problems_; ++p) {
    const auto up = static_cast<std::size_t>(p);
    const std::uint32_t* pa = words_.data() + up * static_cast<std::size_t>(s_.m) * words;
    const std::uint32_t* pb = words_.data() + a_words + up * static_cast<std::size_t>(s_.n) * words;
    const auto first_a = static_cast<std::size_t>(p * s_.m), first_b = static_cast<std::size_t>(p * pn_);
    if (bytes) {
      decode_words_of<4>(wa_, pa, s_.m, mp, am_.data() + first_a, ae_.data() + first_a);
      decode_words_of<4>(wb_, pb, s_.n, np, bm_.data() + first_b, be_.data() + first_b);
    } else {
      decode_words_of<2>(wa_, pa, s_.m, mp, am_.data() + first_a, ae_.data() + first_a);
      decode_words_of<2>(wb_, pb, s_.n, np, bm_.data() + first_b, be_.data() + first_b);
    }
  }
}

void BlockTile::find_specials() {
  const int K = s_.k;
  for (int i = 0; i < problems_ * s_.m; ++i) {
    std::int32_t most = INT32_MIN;
    for (int k = 0; k < K; ++k) most = std::max(most, ae_[static_cast<std::size_t>(k * mp_ + i)]);
    a_special_[static_cast<std::size_t>(i)] = most == ElementDecoder::kSpecial;
  }
  for (int p = 0; p < problems_; ++p)
    for (int j = 0; j < s_.n; ++j) {
      std::int32_t most = INT32_MIN;
      for (int k = 0; k < bk_; ++k) most = std::max(most, be_[static_cast<std::size_t>(k * np_ + p * pn_ + j)]);
      b_special_[static_cast<std::size_t>(p * s_.n + j)] = most == ElementDecoder::kSpecial;
    }
}

std::uint64_t BlockTile::special_result(Type t, std::uint64_t code) const {
  const Fields f = decode(t, code);
  if (f.cls == FpClass::nan) return s_.d == Type::f16 ? m_.nan_f16 : m_.nan_f32;
  return f.sign ? sum_.neg_inf : sum_.pos_inf;
}

std::uint64_t BlockTile::final_add(std::uint64_t acc, std::uint64_t c) const {
  const Rounding mode = m_.block.final_add_round;
  if (host_add_) {
    // binary32 addition to nearest even is the host's own (SSE arithmetic, IEEE 754), NaNs apart.
    const auto x = std::bit_cast<float>(static_cast<std::uint32_t>(acc));
    const auto y = std::bit_cast<float>(static_cast<std::uint32_t>(c));
    const float sum = x + y;
    if (sum != sum) return m_.nan_f32;  // a NaN operand, or Inf - Inf
    return std::bit_cast<std::uint32_t>(sum);
  }
  return ieee_add(m_, s_.d, acc, s_.c, c, mode);
}

// total * 2^cut rounded into f32 for 8 columns in exact double arithmetic: the scaling of the
// exact integer total is exact in a double. Toward zero, the double's fraction is cut to
// out_frac_ bits, so that the conversion to float is exact (Inf past the largest finite value);
// to nearest even (all 23 bits), the conversion itself rounds. Toward zero, a nonzero result
// below 2^-126 (subnormal or narrowed grid; only where 2^cut is) goes through round_sum_lanes. -0
// becomes +0. (8-lane conversions: GCC widens them into whole registers, 4-lane ones in halves.)
[[gnu::always_inline]] inline void BlockTile::round_f32(const Doubles& total, const Ints& cut, UInts& out) const {
  typedef std::int64_t Longs8 __attribute__((vector_size(64)));
  Ints c = cut < -1000 ? Ints{} - 1000 : cut;  // an all-zero or special column: the sum is 0, any finite scale will do
  c = c > 1000 ? Ints{} + 1000 : c;
  const Doubles v = total * reinterpret_cast<Doubles>((__builtin_convertvector(c, Longs8) + 1023) << 52);
  Floats f;
  if (out_round_ == Rounding::rn) f = __builtin_convertvector(v, Floats);
  else f = __builtin_convertvector(reinterpret_cast<Doubles>(reinterpret_cast<Longs8>(v) & keep_mask_), Floats);
  const auto u = reinterpret_cast<UInts>(f);
  out = u == 0x80000000U ? UInts{} : u;
  if (out_round_ == Rounding::rz && any(cut < -126)) {
    typedef std::int64_t Longs8 __attribute__((vector_size(64)));
    const Longs8 tiny = (v != 0) & (v < 0x1p-126) & (v > -0x1p-126);
    const Ints narrow = __builtin_convertvector(tiny, Ints);
    if (any(narrow)) {
      UInts exact;
      round_sum_lanes(sum_, total, cut, exact);
      out = narrow != 0 ? exact : out;
    }
  }
}

// total * 2^cut rounded to f16 to nearest even (all 10 bits) in binary32 arithmetic: the exact
// double rounded to odd at binary32's 24 bits (the low 29 bits of its fraction as a sticky bit in
// the lowest kept one: adding the low bits to all ones of their width carries into it exactly when
// one is set) converts to binary32 exactly, and f16_of_f32_rn_lanes rounds that to f16.
// Rounding to odd at p bits and then to nearest at q <= p - 2 bits is rounding to nearest once
// (here p = 24, q at most 11, also on f16's subnormal grid). A value past binary32's range
// converts to Inf, one below its normal range rounds to zero in f16 either way; a zero is +0
// (round_sum_lanes: a block sum never gives -0).
[[gnu::always_inline]] inline void BlockTile::round_f16(const Doubles& total, const Ints& cut, UInts& out) const {
  typedef std::int64_t Longs8 __attribute__((vector_size(64)));
  Ints c = cut < -1000 ? Ints{} - 1000 : cut;  // an all-zero or special column: the sum is 0, any finite scale will do
  c = c > 1000 ? Ints{} + 1000 : c;
  const Doubles v = total * reinterpret_cast<Doubles>((__builtin_convertvector(c, Longs8) + 1023) << 52);
  constexpr std::int64_t low = (std::int64_t{1} << 29) - 1;  // a double's fraction bits below binary32's
  const auto bits = reinterpret_cast<Longs8>(v);
  const Longs8 odd = (bits & ~low) | (((bits & low) + low) & (low + 1));
  const auto u = reinterpret_cast<UInts>(__builtin_convertvector(reinterpret_cast<Doubles>(odd), Floats));
  const UInts mag = u & 0x7fffffffU;
  // f16's normal range below the tie above its largest finite value (and zeros): the fraction
  // rounded at its 13th bit to nearest even (a carry moves into the exponent), the exponent
  // rebiased by 15 - 127. Otherwise f16_of_f32_rn_lanes.
  const Ints normal = (mag >= 0x38800000U) & (mag < 0x477ff000U), zero = mag == 0;
  if (!any(~(normal | zero))) {
    const UInts h = (mag + 0xfffU + ((mag >> 13) & 1U) - 0x38000000U) >> 13;
    out = zero ? UInts{} : h | ((u >> 16) & 0x8000U);
    return;
  }
  UInts h;
  f16_of_f32_rn_lanes(u, h);
  out = (h & 0x7fffU) == 0 ? UInts{} : h;
}

[[gnu::always_inline]] inline void BlockTile::round_all(const Doubles& total, const Ints& cut, UInts& code) const {
  if (f32_round_) return round_f32(total, cut, code);
  if (f16_round_) return round_f16(total, cut, code);
  round_sum_lanes(sum_, total, cut, code);
}

// R rows of A at once over 8 columns: each B vector loaded serves R rows (sparse: each row loads
// the vector of the B row it picks). The running sums and results stay in vectors of 8 codes (D
// is f32 or f16) from C to D.
template <int R, bool Sparse, bool Chunked>
[[gnu::always_inline]] inline void BlockTile::rows(int i0, const std::uint64_t* c, std::uint64_t* d,
                                                   Ints& worst) const {
  static_assert(kLanes * sizeof(std::int32_t) == sizeof(Ints));
  typedef std::uint64_t ULongs4 __attribute__((vector_size(32)));
  typedef std::uint32_t UInts4 __attribute__((vector_size(16)));
  const int N = s_.n;
  const bool c_first = m_.block.c_entry == BlockFma::CEntry::first_block;
  const Ints bias = Ints{} + (frac_bits_ + 127);  // 2^(x - E + F) as float bits: its exponent + 127
  const Ints floor = Ints{} + exp_floor_;
  const Ints zero{};
  const auto mp = static_cast<std::size_t>(mp_), np = static_cast<std::size_t>(np_);
  const std::uint32_t* b_at[R];  // sparse: B's row (times np) of each product of each row
  for (int r = 0; r < R; ++r) b_at[r] = Sparse ? b_at_.data() + static_cast<std::size_t>((i0 + r) * s_.k) : nullptr;
  for (int j0 = 0; j0 < N; j0 += kLanes) {
    const int lanes = std::min(kLanes, N - j0);
    // 8 values of a B operand at block position k for row r (j0 on).
    const auto b_vec = [&](const auto* v, int r, int k, auto& out) {
      std::memcpy(&out, v + b_at[r][k] + static_cast<std::size_t>(j0), sizeof out);
    };
    // 8 codes of C from j0 on (0 past the last column); two halves narrowed in registers (one
    // 64-byte value would pass through memory).
    const auto load = [&](const std::uint64_t* codes, UInts& u) {
      ULongs4 lo{}, hi{};
      if (lanes == kLanes) {
        std::memcpy(&lo, codes, sizeof lo);
        std::memcpy(&hi, codes + 4, sizeof hi);
      } else {
        for (int l = 0; l < lanes; ++l) {  // clang-14 cannot assign through ?: of vector elements
          if (l < 4) lo[l] = codes[l];
          else hi[l - 4] = codes[l];
        }
      }
      u = __builtin_shufflevector(__builtin_convertvector(lo, UInts4), __builtin_convertvector(hi, UInts4), 0, 1, 2,
                                  3, 4, 5, 6, 7);
    };
    // The running sum per row and column (C, or +0 when C is added last) as a term: rm * 2^re.
    Floats rm[R];
    Ints re[R];
    UInts code[R], decided[R];  // decided: a NaN / Inf running sum's result (0: none)
    bool any_decided = false;
    const auto take_each = [&](int r, const ElementDecoder& dec, Type t, const UInts& u) {
      for (int l = 0; l < lanes; ++l) {
        float m;
        std::int32_t e;
        dec.decode(u[l], m, e);
        rm[r][l] = m;
        re[r][l] = e == ElementDecoder::kSpecial ? ElementDecoder::kZeroExp : e;  // E: the products' only
        decided[r][l] = e == ElementDecoder::kSpecial ? static_cast<std::uint32_t>(special_result(t, u[l])) : 0;
        any_decided |= decided[r][l] != 0;
      }
    };
    // An IEEE f32 / f16 running sum, 8 columns at once: m is +-1.fraction, less +-1 for subnormals.
    const auto take = [&](int r, const ElementDecoder& dec, const RunFormat& f, Type t, const UInts& u) {
      rm[r] = Floats{};
      re[r] = zero + ElementDecoder::kZeroExp;
      decided[r] = UInts{};
      const UInts biased = (u >> f.man_bits) & f.exp_all;
      if (!f.vector || any(biased == f.exp_all)) return take_each(r, dec, t, u);
      const UInts frac = u & f.frac_mask;
      const UInts sign = (u >> f.sign_at) << 31;
      const auto one = reinterpret_cast<Floats>(sign | (frac << f.frac_shift) | 0x3f800000U);
      const auto sign_one = reinterpret_cast<Floats>(sign | 0x3f800000U);
      const Ints sub = biased == 0;
      rm[r] = sub ? one - sign_one : one;
      re[r] = sub ? Ints{} + f.emin : reinterpret_cast<Ints>(biased) - f.bias;
      if (!m_.block.zeros_set_exponent) re[r] = (sub & (frac == 0)) ? Ints{} + ElementDecoder::kZeroExp : re[r];
    };
    for (int r = 0; r < R; ++r) {
      code[r] = UInts{};
      if (c_first) load(c + static_cast<std::size_t>((i0 + r) * N + j0), code[r]);
      take(r, c_first ? dc_ : dd_, c_first ? run_c_ : run_d_, c_first ? s_.c : s_.d, code[r]);
    }
    for (std::size_t b = 0; b + 1 < block_start_.size(); ++b) {
      const int k0 = block_start_[b], k1 = block_start_[b + 1];
      const std::size_t first = static_cast<std::size_t>(k0) * np + static_cast<std::size_t>(j0);
      Ints e[R];
      for (int r = 0; r < R; ++r) e[r] = re[r];
      const std::size_t first_a = static_cast<std::size_t>(k0) * mp + static_cast<std::size_t>(i0);
      const std::int32_t* be = be_.data() + first;
      const std::int32_t* ae = ae_.data() + first_a;
      for (int k = k0; k < k1; ++k, be += np, ae += mp) {  // E: the largest exponent of the block's terms, per column
        Ints y;
        if constexpr (!Sparse) std::memcpy(&y, be, sizeof y);
        for (int r = 0; r < R; ++r) {
          if constexpr (Sparse) b_vec(be_.data(), r, k, y);
          const Ints x = y + ae[r];
          e[r] = e[r] > x ? e[r] : x;
        }
      }
      Ints top[R], acc[R];
      for (int r = 0; r < R; ++r) {
        worst = worst > e[r] ? worst : e[r];
        top[r] = e[r] > floor ? e[r] : floor;
        acc[r] = zero;
      }
      // products(c0, c1) adds the products of k = c0..c1-1 to acc: the block's at once, or (Chunked)
      // one chunk at a time, whose int32 sums go to `done`.
      Doubles done[R];
      const auto chunks = [&](const auto& products) {
        if constexpr (Chunked) {
          for (int r = 0; r < R; ++r) done[r] = Doubles{};
          for (int c0 = k0; c0 < k1; c0 += chunk_) {
            products(c0, std::min(c0 + chunk_, k1));
            if (c0 + chunk_ >= k1) break;
            for (int r = 0; r < R; ++r) {
              done[r] += __builtin_convertvector(acc[r], Doubles);
              acc[r] = zero;
            }
          }
        } else {
          products(k0, k1);
        }
      };
      const float* bm = bm_.data() + first;
      const float* am = am_.data() + first_a;
      ae = ae_.data() + first_a;
      if (values_) {  // one scale 2^(F - E) per column: the products carry their exponents
        Floats scale[R];
        for (int r = 0; r < R; ++r) {
          Ints s = bias - top[r];
          s = s > 254 ? Ints{} + 254 : s;  // 2^127 at most: only where every product is zero
          s = s < 1 ? Ints{} + 1 : s;      // a column with a NaN or Inf, recomputed by dot()
          scale[r] = reinterpret_cast<Floats>(s << 23);
        }
        chunks([&](int c0, int c1) {
          for (int k = c0; k < c1; ++k, bm += np, am += mp) {
            Floats v;
            if constexpr (!Sparse) std::memcpy(&v, bm, sizeof v);
            for (int r = 0; r < R; ++r) {
              if constexpr (Sparse) b_vec(bm_.data(), r, k, v);
              acc[r] += __builtin_convertvector(am[r] * v * scale[r], Ints);  // truncates
            }
          }
        });
      } else {
        Ints off[R];
        for (int r = 0; r < R; ++r) off[r] = bias - top[r];
        be = be_.data() + first;
        chunks([&](int c0, int c1) {
          for (int k = c0; k < c1; ++k, be += np, bm += np, ae += mp, am += mp) {
            Ints y;
            Floats m;
            if constexpr (!Sparse) {
              std::memcpy(&y, be, sizeof y);
              std::memcpy(&m, bm, sizeof m);
            }
            for (int r = 0; r < R; ++r) {
              if constexpr (Sparse) {
                b_vec(be_.data(), r, k, y);
                b_vec(bm_.data(), r, k, m);
              }
              Ints t = y + (ae[r] + off[r]);
              t = t > zero ? t : zero;  // 0: the term is below 1, the scale a float +0
              acc[r] += __builtin_convertvector(am[r] * m * reinterpret_cast<Floats>(t << 23), Ints);  // truncates
            }
          }
        });
      }
      for (int r = 0; r < R; ++r) {
        Ints t = re[r] + (bias - top[r]);
        t = t > zero ? t : zero;
        const Ints run = __builtin_convertvector(rm[r] * reinterpret_cast<Floats>(t << 23), Ints);
        Doubles total = __builtin_convertvector(acc[r], Doubles) + __builtin_convertvector(run, Doubles);
        if constexpr (Chunked) total += done[r];
        round_all(total, top[r] - frac_bits_, code[r]);
        if (any_decided) code[r] = decided[r] != 0 ? decided[r] : code[r];
        if (b + 2 < block_start_.size()) take(r, dd_, run_d_, s_.d, code[r]);
      }
    }
    for (int r = 0; r < R; ++r) {
      const std::size_t at = static_cast<std::size_t>((i0 + r) * N + j0);
      UInts out = code[r];
      if (!c_first && host_add_) {  // final_add's binary32 addition, 8 columns at once
        UInts y;
        load(c + at, y);
        const Floats sum = reinterpret_cast<Floats>(out) + reinterpret_cast<Floats>(y);
        out = sum != sum ? UInts{} + static_cast<std::uint32_t>(m_.nan_f32) : reinterpret_cast<UInts>(sum);
      } else if (!c_first && half_add_) {
        // f16 + f16 to nearest: the binary32 sum (exact, or rounded to 24 bits, which 2 * 11 + 2
        // bits are enough for: it rounds to f16 as the exact sum does), rounded to f16.
        UInts y;
        load(c + at, y);
        if (!any_f16_special(out, y)) {
          Floats x, z;
          f32_of_f16_lanes(out, x);
          f32_of_f16_lanes(y, z);
          f16_of_f32_rn_lanes(reinterpret_cast<UInts>(x + z), out);
        } else {
          for (int l = 0; l < lanes; ++l) out[l] = static_cast<std::uint32_t>(final_add(out[l], y[l]));
        }
      } else if (!c_first) {
        for (int l = 0; l < lanes; ++l) out[l] = static_cast<std::uint32_t>(final_add(out[l], c[at + static_cast<std::size_t>(l)]));
      }
      store_codes(d + at, out, lanes);
    }
  }
}

// rows() for one block of every product and C (one_block_), a row at a time: C decoded 8 columns
// at once, the terms summed in int32 (Wide: the products' sum and C's term added in doubles,
// where together they may pass 2^31) and rounded once. No running sum between blocks, no chunks,
// no final addition, and few enough vectors live that none is spilled: at K = 4 a third of
// rows()' host instructions per output. Outputs whose C is NaN or Inf are decided afterwards
// (decide_specials); whether there is one is returned.
template <bool Sparse, bool Wide, int Kc>
[[gnu::always_inline]] inline bool BlockTile::one_block(const std::uint64_t* c, std::uint64_t* d, Ints& worst) const {
  const int M = s_.m, N = s_.n, K = Kc ? Kc : s_.k;
  const Ints bias = Ints{} + (frac_bits_ + 127);  // 2^(x - E + F) as float bits: its exponent + 127
  const Ints floor = Ints{} + exp_floor_;
  const Ints zero{};
  const RunFormat f = run_c_;  // locals: the stores below cannot change them
  const bool zeros_set = m_.block.zeros_set_exponent, values = values_;
  const auto mp = static_cast<std::size_t>(mp_), np = static_cast<std::size_t>(np_);
  const float* const am = am_.data();
  const std::int32_t* const ae = ae_.data();
  UInts specials{};
  for (int p = 0; p < problems_; ++p)  // each problem's rows against its own columns of B
  for (int j0 = 0; j0 < N; j0 += kLanes) {
    const int lanes = std::min(kLanes, N - j0);
    const float* const bm = bm_.data() + p * pn_ + j0;
    const std::int32_t* const be = be_.data() + p * pn_ + j0;
    for (int i = p * M; i < p * M + M; ++i) {
      const int* const col = Sparse ? cols_ + static_cast<std::ptrdiff_t>(i * K) : nullptr;
      // B's row of product k: k, or the row the metadata picks (one block: k in order), times np.
      const auto b_row = [&](int k) { return static_cast<std::size_t>(Sparse ? col[k] : k) * np; };
      const std::size_t at = static_cast<std::size_t>(i * N + j0);
      UInts u;  // C's 8 codes: the low words of 8 64-bit codes
      if (lanes == kLanes) {
        UInts lo, hi;
        std::memcpy(&lo, c + at, sizeof lo);
        std::memcpy(&hi, c + at + 4, sizeof hi);
        u = __builtin_shufflevector(lo, hi, 0, 2, 4, 6, 8, 10, 12, 14);
      } else {
        u = UInts{};
        for (int l = 0; l < lanes; ++l) u[l] = static_cast<std::uint32_t>(c[at + static_cast<std::size_t>(l)]);
      }
      // C as rm * 2^re (rows' take); NaN and Inf as +0 that sets no exponent.
      const UInts biased = (u >> f.man_bits) & f.exp_all;
      const UInts frac = u & f.frac_mask;
      const UInts sign = (u >> f.sign_at) << 31;
      const auto one = reinterpret_cast<Floats>(sign | (frac << f.frac_shift) | 0x3f800000U);
      const auto sign_one = reinterpret_cast<Floats>(sign | 0x3f800000U);
      const Ints sub = biased == 0, special = biased == f.exp_all;
      specials |= reinterpret_cast<UInts>(special);
      Floats rm = sub ? one - sign_one : one;
      rm = special ? Floats{} : rm;
      Ints re = sub ? Ints{} + f.emin : reinterpret_cast<Ints>(biased) - f.bias;
      if (!zeros_set) re = (sub & (frac == 0)) ? Ints{} + ElementDecoder::kZeroExp : re;
      re = special ? Ints{} + ElementDecoder::kZeroExp : re;
      Ints e = re;  // E: the largest exponent of the terms, per column
      for (int k = 0; k < K; ++k) {
        Ints y;
        std::memcpy(&y, be + b_row(k), sizeof y);
        const Ints x = y + ae[static_cast<std::size_t>(k) * mp + static_cast<std::size_t>(i)];
        e = e > x ? e : x;
      }
      worst = worst > e ? worst : e;
      const Ints top = e > floor ? e : floor;
      Ints acc = zero;
      if (values) {  // one scale 2^(F - E) per column: the products carry their exponents
        Ints sc = bias - top;
        sc = sc > 254 ? Ints{} + 254 : sc;  // 2^127 at most: only where every product is zero
        sc = sc < 1 ? Ints{} + 1 : sc;      // a column with a NaN or Inf, recomputed by dot()
        const auto scale = reinterpret_cast<Floats>(sc << 23);
        for (int k = 0; k < K; ++k) {
          Floats v;
          std::memcpy(&v, bm + b_row(k), sizeof v);
          acc += __builtin_convertvector(am[static_cast<std::size_t>(k) * mp + static_cast<std::size_t>(i)] * v * scale,
                                         Ints);  // truncates
        }
      } else {
        const Ints off = bias - top;
        for (int k = 0; k < K; ++k) {
          Ints y;
          Floats v;
          std::memcpy(&y, be + b_row(k), sizeof y);
          std::memcpy(&v, bm + b_row(k), sizeof v);
          const std::size_t ka = static_cast<std::size_t>(k) * mp + static_cast<std::size_t>(i);
          Ints t = y + (ae[ka] + off);
          t = t > zero ? t : zero;  // 0: the term is below 1, the scale a float +0
          acc += __builtin_convertvector(am[ka] * v * reinterpret_cast<Floats>(t << 23), Ints);  // truncates
        }
      }
      Ints t = re + (bias - top);
      t = t > zero ? t : zero;
      const Ints run = __builtin_convertvector(rm * reinterpret_cast<Floats>(t << 23), Ints);
      Doubles total;
      if constexpr (Wide) total = __builtin_convertvector(acc, Doubles) + __builtin_convertvector(run, Doubles);
      else total = __builtin_convertvector(acc + run, Doubles);
      UInts out;
      round_all(total, top - frac_bits_, out);
      store_codes(d + at, out, lanes);
    }
  }
  return any(reinterpret_cast<Ints>(specials));
}

// one_block()'s outputs whose C is NaN or Inf: special_result() (rows' `decided`).
void BlockTile::decide_specials(const std::uint64_t* c, std::uint64_t* d) const {
  const RunFormat& f = run_c_;
  const auto count = static_cast<std::size_t>(problems_ * s_.m * s_.n);
  for (std::size_t at = 0; at < count; ++at)
    if ((c[at] >> f.man_bits & f.exp_all) == f.exp_all) d[at] = special_result(s_.c, c[at]);
}

// The mma shapes' K (stored K of the sparse ones) as constants: their loops unrolled.
template <bool Sparse, bool Wide>
[[gnu::always_inline]] inline bool BlockTile::one_block_all(const std::uint64_t* c, std::uint64_t* d) const {
  Ints worst = Ints{} + INT32_MIN;
  bool special;
  switch (s_.k) {
    case 4: special = one_block<Sparse, Wide, 4>(c, d, worst); break;
    case 8: special = one_block<Sparse, Wide, 8>(c, d, worst); break;
    case 16: special = one_block<Sparse, Wide, 16>(c, d, worst); break;
    default: special = one_block<Sparse, Wide, 0>(c, d, worst); break;
  }
  if (special) decide_specials(c, d);
  return any(worst >= ElementDecoder::kSpecial + ElementDecoder::kZeroExp);
}

template <bool Sparse, bool Chunked>
[[gnu::always_inline]] inline bool BlockTile::rows_all(const std::uint64_t* c, std::uint64_t* d) const {
  Ints worst = Ints{} + INT32_MIN;
  int i = 0;
  for (; i + kRows <= s_.m; i += kRows) rows<kRows, Sparse, Chunked>(i, c, d, worst);
  for (; i < s_.m; ++i) rows<1, Sparse, Chunked>(i, c, d, worst);
  return any(worst >= ElementDecoder::kSpecial + ElementDecoder::kZeroExp);
}

// Blocks that fit one int32 sum take loops without the chunks' (a tenth fewer host instructions
// for f16).
PTXMMA_MULTIVERSION
bool BlockTile::run_rows(const std::uint64_t* c, std::uint64_t* d) const {
  if (one_block_) return wide_ ? one_block_all<false, true>(c, d) : one_block_all<false, false>(c, d);
  return chunked_ ? rows_all<false, true>(c, d) : rows_all<false, false>(c, d);
}

PTXMMA_MULTIVERSION
bool BlockTile::run_rows_sparse(const std::uint64_t* c, std::uint64_t* d) const {
  if (one_block_) return wide_ ? one_block_all<true, true>(c, d) : one_block_all<true, false>(c, d);
  return chunked_ ? rows_all<true, true>(c, d) : rows_all<true, false>(c, d);
}

void BlockTile::run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  decode_codes(a, b, false);
  any_special_ = run_rows(c, d);
  if (any_special_) find_specials();
}

bool BlockTile::takes_words(const TileSpec& s) {
  const int bits = info(s.a).bits;
  const auto decodable_words = [](Type t) { return info(t).is_signed && special_magnitudes(t).has_value(); };
  return info(s.b).bits == bits && (bits == 8 || bits == 16) && s.k % (32 / bits) == 0 && decodable_words(s.a) &&
         decodable_words(s.b);
}

void BlockTile::set_b_rows(const int* cols) {
  cols_ = cols;
  if (one_block_) return;  // one_block() reads cols_
  const int K = s_.k, M = s_.m;  // locals: the stores below cannot change them
  const auto np = static_cast<std::uint32_t>(np_);
  const int* order = order_.data();
  std::uint32_t* at = b_at_.data();
  for (int i = 0; i < M; ++i, at += K, cols += K)
    for (int p = 0; p < K; ++p) at[p] = static_cast<std::uint32_t>(cols[order[p]]) * np;
}

void BlockTile::run_sparse(const std::uint64_t* a, const std::uint64_t* b, const int* cols, const std::uint64_t* c,
                           std::uint64_t* d) {
  decode_codes(a, b, true);
  set_b_rows(cols);
  any_special_ = run_rows_sparse(c, d);
  if (any_special_) find_specials();
}

void BlockTile::run_words(WordSource a, WordSource b, const std::uint64_t* c, std::uint64_t* d) {
  decode_words(a, b);
  any_special_ = run_rows(c, d);
  if (any_special_) find_specials();
}

void BlockTile::add_scale_exponents(const std::uint64_t* sa, const std::uint64_t* sb) {
  add_scales(sa, s_.m, s_.k, mp_, am_.data(), ae_.data());
  add_scales(sb, s_.n, bk_, np_, bm_.data(), be_.data());
}

// Zeros that set no exponent stay below every product (a zero times a NaN or Inf stays special).
PTXMMA_MULTIVERSION
void BlockTile::add_scales(const std::uint64_t* codes, int rows, int count, int stride, float* m, std::int32_t* e) {
  const std::uint64_t mask = info(s_.scale).mask();
  bool nan = false;
  for (int r = 0; r < stride; ++r) {
    const Term& t = scale_terms_[r < rows ? codes[r] & mask : 0];
    nan |= r < rows && t.cls == FpClass::nan;
    scale_exp_[static_cast<std::size_t>(r)] = r < rows && t.cls != FpClass::nan ? t.exp : 0;
  }
  const Ints special = Ints{} + ElementDecoder::kSpecial, zero = Ints{} + ElementDecoder::kZeroExp;
  for (int k = 0; k < count; ++k)
    for (int r0 = 0; r0 < stride; r0 += kLanes) {
      std::int32_t* at = e + static_cast<std::size_t>(k) * static_cast<std::size_t>(stride) + r0;
      Ints x, add;
      std::memcpy(&x, at, sizeof x);
      std::memcpy(&add, scale_exp_.data() + r0, sizeof add);
      x = ((x != special) & (x != zero)) != 0 ? x + add : x;
      std::memcpy(at, &x, sizeof x);
    }
  if (!nan) return;
  for (int r = 0; r < rows; ++r)  // a NaN scale: every element of its row special
    if (scale_terms_[codes[r] & mask].cls == FpClass::nan)
      for (int k = 0; k < count; ++k) {
        const std::size_t at = static_cast<std::size_t>(k) * static_cast<std::size_t>(stride) + static_cast<std::size_t>(r);
        m[at] = 0;
        e[at] = ElementDecoder::kSpecial;
      }
}

void BlockTile::set_group_scales(const std::uint64_t* sa, const std::uint64_t* sb) {
  if (element_specials_) {
    find_specials();
  } else {
    std::fill(a_special_.begin(), a_special_.end(), 0);
    std::fill(b_special_.begin(), b_special_.end(), 0);
  }
  const std::uint64_t mask = info(s_.scale).mask();
  const int V = s_.scale_vec;
  const auto set = [&](std::uint64_t code, std::size_t at, std::vector<double>& value, std::vector<std::int32_t>& exp,
                       char& special) {
    const Term& t = scale_terms_[code & mask];
    value[at] = scale_value_[code & mask];
    exp[at] = t.exp;
    if (t.cls == FpClass::nan) special = 1;
  };
  for (int i = 0; i < s_.m; ++i)
    for (int v = 0; v < V; ++v)
      set(sa[i * V + v], static_cast<std::size_t>(i * V + v), sa_value_, sa_exp_, a_special_[static_cast<std::size_t>(i)]);
  for (int j = 0; j < s_.n; ++j)
    for (int v = 0; v < V; ++v)
      set(sb[j * V + v], static_cast<std::size_t>(v * np_ + j), sb_value_, sb_exp_, b_special_[static_cast<std::size_t>(j)]);
  const auto marked = [](const std::vector<char>& x) { return std::find(x.begin(), x.end(), 1) != x.end(); };
  any_special_ = marked(a_special_) || marked(b_special_);
}

namespace {

// x rounded toward zero in place, for |x| < 2^52: adding and taking away 2^52 (with x's sign)
// rounds x to an integer, to nearest; one step back toward zero where that went past x. (AVX2
// has no conversion of doubles to 64-bit integers.)
[[gnu::always_inline]] inline void truncate(Doubles& x) {
  typedef std::int64_t Longs8 __attribute__((vector_size(64)));
  const Longs8 sign = reinterpret_cast<Longs8>(x) & INT64_MIN;
  const auto big = reinterpret_cast<Doubles>(sign | std::bit_cast<std::int64_t>(0x1p52));
  const auto one = reinterpret_cast<Doubles>(sign | std::bit_cast<std::int64_t>(1.0));
  const Doubles r = (x + big) - big;
  x = (r - x) * one > 0 ? r - one : r;
}

}  // namespace

// R rows of A over 8 columns: per group its exact sum (floats), times both scales (doubles); the
// block's exponent E from the nonzero group terms and C; each term truncated to 2^(E - F), the
// total rounded once. C's NaN or Inf decides its output (rows and columns with a NaN scale or
// special element go to dot()).
template <int R, bool Sparse>
[[gnu::always_inline]] inline void BlockTile::group_rows(int i0, const std::uint64_t* c, std::uint64_t* d) const {
  typedef std::int64_t Longs8 __attribute__((vector_size(64)));
  const int N = s_.n, V = s_.scale_vec, groups = s_.k / group_;
  const auto mp = static_cast<std::size_t>(mp_), np = static_cast<std::size_t>(np_);
  const bool zeros_set = m_.block.zeros_set_exponent;
  const Ints floor = Ints{} + exp_floor_;
  const std::uint32_t* b_at[R];  // sparse: B's row (times np) of each product of each row
  for (int r = 0; r < R; ++r) b_at[r] = Sparse ? b_at_.data() + static_cast<std::size_t>((i0 + r) * s_.k) : nullptr;
  for (int j0 = 0; j0 < N; j0 += kLanes) {
    const int lanes = std::min(kLanes, N - j0);
    Doubles cv[R], term[R][kMaxGroups];
    Ints e[R];
    UInts decided[R];
    bool any_decided = false;
    for (int r = 0; r < R; ++r) {  // C as a double (exact) and its exponent
      cv[r] = Doubles{};
      e[r] = Ints{} + ElementDecoder::kZeroExp;
      decided[r] = UInts{};
      for (int l = 0; l < lanes; ++l) {
        const std::uint64_t code = c[static_cast<std::size_t>((i0 + r) * N + j0 + l)];
        float m;
        std::int32_t ce;
        dc_.decode(code, m, ce);
        if (ce == ElementDecoder::kSpecial) {
          decided[r][l] = static_cast<std::uint32_t>(special_result(s_.c, code));
          any_decided = true;
          continue;
        }
        const auto unit = std::bit_cast<double>(static_cast<std::uint64_t>(std::clamp(ce, -1000, 1000) + 1023) << 52);
        cv[r][l] = static_cast<double>(m) * unit;  // a zero's exponent is kZeroExp: any unit will do
        e[r][l] = ce;
      }
    }
    for (int g = 0; g < groups; ++g) {
      const int k0 = g * group_, v = k0 / scale_k_;
      Floats sum[R];
      for (int r = 0; r < R; ++r) sum[r] = Floats{};
      const float* bm = bm_.data() + static_cast<std::size_t>(k0) * np + static_cast<std::size_t>(j0);
      const float* am = am_.data() + static_cast<std::size_t>(k0) * mp + static_cast<std::size_t>(i0);
      for (int k = k0; k < k0 + group_; ++k, bm += np, am += mp) {
        Floats y;
        if constexpr (!Sparse) std::memcpy(&y, bm, sizeof y);
        for (int r = 0; r < R; ++r) {
          if constexpr (Sparse) std::memcpy(&y, bm_.data() + b_at[r][k] + static_cast<std::size_t>(j0), sizeof y);
          sum[r] += am[r] * y;  // exact (scales_fit)
        }
      }
      Doubles sb;
      Ints sbe;
      std::memcpy(&sb, sb_value_.data() + static_cast<std::size_t>(v) * np + static_cast<std::size_t>(j0), sizeof sb);
      std::memcpy(&sbe, sb_exp_.data() + static_cast<std::size_t>(v) * np + static_cast<std::size_t>(j0), sizeof sbe);
      for (int r = 0; r < R; ++r) {
        const auto at = static_cast<std::size_t>((i0 + r) * V + v);
        const Doubles t = __builtin_convertvector(sum[r], Doubles) * sa_value_[at] * sb;  // exact: at most 20 bits
        term[r][g] = t;
        const Ints eg = sbe + sa_exp_[at];
        const Ints counts = zeros_set ? Ints{} - 1 : __builtin_convertvector(t != 0, Ints);
        e[r] = (counts & (eg > e[r])) != 0 ? eg : e[r];
      }
    }
    for (int r = 0; r < R; ++r) {
      const Ints cut = (e[r] > floor ? e[r] : floor) - frac_bits_;
      Ints bounded = cut < -1000 ? Ints{} - 1000 : cut;  // no nonzero term: any finite unit will do
      bounded = bounded > 1000 ? Ints{} + 1000 : bounded;
      const auto unit = reinterpret_cast<Doubles>((1023 - __builtin_convertvector(bounded, Longs8)) << 52);  // 2^-cut
      Doubles total = cv[r] * unit;
      truncate(total);
      for (int g = 0; g < groups; ++g) {
        Doubles t = term[r][g] * unit;
        truncate(t);
        total += t;
      }
      UInts code;
      round_all(total, cut, code);
      if (any_decided) code = decided[r] != 0 ? decided[r] : code;
      const std::size_t at = static_cast<std::size_t>((i0 + r) * N + j0);
      for (int l = 0; l < lanes; ++l) d[at + static_cast<std::size_t>(l)] = code[l];
    }
  }
}

template <bool Sparse>
[[gnu::always_inline]] inline void BlockTile::group_rows_all(const std::uint64_t* c, std::uint64_t* d) const {
  int i = 0;
  for (; i + kRows <= s_.m; i += kRows) group_rows<kRows, Sparse>(i, c, d);
  for (; i < s_.m; ++i) group_rows<1, Sparse>(i, c, d);
}

PTXMMA_MULTIVERSION
void BlockTile::run_groups(const std::uint64_t* c, std::uint64_t* d) const { group_rows_all<false>(c, d); }

PTXMMA_MULTIVERSION
void BlockTile::run_groups_sparse(const std::uint64_t* c, std::uint64_t* d) const { group_rows_all<true>(c, d); }

void BlockTile::run_scaled(const std::uint64_t* a, const std::uint64_t* b, const int* cols, const std::uint64_t* sa,
                           const std::uint64_t* sb, const std::uint64_t* c, std::uint64_t* d) {
  decode_codes(a, b, cols != nullptr);
  if (cols) set_b_rows(cols);
  if (group_) {
    set_group_scales(sa, sb);
    if (cols) run_groups_sparse(c, d);
    else run_groups(c, d);
    return;
  }
  add_scale_exponents(sa, sb);
  any_special_ = cols ? run_rows_sparse(c, d) : run_rows(c, d);
  if (any_special_) find_specials();
}

}  // namespace ptxmma
