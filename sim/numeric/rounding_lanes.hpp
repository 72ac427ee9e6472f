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
typedef std::int64_t Longs8 __attribute__((vector_size(64)));

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

// total * 2^cut, total an exact integer below 2^53 held in a double, rounded once to f.frac
// fraction bits at the value's own exponent or emin, whichever is larger: overflow is Inf in
// every mode, a zero +0 (a block sum never gives -0). The double's 53-bit significand sig is
// total / 2^(lg - 52) (lg = floor(log2 |total|)), so the bits rounded away are sig's lowest
// top - frac - (cut + lg - 52), at least 52 - frac; past 60 the decision is that of 60 (sig is
// below half an ulp).
[[gnu::always_inline]] inline void round_sum_lanes(const SumFormat& f, const Doubles8& total, const Ints8& cut, UInts8& out) {
  const auto bits = reinterpret_cast<Longs8>(total);
  const Longs8 neg = bits < 0, mag = bits & INT64_MAX;
  const Longs8 lg = (mag >> 52) - 1023, c = __builtin_convertvector(cut, Longs8);
  const Longs8 sig = (mag & ((std::int64_t{1} << 52) - 1)) | std::int64_t{1} << 52;
  Longs8 top = c + lg;
  top = top > f.emin ? top : Longs8{} + f.emin;
  Longs8 drop = top - f.frac - (c + lg - 52);
  drop = drop > 60 ? Longs8{} + 60 : drop;
  const Longs8 one = Longs8{} + 1;
  Longs8 keep = sig >> drop;
  const Longs8 rem = sig & ((one << drop) - 1), half = one << (drop - 1);
  switch (f.round) {
    case Rounding::rz: break;
    case Rounding::rn: keep -= (rem > half) | ((rem == half) & ((keep & 1) != 0)); break;
    case Rounding::rna: keep -= rem >= half; break;
    case Rounding::rm: keep -= neg & (rem != 0); break;
    case Rounding::rp: keep -= ~neg & (rem != 0); break;
  }
  Longs8 code = ((top - f.emin) << f.man_bits) + (keep << (f.man_bits - f.frac));
  const auto max = static_cast<std::int64_t>(f.max_finite);
  const Longs8 inf = neg ? Longs8{} + static_cast<std::int64_t>(f.neg_inf) : Longs8{} + static_cast<std::int64_t>(f.pos_inf);
  code = code > max ? inf : (neg & (code != 0)) ? code | static_cast<std::int64_t>(f.sign_bit) : code;
  code = mag == 0 ? Longs8{} : code;
  out = __builtin_convertvector(code, UInts8);
}

}  // namespace ptxmma
