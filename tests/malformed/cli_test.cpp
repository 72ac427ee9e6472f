// The command line on hostile inputs and limits: an endless snippet stops with a located error,
// files that never end or are too large are refused, and the output of replay and test does not
// depend on --jobs.
#include <gtest/gtest.h>

#include "tests/malformed/malformed.hpp"
#include "tests/paths.hpp"

namespace ptxmma::malformed {
namespace {

const std::string kSource = kPtxmmaSourceDir;

TEST(Malformed, EndlessSnippetStopsAtTheStepLimit) {
  const TempDir dir;
  const std::string ptx = dir.write("loop.ptx", ".reg .b32 %r;\nmov.u32 %r, 0;\nL:\n  add.u32 %r, %r, 1;\n  bra L;\n");
  const Cli run = ptxmma("run " + ptx + " --max-steps 1000", dir);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, ptx + ":5:3: error: step limit: lane 0 has executed 1000 instructions without "
                     "finishing (an endless loop?); the limit is --max-steps\n");
  // The same snippet as a test vector: the case fails with the located message, the others run.
  const std::string yaml = dir.write("loop.test.yaml",
                                     "cases:\n  - name: endless\n    snippet: |\n      .reg .b32 %r;\n      L: add.u32 %r, %r, 1;\n"
                                     "      bra L;\n    max_steps: 500\n    expect:\n      registers: {\"%r\": 1}\n");
  const Cli test = ptxmma("test " + yaml, dir);
  EXPECT_EQ(test.status, 1);
  EXPECT_EQ(test.out, "FAIL " + yaml + ": endless\n  error: " + yaml + ":5:4: error: step limit: lane 0 has executed "
                      "500 instructions without finishing (an endless loop?); the limit is --max-steps\n"
                      "test: 0 passed, 1 failed\n");
}

TEST(Malformed, FilesThatNeverEndOrAreTooLarge) {
  const TempDir dir;
  EXPECT_EQ(ptxmma("run /dev/zero", dir).err, "ptxmma: error: /dev/zero: not a regular file\n");
  const std::string ptx = dir.write("k.ptx", ".reg .b32 %r;\nmov.u32 %r, 1;\n");
  EXPECT_EQ(ptxmma("run " + ptx + " --init /dev/zero", dir).err, "ptxmma: error: /dev/zero: not a regular file\n");
  const std::string yaml = dir.write("big.test.yaml", "");
  std::filesystem::resize_file(yaml, (16ULL << 20) + 1);  // sparse: nothing is written
  const Cli big = ptxmma("test " + yaml, dir);
  EXPECT_EQ(big.status, 1);
  EXPECT_EQ(big.out, "FAIL " + yaml + ": (file)\n  " + yaml + ": 16777217 bytes, more than the budget of 16777216 (raise it with --max-input-bytes)\n"
                     "test: 0 passed, 1 failed\n");
  const std::string snippet = dir.write("snippet.test.yaml",
                                        "cases:\n  - snippet_file: /dev/zero\n    expect: {registers: {}}\n");
  EXPECT_EQ(ptxmma("test " + snippet, dir).out,
            "FAIL " + snippet + ": (file)\n  /dev/zero: not a regular file\n  " + snippet +
                ": case 'case 1': the snippet does not parse\ntest: 0 passed, 1 failed\n");
}

TEST(Malformed, ReplayOutputDoesNotDependOnJobs) {
  const TempDir dir;
  for (const char* set : {"/tests/data/mma-sm90-h200", "/tests/data/wgmma-sm90"}) {
    SCOPED_TRACE(set);
    const Cli one = ptxmma("replay " + kSource + set + " --jobs 1", dir);
    EXPECT_EQ(one.status, 0) << one.err;
    EXPECT_NE(one.out.find(", 0 failed\n"), std::string::npos) << one.out;
    EXPECT_EQ(ptxmma("replay " + kSource + set + " --jobs 2", dir).out, one.out);
    EXPECT_EQ(ptxmma("replay " + kSource + set + " --jobs 8", dir).out, one.out);
  }
}

}  // namespace
}  // namespace ptxmma::malformed
