// `ptxmma debug` driven by a command file, and `ptxmma run --matrix / --json`, on the examples.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli.hpp"
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

using test::CliResult;
using test::run_cli;

const std::string kDir = std::string(kPtxmmaSourceDir) + "/examples/";

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
  EXPECT_NE(r.out.find("(ptxmma) info break\nbreakpoint 1 at line 39, hit 1 time\n"), std::string::npos) << r.out;
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
                         script("dbg3.txt", "print %nope\nbreak 999\nmem heap 0 4\nmatrix D\nfly\nstep 2\nq\n"));
  EXPECT_EQ(r.status, 1) << r.all();
  for (const char* e : {"error: no register %nope in ", "error: ", ":999: no instruction on this line or after it\n",
                        "error: unknown memory 'heap' (shared, global, const, param)\n",
                        "error: " /* no mma in the file */, "no mma or wgmma.mma_async instruction to show as a matrix\n",
                        "error: unknown command 'fly' (help lists them)\n"})
    EXPECT_NE(r.out.find(e), std::string::npos) << e << "\n" << r.out;
}

// Commands piped to stdin (not a terminal): echoed after the prompt, an empty line repeats a
// stepping command, a typo is reported and quitting still exits 0.
CliResult piped(const std::string& args, const std::string& name, const std::string& commands) {
  return run_cli("debug " + args + " < " + script(name, commands));
}

TEST(Debugger, LabelsFileLinesAndLinesWithoutAnInstruction) {
  const auto r = piped(kDir + "divergent_loop.ptx", "dbg4.txt",
                       "break $L_loop\nbreak 18\nbreak divergent_loop.ptx:24\nbreak L_join\nbreak $L_lop\n"
                       "info breakpoints\ndelete 2\nc\nc\nq\n");
  EXPECT_EQ(r.status, 0) << r.all();
  for (const char* want : {
           "(ptxmma) break $L_loop\nbreakpoint 1 at line 19: add.s32 \t%r3, %r3, 1;\n",
           "(ptxmma) break 18\nline 18 has no instruction; breakpoint 2 at line 19: add.s32",
           "(ptxmma) break divergent_loop.ptx:24\nbreakpoint 3 at line 24: activemask.b32",
           "(ptxmma) break L_join\nbreakpoint 4 at line 34: activemask.b32",
           "error: break: no line or label '$L_lop' in ",
           "(did you mean '$L_loop'?)\n",
           "breakpoint 1 at line 19\nbreakpoint 2 at line 19\nbreakpoint 3 at line 24\nbreakpoint 4 at line 34\n",
           "(ptxmma) c\nbreakpoint at line 19\nline 19, lanes ffffffff: add.s32",
           "(ptxmma) c\nbreakpoint at line 19\nline 19, lanes eeeeeeee: add.s32"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

TEST(Debugger, ConditionsWatchpointsDisplaysAndEnterRepeats) {
  const auto r = piped(kDir + "divergent_loop.ptx", "dbg5.txt",
                       "break 20 if %r3 == 3 lane 2\nwatch %r4 2\ndisplay/x %r3 2\nc\nc\nc\nc\ninfo watchpoints\n"
                       "delete\nstep\n\n\nq\n");
  EXPECT_EQ(r.status, 0) << r.all();
  for (const char* want : {
           "breakpoint 1 at line 20 if %r3 == 3 lane 2: add.s32",
           "watchpoint 2: %r4 in lanes 00000004 of warp 0\n",
           "1: print/x %r3 2\nlane  2 %r3 = 0x00000000\n",
           // %r4 of lane 2 changes on line 20 of each iteration: 1, 3, then 6 when the breakpoint's
           // condition holds too (it is checked before the instruction, the watchpoint after).
           "(ptxmma) c\nwatchpoint 2: %r4 lane 2: 0x00000000  0 -> 0x00000001  1 (by line 20)\n"
           "line 21, lanes ffffffff: activemask.b32",
           "1: print/x %r3 2\nlane  2 %r3 = 0x00000001\n",
           "(ptxmma) c\nbreakpoint at line 20 (%r3 == 3 in lane 2)\nline 20, lanes cccccccc: add.s32",
           "watchpoint 2 at %r4 in lanes 00000004 of warp 0, hit 3 times\n",
           "(ptxmma) delete\ndeleted every breakpoint and watchpoint\n"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
  // step, then two empty lines: three steps.
  const std::size_t at = r.out.find("(ptxmma) step\n");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string tail = r.out.substr(at);
  EXPECT_NE(tail.find("(ptxmma) step\nline 22, lanes cccccccc: setp.lt.u32 \t%p1, %r3, %r2;\n"
                      "1: print/x %r3 2\nlane  2 %r3 = 0x00000003\n(ptxmma) \nline 23, lanes cccccccc:"),
            std::string::npos)
      << tail;
  EXPECT_NE(tail.find("(ptxmma) \nline 23, lanes cccccccc: @%p1 bra \t$L_loop;\n1: print/x %r3 2\n"
                      "lane  2 %r3 = 0x00000003\n(ptxmma) \n"),
            std::string::npos)
      << tail;
}

TEST(Debugger, TypedPrintSpecialRegistersAndSuggestions) {
  const auto r = piped(kDir + "shfl_reduce.ptx", "dbg6.txt",
                       "step 3\np/x %r2 3\np/d %r2 3\np/t %r1 3\nprint/f16x2 %r2 3\nprint %r2 3 e4m3x4\np %laneid 30-31\n"
                       "p %tid 1\np/x %lanemask_lt 4\np r2 0\np %r99 0\nstpe\ninfo lanes\ninfo warps\ninfo ctas\n"
                       "info barriers\nfinish\ninfo regs 1\nquit\n");
  EXPECT_EQ(r.status, 0) << "a typo does not change the exit status of an interactive session\n" << r.all();
  for (const char* want : {
           "(ptxmma) p/x %r2 3\nlane  3 %r2 = 0x00000010\n",
           "(ptxmma) p/d %r2 3\nlane  3 %r2 = 16\n",
           "(ptxmma) p/t %r1 3\nlane  3 %r1 = 0b00000000000000000000000000000011\n",
           "(ptxmma) print/f16x2 %r2 3\nlane  3 %r2 = 0x00000010  (9.5367431640625000e-7 (approx.), 0)\n",
           "(ptxmma) print %r2 3 e4m3x4\nlane  3 %r2 = 0x00000010  (0.03125, 0, 0, 0)\n",
           "(ptxmma) p %laneid 30-31\nlane 30 %laneid = 30\nlane 31 %laneid = 31\n",
           "(ptxmma) p %tid 1\nlane  1 %tid = (1, 0, 0)\n",
           "(ptxmma) p/x %lanemask_lt 4\nlane  4 %lanemask_lt = 0x0000000f\n",
           "error: no register r2 in ", "(did you mean '%r2'?)\n",
           "error: no register %r99 in ",
           "error: unknown command 'stpe' (did you mean 'step'?) (help lists them)\n",
           "(ptxmma) info lanes\nat line 10\n  lane  0  %tid (0, 0, 0)  active\n",
           "(ptxmma) info warps\n* warp 0: at line 10, lanes ffffffff\n",
           "(ptxmma) info ctas\n* CTA (0, 0, 0): running\n",
           "(ptxmma) info barriers\nno warp waits at a barrier\n",
           "error: finish: warp 0 is in the kernel, not in a called .func (continue runs to the end)\n",
           "(ptxmma) info regs 1\nlane 1\n"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

TEST(Debugger, MatrixBeforeTheMmaRanRunRestartAndExamine) {
  const auto r = piped(kDir + "mma_f16_ldmatrix.ptx --init " + kDir + "mma_f16_ldmatrix.yaml", "dbg7.txt",
                       "matrix D\nbreak 39\nrun\nx/4xw shared 0\nx/4f16 shared 0\nx shared 0 8\nmatrix D\nstep\n"
                       "matrix D\nrestart\nrun\nq\n");
  EXPECT_EQ(r.status, 0) << r.all();
  for (const char* want : {
           "(ptxmma) matrix D\nnote: the mma on line 39 has not run yet in warp 0: D shows what its registers hold now\n"
           "D of mma.sync",
           "(ptxmma) run\nstarted again from the first instruction\nbreakpoint at line 39\n",
           "(ptxmma) x/4xw shared 0\nshared 0x0000:  0x3c000000  0x42004000  0x45004400  0x47004600\n",
           "(ptxmma) x/4f16 shared 0\nshared 0x0000:  0  1  2  3\n",
           "(ptxmma) x shared 0 8\nshared [0x0, 0x8)\n  000000: 00 00 00 3c 00 40 00 42\n",
           "(ptxmma) restart\nstarted again from the first instruction\nline 16, lanes ffffffff: mov.u32"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
  // After the step past the mma, matrix D has no note.
  const std::size_t step = r.out.find("(ptxmma) step\n");
  ASSERT_NE(step, std::string::npos);
  const std::size_t next = r.out.find("(ptxmma) matrix D\n", step);
  ASSERT_NE(next, std::string::npos);
  EXPECT_EQ(r.out.substr(next, 40).find("note:"), std::string::npos) << r.out.substr(next);
}

// finish: back in the caller once the .func returns.
TEST(Debugger, FinishReturnsToTheCaller) {
  const std::string ptx = ::testing::TempDir() + "dbg_call.ptx";
  std::ofstream(ptx) << ".version 8.0\n.target sm_90a\n.address_size 64\n"
                        ".func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %a<3>;\nld.param.b32 %a1, [x];\n"
                        "shl.b32 %a2, %a1, 1;\nst.param.b32 [r+0], %a2;\nret;\n}\n"
                        ".visible .entry k()\n{\n.reg .b32 %k<3>;\nmov.u32 %k0, %laneid;\n{\n.param .b32 p0;\n"
                        "st.param.b32 [p0+0], %k0;\n.param .b32 r0;\ncall.uni (r0), twice, (p0);\n"
                        "ld.param.b32 %k1, [r0+0];\n}\nret;\n}\n";
  const auto r = piped(ptx, "dbg8.txt", "break 8\nc\ninfo warps\nfinish\np %k1 3\nnext\np %k1 3\nq\n");
  EXPECT_EQ(r.status, 0) << r.all();
  for (const char* want : {"breakpoint at line 8\nline 8, lanes ffffffff: shl.b32 %a2, %a1, 1;\n",
                           "* warp 0: at line 8, lanes ffffffff, 1 call deep\n",
                           "(ptxmma) finish\nreturned from the call (warp 0)\nline 21, lanes ffffffff: ld.param.b32 %k1",
                           "(ptxmma) next\nline 23, lanes ffffffff: ret;\n(ptxmma) p %k1 3\nlane  3 %k1 = 0x00000006  6\n"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

// next follows its warp through the cluster barrier: the other CTA runs meanwhile, and the warp
// stops at its own next line, not at whichever warp the scheduler takes next.
TEST(Debugger, NextFollowsItsWarpAcrossTheClusterBarrier) {
  const std::string ptx = ::testing::TempDir() + "dbg_cluster.ptx";
  std::ofstream(ptx) << ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k() .reqntid 32, 1, 1\n{\n"
                        ".reg .b32 %r<4>;\nmov.u32 %r1, %cluster_ctarank;\nbarrier.cluster.arrive;\n"
                        "barrier.cluster.wait;\nadd.u32 %r2, %r1, 1;\nret;\n}\n";
  const std::string state = ::testing::TempDir() + "dbg_cluster.yaml";
  std::ofstream(state) << "ntid: [32, 1, 1]\nnctaid: [2, 1, 1]\ncluster: [2, 1, 1]\n";
  const auto r = run_cli("debug " + ptx + " --init " + state + " --commands " +
                         script("dbg9.txt", "next\nnext\nnext\nnext\np %r2 0\nq\n"));
  EXPECT_EQ(r.status, 0) << r.all();
  const std::string want =
      "(ptxmma) next\nCTA (0, 0, 0) warp 0, line 8, lanes ffffffff: barrier.cluster.arrive;\n"
      "(ptxmma) next\nCTA (0, 0, 0) warp 0, line 9, lanes ffffffff: barrier.cluster.wait;\n"
      "(ptxmma) next\nCTA (0, 0, 0) warp 0, line 10, lanes ffffffff: add.u32 %r2, %r1, 1;\n"
      "(ptxmma) next\nCTA (0, 0, 0) warp 0, line 11, lanes ffffffff: ret;\n"
      "(ptxmma) p %r2 0\nCTA (0, 0, 0) warp 0 lane  0 %r2 = 0x00000001  1\n";
  EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
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
