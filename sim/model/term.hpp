// An operand decoded for the dot-product engines: exact integer significand and exponents.
#pragma once
#include <cstdint>

#include "sim/numeric/fields.hpp"
#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

// value = (-1)^sign * sig * 2^lsb;  exp = max(floor(log2|value|), emin) as in numerics.md §2.2.
struct Term {
  FpClass cls = FpClass::zero;
  bool sign = false;
  int exp = 0;
  int lsb = 0;
  u128 sig = 0;  // f64 products need 106 bits
};

inline Term make_term(Type t, std::uint64_t code) {
  const TypeInfo& ti = info(t);
  const Fields f = decode(t, code);
  return Term{f.cls, f.sign, f.exponent, f.exponent - ti.man_bits, f.significand};
}

// The exact product of two finite terms (significands multiply, exponents add).
inline Term multiply(const Term& a, const Term& b) {
  Term p;
  p.sign = a.sign != b.sign;
  p.sig = a.sig * b.sig;  // exact: at most 2 x 53 bits
  p.exp = a.exp + b.exp;
  p.lsb = a.lsb + b.lsb;
  p.cls = p.sig == 0 ? FpClass::zero : FpClass::normal;
  return p;
}

}  // namespace ptxmma
