// The VALUE of `ptxmma format TYPE VALUE`: 0x... are the container's bits; anything else is a
// decimal number (or inf, nan) rounded (rn) into TYPE, refused when out of TYPE's range.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

#include "sim/numeric/type.hpp"

namespace ptxmma {

// The code of `text` in `ti`; Error "malformed number '...'", "value ... is out of range for ...".
// Notes that are not errors (an inexact decimal, tf32's ignored low bits) go to `notes`.
std::uint64_t parse_format_value(const TypeInfo& ti, const std::string& text, std::ostream& notes);

}  // namespace ptxmma
