// Register values as text, both ways: a view of a register as elements of a type ("f16x2",
// "e4m3x4", "s32", "e2m1", ...) for display, and typed or hex text to bits for initial states.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/ptx_types.hpp"
#include "sim/numeric/exact.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

struct ValueView {
  enum class Kind : std::uint8_t { pred, bits, unsigned_int, signed_int, floating };
  Kind kind = Kind::bits;
  std::string name;      // "f16x2", "e4m3x4", "u32", ...
  Type elem = Type::f32; // floating: the element format
  int container = 32;    // bits per element in the register
  int count = 1;         // elements per register
};

// The view of a `width`-bit register named by `spec` (a PTX type such as f32, f16x2, e4m3x2,
// s32, b64; an element format with a count such as e4m3x4, e2m1x8, s8x4, u4x8; or an element
// format alone, repeated to fill the register: e4m3, bf16). Error if it does not fit `width`.
ValueView parse_view(std::string_view spec, int width);
// The view a register's declared type implies.
ValueView default_view(ptx::PtxType declared);

// "0-3,8" -> the mask of lanes 0, 1, 2, 3 and 8; nullopt unless every part is a lane (0..31)
// or an ascending range of lanes.
std::optional<std::uint32_t> lane_mask(std::string_view text);

// "0x3c004000" or "1" (pred); `width` sets the hex digits.
std::string hex_text(std::uint64_t bits, int width);
// The typed part: "1.5", "(1, 2)" for several elements (element 0, the low bits, first), "-7".
std::string typed_text(std::uint64_t bits, int width, const ValueView& view);

// Text -> the bits of a `width`-bit register declared `declared`:
//   0x... (the bits), an integer (two's complement for negatives), a decimal number (rounded .rn
//   into a float register's type), true/false for predicates, or "TYPE v0 v1 ..." with values
//   per element of the view TYPE (element 0 in the low bits; each value a number or 0x code).
// Error messages say what is wrong with `text`.
std::uint64_t parse_value_text(std::string_view text, int width, ptx::PtxType declared);

// `x` rounded (.rn) to an element of format `t`; a finite `x` past its range is an Error
// ("value TEXT is out of range for f16 (largest finite 65504)"), as in `ptxmma format`, not
// silently Inf or NaN. `text` names the value.
std::uint64_t round_in_range(Type t, const ExactValue& x, std::string_view text);

}  // namespace ptxmma
