#include "sim/numeric/sine_cosine.hpp"

#include "sim/numeric/exp2.hpp"
#include "sim/numeric/f32_bits.hpp"

namespace ptxmma {

namespace {

constexpr std::uint32_t kInverseTwoPi = 0x3e22f983u;  // the constant of ptxas's FMUL.RZ

// The turn's fraction MUFU reads: the fraction_bits bits of |r| below the binary point. From
// |r| = 2^23 on r is a whole number of turns.
std::uint32_t turn_fraction(std::uint32_t r, unsigned fraction_bits) {
  if (((r >> 23) & 0xff) >= 150) return 0;
  return static_cast<std::uint32_t>(f32_fixed_point(r, fraction_bits) & ((std::uint64_t{1} << fraction_bits) - 1));
}

SpecialKey trig_key(std::uint32_t x, unsigned index_bits, bool odd) {
  if (f32_is_nan(x) || (x & 0x7fffffffu) == kF32Inf) return SpecialKey::fixed(kF32NaN);
  const std::uint32_t r = fmul_rz(x, kInverseTwoPi);
  return {false, 0, turn_fraction(r, index_bits), 0, odd && (r & kF32Sign) != 0};
}

}  // namespace

SpecialKey sin_approx_key(std::uint32_t x, unsigned index_bits) { return trig_key(x, index_bits, true); }
SpecialKey cos_approx_key(std::uint32_t x, unsigned index_bits) { return trig_key(x, index_bits, false); }

}  // namespace ptxmma
