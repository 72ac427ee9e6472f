// "Did you mean" (sim/util/suggest.hpp): the nearest candidate, a swap of neighbours one edit,
// nothing for a word too short or too far to guess.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ptxmma
