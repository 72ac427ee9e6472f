// The 32-bit instruction descriptor of tcgen05.mma (PTX ISA §9.7.16.4.2, Table 42, for .kind::f16
// and .kind::tf32; docs/tcgen05.md §6), decoded field by field and checked against the kind and
// .cta_group::1: what ptxmma runs.
#pragma once
#include <cstdint>
#include <string>

#include "sim/numeric/type.hpp"

namespace ptxmma {

enum class Tcgen05Kind : std::uint8_t { f16, tf32 };

struct InstrDescriptor {
  std::uint32_t raw = 0;
  Type a = Type::f16, b = Type::f16, d = Type::f32;
  bool negate_a = false, negate_b = false;
  bool transpose_a = false, transpose_b = false;  // MN-major A / B
  int m = 0, n = 0;

  // Error naming the field and its bits for anything ptxmma does not run or the PTX ISA does not
  // allow: sparsity (bits 2:0), saturate (3), a D type (5:4) other than f32 (or f16 with f16
  // A and B under kind::f16), A/B types (9:7, 12:10) other than the kind's (f16/bf16, both the
  // same; tf32), reserved bits 6, 23, 29, the .ws shift (31:30), M (28:24, M >> 4) other than
  // 64 or 128, N (22:17, N >> 3) outside 8..256.
  static InstrDescriptor decode(std::uint32_t raw, Tcgen05Kind kind);
  // "M 128, N 64, A f16, B f16, D f32, A K-major, B K-major"
  [[nodiscard]] std::string text() const;
};

}  // namespace ptxmma
