// explain for a numerics person (tools/vectors/explanation.hpp): every term with its k, A, B and
// exact product, C marked, the alignment with the bits dropped, the rounding rule by name, exact
// decimals, and which operand made a NaN; for one dot product run through the H200's models.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "isa/wmma_instruction.hpp"
#include "sim/model/dot.hpp"
#include "sim/model/model.hpp"
#include "tools/vectors/explanation.hpp"

namespace ptxmma {
namespace {

using nlohmann::json;

struct Explained {
  json doc;
  std::string text;
};

// D[0][0] of `ptx` on sm_90a for one row of A, one column of B (codes; the rest zero) and C.
Explained explain(const std::string& ptx, std::vector<std::uint64_t> a, std::vector<std::uint64_t> b,
                  std::uint64_t c) {
  const MmaInstruction ins = parse_warp_mma(ptx, "sm_90a");
  const MatrixVariant& v = *ins.variant;
  const Model& m = models_for("sm_90a").select(v.family, v.a, v.d);
  a.resize(static_cast<std::size_t>(v.shape.k));
  b.resize(a.size());
  DotRequest r{v.a, v.b, v.c, v.d, a.data(), b.data(), v.shape.k, c};
  r.rounding = ins.rounding.value_or(Rounding::rn);
  DotTrace trace;
  (void)dot(m, r, &trace);
  Explained e{explanation_json(m, trace), ""};
  for (const std::string& l : explanation_lines(e.doc)) e.text += l + "\n";
  return e;
}

const std::string kF16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
const std::string kBf16 = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";

TEST(Explanation, TermsWithTheirKValuesAndExactProducts) {
  // A[0][2] = 1.5, B[2][0] = -2.5, A[0][5] = B[5][0] = 2^-24 (f16's smallest subnormal); C = f32 0.1
  const Explained e = explain(kF16, {0, 0, 0x3e00, 0, 0, 0x0001}, {0, 0, 0xc100, 0, 0, 0x0001}, 0x3dcccccd);
  const json& t = e.doc["terms"][2];
  EXPECT_EQ(t["k"], 2);
  EXPECT_EQ(t["a"], (json{{"hex", "0x3e00"}, {"value", "1.5"}}));
  EXPECT_EQ(t["b"], (json{{"hex", "0xc100"}, {"value", "-2.5"}}));
  EXPECT_EQ(t["product"]["value"], "-3.75");
  EXPECT_EQ(e.doc["terms"][5]["product"]["value"], "3.552713678800500929355621337890625e-15");  // 2^-48, exactly
  // C is the accumulator, its value exact: f32 0.1 is 0.100000001490116119384765625, not "0.1 (approx.)".
  EXPECT_EQ(e.doc["accumulator"]["value"], "0.100000001490116119384765625");
  EXPECT_NE(e.text.find("  k 2: 0x3e00 = 1.5 x 0xc100 = -2.5 = -3.75\n"), std::string::npos) << e.text;
  EXPECT_NE(e.text.find("C, the accumulator: 0x3dcccccd = 0.100000001490116119384765625\n"), std::string::npos) << e.text;
  EXPECT_EQ(e.text.find("approx"), std::string::npos) << e.text;
  EXPECT_EQ(e.text.find(" mod "), std::string::npos) << e.text;
}

TEST(Explanation, AlignmentDropsBitsAndNamesTheRounding) {
  // E = 1 (the product -3.75); F = 25 keeps bits down to 2^-24: C = 0.1 loses its last 3 bits, the
  // 2^-48 product all of its one.
  const Explained e = explain(kF16, {0, 0, 0x3e00, 0, 0, 0x0001}, {0, 0, 0xc100, 0, 0, 0x0001}, 0x3dcccccd);
  ASSERT_EQ(e.doc["blocks"].size(), 1U);
  const json& b = e.doc["blocks"][0];
  EXPECT_EQ(b["largest_exponent"], 1);
  EXPECT_EQ(b["kept_down_to"], -24);
  const json* c = nullptr;
  const json* tiny = nullptr;
  for (const json& x : b["terms"]) {
    if (x["role"] == "accumulator") c = &x;
    if (x.contains("k") && x["k"] == 5) tiny = &x;
  }
  ASSERT_TRUE(c && tiny) << b;
  EXPECT_EQ((*c)["alignment_shift"], 5);  // 0.1 has exponent -4
  EXPECT_EQ((*c)["dropped_bits"], 3);
  EXPECT_EQ((*c)["kept"]["value"], "0.099999964237213134765625");
  EXPECT_EQ((*tiny)["dropped_bits"], 1);
  EXPECT_EQ((*tiny)["kept"]["value"], "0");
  EXPECT_EQ(b["sum"]["value"], "-3.650000035762786865234375");
  EXPECT_EQ(b["rounding"]["mode"], "rz");
  EXPECT_EQ(e.doc["rounding"]["rule"], "truncate: round toward zero (rz)");
  EXPECT_EQ(e.doc["result"]["value"], "-3.6499998569488525390625");  // truncated twice: terms, then the sum
  EXPECT_NE(e.text.find("rounded into f32 by truncate: round toward zero (rz): 0xc0699999 = -3.6499998569488525390625"),
            std::string::npos)
      << e.text;
}

TEST(Explanation, OverflowUnderRzIsInfByTheTensorCoreRule) {
  // 2^100 x 2^100 in bf16: beyond f32, and a block sum overflows to Inf even when truncating.
  const Explained e = explain(kBf16, {0x7180}, {0x7180}, 0);
  EXPECT_EQ(e.doc["result"]["value"], "+Inf");
  EXPECT_EQ(e.doc["blocks"][0]["overflow"], true);
  EXPECT_NE(e.text.find("the sum is beyond f32's largest finite value: overflow gives +-Inf whatever the direction "
                        "(the tensor-core rule)"),
            std::string::npos)
      << e.text;
}

TEST(Explanation, NanNamesTheOperand) {
  const Explained e = explain(kF16, {0x3c00, 0, 0, 0x7e00}, {0x3c00, 0, 0, 0x3c00}, 0);
  const std::string why = e.doc["blocks"][0]["special"];
  EXPECT_EQ(why, "NaN, because A[k=3] 0x7e00 is NaN") << e.text;
  EXPECT_EQ(e.doc["result"]["value"], "NaN");
  const Explained inf = explain(kF16, {0x7c00, 0x3c00}, {0, 0xfc00}, 0);  // +Inf x 0, then -Inf
  EXPECT_EQ(inf.doc["blocks"][0]["special"], "NaN, because 0 x Inf at k=0");
}

TEST(Explanation, F64ChainNamesItsRoundingAndTheNanOperand) {
  const std::string f64 = "mma.sync.aligned.m8n8k4.row.col.rz.f64.f64.f64.f64";
  // 1 x 1 + C = 1 + 2^-60: under rz the tiny C is cut off; then B[k=1] is NaN.
  const Explained e = explain(f64, {0x3ff0000000000000, 0x3ff0000000000000}, {0x3ff0000000000000, 0x7ff8000000000001},
                              0x3c30000000000000);
  EXPECT_EQ(e.doc["engine"], "fma_chain");
  EXPECT_EQ(e.doc["fmas"][0]["result"]["value"], "1");
  EXPECT_EQ(e.doc["rounding"]["rule"], "truncate: round toward zero (rz)");
  EXPECT_EQ(e.doc["rounding"]["overflow"], "overflow saturates to +-the largest finite value");
  const std::string why = e.doc["special"];
  EXPECT_NE(why.find("NaN at k=1, because B[k=1] 0x7ff8000000000001 is NaN"), std::string::npos) << why;
}

}  // namespace
}  // namespace ptxmma
