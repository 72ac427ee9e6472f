// A grid of CTAs: every CTA runs, in rank order, with its own %ctaid, shared memory and registers;
// global memory is shared; --ctas (InterpreterOptions::ctas) picks some; the budgets hold for the
// whole grid.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

#include "sim/util/budget.hpp"
#include "tests/cli.hpp"
#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

// Each CTA of a 3x2 grid, 64 threads: thread 63 stores rank + 100 into a shared word before a
// barrier; after it, thread 0 reads a global counter (how many CTAs ran before), writes it with its
// %ctaid, the shared word and a second shared word that nothing wrote before (each CTA's shared
// memory starts at zero) to its slot, stores rank + 1 into that second word, and increments the
// counter.
const char* kGrid = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry grid(.param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p;
  .shared .align 4 .b32 word[2];
  ld.param.u64 %rd0, [out];
  mov.u32 %r0, %ctaid.x;
  mov.u32 %r1, %ctaid.y;
  mov.u32 %r2, %nctaid.x;
  mov.u32 %r3, %nctaid.y;
  mad.lo.u32 %r4, %r1, %r2, %r0;        // rank
  mov.u32 %r5, %tid.x;
  setp.ne.u32 %p, %r5, 63;
  add.u32 %r6, %r4, 100;
  @!%p st.shared.u32 [word], %r6;
  bar.sync 0;
  setp.ne.u32 %p, %r5, 0;
  @%p bra done;
  ld.global.u32 %r7, [%rd0];
  add.u32 %r8, %r7, 1;
  st.global.u32 [%rd0], %r8;
  mul.wide.u32 %rd1, %r4, 16;
  add.u64 %rd2, %rd0, %rd1;
  ld.shared.u32 %r9, [word];
  ld.shared.u32 %r10, [word+4];
  add.u32 %r11, %r4, 1;
  st.shared.u32 [word+4], %r11;
  st.global.v4.u32 [%rd2+16], {%r7, %r0, %r9, %r10};
  st.global.u32 [%rd0+4], %r2;
  st.global.u32 [%rd0+8], %r3;
done:
  ret;
}
)";

Ran run_grid(InterpreterOptions o) {
  o.ntid = {64, 1, 1};
  return run_ptx(kGrid, [](Ran& r) {
    r.machine->param().store(0, 8, 0x1000);
    for (std::uint64_t a = 0x1000; a < 0x1000 + 16 * 7; a += 4) r.machine->global().store(a, 4, 0xcdcdcdcd);
    r.machine->global().store(0x1000, 4, 0);
  }, o);
}

TEST(Grid, EveryCtaRunsInRankOrderWithItsOwnSharedMemory) {
  InterpreterOptions o;
  o.nctaid = {3, 2, 1};
  const Ran r = run_grid(o);
  const Machine& m = *r.machine;
  ASSERT_EQ(m.ctas(), 6);
  EXPECT_EQ(m.global().load(0x1000, 4), 6U);
  EXPECT_EQ(m.global().load(0x1004, 4), 3U);
  EXPECT_EQ(m.global().load(0x1008, 4), 2U);
  for (std::uint64_t rank = 0; rank < 6; ++rank) {
    const std::uint64_t slot = 0x1010 + 16 * rank;
    EXPECT_EQ(m.global().load(slot, 4), rank) << "CTA " << rank << " ran after " << m.global().load(slot, 4) << " others";
    EXPECT_EQ(m.global().load(slot + 4, 4), rank % 3);
    EXPECT_EQ(m.global().load(slot + 8, 4), rank + 100);
    EXPECT_EQ(m.global().load(slot + 12, 4), 0U) << "shared memory leaked between CTAs";
    const int c = static_cast<int>(rank);
    EXPECT_EQ(m.cta(c).rank, rank);
    EXPECT_EQ(m.cta(c).id, (Dim3{static_cast<int>(rank % 3), static_cast<int>(rank / 3), 0}));
    EXPECT_EQ(m.shared(c).load(4, 4), rank + 1);
    EXPECT_EQ(m.reg(0, r.index("%r4"), c), rank);  // each CTA keeps its registers
  }
  EXPECT_EQ(r.summary.exited.size(), 12U);  // per warp of every CTA
  EXPECT_EQ(r.summary.steps.size(), 6U * 64U);
}

TEST(Grid, SomeCtas) {
  InterpreterOptions o;
  o.nctaid = {3, 2, 1};
  o.ctas = {{4, 5}, {1, 1}, {4, 4}};  // in rank order, each once
  const Ran r = run_grid(o);
  const Machine& m = *r.machine;
  ASSERT_EQ(m.ctas(), 3);
  EXPECT_EQ(m.cta(0).rank, 1U);
  EXPECT_EQ(m.cta(1).rank, 4U);
  EXPECT_EQ(m.cta(2).rank, 5U);
  EXPECT_EQ(m.global().load(0x1000, 4), 3U);
  EXPECT_EQ(m.global().load(0x1010 + 16 * 4, 4), 1U);  // the second to run
  EXPECT_EQ(m.global().load(0x1010, 4), 0xcdcdcdcdU);  // CTA 0 did not run
}

TEST(Grid, BadGridsAreErrors) {
  InterpreterOptions o;
  o.nctaid = {3, 2, 1};
  o.ctas = {{5, 6}};
  EXPECT_EQ(error_of(kGrid, o), "CTAs 5-6 are not in the grid of 3x2x1 = 6 CTAs (ranks 0-5)");
  o.ctas.clear();
  o.nctaid = {1, 0, 1};
  EXPECT_EQ(error_of(kGrid, o), "a grid of 1x0x1 CTAs: each dimension is at least 1, y and z at most 65535");
  // The budgets hold for the whole grid: shared memory (48 KiB a CTA) and registers.
  o.nctaid = {65535, 65535, 65535};
  EXPECT_EQ(error_of(kGrid, o),
            "13834424746248192000 bytes of shared memory (281462092005375 CTAs x 49152 bytes), more than the budget of "
            "268435456 (raise it with --max-shared-bytes)");
  o.nctaid = {4096, 1, 1};
  o.ntid = {1024, 1, 1};
  EXPECT_EQ(error_of(kGrid, o),
            "test.ptx:6:13: error: 71303168 register words (17 registers x 1024 threads x 4096 CTAs), more than the "
            "budget of 16777216 (raise it with --max-register-words)");
}

// Clusters tile the grid: %clusterid, %cluster_ctaid, %cluster_ctarank and the counts per CTA.
TEST(Grid, ClusterRegisters) {
  InterpreterOptions o;
  o.nctaid = {4, 2, 1};
  o.cluster = {2, 2, 1};
  const Ran r = run_ptx(R"(
.reg .b32 %r<8>;
mov.u32 %r0, %clusterid.x;
mov.u32 %r1, %clusterid.y;
mov.u32 %r2, %nclusterid.x;
mov.u32 %r3, %cluster_ctaid.x;
mov.u32 %r4, %cluster_ctaid.y;
mov.u32 %r5, %cluster_nctaid.y;
mov.u32 %r6, %cluster_ctarank;
mov.u32 %r7, %cluster_nctarank;
)",
                        {}, o);
  const Machine& m = *r.machine;
  ASSERT_EQ(m.ctas(), 8);
  for (int c = 0; c < 8; ++c) {
    const int x = c % 4, y = c / 4;
    const auto reg = [&](const char* name) { return m.reg(0, r.index(name), c); };
    EXPECT_EQ(reg("%r0"), static_cast<std::uint64_t>(x / 2)) << c;
    EXPECT_EQ(reg("%r1"), 0U);
    EXPECT_EQ(reg("%r2"), 2U);
    EXPECT_EQ(reg("%r3"), static_cast<std::uint64_t>(x % 2));
    EXPECT_EQ(reg("%r4"), static_cast<std::uint64_t>(y));
    EXPECT_EQ(reg("%r5"), 2U);
    EXPECT_EQ(reg("%r6"), static_cast<std::uint64_t>(x % 2 + 2 * y));
    EXPECT_EQ(reg("%r7"), 4U);
  }
  o.cluster = {3, 1, 1};
  EXPECT_EQ(error_of(".reg .b32 %r;\nmov.u32 %r, %cluster_ctarank;\n", o),
            "a cluster of 3x1x1 CTAs: it must have 1 to 8 CTAs (16 with the non-portable cluster size) and divide the "
            "grid of 4x2x1 in each dimension");
}

// ptxmma run and debug on a grid STATE.yaml declares: every CTA, or those of --ctas, labelled.
TEST(Grid, RunAndDebugShowEveryCta) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "grid.ptx") << ".reg .b32 %r<2>;\nmov.u32 %r0, %ctaid.x;\nmov.u32 %r1, %ctaid.y;\n";
  std::ofstream(dir + "grid.yaml") << "ntid: [1]\nnctaid: [2, 2]\n";
  const CliResult all = run_cli("run " + dir + "grid.ptx --init " + dir + "grid.yaml --lanes 0 --regs %r0,%r1");
  EXPECT_EQ(all.status, 0) << all.err;
  EXPECT_NE(all.out.find("4 CTAs of a 2x2x1 grid, 8 instructions issued"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("CTA (1, 1, 0) warp 0 lane 0\n  %r0   .b32  0x00000001  1\n  %r1   .b32  0x00000001  1\n"),
            std::string::npos)
      << all.out;
  const CliResult some =
      run_cli("run " + dir + "grid.ptx --init " + dir + "grid.yaml --lanes 0 --regs %r0 --ctas 2-3 --json");
  EXPECT_EQ(some.status, 0) << some.err;
  ASSERT_TRUE(nlohmann::json::accept(some.out)) << some.out;
  EXPECT_EQ(nlohmann::json::parse(some.out)["ctas"], nlohmann::json::parse("[[0, 1, 0], [1, 1, 0]]")) << some.out;
  const CliResult bad = run_cli("run " + dir + "grid.ptx --init " + dir + "grid.yaml --ctas 4");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("CTA 4 is not in the grid of 2x2x1 = 4 CTAs (ranks 0-3)"), std::string::npos) << bad.err;
  std::ofstream(dir + "grid.cmd") << "step 3\nprint %r0 0\ncontinue\n";
  const CliResult dbg =
      run_cli("debug " + dir + "grid.ptx --init " + dir + "grid.yaml --commands " + dir + "grid.cmd");
  EXPECT_EQ(dbg.status, 0) << dbg.err;
  EXPECT_NE(dbg.out.find("4 CTAs of 1 warp"), std::string::npos) << dbg.out;
  EXPECT_NE(dbg.out.find("CTA (1, 0, 0) warp 0 lane  0 %r0 = 0x00000001"), std::string::npos) << dbg.out;
}

// A whole grid's input from a binary file and its output to one: each of 2 CTAs of 32 threads
// adds its %ctaid to its thread's word of the input and stores it at 0x2000 onward.
TEST(Grid, MemoryFromAndToFiles) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "files.ptx") << R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry add() {
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  mov.u32 %r0, %ctaid.x;
  mov.u32 %r1, %tid.x;
  mad.lo.u32 %r2, %r0, 32, %r1;
  mul.wide.u32 %rd0, %r2, 4;
  ld.global.u32 %r3, [%rd0+0x1000];
  add.u32 %r3, %r3, %r0;
  st.global.u32 [%rd0+0x2000], %r3;
  ret;
}
)";
  std::string in(256, '\0');
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<char>(i * 7);
  std::ofstream(dir + "files_in.bin", std::ios::binary) << in;
  std::ofstream(dir + "files.yaml") << "ntid: [32]\nnctaid: [2]\nglobal:\n  - {address: 0x1000, file: files_in.bin}\n";
  const CliResult r = run_cli("run " + dir + "files.ptx --init " + dir + "files.yaml --no-registers --save-global 0x2000:256=" +
                              dir + "files_out.bin");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("warp 0 lane"), std::string::npos) << r.out;  // --no-registers
  std::string want = in;
  for (std::size_t w = 32; w < 64; ++w) want[4 * w] = static_cast<char>(want[4 * w] + 1);  // CTA 1 adds 1 (no carry here)
  EXPECT_EQ(slurp(dir + "files_out.bin"), want);
  const CliResult unwritten = run_cli("run " + dir + "files.ptx --init " + dir + "files.yaml --no-registers --save-global 0x2000:260=" +
                                      dir + "files_out.bin");
  EXPECT_EQ(unwritten.status, 1);
  EXPECT_NE(unwritten.err.find("global memory"), std::string::npos) << unwritten.err;
}

// A run that ends in an error still shows what the kernel checks found before it (often the
// cause), and the error names the CTA and warp, for any --jobs.
TEST(Grid, AnErrorComesAfterTheWarningsAndNamesItsWarp) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "trap.ptx") << R"(.version 8.0
.target sm_90a
.visible .entry k()
{
  .reg .b32 %r<4>;
  .reg .pred %p;
  .shared .b32 s[1];
  mov.u32 %r1, %tid.x;
  st.shared.b32 [s], %r1;
  bar.sync 0;
  mov.u32 %r2, %ctaid.x;
  setp.eq.u32 %p, %r2, 1;
  @%p trap;
  ret;
}
)";
  std::ofstream(dir + "trap.yaml") << "ntid: [64]\nnctaid: [3]\n";
  for (const char* jobs : {"1", "2"}) {
    const CliResult r = run_cli("run " + dir + "trap.ptx --init " + dir + "trap.yaml --no-registers -j " + jobs);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, dir + "trap.ptx:9:3: warning: racecheck: CTA (0, 0, 0) warp 1 lane 0 writes shared byte 0x0, "
                     "which CTA (0, 0, 0) warp 0 wrote at line 9 with no barrier between them (a write-after-write "
                     "hazard)\n" + dir + "trap.ptx:13:7: error: 'trap' in CTA (1, 0, 0) warp 0: trap executed by "
                     "lanes 0-31\n")
        << jobs;
  }
}

}  // namespace
}  // namespace ptxmma::test
