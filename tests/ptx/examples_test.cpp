// The examples/ snippets with their initial states, in process (every result checked) and
// through `ptxmma run` (output format, filters, errors and exit status).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "isa/ptx_parser.hpp"
#include "tests/cli.hpp"
#include "tests/paths.hpp"
#include "tests/ptx/ptx_test_util.hpp"
#include "tools/vectors/ptx_state.hpp"

namespace ptxmma {
namespace {

const std::string kDir = std::string(kPtxmmaSourceDir) + "/examples/";

struct Example {
  std::unique_ptr<ptx::Program> program;
  std::unique_ptr<Machine> machine;
  [[nodiscard]] std::uint64_t reg(int lane, const std::string& n) const {
    const int r = program->find_register(n);
    EXPECT_GE(r, 0) << n;
    return r < 0 ? 0 : machine->reg(lane, r);
  }
};

Example run_example(const std::string& name, bool with_state) {
  Example e;
  e.program = std::make_unique<ptx::Program>(ptx::parse_ptx_file(kDir + name + ".ptx"));
  InterpreterOptions o;
  const PtxState s = with_state ? PtxState::load(kDir + name + ".yaml") : PtxState();
  s.configure(o);
  e.machine = std::make_unique<Machine>(*e.program, o);
  s.apply(*e.machine);
  e.machine->run();
  return e;
}

// f32 bits of a small non-negative integer (exact).
std::uint32_t f32_of(std::uint32_t v) {
  if (v == 0) return 0;
  int e = 31;
  while (!((v >> e) & 1U)) --e;
  const std::uint32_t mant = e >= 23 ? (v >> (e - 23)) : (v << (23 - e));
  return (static_cast<std::uint32_t>(127 + e) << 23) | (mant & 0x7fffffU);
}

TEST(PtxExamples, MmaF16WithLdmatrix) {
  const Example e = run_example("mma_f16_ldmatrix", true);
  const auto D = [](int i, int n) {
    std::uint32_t s = 0;
    for (int k = 0; k < 16; ++k) s += static_cast<std::uint32_t>((16 * i + k) * (8 * k + n));
    return s;
  };
  EXPECT_EQ(D(0, 0), 9920U);
  for (int lane = 0; lane < 32; ++lane) {
    SCOPED_TRACE(lane);
    const int g = lane / 4, c = 2 * (lane % 4);
    EXPECT_EQ(e.reg(lane, "%f0"), f32_of(D(g, c)));
    EXPECT_EQ(e.reg(lane, "%f1"), f32_of(D(g, c + 1)));
    EXPECT_EQ(e.reg(lane, "%f2"), f32_of(D(g + 8, c)));
    EXPECT_EQ(e.reg(lane, "%f3"), f32_of(D(g + 8, c + 1)));
  }
}

TEST(PtxExamples, CvtPack) {
  const Example e = run_example("cvt_pack", true);
  EXPECT_EQ(e.reg(0, "%a"), 0x40533333U);    // 3.3 rounded into f32
  EXPECT_EQ(e.reg(0, "%h2"), 0x429ab100U);   // (3.30078125, -0.15625) in f16, a high
  EXPECT_EQ(e.reg(0, "%bf2"), 0x4053be20U);
  EXPECT_EQ(e.reg(0, "%q0"), 0x45a2U);       // e4m3 3.25 | -0.15625
  EXPECT_EQ(e.reg(0, "%q1"), 0x43b1U);       // e5m2 3.5 | -0.15625
  EXPECT_EQ(e.reg(0, "%fp4"), 0x58U);        // e2m1 3 | -0
  EXPECT_EQ(e.reg(0, "%q2"), 0x1322U);       // e3m2 3.5 | -0.125 (a tie to even)
  EXPECT_EQ(e.reg(0, "%q3"), 0x1521U);       // e2m3 3.25 | -0.125
  EXPECT_EQ(e.reg(0, "%q4"), 0x4500U);       // .relu: the negative one is +0
  EXPECT_EQ(e.reg(0, "%up"), 0x4280b100U);   // back to f16x2: (3.25, -0.15625)
  EXPECT_EQ(e.reg(0, "%tf"), 0x3f802000U);
  EXPECT_EQ(e.reg(0, "%tn"), 0x3f800000U);
  EXPECT_EQ(e.reg(0, "%lo"), 0xb100U);
  EXPECT_EQ(e.reg(0, "%hi"), 0x429aU);
  EXPECT_EQ(e.reg(0, "%packed"), 0xb100429aU);
}

TEST(PtxExamples, DivergentLoop) {
  const Example e = run_example("divergent_loop", false);
  for (int lane = 0; lane < 32; ++lane) {
    SCOPED_TRACE(lane);
    const unsigned n = static_cast<unsigned>(lane % 4 + 1);
    const unsigned sum = n * (n + 1) / 2;
    EXPECT_EQ(e.reg(lane, "%r4"), lane % 2 ? 10 * sum : sum);
    std::uint32_t last = 0;  // lanes still looping in iteration n
    for (int l = 0; l < 32; ++l)
      if (static_cast<unsigned>(l % 4 + 1) >= n) last |= 1U << l;
    EXPECT_EQ(e.reg(lane, "%r5"), last);
    EXPECT_EQ(e.reg(lane, "%r6"), 0xffffffffU);
    EXPECT_EQ(e.reg(lane, "%r8"), lane % 2 ? 0xaaaaaaaaU : 0x55555555U);
    EXPECT_EQ(e.reg(lane, "%r9"), 0xffffffffU);
  }
}

TEST(PtxExamples, Fp8Mma) {
  const Example e = run_example("fp8_mma", true);
  for (int lane = 0; lane < 32; ++lane)
    for (const char* d : {"%d0", "%d1", "%d2", "%d3"}) EXPECT_EQ(e.reg(lane, d), 0x41c80000U);  // 25
}

TEST(PtxExamples, ShuffleReduction) {
  const Example e = run_example("shfl_reduce", false);
  for (int lane = 0; lane < 32; ++lane) {
    SCOPED_TRACE(lane);
    EXPECT_EQ(e.reg(lane, "%r3"), 11440U);  // sum of k^2, k = 1..32
    EXPECT_EQ(e.reg(lane, "%r4"), 1024U);
    EXPECT_EQ(e.reg(lane, "%r6"), 36U);     // lane 5's (5 + 1)^2
    EXPECT_EQ(e.reg(lane, "%r7"), static_cast<std::uint64_t>(lane == 0 ? 1 : lane * lane));
    EXPECT_EQ(e.reg(lane, "%p1"), lane == 0 ? 0U : 1U);
  }
}

// The f64 mma against the same chain of scalar fma.f64 (the DMMA model: fma(a_k, b_k, acc) for
// k increasing from C, each rounded in the instruction's mode).
TEST(PtxExamples, MmaF64MatchesAnFmaChain) {
  const Example e = run_example("mma_f64", true);
  const test::Ran chain = test::run_ptx(R"(
    .reg .f64 %n, %z;
    mov.f64 %n, 0d3C30000000000000;
    mov.f64 %z, %n;
    fma.rn.f64 %n, 0d4000000000000000, 0d3FD5555555555555, %n;
    fma.rn.f64 %n, 0d4008000000000000, 0d3FD5555555555555, %n;
    fma.rn.f64 %n, 0d4010000000000000, 0d3FD5555555555555, %n;
    fma.rn.f64 %n, 0d4014000000000000, 0d3FD5555555555555, %n;
    fma.rz.f64 %z, 0d4000000000000000, 0d3FD5555555555555, %z;
    fma.rz.f64 %z, 0d4008000000000000, 0d3FD5555555555555, %z;
    fma.rz.f64 %z, 0d4010000000000000, 0d3FD5555555555555, %z;
    fma.rz.f64 %z, 0d4014000000000000, 0d3FD5555555555555, %z;
  )");
  // Row 1 (A = 2, 3, 4, 5) is in lanes 4..7; D column 2 * (lane % 4) is %dn0.
  EXPECT_EQ(e.reg(4, "%dn0"), chain.reg(0, "%n"));
  EXPECT_EQ(e.reg(4, "%dz0"), chain.reg(0, "%z"));
  EXPECT_EQ(e.reg(4, "%dn0"), 0x4012aaaaaaaaaaabULL);
  EXPECT_EQ(e.reg(4, "%dz0"), 0x4012aaaaaaaaaaaaULL);
}

// D[m][n] = m mod 16 + n (A picks k = m mod 16 of B's column, B[k][n] = k + n): lane t holds row t.
TEST(PtxExamples, Tcgen05Mma) {
  const auto r = test::run_cli("run " + kDir + "tcgen05_mma.ptx --init " + kDir +
                         "tcgen05_mma.yaml --arch sm_100a --no-registers --dump-tmem 0-127:0-7 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"];
  const auto& lanes = j["tmem"][0]["lanes"];
  ASSERT_EQ(lanes.size(), 128U);
  for (int m = 0; m < 128; ++m)
    for (int n = 0; n < 8; ++n)
      ASSERT_EQ(lanes[static_cast<std::size_t>(m)]["words"][static_cast<std::size_t>(n)].get<std::uint32_t>(),
                f32_of(static_cast<std::uint32_t>(m % 16 + n)))
          << m << ", " << n;
  // Without --arch sm_100a the models have no tcgen05 kinds: a located error that says so.
  const auto bad = test::run_cli("run " + kDir + "tcgen05_mma.ptx --init " + kDir + "tcgen05_mma.yaml");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("tcgen05_mma.ptx:22:5: error: 'tcgen05.mma.cta_group::1.kind::f16': no rounding model for "
                         "tcgen05_f16 with f16 inputs and f32 output on sm_90a (tcgen05.mma's models are sm_100a's: "
                         "--arch sm_100a)"),
            std::string::npos)
      << bad.err;
}

// ---- through the CLI ----------------------------------------------------------------------------

using test::run_cli;

TEST(PtxRunCli, EveryExampleRuns) {
  for (const char* name : {"mma_f16_ldmatrix", "cvt_pack", "divergent_loop", "fp8_mma", "shfl_reduce", "mma_f64", "tma_box"}) {
    SCOPED_TRACE(name);
    const std::string yaml = kDir + name + ".yaml";
    const bool has = std::ifstream(yaml).good();
    const auto r = run_cli("run " + kDir + name + ".ptx" + (has ? " --init " + yaml : ""));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("lane 31\n"), std::string::npos);
  }
}

TEST(PtxRunCli, FiltersAndTypedViews) {
  const auto r = run_cli("run " + kDir + "mma_f16_ldmatrix.ptx --init " + kDir + "mma_f16_ldmatrix.yaml --lanes 0,9 --regs %f0,%f1,%r10 --as %r10=f16x2");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string want =
      kDir + "mma_f16_ldmatrix.ptx: kernel mma_f16_ldmatrix (sm_90a), 23 instructions issued; lanes exited: 0xffffffff\n"
             "lane 0\n"
             "  %r10  .f16x2  0x3c000000  (0, 1)\n"
             "  %f0   .f32    0x461b0000  9920\n"
             "  %f1   .f32    0x461ce000  10040\n"
             "lane 9\n"
             "  %r10  .f16x2  0x50605040  (34, 35)\n"     // A[2][2], A[2][3]
             "  %f0   .f32    0x4723b000  41904\n"        // D[2][2] = sum_k (32 + k)(8k + 2)
             "  %f1   .f32    0x47262800  42536\n";
  EXPECT_EQ(r.out, want);
  // An FP8 register as four values.
  const auto f = run_cli("run " + kDir + "fp8_mma.ptx --init " + kDir + "fp8_mma.yaml --lanes 0 --regs %a0 --as %a0=e4m3x4");
  EXPECT_NE(f.out.find("  %a0   .e4m3x4  0x3c3c3c3c  (1.5, 1.5, 1.5, 1.5)\n"), std::string::npos) << f.out;
}

TEST(PtxRunCli, ErrorsAreLocatedAndExitOne) {
  const std::string path = ::testing::TempDir() + "ptxmma_bad_" + std::to_string(getpid()) + ".ptx";
  std::ofstream(path) << ".reg .b32 %r1;\nadd.s32 %r1, %r7, 1;\nfrobnicate;\n";
  const auto r = run_cli("run " + path);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, path + ":2:14: error: register '%r7' is not declared\n" + path +
                       ":3:1: error: unknown instruction 'frobnicate'\n");
  std::remove(path.c_str());
  // A state naming a register the snippet does not declare.
  const std::string yaml = ::testing::TempDir() + "ptxmma_bad_" + std::to_string(getpid()) + ".yaml";
  std::ofstream(yaml) << "registers:\n  \"%nope\": 1\n";
  const auto s = run_cli("run " + kDir + "shfl_reduce.ptx --init " + yaml);
  EXPECT_EQ(s.status, 1);
  EXPECT_EQ(s.err, "ptxmma: error: " + yaml + ":2:3: register %nope is not declared in " + kDir + "shfl_reduce.ptx\n");
  std::remove(yaml.c_str());
  const auto l = run_cli("run " + kDir + "shfl_reduce.ptx --lanes 40");
  EXPECT_EQ(l.status, 1);
  EXPECT_EQ(l.err, "ptxmma: error: --lanes: bad lane list '40' (e.g. 0-3,8; lanes 0..31)\n");
}

}  // namespace
}  // namespace ptxmma
