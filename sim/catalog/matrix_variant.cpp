#include "sim/catalog/matrix_variant.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>

namespace ptxmma {

std::optional<Shape> parse_shape(std::string_view text) {
  Shape s;
  std::array<int*, 3> dims = {&s.m, &s.n, &s.k};
  constexpr std::string_view letters = "mnk";
  std::size_t p = 0;
  for (int d = 0; d < 3; ++d) {
    if (p >= text.size() || text[p] != letters[static_cast<std::size_t>(d)]) return std::nullopt;
    ++p;
    const auto [end, ec] = std::from_chars(text.data() + p, text.data() + text.size(), *dims[static_cast<std::size_t>(d)]);
    if (ec != std::errc() || end == text.data() + p || *dims[static_cast<std::size_t>(d)] <= 0) return std::nullopt;
    p = static_cast<std::size_t>(end - text.data());
  }
  if (p != text.size()) return std::nullopt;
  return s;
}

std::string shape_name(const Shape& s) { return fmt::format("m{}n{}k{}", s.m, s.n, s.k); }

}  // namespace ptxmma
