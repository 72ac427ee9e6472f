// An operand decoded for the dot-product engines: exact integer significand and exponents.
#pragma once
#include <cstdint>

#include "sim/numeric/fields.hpp"
#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

// value = (-1)^sign * sig * 2^lsb;  exp = max(floor(log2|value|), emin) as in docs/numerics.md §2.2.
// Integer types: sig = |value|, lsb = exp = 0. `code` keeps the encoding (NaN payloads, b1 bits).
// Trivially constructible: the engines' scratch arrays of terms cost nothing to declare.
struct Term {
  FpClass cls;
  bool sign;
  int exp;
  int lsb;
  u128 sig;  // f64 products need 106 bits
  std::uint64_t code;
};

inline Term make_term(Type t, std::uint64_t code) {
  const TypeInfo& ti = info(t);
  if (!ti.is_float) {
    const std::int64_t v = integer_value(t, code);
    return Term{v == 0 ? FpClass::zero : FpClass::normal, v < 0, 0, 0, static_cast<u128>(v < 0 ? -v : v), code};
  }
  const Fields f = decode(t, code);
  return Term{f.cls, f.sign, f.exponent, f.exponent - ti.man_bits, f.significand, code};
}

// make_term of every code of a type of 16 bits or fewer, built once: table[code].
const Term* term_table(Type t);

// The exact product of two finite terms (significands multiply, exponents add).
inline Term multiply(const Term& a, const Term& b) {
  const u128 sig = a.sig * b.sig;  // exact: at most 2 x 53 bits
  return Term{sig == 0 ? FpClass::zero : FpClass::normal, a.sign != b.sign, a.exp + b.exp, a.lsb + b.lsb, sig, 0};
}

}  // namespace ptxmma
