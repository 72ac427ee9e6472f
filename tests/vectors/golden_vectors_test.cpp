// Golden records as test-vector cases (tools/vectors/golden_vectors, `ptxmma golden --to-test`):
// record selections parse, and records of every kind of golden set, written as cases and run,
// pass (their expectation is the GPU's D).
#include "tests/paths.hpp"
#include "tools/vectors/golden_vectors.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/error.hpp"
#include "tools/vectors/test_vectors.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;
const std::string kData = std::string(kPtxmmaSourceDir) + "/tests/data/";

TEST(GoldenVectors, RecordSelections) {
  const GoldenRecords r = parse_golden_records("tests/data/wgmma-sm90:0,3-5:1");
  EXPECT_EQ(r.dir, "tests/data/wgmma-sm90");
  EXPECT_EQ(r.entries, (std::vector<int>{0, 3, 4, 5}));
  EXPECT_EQ(r.cases, (std::vector<int>{1}));
  EXPECT_EQ(parse_golden_records("a:b").dir, "a:b");
  EXPECT_TRUE(parse_golden_records("dir").entries.empty());
}

// Records of every kind of golden set, written as cases and run: each passes (the GPU's D).
TEST(GoldenVectors, RecordsOfEverySetPassAsCases) {
  const GoldenVectors v = golden_to_vectors(
      {parse_golden_records(kData + "wgmma-sm90:0,72:0-3"), parse_golden_records(kData + "wgmma-sp-sm90:0,3,47:0"),
       parse_golden_records(kData + "mma-sp-sm90:76,80:0-1"), parse_golden_records(kData + "mma-sm90-h200:0:0")},
      "sm_90a", "test");
  EXPECT_GE(v.cases, 12);
  EXPECT_TRUE(v.skipped.empty()) << v.skipped.front();
  const fs::path p = fs::temp_directory_path() / ("ptxmma-golden-vectors-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(p) << v.yaml;
  int passed = 0;
  for (const CaseResult& c : run_vector_files({p.string()}, 2)) {
    EXPECT_TRUE(c.passed) << c.name << "\n" << c.detail;
    passed += c.passed;
  }
  fs::remove(p);
  EXPECT_EQ(passed, v.cases);
}

TEST(GoldenVectors, ARecordThatCannotBeACaseIsSkippedWithTheReason) {
  // mma.sp records hold unsorted index pairs: compressing their logical A keeps other columns.
  const GoldenVectors v = golden_to_vectors({parse_golden_records(kData + "mma-sp-sm90:0:0"),
                                             parse_golden_records(kData + "mma-sp-sm90:80:0")},
                                            "sm_90a", "test");
  EXPECT_EQ(v.cases, 1);
  ASSERT_EQ(v.skipped.size(), 1U);
  EXPECT_NE(v.skipped[0].find("mma-sp-sm90:0:0: the logical A compresses (selector 0) to other"), std::string::npos)
      << v.skipped[0];
}

TEST(GoldenVectors, MissingEntriesAreErrors) {
  EXPECT_THROW((void)golden_to_vectors({parse_golden_records(kData + "wgmma-sp-sm90:9999")}, "sm_90a", "test"), Error);
  EXPECT_THROW((void)list_golden_records(parse_golden_records(kData + "wgmma-sm90:0:7")), Error);
}

}  // namespace
}  // namespace ptxmma
