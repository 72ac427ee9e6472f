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

// Bits an element takes in a register or in shared memory, the one width every operand user
// computes: tf32 a whole b32; FP6 a byte; FP4 a byte under kind::f8f6f4, else a nibble.
inline int element_bits(Type t, Container c = Container::packed) {
  switch (t) {
    case Type::e2m1: return c == Container::f8f6f4 ? 8 : 4;
    case Type::e3m2:
    case Type::e2m3: return 8;
    case Type::tf32: return 32;
    default: return info(t).bits;
  }
}
// Elements one register holds (a 64-bit register: one f64).
inline int elements_per_register(Type t, Container c = Container::packed) {
  const int bits = element_bits(t, c);
  return bits >= 32 ? 1 : 32 / bits;
}
constexpr bool in_container(Type t) { return t == Type::e2m1 || t == Type::e3m2 || t == Type::e2m3; }
// An element's format code from its element_bits() bits, and back: FP6/FP4 leave (enter) their
// container, tf32 its b32 (TypeInfo::shift).
inline std::uint64_t element_code(Type t, Container c, std::uint64_t raw) {
  if (in_container(t)) return from_container(t, c, static_cast<std::uint32_t>(raw));
  const TypeInfo& ti = info(t);
  return (raw >> ti.shift) & ti.mask();
}
inline std::uint64_t element_raw(Type t, Container c, std::uint64_t code) {
  if (in_container(t)) return to_container(t, c, static_cast<std::uint32_t>(code));
  return code << info(t).shift;
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
