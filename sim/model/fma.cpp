// A correctly rounded fused multiply-add on exact integer significands (the f64 DMMA step).
#include <bit>

#include "sim/model/dot.hpp"
#include "sim/model/term.hpp"

namespace ptxmma {
namespace {

int width(u128 x) {
  const auto hi = static_cast<std::uint64_t>(x >> 64);
  return hi ? 64 + std::bit_width(hi) : std::bit_width(static_cast<std::uint64_t>(x));
}

// x >> s, with every bit shifted out ORed into bit 0 ("jamming"): exact enough for rounding as
// long as the rounding position is at least two bits above bit 0.
u128 shift_right_jam(u128 x, int s) {
  if (s <= 0) return x;
  if (s >= 128) return x != 0;
  return (x >> s) | ((x & ((u128{1} << s) - 1)) != 0);
}

std::uint64_t quieted(Type t, std::uint64_t nan_code) {
  return nan_code | (1ULL << (info(t).man_bits - 1));
}

// x + y for finite terms, rounded once: both are aligned to a common bit weight in 128 bits, and
// a term far below the other only jams. IEEE 754 §6.3 signs for zero sums.
std::uint64_t sum_round(Type t, const Term& x, const Term& y, ConvertFlags flags) {
  const TypeInfo& ti = info(t);
  if (x.sig == 0 && y.sig == 0) {
    const bool sign = x.sign == y.sign ? x.sign : flags.mode == Rounding::rm;
    return sign ? ti.sign_bit() : 0;
  }
  struct Part {
    bool sign;
    int lsb;
    u128 sig;
  };
  Part big{x.sign, x.lsb, x.sig}, small{y.sign, y.lsb, y.sig};
  if (y.sig != 0 && (x.sig == 0 || y.lsb + width(y.sig) > x.lsb + width(x.sig))) std::swap(big, small);
  const int lift = 126 - width(big.sig);
  big.sig <<= lift;
  big.lsb -= lift;
  if (small.sig == 0) small.lsb = big.lsb;
  if (small.lsb >= big.lsb) small.sig <<= (small.lsb - big.lsb);
  else small.sig = shift_right_jam(small.sig, big.lsb - small.lsb);
  u128 sum;
  bool sign = big.sign;
  if (big.sign == small.sign) {
    sum = big.sig + small.sig;
  } else if (big.sig >= small.sig) {
    sum = big.sig - small.sig;
  } else {
    sum = small.sig - big.sig;
    sign = small.sign;
  }
  if (sum == 0) return flags.mode == Rounding::rm ? ti.sign_bit() : 0;  // exact cancellation
  return round_to(t, Unrounded{sign, big.lsb, sum, false}, flags);
}

}  // namespace

std::uint64_t fma_step(const Model& m, Type t, std::uint64_t a_code, std::uint64_t b_code, std::uint64_t c_code,
                       Rounding mode) {
  const TypeInfo& ti = info(t);
  const Term a = make_term(t, a_code), b = make_term(t, b_code), c = make_term(t, c_code);
  // A NaN operand propagates, quietened, in the model's priority order; invalid operations give
  // the model's NaN.
  for (const char op : m.nan_priority) {
    const Term& x = op == 'a' ? a : op == 'b' ? b : c;
    if (x.cls == FpClass::nan) return quieted(t, op == 'a' ? a_code : op == 'b' ? b_code : c_code);
  }
  const bool p_inf = a.cls == FpClass::infinity || b.cls == FpClass::infinity;
  const bool p_zero = a.cls == FpClass::zero || b.cls == FpClass::zero;
  const bool p_sign = a.sign != b.sign;
  if (p_inf && p_zero) return m.nan_invalid;
  if (p_inf && c.cls == FpClass::infinity && p_sign != c.sign) return m.nan_invalid;
  if (p_inf) return ti.inf_bits(p_sign);
  if (c.cls == FpClass::infinity) return c_code;
  return sum_round(t, multiply(a, b), c, ConvertFlags{mode});
}

std::uint64_t ieee_add(const Model& m, Type t, std::uint64_t x_code, Type y_type, std::uint64_t y_code, Rounding mode) {
  const Term x = make_term(t, x_code), y = make_term(y_type, y_code);
  if (x.cls == FpClass::nan || y.cls == FpClass::nan) return t == Type::f16 ? m.nan_f16 : m.nan_f32;
  if (x.cls == FpClass::infinity || y.cls == FpClass::infinity) {
    if (x.cls == FpClass::infinity && y.cls == FpClass::infinity && x.sign != y.sign)
      return t == Type::f16 ? m.nan_f16 : m.nan_f32;
    return info(t).inf_bits(x.cls == FpClass::infinity ? x.sign : y.sign);
  }
  return sum_round(t, x, y, ConvertFlags{mode});
}

}  // namespace ptxmma
