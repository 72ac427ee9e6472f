// `ptxmma layout` of a block-scaled mma: where scale-a-data and scale-b-data hold each scale
// factor under the selectors, as text and JSON, checked against the block-scale map
// (configs/mma/block_scale.yaml); selectors outside the legal ones are located errors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "isa/wmma_instruction.hpp"
#include "tests/cli.hpp"

namespace ptxmma {
namespace {

using test::run_cli;

constexpr const char* kMxf4 =
    "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0";

std::string at(const ScaleLayout::Operand& op, int tid, int bid, int x, int v) {
  const int src = ScaleLayout::source(op, 2, tid, bid, x, v);
  return fmt::format("T{}:b{}", src / 4, src % 4);
}

TEST(LayoutScales, TextNamesTheLaneAndByteOfEveryScaleFactor) {
  const auto r = run_cli(std::string("layout ") + kMxf4 + " --arch sm_120a --operand ab --thread-id-a 1 --byte-id-b 2");
  ASSERT_EQ(r.status, 0) << r.all();
  const ScaleLayout& s = *parse_warp_mma(kMxf4, "sm_120a").variant->scales;
  EXPECT_NE(r.out.find("SF_A: 16 x 2 scale factors (ue8m0) in scale-a-data"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SF_B: 2 x 8 scale factors (ue8m0) in scale-b-data"), std::string::npos) << r.out;
  // The tables with their padding squeezed to single spaces. SF_A: a line per row of A, its two
  // K-blocks; SF_B: a line per K-block, a column per column of B.
  std::string text;
  for (const char c : r.out)
    if (c != ' ' || text.empty() || text.back() != ' ') text += c;
  for (int x = 0; x < 16; ++x) {
    const std::string row = fmt::format("\n {} {} {}\n", x, at(s.a, 1, 0, x, 0), at(s.a, 1, 0, x, 1));
    EXPECT_NE(text.find(row), std::string::npos) << row;
  }
  for (int v = 0; v < 2; ++v) {
    std::string row = fmt::format("\n v{}", v);
    for (int x = 0; x < 8; ++x) row += fmt::format(" {}", at(s.b, 0, 2, x, v));
    EXPECT_NE(text.find(row + "\n"), std::string::npos) << row;
  }
}

TEST(LayoutScales, JsonGivesEveryScaleFactor) {
  const auto r = run_cli(std::string("layout ") + kMxf4 + " --arch sm_120a --byte-id-a 2 --thread-id-b 3 --json -");
  ASSERT_EQ(r.status, 0) << r.all();
  const ScaleLayout& s = *parse_warp_mma(kMxf4, "sm_120a").variant->scales;
  const nlohmann::json j = nlohmann::json::parse(r.out)["scales"];
  EXPECT_EQ(j["scale_vec"], 2);
  ASSERT_EQ(j["scale_a"].size(), 16U);
  ASSERT_EQ(j["scale_b"].size(), 2U);
  for (int x = 0; x < 16; ++x)
    for (int v = 0; v < 2; ++v) {
      const int src = ScaleLayout::source(s.a, 2, 0, 2, x, v);
      EXPECT_EQ(j["scale_a"][x][v], (nlohmann::json{{"lane", src / 4}, {"byte", src % 4}}));
    }
  for (int v = 0; v < 2; ++v)
    for (int x = 0; x < 8; ++x) {
      const int src = ScaleLayout::source(s.b, 2, 3, 0, x, v);
      EXPECT_EQ(j["scale_b"][v][x], (nlohmann::json{{"lane", src / 4}, {"byte", src % 4}}));
    }
}

TEST(LayoutScales, SelectorsAreChecked) {
  // 2X takes byte-id 0 or 2.
  auto r = run_cli(std::string("layout ") + kMxf4 + " --arch sm_120a --byte-id-a 1");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("byte-id-a 1 is not allowed with .scale_vec::2X (allowed: 0, 2)"), std::string::npos) << r.all();
  r = run_cli("layout mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 --thread-id-b 1");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("apply to block-scaled mma (.block_scale) only"), std::string::npos) << r.all();
}

}  // namespace
}  // namespace ptxmma
