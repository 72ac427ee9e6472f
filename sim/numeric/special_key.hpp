// How a table-driven special function reads its table for one f32 input: the result is a table
// entry moved by a whole number of binades and perhaps negated, or a result fixed without the
// table (zeros, infinities, NaN). The same key turns a captured output back into its entry.
#pragma once
#include <cstdint>

#include "sim/numeric/special_table.hpp"

namespace ptxmma {

struct SpecialKey {
  bool direct = false;         // the result is `result`; the table is not read
  std::uint32_t result = 0;
  std::uint32_t index = 0;
  std::int32_t exp_shift = 0;  // binades added to the entry; out of range flushes to 0 or gives inf
  bool negate = false;

  static SpecialKey fixed(std::uint32_t bits) { return {true, bits, 0, 0, false}; }
};

inline constexpr std::uint32_t kF32Sign = 0x80000000u;
inline constexpr std::uint32_t kF32Inf = 0x7f800000u;
inline constexpr std::uint32_t kF32NaN = 0x7fffffffu;  // the NaN every special function returns
inline constexpr std::uint32_t kF64HighInf = 0x7ff00000u;  // high words of f64 results (MUFU.*64H)
inline constexpr std::uint32_t kF64HighNaN = 0x7fffffffu;

// Where a result word keeps its exponent: an f32, or the high word of an f64 (the MUFU.*64H units).
struct ExponentField {
  unsigned shift = 23;
  std::int32_t max = 0xff;
};
inline constexpr ExponentField kF32Exponent{23, 0xff};
inline constexpr ExponentField kF64HighExponent{20, 0x7ff};

inline std::uint32_t apply(const SpecialTable& t, const SpecialKey& k, ExponentField f = kF32Exponent) {
  if (k.direct) return k.result;
  std::uint32_t e = t[k.index];
  if (k.exp_shift != 0) {
    const std::int32_t biased = static_cast<std::int32_t>((e >> f.shift) & static_cast<std::uint32_t>(f.max)) + k.exp_shift;
    if (biased >= f.max)
      e = (e & kF32Sign) | (static_cast<std::uint32_t>(f.max) << f.shift);
    else if (biased <= 0)
      e &= kF32Sign;  // the hardware flushes a subnormal result to zero
    else
      e += static_cast<std::uint32_t>(k.exp_shift) << f.shift;
  }
  return k.negate ? e ^ kF32Sign : e;
}

// The entry that gives `out` under `k`; false where `out` does not determine it (a flushed or
// saturated result, or a key that does not read the table).
inline bool entry_for(const SpecialKey& k, std::uint32_t out, std::uint32_t& entry, ExponentField f = kF32Exponent) {
  if (k.direct) return false;
  const std::uint32_t o = k.negate ? out ^ kF32Sign : out;
  if (k.exp_shift == 0) {
    entry = o;
    return true;
  }
  const std::int32_t biased = static_cast<std::int32_t>((o >> f.shift) & static_cast<std::uint32_t>(f.max));
  if (biased == 0 || biased == f.max) return false;
  const std::int32_t eb = biased - k.exp_shift;
  if (eb <= 0 || eb >= f.max) return false;
  entry = o - (static_cast<std::uint32_t>(k.exp_shift) << f.shift);
  return true;
}

}  // namespace ptxmma
