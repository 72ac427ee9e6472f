// "Did you mean ...?" for misspelt names: the closest candidate by edit distance, when it is
// close enough to be a likely typo.
#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma {

// The index in `candidates` of the one closest to `word` and its distance (as closest() chooses),
// or nothing. Sorted candidates are searched fastest (the work of shared prefixes is shared).
struct Nearest {
  std::size_t index;
  std::size_t distance;
};
std::optional<Nearest> nearest(std::string_view word, std::span<const std::string> candidates);

// The candidate closest to `word` (case-sensitive edit distance, a swap of neighbours one edit; at
// most a third of the word's length, at least 1 and at most 8, less than the word's length; ties:
// the first),
// or "" when none is that close.
std::string closest(std::string_view word, const std::vector<std::string>& candidates);

// Whether `candidate` is close enough to `word` for closest() to offer it.
bool within_reach(std::string_view word, std::string_view candidate);

// " (did you mean 'X'?)" for a candidate X, or "" for none ("").
std::string suggestion(std::string_view candidate);

// " (did you mean 'X'?)" for the closest candidate, or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace ptxmma
