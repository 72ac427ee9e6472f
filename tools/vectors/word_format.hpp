// Register words shown as hex and as the values of their elements.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/numeric/packing.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

// "0x3c004000 (2, 1)": each word, then its elements low to high. A 64-bit type takes two words.
std::string format_words(Type t, Container c, const std::vector<std::uint32_t>& words);
// One element's value as text: "1.5", "-0", "NaN", "+Inf", "-3".
std::string format_value(Type t, std::uint64_t code);

}  // namespace ptxmma
