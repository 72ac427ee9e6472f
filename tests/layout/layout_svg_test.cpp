// `ptxmma layout ... --svg`: the pictures are drawn from the layout tables, so every cell is
// checked against them here: counts per operand, each cell's label against its data-*, the cells
// of a grouped (sub-byte) operand against the runs of its layout, the scale factors against the
// block-scale map, the arrangement (A's rows beside D's, B's columns above D's), the lane colours.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>

#include "isa/wmma_instruction.hpp"
#include "tests/browser.hpp"
#include "tests/cli.hpp"

namespace ptxmma {
namespace {

using test::run_cli;
using test::slurp;

constexpr const char* kF16 = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
constexpr const char* kB1 = "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc";
constexpr const char* kMxf4 =
    "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0";

struct Cell {
  std::map<std::string, std::string> data;
  std::string cls, label, fill;
  int x = 0, y = 0, w = 0, h = 0;
};

// Every <rect class="cell ..."> with its data-* attributes, place, fill and the <text> that follows it.
std::vector<Cell> cells(const std::string& svg) {
  static const std::regex rect(
      R"re(<rect class="cell ([^"]*)"((?: data-[a-z]+="[^"]*")*) x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)" fill="([^"]*)"[^>]*/>\n<text[^>]*>([^<]*)</text>)re");
  static const std::regex attr(R"re(data-([a-z]+)="([^"]*)")re");
  std::vector<Cell> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator(); ++it) {
    Cell c;
    c.cls = (*it)[1];
    const std::string attrs = (*it)[2];
    for (auto a = std::sregex_iterator(attrs.begin(), attrs.end(), attr); a != std::sregex_iterator(); ++a)
      c.data[(*a)[1]] = (*a)[2];
    c.x = std::stoi((*it)[3]), c.y = std::stoi((*it)[4]), c.w = std::stoi((*it)[5]), c.h = std::stoi((*it)[6]);
    c.fill = (*it)[7];
    c.label = (*it)[8];
    out.push_back(std::move(c));
  }
  return out;
}

// "5" -> {5, 5}; "0-31" -> {0, 31}.
std::pair<int, int> range(const std::string& s) {
  const auto dash = s.find('-');
  if (dash == std::string::npos) return {std::stoi(s), std::stoi(s)};
  return {std::stoi(s.substr(0, dash)), std::stoi(s.substr(dash + 1))};
}

std::pair<int, int> svg_size(const std::string& svg) {
  static const std::regex size(R"re(<svg [^>]*width="(\d+)" height="(\d+)")re");
  std::smatch m;
  const std::string head = svg.substr(0, 1000);
  if (!std::regex_search(head, m, size)) return {0, 0};
  return {std::stoi(m[1]), std::stoi(m[2])};
}

std::string svg_of(const std::string& args, const std::string& name) {
  const std::string path = ::testing::TempDir() + name;
  const auto r = run_cli("layout " + args + " --svg " + path);
  EXPECT_EQ(r.status, 0) << r.all();
  return slurp(path);
}

TEST(LayoutSvg, M16n8k16CellsAndLabelsFollowTheLayout) {
  const std::string svg = svg_of(kF16, "m16n8k16.svg");
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

// --view picks the arrangement or the lane views, as it does for the text.
TEST(LayoutSvg, ViewPicksMatrixOrLanes) {
  for (const std::string view : {"matrix", "lanes"}) {
    std::set<std::string> kinds;
    for (const Cell& c : cells(svg_of(std::string(kF16) + " --view " + view, "view.svg")))
      kinds.insert(c.cls.substr(0, c.cls.find(' ')));
    EXPECT_EQ(kinds, std::set<std::string>{view == "matrix" ? "matrix" : "lane"}) << view;
  }
}

// Volta's wmma A: each element has two holders; the arrangement draws each element once, at the
// holder the product reads (k 0..7 from lanes with bit 3 clear), the lane views every holder.
TEST(LayoutSvg, SeveralHoldersDrawTheOneTheProductReads) {
  const std::string svg = svg_of("wmma.load.a.sync.aligned.row.m16n16k16.f16 --arch sm_70", "volta.svg");
  std::map<std::pair<std::string, std::string>, std::string> drawn;  // (row, col) -> lane
  int lane_cells = 0;
  for (Cell& c : cells(svg)) {
    if (c.cls.starts_with("lane")) ++lane_cells;
    if (!c.cls.starts_with("matrix")) continue;
    EXPECT_TRUE(drawn.emplace(std::pair(c.data["row"], c.data["col"]), c.data["lane"]).second)
        << c.data["row"] << "," << c.data["col"];
  }
  EXPECT_EQ(drawn.size(), 256U);
  EXPECT_EQ(lane_cells, 512);  // 32 lanes x 8 registers x 2 halves
  EXPECT_EQ(drawn[std::pair("0", "7")], "0");
  EXPECT_EQ(drawn[std::pair("0", "8")], "8");
}

// b1 m16n8k256: 4096 bits of A, 2048 of B. One cell per register word, each checked bit by bit
// against the layout; the whole picture small enough to read.
TEST(LayoutSvg, B1OperandsGetACellPerRegisterWord) {
  const std::string svg = svg_of(kB1, "b1.svg");
  const auto [width, height] = svg_size(svg);
  EXPECT_GT(width, 0);
  EXPECT_LE(width, 2000);
  EXPECT_LE(height, 2500);
  EXPECT_LE(svg.size(), 400U * 1024U);
  const MatrixVariant& v = *parse_warp_mma(kB1).variant;
  std::map<std::string, std::set<std::pair<int, int>>> covered;
  std::map<std::string, int> n;
  for (const Cell& c : cells(svg)) {
    const bool a = c.cls.ends_with("op-A"), b = c.cls.ends_with("op-B");
    if (!a && !b) continue;
    ++n[c.cls];
    const FragmentLayout& l = v.layout(a ? Operand::a : Operand::b);
    const auto [r0, r1] = range(c.data.at("row"));
    const auto [c0, c1] = range(c.data.at("col"));
    const auto [e0, e1] = range(c.data.at("elem"));
    const int lane = std::stoi(c.data.at("lane")), reg = std::stoi(c.data.at("reg"));
    ASSERT_EQ(e1 - e0, (r1 - r0) + (c1 - c0)) << c.cls << " " << c.label;
    // A's words run along a row, B's down a column.
    EXPECT_EQ(a ? r1 - r0 : c1 - c0, 0) << c.cls << " " << c.label;
    for (int i = 0; i <= e1 - e0; ++i) {
      const int row = r0 + (b ? i : 0), col = c0 + (a ? i : 0);
      if (c.cls.starts_with("matrix")) {
        const FragmentSlot& s = l.slot(0, row, col);
        EXPECT_EQ(std::tuple(s.lane, s.reg, s.elem), std::tuple(lane, reg, e0 + i)) << c.cls << " " << row << "," << col;
        EXPECT_TRUE(covered[c.cls].insert({row, col}).second) << c.cls << " " << row << "," << col;
      } else {
        const FragmentCoord& co = l.coord(lane, reg, e0 + i);
        EXPECT_EQ(std::pair(co.row, co.col), std::pair(row, col)) << c.cls << " T" << lane << ":r" << reg;
      }
    }
    if (c.cls.starts_with("matrix")) {
      EXPECT_EQ(c.label, fmt::format("T{}:r{}", lane, reg));
    }
  }
  EXPECT_EQ(covered["matrix op-A"].size(), 16U * 256U);
  EXPECT_EQ(covered["matrix op-B"].size(), 256U * 8U);
  EXPECT_EQ(n["matrix op-A"], 16 * 256 / 32);  // a cell per 32-bit register
  EXPECT_EQ(n["matrix op-B"], 256 * 8 / 32);
  EXPECT_EQ(n["lane op-A"], 32 * 4);
  EXPECT_EQ(n["lane op-B"], 32 * 2);
}

// CuTe's arrangement: A on the left, B on top, D in the middle; each row of A lies beside the
// same row of D, each column of B above the same column of D, and a block-scaled mma's scale
// factors beside them (SF_A by its row, SF_B by its column).
TEST(LayoutSvg, ARowsBesideDRowsAndBColumnsAboveDColumns) {
  for (const std::string& args :
       {std::string(kF16), std::string(kB1), std::string(kMxf4) + " --arch sm_120a",
        std::string("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"),
        std::string("wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16")}) {
    SCOPED_TRACE(args);
    const std::vector<Cell> all = cells(svg_of(args, "arranged.svg"));
    std::map<int, std::pair<int, int>> d_row, d_col;  // row -> (y, height), col -> (x, width)
    int d_left = 1 << 30, d_top = 1 << 30;
    for (const Cell& c : all)
      if (c.cls == "matrix op-CD" || c.cls == "matrix op-D") {
        const int row = std::stoi(c.data.at("row")), col = std::stoi(c.data.at("col"));
        if (d_row.contains(row)) {
          EXPECT_EQ(d_row[row], std::pair(c.y, c.h)) << "D row " << row;
        }
        if (d_col.contains(col)) {
          EXPECT_EQ(d_col[col], std::pair(c.x, c.w)) << "D col " << col;
        }
        d_row[row] = {c.y, c.h}, d_col[col] = {c.x, c.w};
        d_left = std::min(d_left, c.x), d_top = std::min(d_top, c.y);
      }
    ASSERT_FALSE(d_row.empty());
    int a_cells = 0, b_cells = 0;
    for (const Cell& c : all) {
      if (c.cls == "matrix op-A" || c.cls == "scale op-SFA") {
        const int row = std::stoi(c.data.at("row"));
        EXPECT_EQ(std::pair(c.y, c.h), d_row.at(row)) << c.cls << " row " << row;
        EXPECT_LE(c.x + c.w, d_left) << c.cls;
        ++a_cells;
      }
      if (c.cls == "matrix op-B" || c.cls == "scale op-SFB") {
        const int col = std::stoi(c.data.at("col"));
        EXPECT_EQ(std::pair(c.x, c.w), d_col.at(col)) << c.cls << " col " << col;
        EXPECT_LE(c.y + c.h, d_top) << c.cls;
        ++b_cells;
      }
    }
    EXPECT_GT(a_cells, 0);
    if (!args.starts_with("wgmma")) {
      EXPECT_GT(b_cells, 0);  // wgmma's B is only ever in shared memory
    }
  }
}

// Dashed lines part the rows of D (and A) where the problem of m8n8k4 or the warp of a wgmma's
// warpgroup changes, and the K rows of m8n8k4's stacked B between problems.
TEST(LayoutSvg, ProblemsAndWarpsAreParted) {
  static const std::regex line(R"re(<line class="part( op-B)?" x1="\d+" y1="(\d+)")re");
  for (const std::string& args : {std::string("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"),
                                  std::string("wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16")}) {
    SCOPED_TRACE(args);
    const std::string svg = svg_of(args, "parts.svg");
    std::map<int, int> row_y, owner;  // D's row -> y, the problem or warp that holds it
    std::map<int, int> b_row_y;       // B's first row of each problem -> y
    const bool m8n8k4 = args.starts_with("mma");
    const FragmentLayout* d = m8n8k4 ? &parse_warp_mma(args).variant->layout(Operand::d) : nullptr;
    for (const Cell& c : cells(svg)) {
      if (c.cls == "matrix op-CD" && c.data.at("col") == "0") {
        const int row = std::stoi(c.data.at("row"));
        row_y[row] = c.y;
        owner[row] = m8n8k4 ? d->coord(std::stoi(c.data.at("lane")), std::stoi(c.data.at("reg")), 0).problem
                            : std::stoi(c.data.at("lane")) / 32;
      }
      if (c.cls == "matrix op-B" && c.data.at("col") == "0") b_row_y[std::stoi(c.data.at("row"))] = c.y;
    }
    std::set<int> expected, expected_b, got, got_b;
    for (const auto& [row, who] : owner)
      if (row > 0 && owner.at(row - 1) != who) expected.insert(row_y.at(row));
    if (m8n8k4)
      for (int k = 4; k < 16; k += 4) expected_b.insert(b_row_y.at(k));  // 4 problems of K = 4
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator(); ++it)
      ((*it)[1].matched ? got_b : got).insert(std::stoi((*it)[2]));
    EXPECT_EQ(expected.size(), 3U);  // 4 problems, 4 warps
    EXPECT_EQ(got, expected);
    EXPECT_EQ(got_b, expected_b);
  }
}

// CIELAB of "#rrggbb" (sRGB, D65) and its relative luminance.
struct Lab {
  double l, a, b, luminance;
};
Lab lab(const std::string& hex) {
  double lin[3];
  for (int i = 0; i < 3; ++i) {
    const double c = std::stoi(hex.substr(1 + 2 * static_cast<std::size_t>(i), 2), nullptr, 16) / 255.0;
    lin[i] = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  }
  const double x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047;
  const double y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  const double z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883;
  const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)), y};
}
double delta_e(const Lab& p, const Lab& q) { return std::hypot(p.l - q.l, p.a - q.a, p.b - q.b); }

// 32 lanes, 32 colours: neighbours in a fragment (lane +-1 along a row, +-4 down a column) far
// apart, any two clearly apart (CIE76 distance; 2.3 is just noticeable), black labels readable
// (WCAG contrast at least 4.5).
TEST(LayoutSvg, LanesGetDistinctReadableColours) {
  std::map<int, std::string> fill;
  for (const Cell& c : cells(svg_of(kF16, "colours.svg"))) {
    const int lane = std::stoi(c.data.at("lane"));
    if (fill.contains(lane)) {
      EXPECT_EQ(fill[lane], c.fill) << "lane " << lane;
    }
    fill[lane] = c.fill;
  }
  ASSERT_EQ(fill.size(), 32U);
  std::set<std::string> distinct;
  for (const auto& [lane, f] : fill) distinct.insert(f);
  EXPECT_EQ(distinct.size(), 32U);
  for (int i = 0; i < 32; ++i) {
    const Lab p = lab(fill[i]);
    EXPECT_GE((p.luminance + 0.05) / 0.05, 4.5) << "lane " << i << " " << fill[i];
    for (int j = i + 1; j < 32; ++j) {
      const double d = delta_e(p, lab(fill[j]));
      EXPECT_GE(d, j - i == 1 || j - i == 4 ? 20.0 : 15.0) << "lanes " << i << " and " << j;
    }
  }
}

// Each lane view has a header per register over that register's cells.
TEST(LayoutSvg, LaneViewsHaveRegisterHeaders) {
  const std::string svg = svg_of(kF16, "headers.svg");
  static const std::regex text(R"re(<text x="(\d+)" y="(\d+)"[^>]*>r(\d+)</text>)re");
  std::map<std::pair<std::string, int>, std::pair<int, int>> span;  // (op, reg) -> x range of its lane cells
  int top = 1 << 30;
  for (const Cell& c : cells(svg))
    if (c.cls.starts_with("lane")) {
      auto& [lo, hi] = span.try_emplace({c.cls, std::stoi(c.data.at("reg"))}, 1 << 30, 0).first->second;
      lo = std::min(lo, c.x), hi = std::max(hi, c.x + c.w), top = std::min(top, c.y);
    }
  ASSERT_EQ(span.size(), 4U + 2U + 4U);  // A: 4 registers, B: 2, C/D: 4
  for (const auto& [key, xs] : span) {
    bool found = false;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator(); ++it) {
      const int x = std::stoi((*it)[1]), y = std::stoi((*it)[2]), reg = std::stoi((*it)[3]);
      found |= reg == key.second && x > xs.first && x < xs.second && y < top && y > top - 60;
    }
    EXPECT_TRUE(found) << key.first << " r" << key.second;
  }
}

// A block-scaled mma under non-default selectors: every scale factor of SF_A (16 x 2) and SF_B
// (2 x 8) drawn at the lane and byte the block-scale map gives, in the matrix view and the lane view.
TEST(LayoutSvg, ScaleFactorsSitWhereTheMapPutsThem) {
  const std::string svg =
      svg_of(std::string(kMxf4) + " --arch sm_120a --byte-id-a 2 --thread-id-a 1 --thread-id-b 3", "scales.svg");
  const MatrixVariant& v = *parse_warp_mma(kMxf4, "sm_120a").variant;
  ASSERT_NE(v.scales, nullptr);
  std::map<std::string, std::set<std::pair<int, int>>> seen;
  for (const Cell& c : cells(svg)) {
    const bool a = c.cls.ends_with("op-SFA");
    if (!a && !c.cls.ends_with("op-SFB")) continue;
    const int x = std::stoi(c.data.at(a ? "row" : "col")), blk = std::stoi(c.data.at("block"));
    const int at = ScaleLayout::source(a ? v.scales->a : v.scales->b, 2, a ? 1 : 3, a ? 2 : 0, x, blk);
    EXPECT_EQ(std::stoi(c.data.at("lane")), at / 4) << c.cls << " " << x << "," << blk;
    EXPECT_EQ(std::stoi(c.data.at("byte")), at % 4) << c.cls << " " << x << "," << blk;
    if (c.cls.starts_with("scale")) {
      EXPECT_EQ(c.label, fmt::format("T{}:b{}", at / 4, at % 4));
    }
    EXPECT_TRUE(seen[c.cls].insert({x, blk}).second) << c.cls << " " << x << "," << blk;
  }
  EXPECT_EQ(seen["scale op-SFA"].size(), 16U * 2U);
  EXPECT_EQ(seen["lane op-SFA"].size(), 16U * 2U);
  EXPECT_EQ(seen["scale op-SFB"].size(), 8U * 2U);
  EXPECT_EQ(seen["lane op-SFB"].size(), 8U * 2U);
  // The K-blocks: one boundary in A, at the left edge of column 32 of 64; one in B, at the top of row 32.
  static const std::regex line(R"re(<line class="kblock op-([AB])" x1="(\d+)" y1="(\d+)")re");
  std::map<std::string, std::vector<int>> at;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator(); ++it)
    at[(*it)[1]].push_back(std::stoi((*it)[(*it)[1] == "A" ? 2 : 3]));
  ASSERT_EQ(at["A"].size(), 1U);
  ASSERT_EQ(at["B"].size(), 1U);
  int checked = 0;
  for (const Cell& c : cells(svg)) {
    if (c.cls == "matrix op-A" && range(c.data.at("col")).first == 32) {
      EXPECT_EQ(c.x, at["A"][0]);
      ++checked;
    }
    if (c.cls == "matrix op-B" && range(c.data.at("row")).first == 32) {
      EXPECT_EQ(c.y, at["B"][0]);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 16 + 8);
}

// Each kind of picture (docs/pictures.md) at its own size, at most 4096 pixels a side:
// build/screenshots/layout-*.png.
TEST(LayoutSvg, RendersInABrowserWhereOneIsInstalled) {
  const std::string browser = test::find_chromium();
  if (browser.empty()) GTEST_SKIP() << "no Chromium: the pictures are checked by parsing only";
  const std::pair<std::string, std::string> pictures[] = {
      {"layout-m16n8k16-f16", kF16},
      {"layout-m16n8k256-b1", kB1},
      {"layout-m16n8k64-mxf4-scales", std::string(kMxf4) + " --arch sm_120a --byte-id-a 2 --thread-id-a 1 --thread-id-b 3"},
      {"layout-wgmma-descriptor-a", "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 --desc-a 0x4000004000010000 "
                                    "--desc-b 0x4000004000010400 --operand a"},
      {"layout-wgmma-d", "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 --operand d"},
  };
  for (const auto& [name, args] : pictures) {
    const std::string svg = ::testing::TempDir() + name + ".svg";
    ASSERT_EQ(run_cli("layout " + args + " --svg " + svg).status, 0) << args;
    const auto [width, height] = svg_size(slurp(svg));
    ASSERT_GT(width, 0) << svg;
    const std::string png = test::screenshot(browser, svg, name, std::min(width, 4096), std::min(height, 4096));
    ASSERT_FALSE(png.empty()) << browser << " failed on " << svg;
    // A white page of this size compresses to a few kilobytes; the coloured grid does not.
    EXPECT_GT(std::filesystem::file_size(png), 20000U) << png;
  }
}

}  // namespace
}  // namespace ptxmma
