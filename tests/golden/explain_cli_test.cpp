// `ptxmma explain`: a golden case's terms against the set's own A and B, the JSON document, a
// sparse golden set (an instruction has an entry per sparsity selector), misspelt names.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "isa/wmma_instruction.hpp"
#include "sim/numeric/exact.hpp"
#include "tests/cli.hpp"
#include "tests/paths.hpp"
#include "sim/util/input_file.hpp"
#include "tools/vectors/data_file.hpp"
#include "tools/vectors/golden_set.hpp"

namespace ptxmma {
namespace {

using test::run_cli;
namespace fs = std::filesystem;

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

// The terms explain prints are the golden case's A row and B column, k by k, with their exact values.
TEST(ExplainCli, TermsAreTheCasesOperands) {
  const std::string dir = std::string(kPtxmmaSourceDir) + "/tests/data/mma-sm90-h200";
  const std::string ptx = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
  const auto r = run_cli("explain " + dir + " " + ptx + " --case 1 --row 3 --col 2 --json");
  ASSERT_EQ(r.status, 0) << r.all();
  const auto j = nlohmann::json::parse(r.out);
  const GoldenSet set = read_golden_set(dir);
  const GoldenVariant* gv = nullptr;
  for (const auto& v : set.variants)
    if (v.ptx == ptx) gv = &v;
  ASSERT_NE(gv, nullptr);
  const GoldenCase c = read_golden_cases(*gv)[1];
  const MatrixVariant& v = *parse_warp_mma(ptx, "sm_90a").variant;
  ASSERT_EQ(j["terms"].size(), 16U);
  for (int k = 0; k < 16; ++k) {
    const auto& t = j["terms"][static_cast<std::size_t>(k)];
    EXPECT_EQ(t["k"], k);
    const std::uint64_t a = v.codec(Operand::a).code(c.a, 3, k), b = v.codec(Operand::b).code(c.b, k, 2);
    EXPECT_EQ(std::stoull(t["a"]["hex"].get<std::string>(), nullptr, 16), a) << k;
    EXPECT_EQ(std::stoull(t["b"]["hex"].get<std::string>(), nullptr, 16), b) << k;
    EXPECT_EQ(t["a"]["value"], exact_text(Type::f16, a));
    const Rational p = exact_value(Type::f16, a).value * exact_value(Type::f16, b).value;
    if (p != 0) {
      EXPECT_EQ(t["product"]["value"], exact_decimal(p)) << k;
    }
  }
  EXPECT_EQ(std::stoull(j["accumulator"]["hex"].get<std::string>(), nullptr, 16), v.codec(Operand::c).code(c.c, 3, 2));
  EXPECT_EQ(j["same"], true);
  EXPECT_EQ(j["got"], j["expected"]);  // replay's names for ptxmma's and the GPU's value
  EXPECT_TRUE(j["register"].is_number());
  EXPECT_EQ(j["rounding"]["mode"], "rz");
  // The text is the same document: its steps, and the result with the GPU's value.
  const auto text = run_cli("explain " + dir + " " + ptx + " --case 1 --row 3 --col 2");
  for (const auto& line : j["steps"]) EXPECT_NE(text.out.find("  " + line.get<std::string>() + "\n"), std::string::npos) << line;
  EXPECT_NE(text.out.find("C, the accumulator: " + j["accumulator"]["hex"].get<std::string>()), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("rounding: truncate: round toward zero (rz)"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("approx"), std::string::npos) << text.out;
  // --json FILE keeps the text.
  const std::string file = ::testing::TempDir() + "explain.json";
  const auto both = run_cli("explain " + dir + " " + ptx + " --case 1 --row 3 --col 2 --json " + file);
  EXPECT_EQ(both.out, text.out);
  EXPECT_EQ(nlohmann::json::parse(test::slurp(file)), j);
}

TEST(ExplainCli, MisspeltInstructionGetsTheSetsNearestVariant) {
  const auto r = run_cli("explain " + std::string(kPtxmmaSourceDir) +
                         "/tests/data/mma-sm90-h200 mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f23");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no variant 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f23' (did you mean "
                       "'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'?)"),
            std::string::npos)
      << r.err;
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

// A wgmma set: a copy with thread 127's last D word of the last case of entry 0 changed. The
// replay names the element with an explain command (--entry: the set has six forms of the
// instruction) that runs and shows the difference; other entries explain with the GPU's bits.
TEST(ExplainCli, WgmmaSetsExplainTheirEntries) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("ptxmma-explain-wgmma-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(std::string(kPtxmmaSourceDir) + "/tests/data/wgmma-sm90", dir, fs::copy_options::recursive);
  const fs::path xz = dir / "m64n8k16.f32.f16.f16.ss.bin.xz";
  const std::string packed = read_input_file(xz.string());
  std::vector<std::uint8_t> bytes = decode_data_file(packed, xz.string(), 1 << 24);
  bytes.back() ^= 1;
  std::ofstream(dir / "m64n8k16.f32.f16.f16.ss.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  fs::remove(xz);
  const std::string ptx = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16";
  const auto r = run_cli("replay " + dir.string());
  EXPECT_EQ(r.status, 1) << r.all();
  const std::string cmd = "ptxmma explain " + dir.string() + " " + ptx + " --entry 0 --case ";
  const auto at = r.out.find(cmd);
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  const auto ex = run_cli(line.substr(std::string("ptxmma ").size()));
  EXPECT_EQ(ex.status, 0) << ex.all();
  EXPECT_NE(ex.out.find(ptx + " [SS] (entry 0) case "), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("(thread 127 register 3 element 0)"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("DIFFERENT"), std::string::npos) << ex.out;
  // An RS entry of the same instruction (manifest index 72), from the set as captured.
  const std::string set = std::string(kPtxmmaSourceDir) + "/tests/data/wgmma-sm90";
  const auto rs = run_cli("explain " + set + " " + ptx + " --entry 72 --case 2 --row 40 --col 6 --json");
  ASSERT_EQ(rs.status, 0) << rs.all();
  const auto j = nlohmann::json::parse(rs.out);
  EXPECT_EQ(j["form"], ptx + " [RS]");
  EXPECT_EQ(j["terms"].size(), 16U);
  EXPECT_EQ(j["same"], true);
  EXPECT_NE(run_cli("explain " + set + " " + ptx + " --entry 9 --case 0").err.find("--entry 9: not an entry of"),
            std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ptxmma
