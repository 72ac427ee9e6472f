#include "sim/layout/layout_loader.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

#include "sim/error.hpp"
#include "tests/cli.hpp"
#include "tests/layout/inverse_tables.hpp"
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

const std::string kLayouts = std::string(kPtxmmaSourceDir) + "/configs/mma/layouts.yaml";

const LayoutLibrary& library() {
  static const LayoutLibrary lib = LayoutLibrary::load(kLayouts);
  return lib;
}

std::string load_error(const std::string& yaml) {
  try {
    (void)LayoutLibrary::parse(yaml, "test.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

bool starts_with(const std::string& s, std::string_view p) { return s.rfind(p, 0) == 0; }
bool contains(const std::string& s, std::string_view p) { return s.find(p) != std::string::npos; }

// Every layout loads (the loader checks the bijection) and both tables agree.
TEST(LayoutLibrary, EveryLayoutLoadsAsABijection) {
  const LayoutLibrary& lib = library();
  EXPECT_EQ(lib.size(), 43U);
  for (const auto& [name, entry] : lib.entries()) {
    SCOPED_TRACE(name);
    const FragmentLayout& l = entry.layout;
    EXPECT_EQ(l.name, name);
    expect_inverse_tables(l);
    EXPECT_TRUE(contains(entry.formula.source, "layouts.yaml:"));
  }
}

// The register-form rules of docs/mma-catalogue.md §2.0 / §2.1, written independently of the YAML's
// element-index formulas, must give the same map for every layout.
using Rule = std::function<FragmentCoord(int lane, int r, int e, int E)>;

Rule expected_rule(const std::string& name, int regs) {
  const auto g = [](int lane) { return lane >> 2; };
  const auto t = [](int lane) { return lane & 3; };
  const auto hi = [](int lane) { return lane >= 16 ? 1 : 0; };
  const auto q = [](int lane) { return (lane >> 2) & 3; };
  // m8n8k4 .f16 quad pairs (§2.1); i = r*E + e
  if (name == "m8n8k4.f16.a.row") return [=](int l, int r, int e, int E) { return FragmentCoord{q(l), t(l) + 4 * hi(l), r * E + e}; };
  if (name == "m8n8k4.f16.a.col") return [=](int l, int r, int e, int E) { return FragmentCoord{q(l), r * E + e + 4 * hi(l), t(l)}; };
  if (name == "m8n8k4.f16.b.row") return [=](int l, int r, int e, int E) { return FragmentCoord{q(l), t(l), r * E + e + 4 * hi(l)}; };
  if (name == "m8n8k4.f16.b.col") return [=](int l, int r, int e, int E) { return FragmentCoord{q(l), r * E + e, t(l) + 4 * hi(l)}; };
  if (name == "m8n8k4.f16.cd.16bit") return [=](int l, int r, int e, int E) { return FragmentCoord{q(l), t(l) + 4 * hi(l), r * E + e}; };
  if (name == "m8n8k4.f16.cd.32bit")
    return [=](int l, int r, int e, int E) {
      const int i = r * E + e;
      return FragmentCoord{q(l), (l & 1) + (i & 2) + 4 * hi(l), (i & 4) + (l & 2) + (i & 1)};
    };
  const bool m8n8 = starts_with(name, "m8n8");
  if (contains(name, ".cd.")) {
    if (m8n8) return [=](int l, int r, int, int) { return FragmentCoord{0, g(l), 2 * t(l) + r}; };
    return [=](int l, int r, int e, int E) {
      const int i = r * E + e;
      return FragmentCoord{0, g(l) + 8 * (i >> 1), 2 * t(l) + (i & 1)};
    };
  }
  if (contains(name, ".b."))  // every B: row(k) = (t + 4r)*E + e, col(n) = g
    return [=](int l, int r, int e, int E) { return FragmentCoord{0, (t(l) + 4 * r) * E + e, g(l)}; };
  if (m8n8) return [=](int l, int, int e, int E) { return FragmentCoord{0, g(l), t(l) * E + e}; };
  if (regs == 2) return [=](int l, int r, int e, int E) { return FragmentCoord{0, g(l) + 8 * r, t(l) * E + e}; };
  return [=](int l, int r, int e, int E) {  // 4 (or 8) registers
    return FragmentCoord{0, g(l) + 8 * (r & 1), (t(l) + 4 * (r >> 1)) * E + e};
  };
}

TEST(LayoutLibrary, MatchesTheCatalogueRegisterRules) {
  for (const auto& [name, entry] : library().entries()) {
    SCOPED_TRACE(name);
    const FragmentLayout& l = entry.layout;
    const Rule rule = expected_rule(name, l.regs);
    int mismatches = 0;
    for (int lane = 0; lane < l.lanes; ++lane)
      for (int r = 0; r < l.regs; ++r)
        for (int e = 0; e < l.elems_per_reg; ++e) {
          const FragmentCoord want = rule(lane, r, e, l.elems_per_reg);
          const FragmentCoord& got = l.coord(lane, r, e);
          mismatches += want.problem != got.problem || want.row != got.row || want.col != got.col;
        }
    EXPECT_EQ(mismatches, 0);
  }
}

TEST(LayoutLibrary, SpotChecks) {
  const LayoutLibrary& lib = library();
  // m16n8k16 f16 A: lane 5 (g 1, t 1), a2 = register 1 element 0 -> row 9, col 2.
  const FragmentCoord a = lib.at("m16n8k16.a.16bit").coord(5, 1, 0);
  EXPECT_EQ(a.row, 9);
  EXPECT_EQ(a.col, 2);
  // m16n8k256 b1 A (hardware-corrected): lane 5 bit 35 (register 1, bit 3) -> row 9, col 32 + 3.
  // The ISA's printed formula would put it at column 32 + 35 = 67.
  const FragmentLayout& b1 = lib.at("m16n8k256.a.1bit");
  EXPECT_EQ(b1.coord(5, 1, 3).row, 9);
  EXPECT_EQ(b1.coord(5, 1, 3).col, 35);
  EXPECT_EQ(b1.coord(5, 2, 0).row, 1);     // a64 -> row g, col 32t + 128
  EXPECT_EQ(b1.coord(5, 2, 0).col, 160);
  EXPECT_EQ(b1.coord(31, 3, 31).row, 15);  // last element -> bottom-right corner
  EXPECT_EQ(b1.coord(31, 3, 31).col, 255);
  // m16n8k16 f64 A (ISA text garbled): odd elements repeat the column, row + 8.
  const FragmentLayout& f64 = lib.at("m16n8k16.a.64bit");
  EXPECT_EQ(f64.coord(6, 5, 0).row, 9);    // g 1, t 2, a5 -> row 9, col 2 + 4*2
  EXPECT_EQ(f64.coord(6, 5, 0).col, 10);
  // m8n8k4 f16 quad pair: problem 1 is lanes 4-7 and 20-23.
  const FragmentLayout& qp = lib.at("m8n8k4.f16.cd.32bit");
  EXPECT_EQ(qp.problems, 4);
  EXPECT_EQ(qp.slot(1, 0, 0).lane, 4);
  EXPECT_EQ(qp.slot(1, 4, 0).lane, 20);
  EXPECT_EQ(qp.slot(3, 7, 7).lane, 31);
  // C/D f16: c0,c1 in register 0, c2,c3 in register 1.
  const FragmentSlot& s = lib.at("m16n8.cd.16bit").slot(0, 8, 1);
  EXPECT_EQ(s.lane, 0);
  EXPECT_EQ(s.reg, 1);
  EXPECT_EQ(s.elem, 1);
  EXPECT_EQ(lib.formula("m16n8k256.a.1bit").col, "32*t + (i & 31) + 128*(i >> 6)");
  EXPECT_EQ(lib.find("no.such.layout"), nullptr);
}

TEST(LayoutLibrary, BrokenLayoutGivesTheBijectionError) {
  EXPECT_EQ(load_error("layouts:\n"
                       "  broken.a:\n"
                       "    rows: 16\n"
                       "    cols: 8\n"
                       "    regs: 2\n"
                       "    elems: 2\n"
                       "    row: \"g\"\n"
                       "    col: \"2*t + (i & 1)\"\n"),
            "test.yaml:2:3: layout broken.a: not a bijection: lane 0 register 0 element 0 and lane 0 register 1 "
            "element 0 both map to (problem 0, row 0, col 0)");
  // The m16n8k256 b1 A formula as the PTX ISA prints it.
  EXPECT_EQ(load_error("layouts:\n"
                       "  isa.m16n8k256.a:\n"
                       "    rows: 16\n"
                       "    cols: 256\n"
                       "    regs: 4\n"
                       "    elems: 32\n"
                       "    row: \"g + 8*((i >> 5) & 1)\"\n"
                       "    col: \"i < 64 ? 32*t + i : 32*t + (i & 31) + 128\"\n"),
            "test.yaml:2:3: layout isa.m16n8k256.a: not a bijection: lane 0 register 3 element 0 and lane 3 register "
            "1 element 0 both map to (problem 0, row 8, col 128)");
}

TEST(LayoutLibrary, ErrorsNameFileLineAndLayout) {
  const std::string head = "layouts:\n  bad:\n    rows: 8\n    cols: 8\n    regs: 2\n    elems: 1\n";
  EXPECT_EQ(load_error(head + "    row: \"g + (\"\n    col: \"2*t + i\"\n"),
            "test.yaml:7:10: layout bad: row: expression \"g + (\": column 6: expected a number, a variable or '(', "
            "found the end");
  EXPECT_EQ(load_error(head + "    row: \"g\"\n    col: \"2*t + i + 1\"\n"),
            "test.yaml:2:3: layout bad: lane 3 register 1 element 0 maps to (problem 0, row 0, col 8), outside 8x8");
  EXPECT_EQ(load_error(head + "    row: \"g\"\n"), "test.yaml:3:5: layout bad: missing key 'col'");
  EXPECT_EQ(load_error(head + "    row: \"g\"\n    col: \"2*t + i\"\n    colour: 1\n"),
            "test.yaml:9:5: layout bad: unknown key 'colour' (known: rows, cols, regs, elems, row, col, problems, "
            "problem, lanes, copies, holders, reads)");
  EXPECT_EQ(load_error(head + "    row: \"g / (t - t)\"\n    col: \"2*t + i\"\n"),
            "test.yaml:2:3: layout bad: row: expression \"g / (t - t)\": division by zero at lane 0 register 0 "
            "element 0");
  EXPECT_EQ(load_error("layouts:\n  bad:\n    rows: 8\n    cols: x\n"),
            "test.yaml:4:11: layout bad: 'cols' must be an integer");
  EXPECT_EQ(load_error("layouts:\n  qp:\n    problems: 4\n    rows: 8\n    cols: 4\n    regs: 2\n    elems: 2\n"
                       "    row: \"t + 4*hi\"\n    col: \"i\"\n"),
            "test.yaml:3:5: layout qp: 'problems' is 4, so 'problem' must say which problem each element belongs to");
  EXPECT_EQ(load_error("layouts: [1, 2"), "test.yaml:1:1: end of sequence flow not found");
}

// `measured_on`: the targets whose hardware the layouts were measured on (wmma's); without it the
// layouts are the PTX ISA's and hold everywhere. A target ptxmma does not know is a located error.
TEST(LayoutLoader, MeasuredOnNamesTheTargetsOfTheCapture) {
  const std::string one = "layouts:\n  x:\n    rows: 8\n    cols: 4\n    regs: 1\n    elems: 1\n"
                          "    row: \"g\"\n    col: \"t\"\n";
  const LayoutLibrary everywhere = LayoutLibrary::parse(one, "test.yaml");
  EXPECT_TRUE(everywhere.measured_on().empty());
  EXPECT_TRUE(everywhere.verified_on("sm_70"));
  const LayoutLibrary measured = LayoutLibrary::parse("measured_on: [sm_90, sm_90a]\n" + one, "test.yaml");
  EXPECT_TRUE(measured.verified_on("sm_90a"));
  EXPECT_FALSE(measured.verified_on("sm_70"));
  EXPECT_FALSE(measured.verified_on("sm_80"));
  EXPECT_EQ(load_error("measured_on: [sm_90, sm_91]\n" + one).substr(0, 46),
            "test.yaml:1:22: 'measured_on': unknown target ");
  EXPECT_EQ(load_error("measured_on: sm_90\n" + one),
            "test.yaml:1:14: 'measured_on' must be a list of targets, e.g. [sm_90, sm_90a]");
  const LayoutLibrary wmma = LayoutLibrary::load(std::string(kPtxmmaSourceDir) + "/configs/wmma/layouts.yaml");
  EXPECT_EQ(wmma.measured_on(), (std::vector<std::string>{"sm_90", "sm_90a"}));
  EXPECT_TRUE(library().measured_on().empty());  // mma's: the PTX ISA's
}

// `holders`: each element is held by that many slots and `reads` picks the one the product reads
// (Volta's wmma A and B). The covering check names the file, the layout and the first element
// held too often, read twice or read from none of its holders.
TEST(LayoutLoader, HoldersCoverEveryElementAndReadOne) {
  // 8 x 4, each element in lanes 4g + t and 4g + t + 2; the product reads the one with t < 2.
  const std::string head = "layouts:\n  two:\n    rows: 8\n    cols: 4\n    regs: 1\n    elems: 2\n    holders: 2\n";
  const std::string cover = "    row: \"g & 7\"\n    col: \"2*(t & 1) + e\"\n";
  const LayoutLibrary ok = LayoutLibrary::parse(head + cover + "    reads: \"t < 2\"\n", "test.yaml");
  const FragmentLayout& l = ok.at("two");
  EXPECT_EQ(l.holders, 2);
  EXPECT_EQ(ok.formula("two").reads, "t < 2");
  // (3, 1): element 1 of lanes 12 and 14.
  EXPECT_EQ(l.slot(0, 3, 1).lane, 12);
  EXPECT_EQ(l.holder(0, 3, 1, 1).lane, 14);
  EXPECT_TRUE(l.chosen(12, 0, 1));
  EXPECT_FALSE(l.chosen(14, 0, 1));
  EXPECT_EQ(load_error(head + "    row: \"g & 7\"\n    col: \"2*(t & 1) + e\"\n    reads: \"hi == 0\"\n"),
            "test.yaml:2:3: layout two: (problem 0, row 0, col 0) is read from two holders, lane 0 register 0 "
            "element 0 and lane 2 register 0 element 0; 'reads' must choose one");
  EXPECT_EQ(load_error(head + cover + "    reads: \"t < 2 && hi == 1\"\n"),
            "test.yaml:2:3: layout two: (problem 0, row 0, col 0) is read from none of its holders (lane 0 register 0 "
            "element 0 ... lane 2 register 0 element 0); 'reads' must choose one");
  EXPECT_EQ(load_error(head + "    row: \"g & 3\"\n    col: \"t\"\n    reads: \"e == 0 && hi == 0\"\n"),
            "test.yaml:2:3: layout two: (problem 0, row 0, col 0) is held by more than its 2 holders: lane 16 "
            "register 0 element 0 too");
  EXPECT_EQ(load_error(head + cover), "test.yaml:3:5: layout two: 'holders' is 2, so 'reads' must say which holder of "
                                      "each element the product reads");
  EXPECT_EQ(load_error("layouts:\n  one:\n    rows: 8\n    cols: 4\n    regs: 1\n    elems: 1\n"
                       "    row: \"g\"\n    col: \"t\"\n    reads: \"1\"\n"),
            "test.yaml:9:12: layout one: 'reads' chooses among the holders of 'holders' > 1");
  EXPECT_EQ(load_error(head + "    row: \"g & 7\"\n    col: \"2*(t & 1) + e\"\n    reads: \"t <\"\n").substr(0, 48),
            "test.yaml:10:12: layout two: reads: expression \"");
}

// `published_for` with `published_by`: layouts taken from a publication for those targets.
TEST(LayoutLoader, PublishedForNamesTargetsAndSource) {
  const std::string one = "layouts:\n  x:\n    rows: 8\n    cols: 4\n    regs: 1\n    elems: 1\n"
                          "    row: \"g\"\n    col: \"t\"\n";
  const LayoutLibrary p = LayoutLibrary::parse("published_for: [sm_70]\npublished_by: A. Paper\n" + one, "test.yaml");
  EXPECT_TRUE(p.published_for("sm_70"));
  EXPECT_FALSE(p.published_for("sm_75"));
  EXPECT_TRUE(p.published("x"));
  EXPECT_EQ(p.published_by(), "A. Paper");
  EXPECT_EQ(load_error("published_for: [sm_70]\n" + one),
            "test.yaml:1:1: 'published_for: [targets]' and 'published_by: SOURCE' come together (layouts taken from a "
            "publication)");
  EXPECT_EQ(load_error("measured_on: [sm_90]\npublished_for: [sm_70]\npublished_by: A. Paper\n" + one),
            "test.yaml:2:16: a file's layouts are either 'measured_on' or 'published_for' targets, not both");
  const LayoutLibrary volta =
      LayoutLibrary::load(std::string(kPtxmmaSourceDir) + "/configs/wmma/layouts-volta.yaml");
  EXPECT_TRUE(volta.published_for("sm_70"));
  EXPECT_EQ(volta.published_by(), "GPGPU-Sim / Raihan et al.");
  EXPECT_EQ(volta.at("m16n16k16.a.f16.row").holders, 2);
  EXPECT_EQ(volta.at("m16n16.cd.32bit").holders, 1);
}

// `ptxmma layout` says when a wmma layout is assumed for the target asked for (measured on sm_90
// only), in the text and in --json; mma's layouts, the PTX ISA's, carry no such line. On sm_70 the
// m16n16k16 layouts are Volta's, published, not verified.
TEST(LayoutCommand, MarksWmmaLayoutsNotMeasuredOnTheTarget) {
  const std::string wmma = "layout wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 --operand a";
  const std::string volta = test::run_cli(wmma + " --arch sm_70").all();
  EXPECT_TRUE(contains(volta, "fragment layouts: published (GPGPU-Sim / Raihan et al.), not verified on hardware"))
      << volta;
  EXPECT_TRUE(contains(volta, "layout m16n16k16.a.f16.row (")) << volta;
  EXPECT_TRUE(contains(volta, "configs/wmma/layouts-volta.yaml:")) << volta;
  EXPECT_TRUE(contains(volta, "each element is held by 2 lanes")) << volta;
  const std::string json = test::run_cli(wmma + " --arch sm_70 --json -").all();
  EXPECT_TRUE(contains(json, "\"published_by\": \"GPGPU-Sim / Raihan et al.\"")) << json;
  EXPECT_TRUE(contains(json, "\"also_held_by\"")) << json;
  // A wmma.load shows the fragment it fills: on Volta, that of its memory layout.
  const std::string load = test::run_cli("layout wmma.load.a.sync.aligned.row.m16n16k16.f16 --arch sm_70").all();
  EXPECT_TRUE(contains(load, "fragment layout: published (GPGPU-Sim / Raihan et al.), not verified on hardware"))
      << load;
  EXPECT_TRUE(contains(load, "layout m16n16k16.a.f16.row (")) << load;
  EXPECT_TRUE(contains(load, "\n   T17  a0:(5,0)   a1:(5,1) ")) << load;
  EXPECT_TRUE(contains(test::run_cli("layout wmma.load.a.sync.aligned.col.m16n16k16.f16 --arch sm_70").all(),
                       "layout m16n16k16.a.f16.col ("));
  const std::string h200 = test::run_cli("layout wmma.load.a.sync.aligned.col.m16n16k16.f16 --arch sm_90a").all();
  EXPECT_TRUE(contains(h200, "layout m16n16k16.a.f16 (")) << h200;
  EXPECT_FALSE(contains(h200, "not verified")) << h200;
  const std::string m32 = test::run_cli("layout wmma.mma.sync.aligned.row.col.m32n8k16.f32.f32 --arch sm_70").all();
  EXPECT_TRUE(contains(m32, "fragment layouts: measured on sm_90, sm_90a only; for sm_70 assumed from them")) << m32;
  for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89"}) {
    const std::string out = test::run_cli(wmma + " --arch " + arch).all();
    EXPECT_TRUE(contains(out, std::string("fragment layouts: measured on sm_90, sm_90a only; for ") + arch +
                                  " assumed from them, not verified on hardware"))
        << out;
  }
  EXPECT_FALSE(contains(test::run_cli(wmma + " --arch sm_90a").all(), "not verified")) ;
  EXPECT_TRUE(contains(test::run_cli(wmma + " --arch sm_70 --json -").all(), "\"layouts_verified_on_hardware\": false"));
  EXPECT_TRUE(contains(test::run_cli(wmma + " --arch sm_90 --json -").all(), "\"layouts_verified_on_hardware\": true"));
  EXPECT_FALSE(contains(
      test::run_cli("layout mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 --arch sm_80 --operand a").all(),
      "not verified"));
}

// `ptxmma layout` prints the two views.
TEST(LayoutCommand, PrintsMatrixAndLaneViews) {
  const std::string out = test::run_cli("layout mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 --operand a").all();
  EXPECT_TRUE(contains(out, "layout m16n8k16.a.16bit")) << out;
  EXPECT_TRUE(contains(out, "\n   9    T4:r1[0]   T4:r1[1]   T5:r1[0]")) << out;  // matrix row 9
  EXPECT_TRUE(contains(out, "T5   a0:(1,2)  a1:(1,3)  a2:(9,2)")) << out;       // lane 5
  EXPECT_FALSE(contains(out, "\nB: ")) << out;
}

}  // namespace
}  // namespace ptxmma
