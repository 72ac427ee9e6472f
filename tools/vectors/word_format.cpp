#include "tools/vectors/word_format.hpp"

#include <fmt/format.h>

#include "sim/exec/mma.hpp"
#include "sim/numeric/exact.hpp"

namespace ptxmma {

std::string format_value(Type t, std::uint64_t code) {
  const ExactValue x = exact_value(t, code);
  switch (x.cls) {
    case FpClass::nan: return "NaN";
    case FpClass::infinity: return x.negative ? "-Inf" : "+Inf";
    case FpClass::zero: return x.negative ? "-0" : "0";
    default: return to_decimal(x.value, 12);
  }
}

std::string format_words(Type t, Container c, const std::vector<std::uint32_t>& words) {
  std::string out;
  const int bits = element_bits(t, c);
  if (bits == 64) {
    for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
      const std::uint64_t v = words[i] | (static_cast<std::uint64_t>(words[i + 1]) << 32);
      out += fmt::format("{}0x{:016x} ({})", out.empty() ? "" : "  ", v, format_value(t, v));
    }
    return out;
  }
  for (const std::uint32_t w : words) {
    out += fmt::format("{}0x{:08x} (", out.empty() ? "" : "  ", w);
    for (int e = 0; e < 32 / bits; ++e) {
      const std::uint32_t raw = get_element(w, bits, e);
      if (t == Type::b1) {
        out += raw ? "1" : "0";
        continue;
      }
      out += (e ? ", " : "") + format_value(t, element_code(t, c, raw));
    }
    out += ")";
  }
  return out;
}

}  // namespace ptxmma
