// "Did you mean ...?" for misspelt names: the closest candidate by edit distance, when it is
// close enough to be a likely typo.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma {

// The candidate closest to `word` (case-sensitive edit distance, a swap of neighbours one edit; at
// most a third of the word's length and at least 1, less than the word's length; ties: the first),
// or "" when none is that close.
std::string closest(std::string_view word, const std::vector<std::string>& candidates);

// Whether `candidate` is close enough to `word` for closest() to offer it.
bool within_reach(std::string_view word, std::string_view candidate);

// " (did you mean 'X'?)" for the closest candidate, or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace ptxmma
