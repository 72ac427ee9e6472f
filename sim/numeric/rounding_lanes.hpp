// Roundings of 8 values at once for the engines' vector loops (GCC/Clang vector extensions: one
// AVX2 register of 32-bit lanes, two of 64-bit ones), in exact integer arithmetic, so that a hot
// loop need not round lane by lane. Each gives, lane for lane, the bits of its scalar
// counterpart: f16_of_f32_rn (f32_bits.hpp) and a block sum's rounding (BlockTile, docs/numerics.md
// §2.1); tests/numeric/rounding_lanes_test.cpp checks both against convert() at every rounding
// position.
#pragma once
#include <climits>
#include <cstdint>

#include "sim/numeric/rounding.hpp"

namespace ptxmma {

typedef std::int32_t Ints8 __attribute__((vector_size(32)));
typedef std::uint32_t UInts8 __attribute__((vector_size(32)));
typedef float Floats8 __attribute__((vector_size(32)));
typedef double Doubles8 __attribute__((vector_size(64)));

// Finite binary32 patterns rounded to f16, to nearest even (f16_of_f32_rn lane by lane): past
// f16's range, Inf. An f16 subnormal drops 126 - e bits of the significand with its hidden bit;
// 25 or more drop everything at or below half the smallest subnormal (zero too), so that count
// is clamped to 25 and needs no case of its own.
[[gnu::always_inline]] inline void f16_of_f32_rn_lanes(const UInts8& x, UInts8& out) {
  const auto a = reinterpret_cast<Ints8>(x & 0x7fffffffU);
  const auto sign = reinterpret_cast<Ints8>((x >> 16) & 0x8000U);
  const Ints8 normal = a >= 0x38800000;
  const Ints8 biased = a >> 23;
  Ints8 shift = 126 - biased;
  shift = normal ? Ints8{} + 13 : (shift > 25 ? Ints8{} + 25 : shift);
  const Ints8 sig = normal ? a & 0x7fffff : (a & 0x7fffff) | 0x800000;
  Ints8 h = sig >> shift;
  h = normal ? (((biased - 112) << 10) | h) : h;
  const Ints8 one = Ints8{} + 1;
  const Ints8 rem = sig & ((one << shift) - 1), half = one << (shift - 1);
  h -= (rem > half) | ((rem == half) & ((h & 1) != 0));  // comparisons are -1 where true
  h = a >= 0x477ff000 ? Ints8{} + 0x7c00 : h;  // 65520 and up: beyond the tie above 65504
  out = reinterpret_cast<UInts8>(sign | h);
}

// Finite f16 codes as the binary32 of the same value (exact; a subnormal's fraction times 2^-24).
[[gnu::always_inline]] inline void f32_of_f16_lanes(const UInts8& h, Floats8& out) {
  const UInts8 sign = (h & 0x8000U) << 16, biased = (h >> 10) & 0x1fU, frac = h & 0x3ffU;
  const auto normal = reinterpret_cast<Floats8>(sign | ((biased + 112) << 23) | (frac << 13));
  const Floats8 sub = __builtin_convertvector(frac, Floats8) * 0x1p-24F;
  const auto signed_sub = reinterpret_cast<Floats8>(reinterpret_cast<UInts8>(sub) | sign);
  out = reinterpret_cast<Ints8>(biased) == 0 ? signed_sub : normal;
}

// A binary format (f16, f32) that block sums are rounded into: `frac` fraction bits kept (at most
// man_bits; fewer: a sum narrowed on the format's exponent range), in mode `round`.
struct SumFormat {
  int emin, man_bits, frac;
  Rounding round;
  std::uint64_t max_finite, sign_bit, pos_inf, neg_inf;
};

typedef std::int64_t Longs4 __attribute__((vector_size(32)));
typedef std::uint64_t ULongs4 __attribute__((vector_size(32)));
typedef double Doubles4 __attribute__((vector_size(32)));

// round_sum_lanes on 4 lanes: one AVX2 register of 64-bit lanes, whose comparisons the compiler
// keeps in vector instructions (on 8 it splits some of them lane by lane). Logical shifts on
// unsigned lanes and the sign as -(bits >> 63): AVX2 has no 64-bit arithmetic shifts.
[[gnu::always_inline]] inline void round_sum_4(const SumFormat& f, const Doubles4& total, const Longs4& c, Longs4& out) {
  const auto bits = reinterpret_cast<ULongs4>(total);
  const Longs4 neg = -reinterpret_cast<Longs4>(bits >> 63);
  const ULongs4 mag = bits & INT64_MAX;
  const Longs4 lg = reinterpret_cast<Longs4>(mag >> 52) - 1023;
  const auto sig = reinterpret_cast<Longs4>((mag & ((std::uint64_t{1} << 52) - 1)) | std::uint64_t{1} << 52);
  Longs4 top = c + lg;
  top = top > f.emin ? top : Longs4{} + f.emin;
  Longs4 drop = top - f.frac - (c + lg - 52);
  drop = drop > 60 ? Longs4{} + 60 : drop;
  const auto udrop = reinterpret_cast<ULongs4>(drop);
  const ULongs4 one = ULongs4{} + 1;
  Longs4 keep = reinterpret_cast<Longs4>(reinterpret_cast<ULongs4>(sig) >> udrop);
  const auto rem = sig & reinterpret_cast<Longs4>((one << udrop) - 1), half = reinterpret_cast<Longs4>(one << (udrop - 1));
  switch (f.round) {  // comparisons are -1 where true
    case Rounding::rz: break;
    case Rounding::rn: keep -= (rem > half) | ((rem == half) & ((keep & 1) != 0)); break;
    case Rounding::rna: keep -= rem >= half; break;
    case Rounding::rm: keep -= neg & (rem != 0); break;
    case Rounding::rp: keep -= ~neg & (rem != 0); break;
  }
  Longs4 code = ((top - f.emin) << f.man_bits) + (keep << (f.man_bits - f.frac));
  const Longs4 inf = (neg & static_cast<std::int64_t>(f.neg_inf)) | (~neg & static_cast<std::int64_t>(f.pos_inf));
  const Longs4 over = code > static_cast<std::int64_t>(f.max_finite);
  code = (over & inf) | (~over & (code | (neg & (code != 0) & static_cast<std::int64_t>(f.sign_bit))));
  out = reinterpret_cast<Longs4>(mag) == 0 ? Longs4{} : code;
}

// total * 2^cut, total an exact integer below 2^53 held in a double, rounded once to f.frac
// fraction bits at the value's own exponent or emin, whichever is larger: overflow is Inf in
// every mode, a zero +0 (a block sum never gives -0). The double's 53-bit significand sig is
// total / 2^(lg - 52) (lg = floor(log2 |total|)), so the bits rounded away are sig's lowest
// top - frac - (cut + lg - 52), at least 52 - frac; past 60 the decision is that of 60 (sig is
// below half an ulp).
[[gnu::always_inline]] inline void round_sum_lanes(const SumFormat& f, const Doubles8& total, const Ints8& cut, UInts8& out) {
  typedef std::int32_t Ints4 __attribute__((vector_size(16)));
  const Doubles4 lo = __builtin_shufflevector(total, total, 0, 1, 2, 3), hi = __builtin_shufflevector(total, total, 4, 5, 6, 7);
  const Ints4 cut_lo = __builtin_shufflevector(cut, cut, 0, 1, 2, 3), cut_hi = __builtin_shufflevector(cut, cut, 4, 5, 6, 7);
  Longs4 a, b;
  round_sum_4(f, lo, __builtin_convertvector(cut_lo, Longs4), a);
  round_sum_4(f, hi, __builtin_convertvector(cut_hi, Longs4), b);
  out = reinterpret_cast<UInts8>(__builtin_shufflevector(reinterpret_cast<Ints8>(a), reinterpret_cast<Ints8>(b), 0, 2, 4, 6, 8,
                                                         10, 12, 14));
}

}  // namespace ptxmma
