#include "sim/model/block_tile.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstring>
#include <mutex>

#include "sim/model/dot.hpp"
#include "sim/model/simd.hpp"
#include "sim/numeric/fields.hpp"

namespace ptxmma {
namespace {

int field_bits(const TypeInfo& t) { return t.bits - t.man_bits; }

bool decodable(Type t) {
  const TypeInfo& ti = info(t);
  return ti.is_float && ti.has_subnormals && field_bits(ti) <= 9 && ti.man_bits + 1 <= 24;
}

bool special(const Fields& f) { return f.cls == FpClass::nan || f.cls == FpClass::infinity; }

typedef BlockTile::Ints Ints;
typedef std::uint32_t UInts __attribute__((vector_size(32)));
typedef float Floats __attribute__((vector_size(32)));

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
  if (m.engine != Engine::block_fma) return nullptr;
  if (!decodable(s.a) || !decodable(s.b) || !decodable(s.c) || !decodable(s.d)) return nullptr;
  if (s.d != Type::f32 && s.d != Type::f16) return nullptr;
  if (info(s.a).man_bits + 1 + info(s.b).man_bits + 1 > 24) return nullptr;  // m_a * m_b exact in a float
  const int f = m.block.frac_bits;
  if (f + 2 > 31) return nullptr;  // a term is below 2^(F + 2): an int32 lane
  // The products of one block (each at most 2^(F+2) - 1) must sum in int32.
  std::vector<long> size(static_cast<std::size_t>(m.block.blocks));
  for (int k = 0; k < s.k; ++k) ++size[static_cast<std::size_t>((k / m.block.run) % m.block.blocks)];
  if (*std::max_element(size.begin(), size.end()) * ((1L << (f + 2)) - 1) > INT32_MAX) return nullptr;
  return std::make_unique<BlockTile>(m, s);
}

BlockTile::BlockTile(const Model& m, const TileSpec& s)
    : m_(m),
      s_(s),
      da_(s.a, m.block.zeros_set_exponent, values_fit(m, s)),
      db_(s.b, m.block.zeros_set_exponent, values_fit(m, s)),
      dc_(s.c, m.block.zeros_set_exponent),
      dd_(s.d, m.block.zeros_set_exponent),
      frac_bits_(m.block.frac_bits) {
  const BlockFma& p = m.block;
  block_start_.push_back(0);
  for (int b = 0; b < p.blocks; ++b) {
    for (int k = 0; k < s.k; ++k)
      if ((k / p.run) % p.blocks == b) order_.push_back(k);
    block_start_.push_back(static_cast<int>(order_.size()));
  }
  in_order_ = std::is_sorted(order_.begin(), order_.end());
  const BlockFma::Output& out = p.output(s.d);
  exp_floor_ = out.exp_floor ? *out.exp_floor : ElementDecoder::kZeroExp;
  out_frac_ = out.frac ? *out.frac : info(s.d).man_bits;
  out_round_ = out.round;
  f32_round_ = s.d == Type::f32 && (out.round == Rounding::rz || (out.round == Rounding::rn && out_frac_ == 23));
  const TypeInfo& di = info(s.d);
  out_ = OutFormat{di.emin(), di.man_bits, di.max_finite(), di.sign_bit(), di.inf_bits(false), di.inf_bits(true)};
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
  np_ = (s.n + kLanes - 1) / kLanes * kLanes;
  values_ = values_fit(m, s);
  const auto mk = static_cast<std::size_t>(s.m) * static_cast<std::size_t>(s.k);
  const auto nk = static_cast<std::size_t>(np_) * static_cast<std::size_t>(s.k);
  am_.resize(mk);
  ae_.resize(mk);
  bm_.assign(nk, 0.0F);  // padding columns: zero terms
  be_.assign(nk, ElementDecoder::kZeroExp);
  a_special_.resize(static_cast<std::size_t>(s.m));
  b_special_.resize(static_cast<std::size_t>(s.n));
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

template <class Src>
void BlockTile::decode_operands(Src a, Src b) {
  const int K = s_.k;
  // rows x K codes (k in order_) to m and e at r * row_step + k * k_step.
  const auto decode = [&](const ElementDecoder& dec, Src src, int rows, std::size_t row_step, std::size_t k_step,
                          float* m, std::int32_t* e, std::vector<char>& special) {
    const float* tm = dec.m_table();
    const std::int32_t* te = dec.e_table();
    const std::uint64_t mask = dec.mask();
    const int* order = in_order_ ? nullptr : order_.data();
    for (int r = 0; r < rows; ++r) {
      const std::size_t row = static_cast<std::size_t>(r * K);
      std::size_t at = static_cast<std::size_t>(r) * row_step;
      std::int32_t most = INT32_MIN;
      if (tm) {  // the common case, branch-free
        for (int k = 0; k < K; ++k, at += k_step) {
          const std::uint64_t code = src(row + static_cast<std::size_t>(order ? order[k] : k)) & mask;
          m[at] = tm[code];
          e[at] = te[code];
          most = std::max(most, te[code]);
        }
      } else {
        for (int k = 0; k < K; ++k, at += k_step) {
          dec.decode(src(row + static_cast<std::size_t>(order ? order[k] : k)), m[at], e[at]);
          most = std::max(most, e[at]);
        }
      }
      special[static_cast<std::size_t>(r)] = most == ElementDecoder::kSpecial;
      any_special_ |= most == ElementDecoder::kSpecial;
    }
  };
  any_special_ = false;
  decode(da_, a, s_.m, static_cast<std::size_t>(K), 1, am_.data(), ae_.data(), a_special_);
  decode(db_, b, s_.n, 1, static_cast<std::size_t>(np_), bm_.data(), be_.data(), b_special_);
}

std::uint64_t BlockTile::special_result(Type t, std::uint64_t code) const {
  const Fields f = decode(t, code);
  if (f.cls == FpClass::nan) return s_.d == Type::f16 ? m_.nan_f16 : m_.nan_f32;
  return f.sign ? out_.neg_inf : out_.pos_inf;
}

// total * 2^cut rounded once to out_frac_ fraction bits in D's exponent range (the narrowed block
// sum, or D's own precision) as round_to() does; overflow is Inf in every mode, and a block
// never gives -0.
std::uint64_t BlockTile::round_sum(std::int64_t total, std::int32_t cut) const {
  if (total == 0) return 0;
  const bool neg = total < 0;
  const std::uint64_t mag = neg ? 0 - static_cast<std::uint64_t>(total) : static_cast<std::uint64_t>(total);
  const int lead = cut + 63 - std::countl_zero(mag);
  const int top = std::max(lead, out_.emin);
  const int shift = top - out_frac_ - cut;
  std::uint64_t keep;
  if (shift <= 0) {
    keep = mag << -shift;
  } else {
    const bool far = shift > 64;  // below half an ulp
    const std::uint64_t half = far ? 0 : 1ULL << (shift - 1);
    keep = shift >= 64 ? 0 : mag >> shift;
    const std::uint64_t rem = shift >= 64 ? mag : mag & ((1ULL << shift) - 1);
    bool up = false;
    switch (out_round_) {
      case Rounding::rz: break;
      case Rounding::rn: up = !far && (rem > half || (rem == half && (keep & 1) != 0)); break;
      case Rounding::rna: up = !far && rem >= half; break;
      case Rounding::rm: up = neg && rem != 0; break;
      case Rounding::rp: up = !neg && rem != 0; break;
    }
    keep += up ? 1 : 0;
  }
  const std::uint64_t code =
      (static_cast<std::uint64_t>(top - out_.emin) << out_.man_bits) + (keep << (out_.man_bits - out_frac_));
  if (code > out_.max_finite) return neg ? out_.neg_inf : out_.pos_inf;
  return neg && code != 0 ? code | out_.sign_bit : code;
}

std::uint64_t BlockTile::final_add(std::uint64_t acc, std::uint64_t c) const {
  const Rounding mode = m_.block.final_add_round;
  if (s_.d == Type::f32 && s_.c == Type::f32 && mode == Rounding::rn) {
    // binary32 addition to nearest even is the host's own (SSE arithmetic, IEEE 754), NaNs apart.
    const auto x = std::bit_cast<float>(static_cast<std::uint32_t>(acc));
    const auto y = std::bit_cast<float>(static_cast<std::uint32_t>(c));
    const float sum = x + y;
    if (sum != sum) return m_.nan_f32;  // a NaN operand, or Inf - Inf
    return std::bit_cast<std::uint32_t>(sum);
  }
  return ieee_add(m_, s_.d, acc, s_.c, c, mode);
}

// (acc + run) * 2^cut rounded into f32 for 8 columns, 4 at a time in exact double arithmetic:
// the sum (below 2^34) and the scaling are exact in a double. Toward zero, the double's fraction
// is cut to out_frac_ bits, so that the conversion to float is exact (Inf past the largest
// finite value); to nearest even (all 23 bits), the conversion itself rounds. Columns below
// 2^-126 toward zero (subnormal or narrowed grid) go through round_sum. -0 becomes +0.
[[gnu::always_inline]] inline void BlockTile::round_f32(const Ints& acc, const Ints& run, const Ints& cut,
                                                      std::uint64_t* code) const {
  typedef std::int32_t Ints4 __attribute__((vector_size(16)));
  typedef float Floats4 __attribute__((vector_size(16)));
  typedef double Doubles4 __attribute__((vector_size(32)));
  typedef std::int64_t Longs4 __attribute__((vector_size(32)));
  const std::int64_t keep_mask = ~static_cast<std::int64_t>((1ULL << (52 - out_frac_)) - 1);
  for (int h = 0; h < kLanes; h += 4) {
    const auto half = [h](const Ints& x) {  // lanes h..h+3, in registers
      return h == 0 ? __builtin_shufflevector(x, x, 0, 1, 2, 3) : __builtin_shufflevector(x, x, 4, 5, 6, 7);
    };
    const Ints4 a = half(acc), r = half(run);
    Ints4 c = half(cut);
    c = c < -1000 ? Ints4{} - 1000 : c;  // an all-zero or special column: the sum is 0, any finite scale will do
    c = c > 1000 ? Ints4{} + 1000 : c;
    const Doubles4 x = __builtin_convertvector(a, Doubles4) + __builtin_convertvector(r, Doubles4);
    const Doubles4 v = x * reinterpret_cast<Doubles4>((__builtin_convertvector(c, Longs4) + 1023) << 52);
    Floats4 f;
    Longs4 tiny{};
    if (out_round_ == Rounding::rn) {
      f = __builtin_convertvector(v, Floats4);
    } else {
      f = __builtin_convertvector(reinterpret_cast<Doubles4>(reinterpret_cast<Longs4>(v) & keep_mask), Floats4);
      tiny = (v < 0x1p-126) & (v > -0x1p-126) & (v != 0);
    }
    const auto bits = reinterpret_cast<Ints4>(f);
    for (int l = 0; l < 4; ++l) {
      const auto u = static_cast<std::uint32_t>(bits[l]);
      code[h + l] = tiny[l] ? round_sum(static_cast<std::int64_t>(a[l]) + r[l], cut[h + l])
                            : u == 0x80000000U ? 0 : u;
    }
  }
}

// R rows of A at once over 8 columns: each B vector loaded serves R rows.
template <int R>
[[gnu::always_inline]] inline void BlockTile::rows(int i0, const std::uint64_t* c, std::uint64_t* d) const {
  static_assert(kLanes * sizeof(std::int32_t) == sizeof(Ints));
  const int N = s_.n, K = s_.k;
  const bool c_first = m_.block.c_entry == BlockFma::CEntry::first_block;
  const Ints bias = Ints{} + (frac_bits_ + 127);  // 2^(x - E + F) as float bits: its exponent + 127
  const Ints floor = Ints{} + exp_floor_;
  const Ints zero{};
  const auto np = static_cast<std::size_t>(np_);
  const float* am[R];
  const std::int32_t* ae[R];
  for (int r = 0; r < R; ++r) {
    am[r] = am_.data() + static_cast<std::size_t>((i0 + r) * K);
    ae[r] = ae_.data() + static_cast<std::size_t>((i0 + r) * K);
  }
  for (int j0 = 0; j0 < N; j0 += kLanes) {
    const int lanes = std::min(kLanes, N - j0);
    // The running sum per row and column (C, or +0 when C is added last) as a term: rm * 2^re.
    Floats rm[R];
    Ints re[R];
    std::uint64_t code[R][kLanes] = {}, decided[R][kLanes] = {};  // decided: a NaN / Inf running sum's result
    bool any_decided = false;
    const auto take_each = [&](int r, const ElementDecoder& dec, Type t, const std::uint64_t* codes) {
      for (int l = 0; l < lanes; ++l) {
        float m;
        std::int32_t e;
        dec.decode(codes[l], m, e);
        rm[r][l] = m;
        re[r][l] = e;
        decided[r][l] = e == ElementDecoder::kSpecial ? special_result(t, codes[l]) : 0;
        any_decided |= decided[r][l] != 0;
      }
    };
    // An IEEE f32 / f16 running sum, 8 columns at once: m is +-1.fraction, less +-1 for subnormals.
    const auto take = [&](int r, const ElementDecoder& dec, const RunFormat& f, Type t, const std::uint64_t* codes) {
      rm[r] = Floats{};
      re[r] = zero + ElementDecoder::kZeroExp;
      // Two halves of 4 codes, narrowed in registers (one 64-byte value would pass through memory).
      typedef std::uint64_t ULongs4 __attribute__((vector_size(32)));
      typedef std::uint32_t UInts4 __attribute__((vector_size(16)));
      ULongs4 lo{}, hi{};
      if (lanes == kLanes) {
        std::memcpy(&lo, codes, sizeof lo);
        std::memcpy(&hi, codes + 4, sizeof hi);
      } else {
        for (int l = 0; l < lanes; ++l) {
          if (l < 4) lo[l] = codes[l];
          else hi[l - 4] = codes[l];
        }
      }
      const UInts u = __builtin_shufflevector(__builtin_convertvector(lo, UInts4), __builtin_convertvector(hi, UInts4), 0,
                                              1, 2, 3, 4, 5, 6, 7);
      const UInts biased = (u >> f.man_bits) & f.exp_all;
      const Ints special = biased == f.exp_all;
      bool any = false;
      for (int l = 0; l < kLanes; ++l) any |= special[l] != 0;
      if (!f.vector || any) return take_each(r, dec, t, codes);
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
      if (c_first) take(r, dc_, run_c_, s_.c, c + static_cast<std::size_t>((i0 + r) * N + j0));
      else take(r, dd_, run_d_, s_.d, code[r]);
    }
    for (std::size_t b = 0; b + 1 < block_start_.size(); ++b) {
      const int k0 = block_start_[b], k1 = block_start_[b + 1];
      const std::size_t first = static_cast<std::size_t>(k0) * np + static_cast<std::size_t>(j0);
      Ints e[R];
      for (int r = 0; r < R; ++r) e[r] = re[r];
      const std::int32_t* be = be_.data() + first;
      for (int k = k0; k < k1; ++k, be += np) {  // E: the largest exponent of the block's terms, per column
        Ints y;
        std::memcpy(&y, be, sizeof y);
        for (int r = 0; r < R; ++r) {
          const Ints x = y + ae[r][k];
          e[r] = e[r] > x ? e[r] : x;
        }
      }
      Ints top[R], acc[R];
      for (int r = 0; r < R; ++r) {
        top[r] = e[r] > floor ? e[r] : floor;
        acc[r] = zero;
      }
      const float* bm = bm_.data() + first;
      if (values_) {  // one scale 2^(F - E) per column: the products carry their exponents
        Floats scale[R];
        for (int r = 0; r < R; ++r) {
          Ints s = bias - top[r];
          s = s > 254 ? Ints{} + 254 : s;  // 2^127 at most: only where every product is zero
          s = s < 1 ? Ints{} + 1 : s;      // a column with a NaN or Inf, recomputed by dot()
          scale[r] = reinterpret_cast<Floats>(s << 23);
        }
        for (int k = k0; k < k1; ++k, bm += np) {
          Floats v;
          std::memcpy(&v, bm, sizeof v);
          for (int r = 0; r < R; ++r) acc[r] += __builtin_convertvector(am[r][k] * v * scale[r], Ints);  // truncates
        }
      } else {
        Ints off[R];
        for (int r = 0; r < R; ++r) off[r] = bias - top[r];
        be = be_.data() + first;
        for (int k = k0; k < k1; ++k, be += np, bm += np) {
          Ints y;
          Floats m;
          std::memcpy(&y, be, sizeof y);
          std::memcpy(&m, bm, sizeof m);
          for (int r = 0; r < R; ++r) {
            Ints t = y + (ae[r][k] + off[r]);
            t = t > zero ? t : zero;  // 0: the term is below 1, the scale a float +0
            acc[r] += __builtin_convertvector(am[r][k] * m * reinterpret_cast<Floats>(t << 23), Ints);  // truncates
          }
        }
      }
      for (int r = 0; r < R; ++r) {
        Ints t = re[r] + (bias - top[r]);
        t = t > zero ? t : zero;
        const Ints run = __builtin_convertvector(rm[r] * reinterpret_cast<Floats>(t << 23), Ints);
        const Ints cut = top[r] - frac_bits_;
        if (f32_round_) {
          round_f32(acc[r], run, cut, code[r]);
        } else {
          for (int l = 0; l < lanes; ++l)
            code[r][l] = round_sum(static_cast<std::int64_t>(acc[r][l]) + run[l], cut[l]);
        }
        if (any_decided)
          for (int l = 0; l < lanes; ++l) code[r][l] = decided[r][l] ? decided[r][l] : code[r][l];
        if (b + 2 < block_start_.size()) take(r, dd_, run_d_, s_.d, code[r]);
      }
    }
    for (int r = 0; r < R; ++r) {
      const std::size_t at = static_cast<std::size_t>((i0 + r) * N + j0);
      if (!c_first)
        for (int l = 0; l < lanes; ++l) d[at + static_cast<std::size_t>(l)] = final_add(code[r][l], c[at + static_cast<std::size_t>(l)]);
      else if (lanes == kLanes)
        std::memcpy(d + at, code[r], sizeof code[r]);
      else
        std::copy(code[r], code[r] + lanes, d + at);
    }
  }
}

PTXMMA_MULTIVERSION
void BlockTile::run_rows(const std::uint64_t* c, std::uint64_t* d) const {
  int i = 0;
  for (; i + kRows <= s_.m; i += kRows) rows<kRows>(i, c, d);
  for (; i < s_.m; ++i) rows<1>(i, c, d);
}

void BlockTile::run(const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d) {
  const auto codes = [](const std::uint64_t* p) { return [p](std::size_t x) { return p[x]; }; };
  decode_operands(codes(a), codes(b));
  run_rows(c, d);
}

void BlockTile::run_words(WordSource a, WordSource b, const std::uint64_t* c, std::uint64_t* d) {
  const auto field = [](WordSource w) {
    return [w](std::size_t x) -> std::uint64_t { return w.words[w.index[x] / 32] >> (w.index[x] % 32); };
  };
  decode_operands(field(a), field(b));  // the decoders mask the field to the element's bits
  run_rows(c, d);
}

}  // namespace ptxmma
