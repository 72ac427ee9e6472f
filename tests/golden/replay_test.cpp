// The golden sets captured on an H200 replay bit for bit.
#include <gtest/gtest.h>

#include <sstream>

#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/replay.hpp"

namespace ptxmma {
namespace {

void expect_clean_replay(const std::string& name) {
  const GoldenSet set = read_golden_set(std::string(PTXMMA_SOURCE_DIR) + "/tests/data/" + name);
  ASSERT_EQ(set.variants.size(), 97U);
  const ReplayReport r = replay(set, "sm_90a");
  std::ostringstream text;
  print(r, text);
  for (const auto& v : r.variants) {
    EXPECT_TRUE(v.supported) << v.ptx << ": " << v.error;
    EXPECT_EQ(v.failed_cases, 0) << v.ptx;
  }
  EXPECT_TRUE(r.ok()) << text.str();
  EXPECT_GT(r.passed_cases, 0);
}

TEST(GoldenReplay, H200RandomCases) { expect_clean_replay("mma-sm90-h200"); }
TEST(GoldenReplay, H200AdversarialCases) { expect_clean_replay("mma-sm90-adversarial"); }

}  // namespace
}  // namespace ptxmma
