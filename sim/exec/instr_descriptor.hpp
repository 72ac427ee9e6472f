// The 32-bit instruction descriptor of tcgen05.mma (PTX ISA §9.7.16.4.2, Table 42, for .kind::f16,
// .kind::tf32, .kind::f8f6f4 and .kind::i8; docs/tcgen05.md §6), decoded field by field and
// checked against the kind and .cta_group::1: what ptxmma runs.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "sim/numeric/type.hpp"

namespace ptxmma {

enum class Tcgen05Kind : std::uint8_t { f16, tf32, f8f6f4, i8 };

const char* name(Tcgen05Kind k);  // "kind::f16"
int tcgen05_k(Tcgen05Kind k);      // K of one dense MMA: 16, 8, 32, 32

struct InstrDescriptor {
  std::uint32_t raw = 0;
  Type a = Type::f16, b = Type::f16, d = Type::f32;
  bool negate_a = false, negate_b = false;
  bool transpose_a = false, transpose_b = false;  // MN-major A / B
  bool saturate = false;                          // kind::i8: D clamped to s32
  int m = 0, n = 0;

  // Error naming the field and its bits for anything ptxmma does not run or the PTX ISA does not
  // allow: sparsity (bits 2:0), saturate (3) outside kind::i8, a D type (5:4) the kind does not
  // have (f32 1; f16 0 under kind::f16 with f16 A and B and under kind::f8f6f4; s32 2 under
  // kind::i8), A/B types (9:7, 12:10) other than the kind's (f16/bf16, both the same; tf32;
  // e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5, A and B independently; u8 0, s8 1), negation under
  // kind::i8, reserved bits 6, 23, 29, the .ws shift (31:30), M (28:24, M >> 4) other than 64 or
  // 128, N (22:17, N >> 3) outside 8..256 (kind::i8: 8, 16, 24, then steps of 16).
  static InstrDescriptor decode(std::uint32_t raw, Tcgen05Kind kind);
  // "M 128, N 64, A f16, B f16, D f32, A K-major, B K-major"
  [[nodiscard]] std::string text() const;
};

}  // namespace ptxmma
