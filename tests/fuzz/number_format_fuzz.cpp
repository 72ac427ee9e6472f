// libFuzzer target: number text, as `ptxmma format TYPE VALUE` reads it
// (tools/vectors/format_value.hpp) and as register values, views and lane lists of initial
// states and test vectors are read (tools/vectors/value_text.hpp). The input is "TYPE VALUE".
// Besides crashes it checks one answer: a code printed exactly reads back as the same code.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "isa/ptx_types.hpp"
#include "sim/error.hpp"
#include "sim/numeric/exact.hpp"
#include "tools/vectors/format_value.hpp"
#include "tools/vectors/value_text.hpp"

namespace {

// The exact decimal of `code` ("-0", "inf", "1.5", ...); empty for NaN (no single code).
std::string exact_text(const ptxmma::TypeInfo& ti, std::uint64_t code) {
  const ptxmma::ExactValue x = ptxmma::exact_value(ti.type, code);
  switch (x.cls) {
    case ptxmma::FpClass::nan: return "";
    case ptxmma::FpClass::infinity: return x.negative ? "-inf" : "inf";
    case ptxmma::FpClass::zero: return x.negative ? "-0" : "0";
    default: return ptxmma::to_decimal(x.value, 2000);
  }
}

void format_value(const std::string& type, const std::string& value) {
  const auto t = ptxmma::parse_type(type);
  if (!t) return;
  const ptxmma::TypeInfo& ti = ptxmma::info(*t);
  std::ostringstream notes;
  const std::uint64_t code = ptxmma::parse_format_value(ti, value, notes);
  if (ti.type == ptxmma::Type::b1) return;
  const std::string text = exact_text(ti, code);
  if (!text.empty() && ptxmma::parse_format_value(ti, text, notes) != code) __builtin_trap();
}

void register_value(const std::string& type, const std::string& value) {
  const auto t = ptxmma::ptx::parse_ptx_type(type);
  if (!t || !ptxmma::ptx::declarable(*t)) return;
  (void)ptxmma::parse_value_text(value, ptxmma::ptx::bits(*t), *t);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t space = input.find_first_of(" \n");
  const std::string type = input.substr(0, space);
  const std::string value = space == std::string::npos ? "" : input.substr(space + 1);
  const auto guarded = [](auto&& f) {
    try {
      f();
    } catch (const ptxmma::Error&) {
    }
  };
  guarded([&] { format_value(type, value); });
  guarded([&] { register_value(type, value); });
  for (const int width : {1, 8, 16, 32, 64}) guarded([&] { (void)ptxmma::parse_view(type, width); });
  (void)ptxmma::lane_mask(value);
  return 0;
}
