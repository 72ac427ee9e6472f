// Small text helpers shared by the instruction decoders (mma, wgmma): splitting qualifier
// strings and wording lists in error messages.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma {

// "a.b.c" -> {"a", "b", "c"}; empty pieces are kept.
std::vector<std::string_view> split(std::string_view s, char sep = '.');
// Without surrounding white space and a trailing ';'.
std::string_view trim(std::string_view s);
// "a", "a or b", "a, b or c".
std::string one_of(const std::vector<std::string>& v);
// "a, b, c".
std::string all_of(const std::vector<std::string>& v);
// Appends s unless it is there already.
void add_unique(std::vector<std::string>& v, std::string s);

}  // namespace ptxmma
