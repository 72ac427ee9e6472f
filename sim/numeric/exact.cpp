#include "sim/numeric/exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace ptxmma {
namespace {

// x >= 2^e for x = num / den > 0, in integers: num >= den * 2^e.
bool at_least_pow2(const BigInt& num, const BigInt& den, int e) {
  return e >= 0 ? num >= (den << e) : (num << -e) >= den;
}

// floor(log2(x)) for x > 0, by comparison with powers of two.
int floor_log2(const Rational& x) {
  const BigInt num = numerator(x), den = denominator(x);
  int e = static_cast<int>(msb(num)) - static_cast<int>(msb(den));
  // e is within one of the answer.
  while (!at_least_pow2(num, den, e)) --e;
  while (at_least_pow2(num, den, e + 1)) ++e;
  return e;
}

// The reference rounding into an integer type: saturating, NaN -> 0 (PTX cvt to integers).
std::uint64_t round_exact_integer(const TypeInfo& ti, const ExactValue& x, Rounding mode) {
  const BigInt lo = ti.is_signed ? -(BigInt(1) << (ti.bits - 1)) : BigInt(0);
  const BigInt hi = ti.is_signed ? (BigInt(1) << (ti.bits - 1)) - 1 : (BigInt(1) << ti.bits) - 1;
  const auto encode = [&](const BigInt& v) {
    const BigInt r = v < lo ? lo : (v > hi ? hi : v);
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(r)) & ti.mask();
  };
  if (x.cls == FpClass::nan) return 0;
  if (x.cls == FpClass::infinity) return encode(x.negative ? lo : hi);
  const bool negative = x.value < 0;
  const Rational mag = abs(x.value);
  const BigInt n = numerator(mag) / denominator(mag);  // floor of the magnitude
  const Rational twice_frac = (mag - Rational(n)) * 2;
  BigInt r = n;
  if (twice_frac != 0) {
    switch (mode) {
      case Rounding::rn: r = twice_frac > 1 || (twice_frac == 1 && n % 2 == 1) ? n + 1 : n; break;
      case Rounding::rna: r = twice_frac >= 1 ? n + 1 : n; break;
      case Rounding::rz: r = n; break;
      case Rounding::rm: r = negative ? n + 1 : n; break;
      case Rounding::rp: r = negative ? n : n + 1; break;
    }
  }
  return encode(negative ? BigInt(-r) : r);
}

Rational largest_finite(const TypeInfo& ti) { return exact_value(ti.type, ti.max_finite()).value; }

}  // namespace

Rational pow2(int e) {
  BigInt one = 1;
  return e >= 0 ? Rational(one << e) : Rational(BigInt(1), one << -e);
}

ExactValue exact_value(Type t, std::uint64_t code) {
  const TypeInfo& ti = info(t);
  if (!ti.is_float) {
    const std::int64_t v = integer_value(t, code);
    return {v == 0 ? FpClass::zero : FpClass::normal, v < 0, Rational(v)};
  }
  const Fields f = decode(t, code);
  ExactValue x{f.cls, f.sign, 0};
  if (f.cls == FpClass::nan || f.cls == FpClass::infinity) return x;
  x.value = Rational(BigInt(f.significand)) * pow2(f.exponent - ti.man_bits);
  if (f.sign) x.value = -x.value;
  return x;
}

std::uint64_t round_exact(Type dst, const ExactValue& x, ConvertFlags f) {
  const TypeInfo& ti = info(dst);
  if (!ti.is_float) return round_exact_integer(ti, x, f.mode);
  if (x.cls == FpClass::nan || x.cls == FpClass::infinity) return special_to(dst, x.cls, x.negative, f);
  const bool negative = x.negative && ti.is_signed;
  const Rational mag = abs(x.value);
  const Rational maxv = largest_finite(ti);
  const auto encode = [&](const Rational& m, bool neg) -> std::uint64_t {
    // m is on the grid: find its code by its binade and fraction.
    std::uint64_t code;
    if (m == 0) {
      code = 0;
    } else {
      const int e = std::max(floor_log2(m), ti.emin());
      const Rational scaled = m / pow2(e - ti.man_bits);  // an integer
      const auto n = static_cast<std::uint64_t>(numerator(scaled));
      if (!ti.has_subnormals)
        code = (static_cast<std::uint64_t>(e + ti.bias) << ti.man_bits) | (n - (1ULL << ti.man_bits));
      else if (n < (1ULL << ti.man_bits))
        code = n;  // subnormal
      else
        code = (static_cast<std::uint64_t>(e + ti.bias) << ti.man_bits) | (n - (1ULL << ti.man_bits));
    }
    return neg && ti.is_signed ? code | ti.sign_bit() : code;
  };
  if (f.relu && x.negative) return 0;
  if (mag == 0) return encode(0, negative);

  // Neighbours lo <= mag < hi on the grid of the binade (unbounded above).
  const int e = std::max(floor_log2(mag), ti.emin());
  const Rational ulp = pow2(e - ti.man_bits);
  const Rational q = mag / ulp;
  const BigInt n = numerator(q) / denominator(q);
  const Rational lo = Rational(n) * ulp, hi = lo + ulp;
  Rational r = lo;
  if (lo != mag) {
    const Rational twice = (mag - lo) * 2;
    const bool up_away = negative ? (f.mode == Rounding::rm) : (f.mode == Rounding::rp);
    switch (f.mode) {
      case Rounding::rn: r = twice > ulp || (twice == ulp && n % 2 == 1) ? hi : lo; break;
      case Rounding::rna: r = twice >= ulp ? hi : lo; break;
      case Rounding::rz: r = lo; break;
      case Rounding::rm:
      case Rounding::rp: r = up_away ? hi : lo; break;
    }
  }
  if (!ti.has_subnormals && r < pow2(ti.emin())) return 0;  // no zero: smallest code
  if (r > maxv) {
    const bool away = f.overflow_to_inf || f.mode == Rounding::rn || f.mode == Rounding::rna ||
                      (f.mode == Rounding::rp && !negative) || (f.mode == Rounding::rm && negative);
    if (f.satfinite || !(away || f.overflow_to_inf)) return encode(maxv, negative);
    if (ti.has_inf) return ti.inf_bits(negative);
    if (ti.nan != NanCode::none) return ti.canonical_nan();
    return encode(maxv, negative);
  }
  return encode(r, negative);
}

std::optional<ExactValue> parse_decimal(std::string_view s) {
  ExactValue x;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    x.negative = s.front() == '-';
    s.remove_prefix(1);
  }
  std::string lower;
  for (char c : s) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "inf" || lower == "infinity") return ExactValue{FpClass::infinity, x.negative, 0};
  if (lower == "nan") return ExactValue{FpClass::nan, x.negative, 0};
  // Bounds keep the exact arithmetic cheap: 4000 digits and a decimal exponent of +-5000 are far
  // beyond any format (an f64 subnormal needs 767 digits, exponents -1074 .. 308).
  constexpr std::size_t kMaxDigits = 4000;
  constexpr long kMaxExp10 = 5000;
  if (s.size() > kMaxDigits + 16) return std::nullopt;
  BigInt digits = 0;
  long exp10 = 0;
  bool any = false, dot = false;
  std::size_t i = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.' && !dot) {
      dot = true;
    } else if (c >= '0' && c <= '9') {
      digits = digits * 10 + (c - '0');
      any = true;
      if (dot) --exp10;
    } else {
      break;
    }
  }
  if (!any) return std::nullopt;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return std::nullopt;
    ++i;
    long e = 0;
    const char* b = s.data() + i;
    const char* end = s.data() + s.size();
    if (b < end && *b == '+') {
      ++b;
      if (b < end && *b == '-') return std::nullopt;  // "1e+-5": from_chars would take the '-'
    }
    auto [p, ec] = std::from_chars(b, end, e);
    if (ec != std::errc() || p != end || e > kMaxExp10 || e < -kMaxExp10) return std::nullopt;
    exp10 += e;
  }
  if (exp10 > kMaxExp10 || exp10 < -kMaxExp10) return std::nullopt;
  BigInt p10 = 1;
  for (long k = 0; k < (exp10 < 0 ? -exp10 : exp10); ++k) p10 *= 10;
  x.value = exp10 >= 0 ? Rational(digits * p10) : Rational(digits, p10);
  x.cls = digits == 0 ? FpClass::zero : FpClass::normal;
  if (x.negative) x.value = -x.value;
  return x;
}

std::string to_decimal(const Rational& x, int max_digits) {
  if (x == 0) return "0";
  std::string sign = x < 0 ? "-" : "";
  Rational m = abs(x);
  // A dyadic rational n / 2^k has exactly k decimal places: n * 5^k / 10^k.
  const BigInt den = denominator(m);
  const long k = static_cast<long>(msb(den));
  if ((BigInt(1) << k) == den) {
    BigInt scaled = numerator(m);
    for (long j = 0; j < k; ++j) scaled *= 5;
    std::string digits = scaled.str();
    std::string trimmed = digits;
    while (trimmed.size() > 1 && trimmed.back() == '0') trimmed.pop_back();
    std::size_t lead = trimmed.find_first_not_of('0');
    if (static_cast<long>(trimmed.size() - lead) <= max_digits) {
      if (k == 0) return sign + digits;
      if (static_cast<long>(digits.size()) <= k) digits.insert(0, static_cast<std::size_t>(k) - digits.size() + 1, '0');
      digits.insert(digits.size() - static_cast<std::size_t>(k), ".");
      while (digits.back() == '0') digits.pop_back();
      if (digits.back() == '.') digits.pop_back();
      return sign + digits;
    }
  }
  // Approximation: 17 significant digits.
  const int e2 = floor_log2(m);
  long e10 = static_cast<long>(e2 * 0.30102999566398120);
  BigInt p10 = 1;
  for (long j = 0; j < (e10 < 0 ? -e10 : e10); ++j) p10 *= 10;
  Rational scaled = e10 >= 0 ? m / Rational(p10) : m * Rational(p10);
  while (scaled >= 10) { scaled /= 10; ++e10; }
  while (scaled < 1) { scaled *= 10; --e10; }
  BigInt p16 = 1;
  for (int j = 0; j < 16; ++j) p16 *= 10;
  const Rational t = scaled * Rational(p16) + Rational(1, 2);
  std::string d = (numerator(t) / denominator(t)).str();
  if (d.size() > 17) { d.pop_back(); ++e10; }
  return sign + d.substr(0, 1) + "." + d.substr(1) + "e" + std::to_string(e10) + " (approx.)";
}

std::string exact_decimal(const Rational& x) {
  const std::string plain = to_decimal(x, std::numeric_limits<int>::max());
  // Far from 1, every digit still, but without the run of zeros: 8.2289...e-58, not 0.000...82289.
  const bool neg = plain.front() == '-';
  const std::string body = plain.substr(neg ? 1 : 0);
  const std::size_t point = std::min(body.find('.'), body.size());
  std::string digits = body.substr(0, point) + (point < body.size() ? body.substr(point + 1) : "");
  const std::size_t lead = digits.find_first_not_of('0');
  if (lead == std::string::npos) return plain;
  const long e10 = static_cast<long>(point) - 1 - static_cast<long>(lead);
  if (e10 >= -6 && e10 < 21) return plain;
  digits = digits.substr(lead);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  return fmt::format("{}{}{}{}e{}", neg ? "-" : "", digits.front(), digits.size() > 1 ? "." : "", digits.substr(1), e10);
}

std::string exact_text(Type t, std::uint64_t code) {
  const ExactValue x = exact_value(t, code);
  switch (x.cls) {
    case FpClass::nan: return "NaN";
    case FpClass::infinity: return x.negative ? "-Inf" : "+Inf";
    case FpClass::zero: return x.negative ? "-0" : "0";
    default: return exact_decimal(x.value);
  }
}

}  // namespace ptxmma
