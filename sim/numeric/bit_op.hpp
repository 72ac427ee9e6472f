// The bit operation of a single-bit (b1) matrix product: each product is `a AND b` or `a XOR b`
// of one bit, and the dot product counts the ones (popc).
#pragma once
#include <cstdint>
#include <string_view>

namespace ptxmma {

enum class BitOp : std::uint8_t { none, xor_popc, and_popc };

constexpr std::string_view name(BitOp op) {
  return op == BitOp::xor_popc ? "xor.popc" : op == BitOp::and_popc ? "and.popc" : "";
}

}  // namespace ptxmma
