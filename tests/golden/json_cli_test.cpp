// One --json convention for every command: `--json` or `--json -` prints the document on stdout
// instead of the text, `--json FILE` writes it beside the text; numbers are numbers, the
// instruction is "instruction"; an error is JSON too. And "did you mean" for misspelt names.
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli.hpp"
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

using test::run_cli;
using test::slurp;

const std::string kSrc = std::string(kPtxmmaSourceDir) + "/";

nlohmann::json json_of(const std::string& args) {
  const auto r = run_cli(args);
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << args << "\n" << r.all();
  return nlohmann::json::parse(r.out, nullptr, false);
}

TEST(JsonCli, StdoutByDefaultDashIsStdoutAFileKeepsTheText) {
  const auto a = json_of("format e4m3 0x7e --json");
  EXPECT_EQ(a["value"], "448");
  EXPECT_EQ(a["exponent"], 8);  // a number
  EXPECT_EQ(a["class"], "normal");
  EXPECT_EQ(json_of("format e4m3 0x7e --json -"), a);
  const std::string file = ::testing::TempDir() + "format.json";
  const auto t = run_cli("format e4m3 0x7e --json " + file);
  EXPECT_EQ(t.status, 0) << t.all();
  EXPECT_NE(t.out.find("  exact:     448\n"), std::string::npos) << t.out;
  EXPECT_EQ(nlohmann::json::parse(slurp(file)), a);
  const auto c = json_of("format f32 0.1 --to e4m3 --satfinite --json");
  EXPECT_EQ(c["converted"]["type"], "e4m3");
  EXPECT_EQ(c["converted"]["satfinite"], true);
}

TEST(JsonCli, EveryCommand) {
  const auto e = json_of("eval ex2.approx.f32 1 --json");
  ASSERT_EQ(e.size(), 1U);
  EXPECT_EQ(e[0]["instruction"], "ex2.approx.f32");
  EXPECT_EQ(e[0]["result"]["hex"], "0x40000000");

  const auto r = json_of("replay " + kSrc + "tests/data/probes-sm90 -j 2 --json");
  EXPECT_EQ(r["failed"], 0);
  EXPECT_TRUE(r["passed"].is_number());
  EXPECT_EQ(r["variants"][0]["instruction"].get<std::string>().rfind("mma.sync.aligned.", 0), 0U) << r["variants"][0];

  const auto t = json_of("test " + kSrc + "examples/mma_int8.test.yaml -j 2 --json");
  EXPECT_EQ(t["failed"], 0);
  ASSERT_GT(t["cases"].size(), 0U);
  EXPECT_EQ(t["cases"][0]["passed"], true);

  const auto x = json_of("explain " + kSrc +
                         "tests/data/mma-sm90-h200 mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 --case 1 --row 0 "
                         "--col 2 --json");
  EXPECT_EQ(x["instruction"], "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  EXPECT_EQ(x["row"], 0);
  EXPECT_EQ(x["same"], true);
  EXPECT_GT(x["steps"].size(), 0U);

  const auto l = json_of("layout mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 --operand d --json");
  const auto& d = l["operands"]["D"];
  EXPECT_EQ(d["rows"], 16);
  EXPECT_EQ(d["cells"][8][1], (nlohmann::json{{"lane", 0}, {"register", 3}, {"element", 0}})) << d["cells"][8];
  EXPECT_FALSE(l["operands"].contains("A"));

  const auto run = json_of("run " + kSrc + "examples/shfl_reduce.ptx --lanes 0 --regs %r3 --json -");
  EXPECT_EQ(run["threads"][0]["registers"]["%r3"]["hex"], "0x00002cb0");  // 11440
}

// bench --kernel: each run issues what `run` reports for the same kernel and state.
TEST(JsonCli, BenchKernelCountsTheRunsWarpInstructions) {
  const std::string ptx = kSrc + "bench/interpreter/alu_loop.ptx", state = kSrc + "bench/interpreter/alu_loop.yaml";
  const auto run = json_of("run " + ptx + " --init " + state + " --no-registers --json");
  const auto b = json_of("bench --kernel " + ptx + "=" + state + " --seconds 0.01 --json");
  ASSERT_EQ(b.size(), 1U);
  EXPECT_EQ(b[0]["state"], state);
  EXPECT_GE(b[0]["runs"], 1);
  EXPECT_EQ(b[0]["warp_instructions"], b[0]["runs"].get<std::uint64_t>() * run["instructions"].get<std::uint64_t>());
  EXPECT_GT(b[0]["per_cpu_second"], 0);
  EXPECT_EQ(run_cli("bench --kernel " + ptx + " mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32").status, 1);
}

TEST(JsonCli, ErrorsAreJsonToo) {
  const auto r = run_cli("format e4m3 zz --json");
  EXPECT_EQ(r.status, 1);
  ASSERT_TRUE(nlohmann::json::accept(r.out)) << r.all();
  EXPECT_NE(nlohmann::json::parse(r.out)["error"].get<std::string>().find("zz"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("ptxmma: error: "), std::string::npos);
}

TEST(JsonCli, DidYouMean) {
  EXPECT_NE(run_cli("format e4m4 1").err.find("unknown type 'e4m4' (did you mean 'e4m3'?)"), std::string::npos);
  EXPECT_NE(run_cli("eval ex2.aprox.f32 1").err.find("(did you mean 'ex2.approx.f32'?)"), std::string::npos);
  // A matrix instruction: the catalogue's nearest variant.
  const auto l = run_cli("layout mma.sync.aligned.m16n8k61.row.col.f32.f16.f16.f32");
  EXPECT_EQ(l.status, 1);
  EXPECT_NE(l.err.find("(did you mean 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'?)"), std::string::npos)
      << l.err;
  EXPECT_NE(run_cli("layout wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f61").err.find(
                "(did you mean 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16'?)"),
            std::string::npos);
  // A key of a test vector file.
  const std::string file = ::testing::TempDir() + "typo.test.yaml";
  std::ofstream(file) << ("target: sm_90a\ncases:\n  - name: x\n    instruction: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n"
                         "    A: {fill: 1}\n    B: {fill: 1}\n    expectt: {D: {fill: 16}}\n");
  const auto t = run_cli("test " + file);
  EXPECT_NE(t.all().find("unknown key 'expectt'"), std::string::npos) << t.all();
  EXPECT_NE(t.all().find("(did you mean 'expect'?)"), std::string::npos) << t.all();
}

}  // namespace
}  // namespace ptxmma
