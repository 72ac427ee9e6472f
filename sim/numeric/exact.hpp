// Exact values (Boost.Multiprecision rationals): decoding for display, decimal text, and the
// reference rounding that tests use as an oracle. Never on a hot path.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/multiprecision/cpp_int.hpp>

#include "sim/numeric/fields.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {

using Rational = boost::multiprecision::cpp_rational;
using BigInt = boost::multiprecision::cpp_int;

// A value that may also be an infinity, a NaN or a signed zero.
struct ExactValue {
  FpClass cls = FpClass::zero;
  bool negative = false;  // sign bit (meaningful for zeros and infinities too)
  Rational value;         // finite classes only
};

Rational pow2(int e);
ExactValue exact_value(Type t, std::uint64_t code);  // floating and integer types

// The reference rounding: finds the neighbours of x on the format's grid by rational arithmetic
// alone (no bit tricks), then applies the mode and the PTX overflow/saturation/relu rules.
// Integer destinations round to an integer and saturate (NaN -> 0), as convert does; their
// satfinite/relu flags are ignored. NaN and Inf into floating formats go through special_to.
std::uint64_t round_exact(Type dst, const ExactValue& x, ConvertFlags f);

// Decimal text <-> exact values. Accepts [+-]digits[.digits][e[+-]digits], inf, nan.
std::optional<ExactValue> parse_decimal(std::string_view text);
// Exact decimal expansion when it has at most `max_digits` significant digits, else 17 digits
// in scientific notation followed by " (approx.)".
std::string to_decimal(const Rational& x, int max_digits = 40);
// A binary value's whole decimal expansion (always finite: n / 2^k has k decimal places); below
// 10^-6 or from 10^21 on in scientific notation, every significant digit kept ("1.5e-30").
std::string exact_decimal(const Rational& x);
// The value of `code` in `t`, exactly: its decimal expansion, "-0", "+Inf", "-Inf" or "NaN".
std::string exact_text(Type t, std::uint64_t code);

}  // namespace ptxmma
