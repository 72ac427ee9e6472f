// `ptxmma debug` driven by a command file, and `ptxmma run --matrix / --json`, on the examples.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli.hpp"

namespace ptxmma {
namespace {

using test::run_cli;

const std::string kDir = std::string(PTXMMA_SOURCE_DIR) + "/examples/";

std::string script(const std::string& name, const std::string& commands) {
  const std::string p = ::testing::TempDir() + name;
  std::ofstream(p) << commands;
  return p;
}

TEST(Debugger, BreakpointStepPrintAndMatrixOnOneWarp) {
  const auto r = run_cli("debug " + kDir + "mma_f16_ldmatrix.ptx --init " + kDir + "mma_f16_ldmatrix.yaml --commands " +
                         script("dbg1.txt", "break 39\ncontinue\nprint %f0 0-1\nstep\nprint %f0 0-1\nmatrix D\n"
                                            "regs 1\nmem shared 0 16\ninfo break\nquit\n"));
  EXPECT_EQ(r.status, 0) << r.all();
  const std::string want =
      "(ptxmma) break 39\n"
      "breakpoint 1 at line 39: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n"
      "(ptxmma) continue\n"
      "breakpoint at line 39\n"
      "line 39, lanes ffffffff: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n"
      "(ptxmma) print %f0 0-1\n"
      "lane  0 %f0 = 0x00000000  0\n"
      "lane  1 %f0 = 0x00000000  0\n"
      "(ptxmma) step\n"
      "line 41, lanes ffffffff: ret;\n"
      "(ptxmma) print %f0 0-1\n"
      "lane  0 %f0 = 0x461b0000  9920\n"
      "lane  1 %f0 = 0x461ec000  10160\n";
  EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
  // D[0][0] = sum_k k (8k) = 9920 (examples/snippet_ldmatrix_mma.test.yaml derives it by hand).
  EXPECT_NE(r.out.find("D of mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (line 39): 16 x 8 f32\n"), std::string::npos);
  EXPECT_NE(r.out.find("\n   0   9920  10040  10160"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  %f1   .f32  0x4620a000  10280\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shared [0x0, 0x10)\n  000000: 00 00 00 3c 00 40 00 42"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(ptxmma) info break\nbreakpoint 1 at line 39\n"), std::string::npos) << r.out;
}

TEST(Debugger, WarpsAndTheWgmmaCollective) {
  const auto r = run_cli("debug " + kDir + "wgmma_pipeline.ptx --init " + kDir + "wgmma_pipeline.yaml --commands " +
                         script("dbg2.txt", "where\nbreak 10\ncontinue\ncontinue\nprint %d1 0-1 warp 1\nnext 2\nc\nc\n"
                                            "c\nc\nq\n"));
  EXPECT_EQ(r.status, 0) << r.all();
  // Every warp runs to the wgmma and waits; when the fourth arrives it runs, and the breakpoint
  // stops each warp before it steps past.
  const std::string want =
      "(ptxmma) continue\n"
      "breakpoint at line 10\n"
      "warp 0, line 10, lanes ffffffff: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %da, "
      "%db, 0, 1, 1, 0, 0;\n"
      "(ptxmma) continue\n"
      "breakpoint at line 10\n"
      "warp 1, line 10, lanes ffffffff: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%d0, %d1, %d2, %d3}, %da, "
      "%db, 0, 1, 1, 0, 0;\n"
      "(ptxmma) print %d1 0-1 warp 1\n"
      "warp 1 lane  0 %d1 = 0x42000000  32\n"
      "warp 1 lane  1 %d1 = 0x42800000  64\n"
      "(ptxmma) next 2\n"
      "warp 1, line 12, lanes ffffffff: wgmma.wait_group.sync.aligned 0;\n";
  EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the program has finished: 24 instructions issued\n"), std::string::npos) << r.out;
}

TEST(Debugger, BadCommandsAreReportedAndTheExitStatusIsOne) {
  const auto r = run_cli("debug " + kDir + "shfl_reduce.ptx --commands " +
                         script("dbg3.txt", "print %nope\nbreak 1\nmem heap 0 4\nmatrix D\nfly\nstep 2\nq\n"));
  EXPECT_EQ(r.status, 1) << r.all();
  for (const char* e : {"error: no register %nope in ", "error: ", ":1: no instruction on this line\n",
                        "error: unknown memory 'heap' (shared, global, const, param)\n",
                        "error: " /* no mma in the file */, "no mma or wgmma.mma_async instruction to show as a matrix\n",
                        "error: unknown command 'fly' (help lists them)\n"})
    EXPECT_NE(r.out.find(e), std::string::npos) << e << "\n" << r.out;
}

TEST(RunCli, MatrixAndJson) {
  const std::string run = "run " + kDir + "wgmma_pipeline.ptx --init " + kDir + "wgmma_pipeline.yaml";
  const auto m = run_cli(run + " --matrix D");
  EXPECT_EQ(m.status, 0) << m.all();
  EXPECT_NE(m.out.find("D of wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 (line 10, warps 0-3): 64 x 8 f32\n"
                       "       0   1   2   3   4   5   6   7\n"
                       "   0  16  32  48  64  80  96 112 128\n"),
            std::string::npos)
      << m.out;
  EXPECT_EQ(m.out.find("warp 0 lane 0"), std::string::npos) << "--matrix alone prints no registers";

  const auto j = run_cli(run + " --json --regs %d0 --warps 3 --lanes 5 --matrix D@10");
  ASSERT_EQ(j.status, 0) << j.all();
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["warps"], 4);
  ASSERT_EQ(doc["threads"].size(), 1U);
  EXPECT_EQ(doc["threads"][0]["warp"], 3);
  EXPECT_EQ(doc["threads"][0]["lane"], 5);
  EXPECT_EQ(doc["threads"][0]["registers"]["%d0"]["hex"], "0x42400000");  // column 2 (5 % 4) = 2: 16 * 3 = 48
  ASSERT_EQ(doc["matrices"].size(), 1U);
  EXPECT_EQ(doc["matrices"][0]["values"][63][7], "128");
  EXPECT_EQ(doc["warnings"].size(), 0U);

  const auto bad = run_cli(run + " --matrix E");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--matrix: 'E' is not an operand: give A, B, C or D"), std::string::npos) << bad.err;
  const auto b = run_cli(run + " --matrix B");
  EXPECT_NE(b.err.find("B of 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16' is in shared memory (a descriptor)"),
            std::string::npos)
      << b.err;
}

}  // namespace
}  // namespace ptxmma
