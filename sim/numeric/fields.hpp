// Decoding an encoding into sign, exponent, integer significand and class.
#pragma once
#include <cstdint>
#include <string_view>

#include "sim/numeric/type.hpp"

namespace ptxmma {

enum class FpClass : std::uint8_t { zero, subnormal, normal, infinity, nan };
std::string_view name(FpClass c);

// value = (-1)^sign * significand * 2^(exponent - man_bits)   (finite classes)
struct Fields {
  bool sign = false;
  std::uint32_t biased_exp = 0;
  int exponent = 0;               // unbiased; subnormals and zero report emin
  std::uint64_t fraction = 0;     // the stored fraction field
  std::uint64_t significand = 0;  // fraction with the hidden bit of normals
  FpClass cls = FpClass::zero;
};

// `code` is the encoding in the format's own bits (see TypeInfo::bits), floating types only.
Fields decode(Type t, std::uint64_t code);

// Integer types: the two's-complement or unsigned value of the low `bits` of `code`.
std::int64_t integer_value(Type t, std::uint64_t code);

// A container (register bits as the hardware sees them) to the format's code and back.
// Only tf32 differs: its code is bits [31:13] of the b32.
constexpr std::uint64_t code_of(const TypeInfo& ti, std::uint64_t container) {
  return (container >> ti.shift) & ti.mask();
}
constexpr std::uint64_t container_of(const TypeInfo& ti, std::uint64_t code) { return code << ti.shift; }

}  // namespace ptxmma
