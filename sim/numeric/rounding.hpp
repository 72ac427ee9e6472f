// Rounding an exact value into a format under the PTX rules: cvt, the other instructions' results
// and the reference engines of sim/model/dot.cpp round here. The fixed-point tile loops
// (sim/model/block_tile.cpp, round_sum) round their block sums themselves, to the same rules, and
// tests/model/tile_test.cpp holds them to dot().
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/numeric/fields.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

__extension__ typedef unsigned __int128 u128;  // GCC/Clang: exact 128-bit significands

enum class Rounding : std::uint8_t { rn, rna, rz, rm, rp };
std::optional<Rounding> parse_rounding(std::string_view s);  // "rn", ".rn", "rna", ...
std::string_view name(Rounding r);

// PTX conversion qualifiers (docs/numerics.md §1.3).
struct ConvertFlags {
  Rounding mode = Rounding::rn;
  bool satfinite = false;
  bool relu = false;
  // Tensor-core results: a finite overflow gives Inf whatever the rounding direction.
  bool overflow_to_inf = false;
};

// value = (-1)^sign * (sig + f) * 2^exp, where 0 <= f < 1 and sticky == (f != 0).
struct Unrounded {
  bool sign = false;
  int exp = 0;
  u128 sig = 0;
  bool sticky = false;
};

// Rounds a finite value to the floating-point format `dst` and returns its code (format bits).
// Overflow, underflow, .satfinite and .relu follow PTX cvt (docs/numerics.md §1.3); unsigned formats
// (ue8m0, ue4m3) take the magnitude, and ue8m0, which has no zero, clamps to its smallest code.
std::uint64_t round_to(Type dst, const Unrounded& v, ConvertFlags f);

// The result of converting an infinity or NaN into `dst`.
std::uint64_t special_to(Type dst, FpClass cls, bool sign, ConvertFlags f);

// Rounds a finite value to an integer type (saturating, as PTX cvt to integers does).
std::uint64_t round_to_integer(Type dst, const Unrounded& v, Rounding mode);

// cvt: `code` in format `src` (format bits, not container) to format `dst`.
// A NaN of f16/bf16/tf32/f32/f64 keeps its sign and payload (quietened) when `dst` is an IEEE format
// with at least as many fraction bits (unverified on hardware); every other NaN, e5m2 ones included
// (docs/numerics.md §1.6), becomes the canonical NaN of `dst` (+MAX_NORM for FP6/FP4, which have no NaN).
// Integer destinations: NaN -> 0, +-Inf and out-of-range values saturate.
std::uint64_t convert(Type src, std::uint64_t code, Type dst, ConvertFlags f);

}  // namespace ptxmma
