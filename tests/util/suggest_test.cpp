// "Did you mean" (sim/util/suggest.hpp): the nearest candidate, a swap of neighbours one edit,
// nothing for a word too short or too far to guess.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "sim/util/suggest.hpp"

namespace ptxmma {
namespace {

TEST(Suggest, NearestCandidate) {
  const std::vector<std::string> shapes = {"m16n8k8", "m16n8k16", "m16n8k32"};
  EXPECT_EQ(closest("m16n8k61", shapes), "m16n8k16");  // a swap: one edit, where k8 is two
  EXPECT_EQ(closest("m16n8k3", shapes), "m16n8k8");    // ties: the first
  EXPECT_EQ(did_you_mean("registerz", {"shared", "registers"}), " (did you mean 'registers'?)");
}

TEST(Suggest, NothingForTooShortOrTooFar) {
  EXPECT_EQ(closest("Q", {"A", "B"}), "");  // one letter: everything is one edit away
  EXPECT_EQ(closest("ldmatrix", {"add", "mul"}), "");
  EXPECT_EQ(did_you_mean("xyz", {}), "");
}

TEST(Suggest, ReachIsAThirdOfTheWord) {
  EXPECT_TRUE(within_reach("mull", "mul"));
  EXPECT_TRUE(within_reach("ldmatrx", "ldmatrix"));
  EXPECT_FALSE(within_reach("mull", "ldmatrix"));
  EXPECT_FALSE(within_reach("Q", "R"));
  // Far candidates stop early (rows past the limit) and still give the right answer.
  EXPECT_EQ(closest("abcdefghijkl", {"zzzzzzzzzzzz", "abcdefghijkz", "abcdefghijkl"}), "abcdefghijkl");
  EXPECT_EQ(closest("abcdefghijkl", {"lkjihgfedcba", "badcfehgjilk"}), "");  // six swaps: past 4
}

// The whole table for every candidate, in the order given: what closest() computes with shared
// prefixes and early stops.
std::size_t plain_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

TEST(Suggest, SameAsTheWholeTable) {
  std::mt19937 rng(7);
  const auto word = [&](std::size_t n) {
    std::string w;
    for (std::size_t i = 0; i < n; ++i) w += "ab.c1"[rng() % 5];  // few letters: many near ties
    return w;
  };
  for (int trial = 0; trial < 2000; ++trial) {
    const std::string w = word(2 + rng() % 30);
    std::vector<std::string> candidates;
    for (int i = rng() % 30; i > 0; --i) candidates.push_back(word(1 + rng() % 32));
    const std::size_t limit = std::clamp<std::size_t>((w.size() + 2) / 3, 1, 8);
    std::string expected;
    std::size_t best = limit + 1;
    if (w.size() > limit)
      for (const std::string& c : candidates)
        if (const std::size_t d = plain_distance(w, c); d < best) best = d, expected = c;
    ASSERT_EQ(closest(w, candidates), expected) << w;
  }
}

}  // namespace
}  // namespace ptxmma
