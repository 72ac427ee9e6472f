// One legal warp-level mma variant as the catalogue (configs/mma/variants.yaml) describes it.
#pragma once
#include <string>

#include "sim/layout/fragment_layout.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

struct Shape {
  int m = 0, n = 0, k = 0;
  friend bool operator==(const Shape&, const Shape&) = default;
};

enum class MatrixLayout : std::uint8_t { row, col };
enum class BitOp : std::uint8_t { none, xor_popc, and_popc };

struct MmaVariant {
  Shape shape;
  Type a = Type::f16, b = Type::f16, c = Type::f32, d = Type::f32;
  MatrixLayout alayout = MatrixLayout::row, blayout = MatrixLayout::col;
  BitOp bitop = BitOp::none;
  Container container = Container::packed;   // how FP6/FP4 elements sit in their bytes
  // Fragment layouts (owned by the catalogue).
  const FragmentLayout* la = nullptr;
  const FragmentLayout* lb = nullptr;
  const FragmentLayout* lc = nullptr;
  const FragmentLayout* ld = nullptr;
  std::string family;       // machine path, keys the rounding model: e.g. "hmma", "fp8_via_hmma", "dmma"
  std::string min_target;   // e.g. "sm_80"
  std::string ptx_version;  // e.g. "7.0"
};

}  // namespace ptxmma
