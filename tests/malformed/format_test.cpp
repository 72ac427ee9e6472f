// Malformed numbers of `ptxmma format TYPE VALUE` (tools/vectors/format_value.hpp) and of
// register values in initial states and test vectors (tools/vectors/value_text.hpp).
#include <gtest/gtest.h>

#include <sstream>

#include "tests/malformed/malformed.hpp"
#include "tools/vectors/format_value.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma::malformed {
namespace {

// "TYPE VALUE" -> the error of parse_format_value.
std::string format_error(const std::string& input) {
  const std::size_t sp = input.find(' ');
  std::ostringstream notes;
  return error_of([&] { (void)parse_format_value(info(*parse_type(input.substr(0, sp))), input.substr(sp + 1), notes); });
}

TEST(Malformed, FormatNumbers) {
  const std::vector<Bad> bad = {
      {"bad hex digit", "f16 0x3g00", "malformed hex value '0x3g00'"},
      {"hex too wide", "f16 0x10000", "value '0x10000' does not fit in the 16 bits of f16"},
      {"hex wider than 64 bits", "f64 0x10000000000000000", "malformed hex value '0x10000000000000000'"},
      {"not a number", "f32 one", "malformed number 'one' (expected 0x<hex bits> or a decimal number)"},
      {"truncated exponent", "f32 1e", "malformed number '1e' (expected 0x<hex bits> or a decimal number)"},
      {"two signs", "f32 --1", "malformed number '--1' (expected 0x<hex bits> or a decimal number)"},
      {"two points", "f32 1.2.3", "malformed number '1.2.3' (expected 0x<hex bits> or a decimal number)"},
      {"exponent out of range", "f32 1e99999", "malformed number '1e99999' (expected 0x<hex bits> or a decimal number)"},
      {"too many digits", "f32 " + std::string(5000, '1'),
       "malformed number '" + std::string(5000, '1') + "' (expected 0x<hex bits> or a decimal number)"},
      {"overflow", "f16 65520", "value 65520 is out of range for f16 (largest finite 65504)"},
      {"overflow of a format without inf", "e4m3 480", "value 480 is out of range for e4m3 (largest finite 448)"},
      {"no infinity", "e4m3 inf", "e4m3 has no infinity"},
      {"no NaN", "e2m1 nan", "e2m1 has no NaN"},
      {"negative into unsigned", "ue8m0 -1", "ue8m0 is unsigned: '-1' is out of range"},
      {"integer out of range", "s8 128", "value 128 is out of range for s8 [-128, 127]"},
      {"negative unsigned integer", "u4 -1", "value -1 is out of range for u4 [0, 15]"},
      {"fraction for an integer", "s32 1.5", "'1.5' is not an integer, as s32 requires"},
      {"NaN for an integer", "s32 nan", "'nan' is not an integer, as s32 requires"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    EXPECT_EQ(format_error(b.input), b.error);
  }
}

// "WIDTH DECLARED TEXT" -> the error of parse_value_text.
TEST(Malformed, RegisterValues) {
  struct Case {
    int width;
    ptx::PtxType declared;
    std::string text, error;
  };
  const std::vector<Case> bad = {
      {32, ptx::PtxType::b32, "", "empty value"},
      {32, ptx::PtxType::b32, "0x1ffffffff", "'0x1ffffffff' does not fit in 32 bits"},
      {32, ptx::PtxType::s32, "2147483648", "2147483648 is out of range for 32 bits"},
      {32, ptx::PtxType::u32, "nan", "'nan' is not an integer"},
      {32, ptx::PtxType::f16x2, "1.5", "'1.5': a .f16x2 register takes 2 values, e.g. 'f16x2 1 2'"},
      {32, ptx::PtxType::b32, "f16x2 1", "'f16x2 1': f16x2 takes 2 values, found 1"},
      {32, ptx::PtxType::b32, "f16x4 1 2 3 4", "'f16x4': f16 elements do not fit in 8 bits"},
      {32, ptx::PtxType::b32, "f17 1", "unknown type 'f17' (a PTX type such as f32, f16x2, e4m3x2, s32, or an element type with a count such as e4m3x4, e2m1x8)"},
      {32, ptx::PtxType::b32, "1 2", "'1 2': several values need a type first, e.g. 'f16x2 1 2'"},
      {1, ptx::PtxType::pred, "2", "'2' is not a predicate value (0, 1, true, false)"},
      {16, ptx::PtxType::b16, "e4m3x2 1 inf", "e4m3 has no infinity"},
      {64, ptx::PtxType::f64, "1e400000", "malformed number '1e400000'"},
  };
  for (const Case& c : bad) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(error_of([&] { (void)parse_value_text(c.text, c.width, c.declared); }), c.error);
  }
}

}  // namespace
}  // namespace ptxmma::malformed
