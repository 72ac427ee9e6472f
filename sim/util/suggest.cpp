#include "sim/util/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ptxmma {
namespace {

// Edit distance counting a swap of two neighbours as one edit (optimal string alignment): "k61"
// is one edit from "k16", two from "k8".
std::size_t distance(std::string_view a, std::string_view b) {
  const std::size_t w = b.size() + 1;
  std::vector<std::size_t> d((a.size() + 1) * w);
  const auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * w + j]; };
  for (std::size_t i = 0; i <= a.size(); ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= b.size(); ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
    }
  return at(a.size(), b.size());
}

}  // namespace

std::string closest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(1, (word.size() + 2) / 3);
  if (word.size() <= limit) return "";  // one letter: anything is one edit away
  std::string best;
  std::size_t best_d = limit + 1;
  for (const std::string& c : candidates) {
    // Names are short; a much longer candidate cannot be within the limit.
    if (c.size() > word.size() + limit || c.size() + limit < word.size()) continue;
    const std::size_t d = distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string c = closest(word, candidates);
  return c.empty() ? "" : fmt::format(" (did you mean '{}'?)", c);
}

}  // namespace ptxmma
