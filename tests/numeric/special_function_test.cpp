// The approximate special functions against the GPU: tests/data/special-sm90/edges.txt holds each
// modelled instruction's results on an H200 for its edge inputs (zeros, subnormals, infinities, NaN
// payloads, ex2's thresholds, ...) and pseudo-random ones; tools/capture/special_check wrote it in
// the same run that checked the models on all 2^32 inputs. Also the tables' file format and
// `ptxmma eval`.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "sim/error.hpp"
#include "sim/catalog/special_function.hpp"
#include "sim/numeric/special_table.hpp"
#include "tests/cli.hpp"

namespace ptxmma {
namespace {

TEST(SpecialFunction, GpuEdgeValues) {
  std::ifstream in(std::string(PTXMMA_SOURCE_DIR) + "/tests/data/special-sm90/edges.txt");
  ASSERT_TRUE(in) << "tests/data/special-sm90/edges.txt";
  std::string line;
  int checked = 0, line_no = 0;
  std::set<std::string> seen;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream ls(line);
    std::string ptx, x, want;
    ASSERT_TRUE(ls >> ptx >> x >> want) << "line " << line_no;
    const auto s = parse_special_instruction(ptx);
    ASSERT_TRUE(s) << ptx;
    const auto got = evaluate(*s, static_cast<std::uint32_t>(std::stoul(x, nullptr, 16)));
    EXPECT_EQ(got, std::stoul(want, nullptr, 16)) << ptx << " " << x;
    seen.insert(ptx);
    ++checked;
  }
  EXPECT_GT(checked, 1000);
  // Every modelled instruction with its own table row in the file (x2 forms are checked below).
  for (const auto& n : special_instruction_names()) {
    if (!n.ends_with("x2")) {
      EXPECT_TRUE(seen.count(n)) << n << " has no edge values";
    }
  }
}

TEST(SpecialFunction, PairedFormsAreLaneWise) {
  const auto h = parse_special_instruction("ex2.approx.f16");
  const auto h2 = parse_special_instruction("ex2.approx.f16x2");
  ASSERT_TRUE(h && h2);
  const std::uint32_t x = 0xbc003c00u;  // (-1, 1)
  EXPECT_EQ(evaluate(*h2, x), evaluate(*h, x >> 16) << 16 | evaluate(*h, x & 0xffff));
  EXPECT_EQ(evaluate(*h2, x), 0x38004000u);  // (0.5, 2)
}

TEST(SpecialTable, RoundTripAndMalformed) {
  SpecialTable t{"test.table", 4, {0, 5, 0xffffffffu, 0x80000000u, 7, 7, 7, 1, 2, 3, 4, 5, 6, 9, 0x7f800000u, 3}};
  const std::string enc = encode_special_table(t);
  const SpecialTable back = decode_special_table("mem", enc);
  EXPECT_EQ(back.name, t.name);
  EXPECT_EQ(back.index_bits, 4u);
  EXPECT_EQ(back.entries, t.entries);
  EXPECT_THROW(decode_special_table("mem", enc.substr(0, enc.size() - 1)), Error);
  EXPECT_THROW(decode_special_table("mem", enc + "x"), Error);
  EXPECT_THROW(decode_special_table("mem", "ptxmma-special-table 1 x 40\n"), Error);
  EXPECT_THROW(decode_special_table("mem", "something else\n"), Error);
  EXPECT_THROW(read_special_table("/nonexistent/table.xz"), Error);
}

TEST(EvalCommand, PrintsBitsAndValues) {
  auto r = test::run_cli("eval ex2.approx.ftz.f32 0x3f800000 -1 0.5");
  EXPECT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("ex2.approx.ftz.f32 0x3f800000 (1) -> 0x40000000 (2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0xbf800000 (-1) -> 0x3f000000 (0.5)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0x3f000000 (0.5) -> 0x3fb504f3"), std::string::npos) << r.out;
  r = test::run_cli("eval tanh.approx.bf16x2 0x3f80bf80");
  EXPECT_EQ(r.status, 0) << r.all();
  r = test::run_cli("eval sin.approx.f32 1");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown instruction 'sin.approx.f32'"), std::string::npos) << r.err;
  r = test::run_cli("eval rcp.approx.f32 banana");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("banana"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ptxmma
