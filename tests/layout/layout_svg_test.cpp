// `ptxmma layout ... --svg`: the pictures are drawn from the layout tables, so every cell is
// checked against them here: counts per operand, and each cell's label against its data-*.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "tests/browser.hpp"
#include "tests/cli.hpp"

namespace ptxmma {
namespace {

using test::run_cli;
using test::slurp;

struct Cell {
  std::map<std::string, std::string> data;
  std::string cls, label;
};

// Every <rect class="cell ..."> with its data-* attributes and the <text> that follows it.
std::vector<Cell> cells(const std::string& svg) {
  static const std::regex rect(R"re(<rect class="cell ([^"]*)"((?: data-[a-z]+="[^"]*")*)[^>]*/>\n<text[^>]*>([^<]*)</text>)re");
  static const std::regex attr(R"re(data-([a-z]+)="([^"]*)")re");
  std::vector<Cell> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator(); ++it) {
    Cell c;
    c.cls = (*it)[1];
    const std::string attrs = (*it)[2];
    for (auto a = std::sregex_iterator(attrs.begin(), attrs.end(), attr); a != std::sregex_iterator(); ++a)
      c.data[(*a)[1]] = (*a)[2];
    c.label = (*it)[3];
    out.push_back(std::move(c));
  }
  return out;
}

std::string svg_of(const std::string& args, const std::string& name) {
  const std::string path = ::testing::TempDir() + name;
  const auto r = run_cli("layout " + args + " --svg " + path);
  EXPECT_EQ(r.status, 0) << r.all();
  return slurp(path);
}

TEST(LayoutSvg, M16n8k16CellsAndLabelsFollowTheLayout) {
  const std::string svg = svg_of("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "m16n8k16.svg");
  std::map<std::string, int> n;
  for (Cell& c : cells(svg)) {
    ++n[c.cls];
    // Registers of two f16 elements name the element; a 32-bit register holds one.
    const bool packed = c.cls.ends_with("op-A") || c.cls.ends_with("op-B");
    if (c.cls.starts_with("matrix"))
      EXPECT_EQ(c.label, "T" + c.data["lane"] + ":r" + c.data["reg"] + (packed ? "[" + c.data["elem"] + "]" : ""));
    else
      EXPECT_EQ(c.label, "(" + c.data["row"] + "," + c.data["col"] + ")");
  }
  EXPECT_EQ(n["matrix op-A"], 256);
  EXPECT_EQ(n["matrix op-B"], 128);
  EXPECT_EQ(n["matrix op-CD"], 128);
  EXPECT_EQ(n["lane op-A"], 256);  // 32 lanes x 4 registers x 2 halves
  // Where the PTX ISA's figure puts lane 5: A a0/a1 at row 1, columns 2 and 3; a2/a3 at row 9.
  EXPECT_NE(svg.find(R"(data-row="1" data-col="2" data-lane="5" data-reg="0" data-elem="0")"), std::string::npos);
  EXPECT_NE(svg.find(R"(data-row="9" data-col="3" data-lane="5" data-reg="1" data-elem="1")"), std::string::npos);
  EXPECT_NE(svg.find(R"(data-row="1" data-col="10" data-lane="5" data-reg="2" data-elem="0")"), std::string::npos);
  // D: lane 5 holds (1, 2), (1, 3), (9, 2), (9, 3) in registers 0..3.
  EXPECT_NE(svg.find(R"(data-row="9" data-col="3" data-lane="5" data-reg="3" data-elem="0")"), std::string::npos);
}

TEST(LayoutSvg, DescriptorChunksCoverTheOperandOnce) {
  // 128-byte swizzle, K-major A of m64k16 f16: 2048 bytes, 128 chunks of 16 bytes.
  const std::string svg = svg_of("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 --desc-a 0x4000004000010000 "
                                 "--desc-b 0x4000004000010400",
                                 "wgmma.svg");
  std::map<std::string, std::set<std::string>> addresses;
  for (Cell& c : cells(svg))
    if (c.cls.starts_with("chunk")) {
      EXPECT_TRUE(addresses[c.cls].insert(c.data["address"]).second) << c.data["address"];
    }
  EXPECT_EQ(addresses["chunk op-A"].size(), 128U);
  EXPECT_EQ(addresses["chunk op-B"].size(), 128U);  // B: 64 x 16 f16
  // The swizzle: row 1's first 8 k sit in the second chunk of its 128-byte line (0x90).
  EXPECT_NE(svg.find(R"(data-address="0x90" data-row="1" data-k="0-7")"), std::string::npos);
}

// Each kind of picture (docs/pictures.md) at its own size, at most 4096 pixels a side (the b1
// picture is far larger): build/screenshots/layout-*.png.
TEST(LayoutSvg, RendersInABrowserWhereOneIsInstalled) {
  const std::string browser = test::find_chromium();
  if (browser.empty()) GTEST_SKIP() << "no Chromium: the pictures are checked by parsing only";
  const std::pair<const char*, const char*> pictures[] = {
      {"layout-m16n8k16-f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"},
      {"layout-m16n8k256-b1", "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc"},
      {"layout-wgmma-descriptor-a", "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 --desc-a 0x4000004000010000 "
                                    "--desc-b 0x4000004000010400 --operand a"},
      {"layout-wgmma-d", "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 --operand d"},
  };
  static const std::regex size(R"re(<svg [^>]*width="(\d+)" height="(\d+)")re");
  for (const auto& [name, args] : pictures) {
    const std::string svg = ::testing::TempDir() + name + ".svg";
    ASSERT_EQ(run_cli(std::string("layout ") + args + " --svg " + svg).status, 0) << args;
    std::smatch m;
    const std::string head = slurp(svg).substr(0, 1000);
    ASSERT_TRUE(std::regex_search(head, m, size)) << svg;
    const std::string png =
        test::screenshot(browser, svg, name, std::min(std::stoi(m[1]), 4096), std::min(std::stoi(m[2]), 4096));
    ASSERT_FALSE(png.empty()) << browser << " failed on " << svg;
    // A white page of this size compresses to a few kilobytes; the coloured grid does not.
    EXPECT_GT(std::filesystem::file_size(png), 20000U) << png;
  }
}

}  // namespace
}  // namespace ptxmma
