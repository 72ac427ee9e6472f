// The wgmma golden set captured on an H200, replayed per machine path: the committed subset
// (tests/data/wgmma-sm90: every entry, its first case, the N = 8 entries their first four) and, where ../shared is beside the checkout
// as in CI, the whole set; and the sparse set captured on an H100 (tests/data/wgmma-sp-sm90).
// Layouts, descriptors, swizzles, transposes and immediate scales are exact facts: every integer
// (IGMMA) and b1 (BGMMA) case, and every case of the family `intlike` (whose sums are exact in any
// rounding model), must match bit for bit whatever the rounding models say; with the models of
// configs/models/sm_90a.yaml (docs/hardware/wgmma-sm90.md) every case of every path must.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "tests/paths.hpp"
#include "tools/vectors/wgmma_golden.hpp"
#include "tools/vectors/wgmma_replay.hpp"

namespace ptxmma {
namespace {

struct Counts {
  int passed = 0, failed = 0;
};

void expect_clean_per_family(const std::string& dir, int cases) {
  const WgmmaGoldenSet set = read_wgmma_golden_set(dir);
  ASSERT_EQ(set.entries.size(), 145U);
  const ReplayReport r = replay_wgmma(set, "sm_90a", 2);
  std::map<std::string, Counts> by_path, by_input, intlike;
  for (std::size_t i = 0; i < r.variants.size(); ++i) {
    const VariantReplay& v = r.variants[i];
    EXPECT_TRUE(v.supported) << v.ptx << ": " << v.error;  // no descriptor, layout or fetch error
    for (int c = 0; c < v.cases; ++c) {
      const bool bad = std::find(v.failed_case_indices.begin(), v.failed_case_indices.end(), c) !=
                       v.failed_case_indices.end();
      const std::string input = set.family_of(static_cast<int>(i), c);
      for (Counts* k : {&by_path[v.family], &by_input[input]}) (bad ? k->failed : k->passed)++;
      if (input == "intlike") (bad ? intlike[v.family].failed : intlike[v.family].passed)++;
    }
  }
  std::ostringstream summary;
  summary << "wgmma-sm90 replay by machine path (passed / cases):\n";
  for (const auto& [f, k] : by_path) summary << fmt::format("  {:6} {:4} / {:4}\n", f, k.passed, k.passed + k.failed);
  summary << "by input family:\n";
  for (const auto& [f, k] : by_input) summary << fmt::format("  {:9} {:4} / {:4}\n", f, k.passed, k.passed + k.failed);
  summary << fmt::format("replay: {} passed, {} failed\n", r.passed_cases, r.failed_cases);
  std::cout << summary.str();
  ::testing::Test::RecordProperty("summary", summary.str());

  EXPECT_EQ(by_path["igmma"].failed, 0);
  EXPECT_EQ(by_path["bgmma"].failed, 0);
  EXPECT_GT(by_path["igmma"].passed, 0);
  EXPECT_GT(by_path["bgmma"].passed, 0);
  for (const auto& [f, k] : intlike) {
    EXPECT_EQ(k.failed, 0) << f << ": an exact (intlike) case failed: a layout, descriptor, transpose or scale error";
    EXPECT_GT(k.passed, 0) << f;
  }
  EXPECT_EQ(r.passed_cases + r.failed_cases, cases);
  // The HGMMA and QGMMA models too.
  std::ostringstream text;
  print(r, text);
  EXPECT_TRUE(r.ok()) << text.str();
}

TEST(WgmmaGoldenReplay, H200PerFamily) {
  expect_clean_per_family(std::string(kPtxmmaSourceDir) + "/tests/data/wgmma-sm90", 256);
}

TEST(WgmmaGoldenReplay, H200WholeSharedSet) {
  const std::string dir = std::string(kPtxmmaSourceDir) + "/../shared/golden/wgmma-sm90";
  if (!std::filesystem::exists(dir + "/manifest.json")) GTEST_SKIP() << dir << " is not beside the checkout";
  expect_clean_per_family(dir, 404);
}

// wgmma.mma_async.sp on an H100 (docs/hardware/wgmma-sp-sm90.md): every type family, both A forms,
// both selectors, every swizzle mode (32B swizzle with B rows of 64 bytes: LBO steps), N <= 64.
TEST(WgmmaGoldenReplay, H100Sparse) {
  const WgmmaGoldenSet set = read_wgmma_golden_set(std::string(kPtxmmaSourceDir) + "/tests/data/wgmma-sp-sm90");
  ASSERT_EQ(set.entries.size(), 85U);
  const ReplayReport r = replay_wgmma(set, "sm_90a", 2);
  std::ostringstream text;
  print(r, text);
  EXPECT_TRUE(r.ok()) << text.str();
  EXPECT_EQ(r.passed_cases, 85);
}

// Parallel replay reports exactly what a single thread reports.
TEST(WgmmaGoldenReplay, SameReportForAnyNumberOfJobs) {
  const WgmmaGoldenSet set = read_wgmma_golden_set(std::string(kPtxmmaSourceDir) + "/tests/data/wgmma-sm90");
  std::ostringstream one, three;
  print(replay_wgmma(set, "sm_90a", 1), one);
  print(replay_wgmma(set, "sm_90a", 3), three);
  EXPECT_EQ(one.str(), three.str());
}

}  // namespace
}  // namespace ptxmma
