// The golden sets captured on an H200 (and the sparse ones on an H100) replay bit for bit.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "tests/paths.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/replay.hpp"

namespace ptxmma {
namespace {

void expect_clean_replay_of(const std::string& dir, std::size_t variants) {
  const GoldenSet set = read_golden_set(dir);
  ASSERT_EQ(set.variants.size(), variants);
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

void expect_clean_replay(const std::string& name, std::size_t variants) {
  expect_clean_replay_of(std::string(kPtxmmaSourceDir) + "/tests/data/" + name, variants);
}

TEST(GoldenReplay, H200RandomCases) { expect_clean_replay("mma-sm90-h200", 97); }
// The shared golden sets themselves, where ../shared is beside the checkout (as in CI).
TEST(GoldenReplay, SharedSets) {
  const std::string golden = std::string(kPtxmmaSourceDir) + "/../shared/golden/";
  if (!std::filesystem::exists(golden + "mma-sm90-h200/manifest.json")) GTEST_SKIP() << golden << " is not beside the checkout";
  expect_clean_replay_of(golden + "mma-sm90-h200", 97);
  expect_clean_replay_of(golden + "mma-sm90-adversarial", 97);
}
TEST(GoldenReplay, H200AdversarialCases) { expect_clean_replay("mma-sm90-adversarial", 97); }
// Captured by tools/capture: f64 .rz/.rm/.rp on the m16n8 shapes, and the crafted probes of
// tools/capture/probes-sm90.yaml (docs/hardware/probes-sm90.md).
TEST(GoldenReplay, H200F64DirectedRounding) { expect_clean_replay("mma-sm90-f64-directed", 9); }
TEST(GoldenReplay, H200Probes) { expect_clean_replay("probes-sm90", 12); }
// Sparse mma.sp / mma.sp::ordered_metadata, every variant, spelling and selector sm_90 runs,
// captured on an H100 by mma_capture --sparse (docs/hardware/mma-sp-sm90.md).
TEST(GoldenReplay, H100SparseCases) { expect_clean_replay("mma-sp-sm90", 152); }
TEST(GoldenReplay, H100SparseCorners) { expect_clean_replay("mma-sp-sm90-corners", 152); }
// B's rows that the metadata does not select are not read: +Inf there leaves D finite.
TEST(GoldenReplay, H100SparseUnselectedBRows) { expect_clean_replay("probes-sp-sm90", 1); }

// wmma.mma, every variant sm_90 assembles (tools/capture/mma_capture --wmma; docs/hardware/wmma-sm90.md).
TEST(GoldenReplay, H200WmmaCases) { expect_clean_replay("wmma-sm90", 138); }

// Parallel replay reports exactly what a single thread reports.
TEST(GoldenReplay, SameReportForAnyNumberOfJobs) {
  const GoldenSet set = read_golden_set(std::string(kPtxmmaSourceDir) + "/tests/data/mma-sm90-adversarial");
  std::ostringstream one, two, eight;
  print(replay(set, "sm_90a", 1), one);
  print(replay(set, "sm_90a", 2), two);
  print(replay(set, "sm_90a", 8), eight);
  EXPECT_EQ(one.str(), two.str());
  EXPECT_EQ(one.str(), eight.str());
}

}  // namespace
}  // namespace ptxmma
