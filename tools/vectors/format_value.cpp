#include "tools/vectors/format_value.hpp"

#include <fmt/format.h>

#include <charconv>

#include "sim/error.hpp"
#include "sim/numeric/exact.hpp"

namespace ptxmma {

std::uint64_t parse_format_value(const TypeInfo& ti, const std::string& text, std::ostream& notes) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    std::uint64_t bits = 0;
    const char* b = text.data() + 2;
    const char* e = text.data() + text.size();
    auto [p, ec] = std::from_chars(b, e, bits, 16);
    if (ec != std::errc() || p != e) throw Error(fmt::format("malformed hex value '{}'", text));
    const int width = ti.type == Type::tf32 ? 32 : ti.bits;
    if (width < 64 && (bits >> width) != 0)
      throw Error(fmt::format("value '{}' does not fit in the {} bits of {}", text, width, ti.name));
    if (ti.type == Type::tf32 && (bits & 0x1fff) != 0)
      notes << fmt::format("note: bits [12:0] = 0x{:x} are not part of tf32; tensor cores ignore them\n",
                        bits & 0x1fff);
    return code_of(ti, bits);
  }
  const auto x = parse_decimal(text);
  if (!x) throw Error(fmt::format("malformed number '{}' (expected 0x<hex bits> or a decimal number)", text));
  if (!ti.is_float) {
    if (x->cls == FpClass::nan || x->cls == FpClass::infinity || denominator(x->value) != 1)
      throw Error(fmt::format("'{}' is not an integer, as {} requires", text, ti.name));
    const auto lo = ti.is_signed ? -(BigInt(1) << (ti.bits - 1)) : BigInt(0);
    const auto hi = ti.is_signed ? (BigInt(1) << (ti.bits - 1)) - 1 : (BigInt(1) << ti.bits) - 1;
    const BigInt v = numerator(x->value);
    if (v < lo || v > hi)
      throw Error(fmt::format("value {} is out of range for {} [{}, {}]", text, ti.name, lo.str(), hi.str()));
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) & ti.mask();
  }
  if (x->cls == FpClass::infinity && !ti.has_inf) throw Error(fmt::format("{} has no infinity", ti.name));
  if (x->cls == FpClass::nan && ti.nan == NanCode::none) throw Error(fmt::format("{} has no NaN", ti.name));
  if (x->negative && !ti.is_signed && x->cls != FpClass::nan)
    throw Error(fmt::format("{} is unsigned: '{}' is out of range", ti.name, text));
  const std::uint64_t code = round_exact(ti.type, *x, ConvertFlags{});
  const ExactValue got = exact_value(ti.type, code);
  if (x->cls != FpClass::nan && x->cls != FpClass::infinity) {
    // Out of range: rounding to nearest on an unbounded exponent range goes past MAX_NORM
    // (past the midpoint to the next step, or onto it when MAX_NORM's code is odd).
    const Rational max = exact_value(ti.type, ti.max_finite()).value;
    const Rational mid = max + pow2(decode(ti.type, ti.max_finite()).exponent - ti.man_bits) / 2;
    const Rational mag = abs(x->value);
    if (mag > mid || (mag == mid && (ti.max_finite() & 1)))
      throw Error(fmt::format("value {} is out of range for {} (largest finite {})", text, ti.name, to_decimal(max)));
    if (got.value != x->value) notes << fmt::format("note: {} is not representable; rounded (rn) to nearest\n", text);
  }
  return code;
}

}  // namespace ptxmma
