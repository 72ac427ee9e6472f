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

inline std::uint32_t apply(const SpecialTable& t, const SpecialKey& k) {
  if (k.direct) return k.result;
  std::uint32_t e = t[k.index];
  if (k.exp_shift != 0) {
    const std::int32_t biased = static_cast<std::int32_t>((e >> 23) & 0xff) + k.exp_shift;
    if (biased >= 255)
      e = (e & kF32Sign) | kF32Inf;
    else if (biased <= 0)
      e &= kF32Sign;  // the hardware flushes a subnormal result to zero
    else
      e += static_cast<std::uint32_t>(k.exp_shift) << 23;
  }
  return k.negate ? e ^ kF32Sign : e;
}

// The entry that gives `out` under `k`; false where `out` does not determine it (a flushed or
// saturated result, or a key that does not read the table).
inline bool entry_for(const SpecialKey& k, std::uint32_t out, std::uint32_t& entry) {
  if (k.direct) return false;
  const std::uint32_t o = k.negate ? out ^ kF32Sign : out;
  if (k.exp_shift == 0) {
    entry = o;
    return true;
  }
  const std::int32_t biased = static_cast<std::int32_t>((o >> 23) & 0xff);
  if (biased == 0 || biased == 255) return false;
  const std::int32_t eb = biased - k.exp_shift;
  if (eb <= 0 || eb >= 255) return false;
  entry = o - (static_cast<std::uint32_t>(k.exp_shift) << 23);
  return true;
}

}  // namespace ptxmma
