// cvt and cvta. Every conversion goes through sim/numeric (convert, round_to,
// round_to_integer, pack_pair): no rounding code of its own.
//
// Float -> integer (.rni .rzi .rmi .rpi) splits |x| into its integer part I and fraction f; the
// parity bit of I plus f goes through round_to_integer (so ties-to-even sees I's parity), and I
// less that bit is added back; the result saturates to the destination range. Round-to-integral
// float conversions (cvt.rni.f32.f32) do the same and convert the integer back, exactly, keeping
// the sign of a zero. Integer -> integer conversions extend the source by its signedness.
//
// NaN inputs, .ftz and .sat follow what an H200 gave (docs/hardware/alu-sm90.md): float -> integer
// NaN is 0x80...0 from .f64 or into 64 bits, else 0; float -> float NaNs per pair of formats
// (nan_result); .sat makes a NaN +0.
#include <fmt/format.h>

#include <algorithm>

#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"
#include "sim/numeric/fields.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma::exec {
namespace {

using ptx::Instruction;
using ptx::PtxType;
using ptx::TypeClass;

__extension__ typedef __int128 i128;

std::uint64_t mask_of(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

bool is_float(PtxType t) { return ptx::type_class(t) == TypeClass::floating; }

// |x| rounded to an integer (saturating at 2^100), for a finite non-NaN code of t.
u128 integer_magnitude(Type t, const Fields& f, Rounding mode) {
  const int e = f.exponent - info(t).man_bits;
  const u128 sig = f.significand;
  if (e >= 0) return e > 60 ? (u128{1} << 100) : sig << e;  // sig < 2^64: no wrap
  const int shift = -e;
  const u128 whole = shift >= 128 ? 0 : sig >> shift;
  const u128 low = shift >= 128 ? sig : (((whole & 1U) << shift) | (sig & ((u128{1} << shift) - 1)));
  const std::uint64_t r = round_to_integer(Type::s32, Unrounded{f.sign, e, low, false}, mode);
  const std::int64_t rv = integer_value(Type::s32, r);
  return whole - (whole & 1U) + static_cast<u128>(rv < 0 ? -rv : rv);
}

std::uint64_t float_to_int(Type t, std::uint64_t code, PtxType dst, Rounding mode) {
  const int w = ptx::bits(dst);
  const bool s = ptx::type_class(dst) == TypeClass::signed_int;
  const i128 hi = s ? (static_cast<i128>(1) << (w - 1)) - 1 : (static_cast<i128>(1) << w) - 1;
  const i128 lo = s ? -(static_cast<i128>(1) << (w - 1)) : 0;
  const Fields f = decode(t, code);
  i128 v = 0;
  if (f.cls == FpClass::nan) {
    // 64-bit destinations and .f64 sources give the destination width's lowest signed value
    // (0x80...0, whatever the signedness); narrower conversions of the other formats give 0.
    if (w == 64 || t == Type::f64) return (1ULL << (w - 1)) & mask_of(w);
    return 0;
  }
  if (f.cls == FpClass::infinity) {
    v = f.sign ? lo : hi;
  } else {
    const u128 mag = integer_magnitude(t, f, mode);
    v = f.sign ? -static_cast<i128>(mag) : static_cast<i128>(mag);
  }
  v = std::clamp(v, lo, hi);
  return static_cast<std::uint64_t>(v) & mask_of(w);
}

// Round to an integral value in the same format.
std::uint64_t integral(Type t, std::uint64_t code, Rounding mode) {
  const Fields f = decode(t, code);
  if (f.cls == FpClass::nan || f.cls == FpClass::infinity || f.cls == FpClass::zero) return code;
  if (f.exponent >= info(t).man_bits) return code;
  const u128 mag = integer_magnitude(t, f, mode);
  return round_to(t, Unrounded{f.sign, 0, mag, false}, ConvertFlags{Rounding::rn});
}

std::uint64_t flush(Type t, std::uint64_t v) {
  return decode(t, v).cls == FpClass::subnormal ? v & info(t).sign_bit() : v;
}

std::uint64_t saturate01(Type t, std::uint64_t v) {
  const TypeInfo& ti = info(t);
  const Fields f = decode(t, v);
  if (f.cls == FpClass::nan || f.sign) return 0;
  const std::uint64_t one = static_cast<std::uint64_t>(ti.bias) << ti.man_bits;
  return (v & ti.mask()) > one ? one : v;
}

// The NaN a float -> float conversion of NaN `a` gives (see the top of the file).
std::uint64_t nan_result(const ptx::Decoded& d, Type sf, std::uint64_t a, Type df) {
  const TypeInfo& si = info(sf);
  const TypeInfo& di = info(df);
  if (d.sat) return 0;
  if (sf == df) {
    if (!d.int_rnd && !d.ftz && (df == Type::f32 || df == Type::f64)) return a;  // a move: the bits as they are
    if (df == Type::f64) return a | (1ULL << (di.man_bits - 1));  // quietened
    return di.canonical_nan();
  }
  if (d.ftz && sf == Type::f32) a = 0x7fffffffULL;  // .ftz canonicalises the f32 source first
  else if (d.ftz && sf != Type::f64) return di.canonical_nan();
  const std::uint64_t sign = (a >> (si.bits - 1)) & 1U;
  const std::uint64_t payload = a & ((1ULL << si.man_bits) - 1);
  if (df == Type::f64)  // widened: sign, quiet bit, payload at the top of the fraction
    return sign << 63 | 0x7ff8000000000000ULL | payload << (di.man_bits - si.man_bits);
  if (sf == Type::bf16 && df == Type::f32) return a << 16;  // exact: even a signalling NaN stays
  if (sf == Type::f64)  // narrowed: sign, quiet bit, the payload's top bits
    return sign << (di.bits - 1) | (di.mask() >> 1 & ~((1ULL << (di.man_bits - 1)) - 1)) |
           (payload >> (si.man_bits - di.man_bits) & ((1ULL << (di.man_bits - 1)) - 1));
  return di.canonical_nan();
}

// The .ftz of cvt flushes a subnormal .f32 source, except into .f16 (whose conversion ignores
// it: cvt.rm.ftz.f16.f32 of 0x80000001 is 0x8001; cvt.rm.ftz.bf16.f32 gives 0x8000).
bool flushes_source(const ptx::Decoded& d, Type sf, PtxType dt) { return d.ftz && sf == Type::f32 && dt != PtxType::f16; }

std::uint64_t scalar(const Instruction& ins, std::uint64_t a) {
  const ptx::Decoded& d = ins.d;
  const PtxType dt = d.type, st = d.type2;
  const int sb = ptx::bits(st);
  a &= mask_of(sb);
  const Rounding mode = d.rnd.value_or(Rounding::rn);
  if (is_float(st)) {
    const Type sf = *ptx::element_format(st);
    if (flushes_source(d, sf, dt)) a = flush(sf, a);
    if (!is_float(dt)) return float_to_int(sf, a, dt, mode);
    const Type df = *ptx::element_format(dt);
    if (decode(sf, a).cls == FpClass::nan) return nan_result(d, sf, a, df);
    std::uint64_t r;
    if (d.int_rnd) {
      const std::uint64_t wide = sf == df ? a : convert(sf, a, df, ConvertFlags{Rounding::rn});
      r = integral(df, wide, mode);
    } else {
      r = convert(sf, a, df, ConvertFlags{mode, d.satfinite, d.relu});
    }
    if (d.ftz && df == Type::f32) r = flush(df, r);
    if (d.sat) r = saturate01(df, r);
    return r;
  }
  // Integer source.
  const bool ssigned = ptx::type_class(st) == TypeClass::signed_int;
  const std::int64_t sv = ssigned && sb < 64 && ((a >> (sb - 1)) & 1U) ? static_cast<std::int64_t>(a | ~mask_of(sb))
                                                                        : static_cast<std::int64_t>(a);
  const bool neg = ssigned && sv < 0;
  const u128 mag = neg ? static_cast<u128>(-static_cast<i128>(sv)) : static_cast<u128>(a);
  if (is_float(dt)) {
    const Type df = *ptx::element_format(dt);
    std::uint64_t r = round_to(df, Unrounded{neg, 0, mag, false}, ConvertFlags{mode, d.satfinite, d.relu});
    if (d.sat) r = saturate01(df, r);
    return r;
  }
  const int w = ptx::bits(dt);
  if (!d.sat) return static_cast<std::uint64_t>(sv) & mask_of(w);  // sign- or zero-extended from the source type
  const bool dsigned = ptx::type_class(dt) == TypeClass::signed_int;
  const i128 hi = dsigned ? (static_cast<i128>(1) << (w - 1)) - 1 : (static_cast<i128>(1) << w) - 1;
  const i128 lo = dsigned ? -(static_cast<i128>(1) << (w - 1)) : 0;
  const i128 v = std::clamp(neg ? -static_cast<i128>(mag) : static_cast<i128>(mag), lo, hi);
  return static_cast<std::uint64_t>(v) & mask_of(w);
}

void cvt(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const ptx::Decoded& d = ins.d;
  const ConvertFlags flags{d.rnd.value_or(Rounding::rn), d.satfinite, d.relu};
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane);
    std::uint64_t r = 0;
    switch (d.mode) {
      case 0:
        x.write_ext(ins.ops[0], lane, scalar(ins, a), d.type);
        return;
      case 1: {  // pack: d = {cvt(a) high, cvt(b) low}
        const Type df = *ptx::element_format(d.type);
        std::uint64_t hi, lo;
        if (ins.ops.size() == 3) {
          std::uint64_t b = x.read(ins.ops[2], lane);
          std::uint64_t aa = a & 0xffffffffULL;
          b &= 0xffffffffULL;
          if (d.ftz) aa = flush(Type::f32, aa), b = flush(Type::f32, b);
          hi = convert(Type::f32, aa, df, flags);
          lo = convert(Type::f32, b, df, flags);
        } else {
          const Type sf = *ptx::element_format(d.type2);
          hi = convert(sf, (a >> 16) & 0xffff, df, flags);
          lo = convert(sf, a & 0xffff, df, flags);
        }
        r = pack_pair(df, static_cast<std::uint32_t>(hi), static_cast<std::uint32_t>(lo));
        break;
      }
      case 2: {  // unpack: narrow pair -> f16x2 / bf16x2
        const Type sf = *ptx::element_format(d.type2);
        const Type df = *ptx::element_format(d.type);
        const auto packed = static_cast<std::uint32_t>(a);
        const std::uint64_t hi = convert(sf, pair_high(sf, packed), df, flags);
        const std::uint64_t lo = convert(sf, pair_low(sf, packed), df, flags);
        r = (hi << 16) | lo;
        break;
      }
      case 3: {  // tf32: the 19-bit code in bits [31:13]
        std::uint64_t aa = a & 0xffffffffULL;
        if (d.ftz) aa = flush(Type::f32, aa);
        const bool rna = d.rnd == Rounding::rna;
        if ((aa & 0x7f800000U) == 0x7f800000U && rna && d.satfinite) {
          // ptxas's sequence skips the rounding add for Inf and NaN, clears the low 13 bits and, the
          // result being Inf or NaN, takes one tf32 unit off: +-Inf -> +-max, NaN -> a NaN one below.
          r = (aa & 0xffffe000ULL) - 0x2000U;
        } else if (decode(Type::f32, aa).cls == FpClass::nan) {
          r = rna ? aa & 0xffffe000ULL : 0x7fffe000ULL;  // .rna keeps the bits above the field
        } else {
          r = container_of(info(Type::tf32), convert(Type::f32, aa, Type::tf32, flags));
        }
        break;
      }
      default: throw Error("unknown cvt form");
    }
    x.write(ins.ops[0], lane, r);
  });
}

void cvta(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const bool wide = ins.d.type == PtxType::u64;
  const std::uint64_t window = !wide ? 0
                               : ins.d.space == ptx::Space::shared || ins.d.space == ptx::Space::shared_cluster
                                   ? Machine::kSharedWindow
                               : ins.d.space == ptx::Space::local  ? Machine::kLocalWindow
                               : ins.d.space == ptx::Space::param  ? Machine::kParamWindow
                                                                   : 0;
  for_lanes(lanes, [&](int lane) {
    std::uint64_t a = x.read(ins.ops[1], lane);
    a = ins.d.mode == 1 ? a - window : a + window;
    x.write(ins.ops[0], lane, a);
  });
}

}  // namespace

void register_convert(std::vector<SemanticSpec>& t) {
  t.push_back({"cvt", cvt});
  t.push_back({"cvta", cvta});
}

}  // namespace ptxmma::exec
