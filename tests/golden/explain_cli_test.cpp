// `ptxmma explain` on a sparse golden set, where an instruction has an entry per sparsity selector.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli.hpp"
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

using test::run_cli;

const std::string kSet = std::string(kPtxmmaSourceDir) + "/tests/data/mma-sp-sm90";
const std::string kSparse = "'mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16'";

TEST(ExplainCli, SelectorPicksTheSparseEntry) {
  for (const char* sel : {"0", "3"}) {
    const auto r = run_cli("explain " + kSet + " " + kSparse + " --case 1 --row 9 --col 5 --selector " + sel);
    EXPECT_EQ(r.status, 0) << r.all();
    EXPECT_NE(r.out.find(std::string("f16.f16 selector ") + sel + " case 1, D[9][5]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("same bits"), std::string::npos) << r.out;
  }
  const auto first = run_cli("explain " + kSet + " " + kSparse + " --case 1 --row 9 --col 5");
  EXPECT_NE(first.out.find("selector 0 case 1"), std::string::npos) << first.out;  // the first entry
}

TEST(ExplainCli, SelectorErrors) {
  auto r = run_cli("explain " + kSet + " " + kSparse + " --selector 5");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--selector: 'mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16' has no entry with "
                       "selector 5 (it has 0, 1, 2, 3)"),
            std::string::npos)
      << r.err;
  r = run_cli("explain " + std::string(kPtxmmaSourceDir) +
              "/tests/data/mma-sm90-h200 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' --selector 0");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--selector: 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is not sparse"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace ptxmma
