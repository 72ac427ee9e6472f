#include "sim/util/suggest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <numeric>

namespace ptxmma {
namespace {

// A third of the word's length, at least 1 and at most 8: more edits than that are no typo, and
// the search over a long word's candidates stops that much sooner.
std::size_t reach(std::string_view word) { return std::clamp<std::size_t>((word.size() + 2) / 3, 1, 8); }

}  // namespace

// Edit distance counting a swap of two neighbours as one edit (optimal string alignment): "k61"
// is one edit from "k16", two from "k8". Row j of the table is the candidate's first j letters
// against the word, so candidates taken in sorted order reuse the rows of the prefix they share
// with the one before (the forms of an opcode share most of theirs: cvt has 43,000), and once two
// rows in a row are past the distance sought, no candidate with that prefix can come back under
// it and all of them are passed over.
std::optional<Nearest> nearest(std::string_view word, std::span<const std::string> candidates) {
  const std::size_t limit = reach(word);
  if (word.size() <= limit) return std::nullopt;  // one letter: anything is one edit away
  std::vector<std::size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), 0);
  const auto text = [&](std::size_t i) -> const std::string& { return candidates[i]; };
  if (!std::ranges::is_sorted(candidates)) std::ranges::stable_sort(order, {}, text);
  const std::size_t w = word.size() + 1, n = word.size();
  std::size_t longest = 0;
  for (const std::string& c : candidates) longest = std::max(longest, c.size());
  std::vector<std::size_t> rows((longest + 1) * w), row_min(longest + 1);
  for (std::size_t i = 0; i < w; ++i) rows[i] = i;
  std::string_view shown;  // the candidate whose rows 0..valid are in `rows`
  std::size_t valid = 0;
  std::string_view dead;   // a prefix past the distance sought (empty: none)
  std::size_t best_d = limit, best = candidates.size();
  for (const std::size_t index : order) {
    const std::string_view c = candidates[index];
    // Names are short; a much longer candidate cannot be within the limit.
    if (c.size() > n + limit || c.size() + limit < n) continue;
    if (!dead.empty() && c.starts_with(dead)) continue;
    std::size_t j = 0;
    while (j < valid && j < c.size() && c[j] == shown[j]) ++j;
    shown = c;
    bool past = false;
    for (++j; j <= c.size(); ++j) {
      std::size_t* cur = &rows[j * w];
      const std::size_t* prev = cur - w;
      cur[0] = j;
      std::size_t least = j;
      for (std::size_t i = 1; i < w; ++i) {
        cur[i] = std::min({prev[i] + 1, cur[i - 1] + 1, prev[i - 1] + (word[i - 1] == c[j - 1] ? 0 : 1)});
        if (i > 1 && j > 1 && word[i - 1] == c[j - 2] && word[i - 2] == c[j - 1])
          cur[i] = std::min(cur[i], rows[(j - 2) * w + i - 2] + 1);
        least = std::min(least, cur[i]);
      }
      row_min[j] = least;
      if (least > best_d && row_min[j - 1] > best_d) {
        dead = c.substr(0, j);
        past = true;
        break;
      }
    }
    valid = past ? j - 1 : c.size();
    if (past) continue;
    const std::size_t d = rows[c.size() * w + n];
    if (d < best_d || (d == best_d && index < best)) best_d = d, best = index;
  }
  if (best == candidates.size()) return std::nullopt;
  return Nearest{best, best_d};
}

std::string closest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::optional<Nearest> n = nearest(word, candidates);
  return n ? candidates[n->index] : "";
}

bool within_reach(std::string_view word, std::string_view candidate) {
  return !closest(word, {std::string(candidate)}).empty();
}

std::string suggestion(std::string_view candidate) {
  return candidate.empty() ? "" : fmt::format(" (did you mean '{}'?)", candidate);
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  return suggestion(closest(word, candidates));
}

}  // namespace ptxmma
