// wgmma register layouts (configs/wgmma/layouts.yaml): bijections, the ISA's rules written
// independently, the warp-level mma fragments they extend, and layout templates ({N}).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "sim/catalog/mma_family.hpp"
#include "sim/catalog/wgmma_family.hpp"
#include "tests/layout/inverse_tables.hpp"
#include "tests/source_catalog.hpp"
#include "sim/error.hpp"

namespace ptxmma {
namespace {

const MatrixCatalog& catalog() { return source_catalog<load_wgmma_catalog>(); }

TEST(WgmmaLayouts, EveryLayoutIsABijectionOf128Threads) {
  const LayoutLibrary& lib = catalog().layouts();
  EXPECT_EQ(lib.template_names(), (std::vector<std::string>{"wgmma.d.16bit.n{N}", "wgmma.d.32bit.n{N}"}));
  EXPECT_EQ(lib.size(), 4U + 32U + 32U);  // 4 A layouts, D for every N of 8..256 in 32- and 16-bit form
  for (const auto& [name, entry] : lib.entries()) {
    SCOPED_TRACE(name);
    const FragmentLayout& l = entry.layout;
    EXPECT_EQ(l.lanes, 128);
    expect_inverse_tables(l);  // one problem: lanes x registers x elements = rows x columns
  }
}

// docs/wgmma-catalogue.md §2.1, as CuTe writes it: CLayout_64xN = ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))
// maps (thread, value) to m + 64*n.
TEST(WgmmaLayouts, AccumulatorsMatchCuteCLayout) {
  for (const MatrixVariant& v : catalog().variants()) {
    const FragmentLayout& l = *v.ld;
    for (int thread = 0; thread < 128; ++thread)
      for (int r = 0; r < l.regs; ++r)
        for (int e = 0; e < l.elems_per_reg; ++e) {
          const int value = r * l.elems_per_reg + e;
          const int idx = (thread % 4) * 128 + ((thread / 4) % 8) * 1 + (thread / 32) * 16 + (value % 2) * 64 +
                          ((value / 2) % 2) * 8 + (value / 4) * 512;
          const FragmentCoord& c = l.coord(thread, r, e);
          ASSERT_EQ(c.row, idx % 64) << v.ptx;
          ASSERT_EQ(c.col, idx / 64) << v.ptx;
        }
  }
}

// §2.2: register r of thread (w, lane): row = 16w + g + 8(r & 1), col = (t + 4(r >> 1))*E + e.
TEST(WgmmaLayouts, RegisterFormAFollowsTheGeneralRule) {
  for (const char* name : {"wgmma.a.k16.16bit", "wgmma.a.k8.32bit", "wgmma.a.k32.8bit", "wgmma.a.k256.1bit"}) {
    const FragmentLayout& l = catalog().layouts().at(name);
    for (int thread = 0; thread < 128; ++thread) {
      const int w = thread / 32, g = (thread % 32) / 4, t = thread % 4;
      for (int r = 0; r < 4; ++r)
        for (int e = 0; e < l.elems_per_reg; ++e) {
          const FragmentCoord& c = l.coord(thread, r, e);
          ASSERT_EQ(c.row, 16 * w + g + 8 * (r & 1)) << name;
          ASSERT_EQ(c.col, (t + 4 * (r >> 1)) * l.elems_per_reg + e) << name;
        }
    }
  }
}

// Per warp, the A fragment is the warp-level mma.m16n8kK A fragment shifted by 16w rows.
TEST(WgmmaLayouts, RegisterFormAIsTheWarpLevelFragmentPerWarp) {
  const LayoutLibrary& mma = mma_catalog().layouts();
  const std::pair<const char*, const char*> pairs[] = {{"wgmma.a.k16.16bit", "m16n8k16.a.16bit"},
                                                       {"wgmma.a.k8.32bit", "m16n8k8.a.32bit"},
                                                       {"wgmma.a.k32.8bit", "m16n8k32.a.8bit"},
                                                       {"wgmma.a.k256.1bit", "m16n8k256.a.1bit"}};
  for (const auto& [wg, warp] : pairs) {
    const FragmentLayout& a = catalog().layouts().at(wg);
    const FragmentLayout& b = mma.at(warp);
    ASSERT_EQ(a.regs, b.regs);
    ASSERT_EQ(a.elems_per_reg, b.elems_per_reg);
    for (int thread = 0; thread < 128; ++thread)
      for (int r = 0; r < a.regs; ++r)
        for (int e = 0; e < a.elems_per_reg; ++e) {
          const FragmentCoord& x = a.coord(thread, r, e);
          const FragmentCoord& y = b.coord(thread % 32, r, e);
          ASSERT_EQ(x.row, y.row + 16 * (thread / 32)) << wg;
          ASSERT_EQ(x.col, y.col) << wg;
        }
  }
}

std::string load_error(const std::string& yaml, const std::string& tmpl = "", int n = 0) {
  try {
    LayoutLibrary lib = LayoutLibrary::parse(yaml, "t.yaml");
    if (!tmpl.empty()) (void)lib.instantiate(tmpl, n);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LayoutTemplates, InstantiateBuildsAndChecksEachN) {
  const std::string yaml =
      "layouts:\n"
      "  d.n{N}:\n"
      "    lanes: 128\n    rows: 64\n    cols: \"N\"\n    regs: \"N / 2\"\n    elems: 1\n"
      "    row: \"16*w + g + 8*((i >> 1) & 1)\"\n    col: \"8*(i >> 2) + 2*t + (i & 1)\"\n";
  LayoutLibrary lib = LayoutLibrary::parse(yaml, "t.yaml");
  EXPECT_EQ(lib.size(), 0U);
  const FragmentLayout& l = lib.instantiate("d.n{N}", 24);
  EXPECT_EQ(l.name, "d.n24");
  EXPECT_EQ(l.cols, 24);
  EXPECT_EQ(l.regs, 12);
  EXPECT_EQ(&lib.instantiate("d.n{N}", 24), &l);  // built once
  EXPECT_EQ(lib.find("d.n24"), &l);
  EXPECT_EQ(lib.formula("d.n24").col, "8*(i >> 2) + 2*t + (i & 1)");
  EXPECT_EQ(lib.size(), 1U);
  // N = 12 is not a multiple of 8: the formula reaches column 12.
  EXPECT_EQ(load_error(yaml, "d.n{N}", 12),
            "t.yaml:2:3: layout d.n12: lane 2 register 4 element 0 maps to (problem 0, row 0, col 12), "
            "outside 64x12");
  EXPECT_EQ(load_error(yaml, "d.n{N}", 0), "t.yaml:2:3: layout d.n{N} (N = 0): 'cols' = N is 0, outside 1..4096");
  EXPECT_EQ(load_error(yaml, "d.n{M}", 8), "unknown layout template 'd.n{M}'");
  EXPECT_EQ(load_error("layouts:\n  a:\n    rows: 1\n    cols: 1\n    regs: 1\n    elems: 1\n    lanes: 1\n"
                       "    row: \"0\"\n    col: \"0\"\n",
                       "a", 8),
            "layout a is not a template (its name has no {N})");
  EXPECT_EQ(load_error("layouts:\n  b.{N}:\n    rows: 8\n    cols: \"N +\"\n    regs: 1\n    elems: 1\n"
                       "    row: \"0\"\n    col: \"0\"\n"),
            "t.yaml:4:11: layout b.{N}: cols: expression \"N +\": column 4: expected a number, a variable or '(', "
            "found the end");
}

// Variables for 128 lanes: g, hi and q are those of the lane inside its warp; w is the warp.
TEST(LayoutTemplates, WarpVariables) {
  LayoutLibrary lib = LayoutLibrary::parse(
      "layouts:\n  x:\n    lanes: 128\n    rows: 128\n    cols: 1\n    regs: 1\n    elems: 1\n"
      "    row: \"32*w + 4*g + t\"\n    col: \"0\"\n",
      "t.yaml");
  const FragmentLayout& l = lib.at("x");
  for (int lane = 0; lane < 128; ++lane) EXPECT_EQ(l.coord(lane, 0, 0).row, lane);
}

}  // namespace
}  // namespace ptxmma
