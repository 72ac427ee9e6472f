// Elements inside 32-bit registers, and the packed forms of cvt (docs/numerics.md §1.2, §1.4).
#pragma once
#include <cstdint>

#include "sim/numeric/type.hpp"

namespace ptxmma {

// Element i of a register holding 32/width elements, element 0 in the low bits.
constexpr std::uint32_t get_element(std::uint32_t reg, int width, int i) {
  const std::uint32_t mask = width == 32 ? ~0U : (1U << width) - 1;
  return (reg >> (width * i)) & mask;
}
constexpr std::uint32_t set_element(std::uint32_t reg, int width, int i, std::uint32_t v) {
  const std::uint32_t mask = width == 32 ? ~0U : (1U << width) - 1;
  const int s = width * i;
  return (reg & ~(mask << s)) | ((v & mask) << s);
}

// How an FP6/FP4 element sits in a byte.
enum class Container : std::uint8_t {
  packed,   // the code as is: e2m1 nibbles under kind::mxf4/mxf4nvf4, FP8 bytes
  f8f6f4,   // kind::f8f6f4 / mxf8f6f4: e2m1 in bits [5:2], e3m2/e2m3 in bits [5:0]
};

constexpr int container_shift(Type t, Container c) { return c == Container::f8f6f4 && t == Type::e2m1 ? 2 : 0; }
inline std::uint32_t from_container(Type t, Container c, std::uint32_t byte) {
  return (byte >> container_shift(t, c)) & static_cast<std::uint32_t>(info(t).mask());
}
inline std::uint32_t to_container(Type t, Container c, std::uint32_t code) {
  return (code & static_cast<std::uint32_t>(info(t).mask())) << container_shift(t, c);
}

// cvt with two sources `d, a, b`: a goes to the high element, b to the low one.
//   f16x2/bf16x2: a -> [31:16]; e4m3x2/e5m2x2/ue8m0x2: a -> [15:8]; e2m1x2: a -> [7:4];
//   e2m3x2/e3m2x2: a -> [13:8] with zero bits [15:14] and [7:6].
constexpr int pair_stride(Type t) {
  switch (t) {
    case Type::f16:
    case Type::bf16: return 16;
    case Type::e2m1: return 4;
    default: return 8;
  }
}
inline std::uint32_t pack_pair(Type t, std::uint32_t a_code, std::uint32_t b_code) {
  const int s = pair_stride(t);
  const auto m = static_cast<std::uint32_t>(info(t).mask());
  return ((a_code & m) << s) | (b_code & m);
}
inline std::uint32_t pair_high(Type t, std::uint32_t packed) {
  return (packed >> pair_stride(t)) & static_cast<std::uint32_t>(info(t).mask());
}
inline std::uint32_t pair_low(Type t, std::uint32_t packed) {
  return packed & static_cast<std::uint32_t>(info(t).mask());
}

}  // namespace ptxmma
