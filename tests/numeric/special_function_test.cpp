// The approximate special functions against the GPU: tests/data/special-sm90/edges.txt holds each
// modelled instruction's results on an H200 for its edge inputs (zeros, subnormals, infinities, NaN
// payloads, ex2's thresholds, ...) and pseudo-random ones; tools/capture/special_check wrote it in
// the same run that checked the models on all 2^32 inputs. Also the tables' file format and
// `ptxmma eval`.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "sim/catalog/special_function.hpp"
#include "sim/numeric/special_table.hpp"
#include "tests/cli.hpp"
#include "tests/special_edges.hpp"

namespace ptxmma {
namespace {

TEST(SpecialFunction, GpuEdgeValues) {
  const std::vector<test::EdgeLine> lines = test::special_edge_lines();
  std::set<std::string> seen;
  for (const test::EdgeLine& e : lines) {
    const auto s = parse_special_instruction(e.ptx);
    ASSERT_TRUE(s) << e.ptx;
    ASSERT_EQ(e.in.size(), static_cast<std::size_t>(arity(*s))) << e.ptx;
    EXPECT_EQ(evaluate(*s, e.in[0], e.in.size() > 1 ? e.in[1] : 0), e.out) << e.ptx << " " << e.in[0];
    seen.insert(e.ptx);
  }
  EXPECT_GT(lines.size(), 5000U);
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
  // div takes pairs: 1 / -3, and 1 / (2^126 (1 + 2^-23)), where div.approx gives 0 and div.full
  // scales both by 1/4 first (edges.txt).
  r = test::run_cli("eval div.full.f32 1 -3 1 0x7e800001");
  EXPECT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("div.full.f32 0x3f800000 (1) 0xc0400000 (-3) -> 0xbeaaaaab"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0x7e800001 (8.5070601871439418e37 (approx.)) -> 0x007fffff"), std::string::npos) << r.out;
  r = test::run_cli("eval div.approx.f32 1");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("pairs"), std::string::npos) << r.err;
  r = test::run_cli("eval rcp.approx.ftz.f64 2");
  EXPECT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("0x4000000000000000 (2) -> 0x3fe0000000000000 (0.5)"), std::string::npos) << r.out;
  r = test::run_cli("eval ex2.approx.f64 1");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown instruction 'ex2.approx.f64'"), std::string::npos) << r.err;
  r = test::run_cli("eval rcp.approx.f32 banana");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("banana"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ptxmma
