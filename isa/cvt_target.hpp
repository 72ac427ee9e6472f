// The first target that has a form of cvt, from the PTX ISA's cvt "Target ISA notes"
// (docs/numerics.md §1.3): shared by the PTX decoder and `ptxmma format --arch`.
#pragma once
#include <optional>
#include <string_view>

#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

struct CvtForm {
  std::optional<Type> to, from;  // element formats; nullopt for an integer or bit-size type
  std::optional<Rounding> rounding;
  bool relu = false, satfinite = false;
  bool two_sources = false;  // cvt.f16x2.f32 d, a, b and the other packing forms
};

std::string_view cvt_min_target(const CvtForm& f);

}  // namespace ptxmma
