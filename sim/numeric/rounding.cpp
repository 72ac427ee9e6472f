#include "sim/numeric/rounding.hpp"

#include <array>
#include <bit>

namespace ptxmma {
namespace {

int bit_width128(u128 x) {
  const auto hi = static_cast<std::uint64_t>(x >> 64);
  return hi ? 64 + std::bit_width(hi) : std::bit_width(static_cast<std::uint64_t>(x));
}

std::uint64_t with_sign(const TypeInfo& ti, std::uint64_t mag, bool sign) {
  return sign && ti.is_signed ? mag | ti.sign_bit() : mag;
}

bool rounds_away(Rounding m, bool sign) {
  return m == Rounding::rn || m == Rounding::rna || (m == Rounding::rp && !sign) ||
         (m == Rounding::rm && sign);
}

std::uint64_t overflow(const TypeInfo& ti, bool sign, ConvertFlags f) {
  if (f.satfinite || !(f.overflow_to_inf || rounds_away(f.mode, sign))) return with_sign(ti, ti.max_finite(), sign);
  if (ti.has_inf) return ti.inf_bits(sign && ti.is_signed);
  if (ti.nan != NanCode::none) return ti.canonical_nan();
  return with_sign(ti, ti.max_finite(), sign);
}

// A magnitude cut at a bit position: the kept part and what the discarded bits were.
struct Split {
  u128 keep;
  bool above_half, exactly_half, inexact;
  // Whether rounding in mode m adds one to `keep`.
  [[nodiscard]] bool round_up(Rounding m, bool sign) const {
    switch (m) {
      case Rounding::rn: return above_half || (exactly_half && (keep & 1) != 0);
      case Rounding::rna: return above_half || exactly_half;
      case Rounding::rz: return false;
      case Rounding::rm: return sign && inexact;
      case Rounding::rp: return !sign && inexact;
    }
    return false;
  }
};

// v.sig >> shift (shift > 0), with v.sticky standing for nonzero bits below v.sig.
Split split(const Unrounded& v, long shift) {
  if (shift > 128) return Split{0, false, false, v.sticky || v.sig != 0};
  const u128 half = u128{1} << (shift - 1);
  const u128 rem = shift == 128 ? v.sig : v.sig & ((half << 1) - 1);
  return Split{shift == 128 ? 0 : v.sig >> shift, rem > half || (rem == half && v.sticky), rem == half && !v.sticky,
               v.sticky || rem != 0};
}

}  // namespace

std::optional<Rounding> parse_rounding(std::string_view s) {
  if (!s.empty() && s.front() == '.') s.remove_prefix(1);
  static constexpr std::array<std::string_view, 5> kNames = {"rn", "rna", "rz", "rm", "rp"};
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == s) return static_cast<Rounding>(i);
  return std::nullopt;
}

std::string_view name(Rounding r) {
  static constexpr std::array<std::string_view, 5> kNames = {"rn", "rna", "rz", "rm", "rp"};
  return kNames[static_cast<std::size_t>(r)];
}

std::uint64_t round_to(Type dst, const Unrounded& v, ConvertFlags f) {
  const TypeInfo& ti = info(dst);
  const bool sign = v.sign && ti.is_signed;
  if (f.relu && v.sign) return 0;
  if (v.sig == 0 && !v.sticky) return with_sign(ti, 0, sign);

  // Exponent of the ulp at the result's binade (or of the subnormal ulp).
  const int msb = v.sig == 0 ? -1 : bit_width128(v.sig) - 1;
  const int lead = v.sig == 0 ? v.exp - 1 : v.exp + msb;
  const int ulp = (lead > ti.emin() ? lead : ti.emin()) - ti.man_bits;
  const long shift = static_cast<long>(ulp) - v.exp;

  // shift <= 0 is exact: the result has at most man_bits + 1 bits.
  const Split s = shift <= 0 ? Split{v.sig << -shift, false, false, v.sticky} : split(v, shift);
  const auto mag = static_cast<std::uint64_t>(s.keep) + (s.round_up(f.mode, sign) ? 1 : 0);

  // Binades above the lowest add one exponent step each; mag already carries the hidden bit.
  const std::uint64_t binade = static_cast<std::uint64_t>(ulp - (ti.emin() - ti.man_bits));
  std::uint64_t code;
  if (ti.has_subnormals) {
    code = (binade << ti.man_bits) + mag;
  } else {
    if (mag < (1ULL << ti.man_bits)) return 0;  // below the smallest value of a format with no zero
    code = (binade << ti.man_bits) + mag - (1ULL << ti.man_bits);
  }
  if (code > ti.max_finite()) return overflow(ti, sign, f);
  return with_sign(ti, code, sign);
}

std::uint64_t special_to(Type dst, FpClass cls, bool sign, ConvertFlags f) {
  const TypeInfo& ti = info(dst);
  if (cls == FpClass::nan) {
    if (ti.nan != NanCode::none) return ti.canonical_nan();
    return ti.max_finite();  // FP6/FP4: NaN -> +MAX_NORM
  }
  if (f.relu && sign) return 0;
  if (ti.has_inf && !f.satfinite) return ti.inf_bits(sign && ti.is_signed);
  return overflow(ti, sign, ConvertFlags{Rounding::rn, f.satfinite, f.relu});
}

std::uint64_t round_to_integer(Type dst, const Unrounded& v, Rounding mode) {
  const TypeInfo& ti = info(dst);
  const std::int64_t hi = ti.is_signed ? (1LL << (ti.bits - 1)) - 1 : (1LL << ti.bits) - 1;
  const std::int64_t lo = ti.is_signed ? -(1LL << (ti.bits - 1)) : 0;
  // Saturate early: anything of 2^63 or more is beyond every integer type here.
  Split s{0, false, false, v.sticky};
  if (v.exp >= 0) {
    if (v.sig == 0 && !v.sticky) return 0;  // an exact zero, whatever its exponent
    const bool huge = v.exp >= 64 || bit_width128(v.sig) + v.exp > 63;
    if (huge) return static_cast<std::uint64_t>(v.sign ? lo : hi) & ti.mask();
    s.keep = v.sig << v.exp;
  } else {
    s = split(v, -static_cast<long>(v.exp));
    if (s.keep >> 63) return static_cast<std::uint64_t>(v.sign ? lo : hi) & ti.mask();
  }
  auto mag = static_cast<std::int64_t>(s.keep);
  if (s.round_up(mode, v.sign)) ++mag;
  std::int64_t value = v.sign ? -mag : mag;
  if (value > hi) value = hi;
  if (value < lo) value = lo;
  return static_cast<std::uint64_t>(value) & ti.mask();
}

std::uint64_t convert(Type src, std::uint64_t code, Type dst, ConvertFlags f) {
  const TypeInfo& si = info(src);
  const TypeInfo& di = info(dst);
  Unrounded u;
  if (!si.is_float) {
    const std::int64_t x = integer_value(src, code);
    u = Unrounded{x < 0, 0, static_cast<u128>(x < 0 ? -static_cast<u128>(x) : static_cast<u128>(x)), false};
  } else {
    const Fields fs = decode(src, code);
    if (fs.cls == FpClass::nan) {
      if (!di.is_float) return 0;
      // FP8 (e5m2) NaNs widen to the canonical NaN (docs/numerics.md §1.6, CUDA's up-conversions).
      if (di.nan == NanCode::ieee && si.nan == NanCode::ieee && si.bits >= 16 && di.man_bits >= si.man_bits &&
          !f.relu) {
        const std::uint64_t quiet = 1ULL << (di.man_bits - 1);
        const std::uint64_t payload = fs.fraction << (di.man_bits - si.man_bits);
        return with_sign(di, (static_cast<std::uint64_t>(di.exp_max_code()) << di.man_bits) | quiet | payload, fs.sign);
      }
      return special_to(dst, fs.cls, fs.sign, f);
    }
    if (fs.cls == FpClass::infinity) {
      if (!di.is_float) {
        const TypeInfo& ii = di;
        const std::int64_t hi = ii.is_signed ? (1LL << (ii.bits - 1)) - 1 : (1LL << ii.bits) - 1;
        const std::int64_t lo = ii.is_signed ? -(1LL << (ii.bits - 1)) : 0;
        return static_cast<std::uint64_t>(fs.sign ? lo : hi) & ii.mask();
      }
      return special_to(dst, fs.cls, fs.sign, f);
    }
    u = Unrounded{fs.sign, fs.exponent - si.man_bits, fs.significand, false};
  }
  if (!di.is_float) return round_to_integer(dst, u, f.mode);
  return round_to(dst, u, f);
}

}  // namespace ptxmma
