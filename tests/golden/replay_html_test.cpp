// `ptxmma replay --html`: a copy of the probe set with one D bit flipped gives a report whose
// tables are checked cell by cell, and (where Chromium is installed) that a browser renders.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/browser.hpp"
#include "tests/cli.hpp"
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;
using test::run_cli;
using test::slurp;

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

class ReplayHtml : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("ptxmma-html-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy(std::string(kPtxmmaSourceDir) + "/tests/data/probes-sm90", dir_ / "set", fs::copy_options::recursive);
    // The last word of the file: lane 31's last D word of the last case.
    const fs::path bin = dir_ / "set" / "m16n8k8.row.col.f32.f16.f16.f32.bin";
    std::fstream f(bin, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-1, std::ios::end);
    const char last = static_cast<char>(f.get());
    f.seekp(-1, std::ios::end);
    f.put(static_cast<char>(last ^ 1));
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ReplayHtml, ReportMarksTheDifferingRegister) {
  const std::string html = (dir_ / "r.html").string();
  const auto r = run_cli("replay " + (dir_ / "set").string() + " --html " + html);
  EXPECT_EQ(r.status, 1) << r.all();
  const std::string page = slurp(html);
  EXPECT_NE(page.find("<b>32 passed, 1 failed</b>"), std::string::npos);
  EXPECT_EQ(count(page, "<tr class=\"pass\">"), 11);
  EXPECT_EQ(count(page, "<tr class=\"fail\"><td><a href=\"#v2\">mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32</a></td>"), 1);
  // The link's target names the element and gives its explain command.
  EXPECT_NE(page.find("<h2 id=\"v2\">mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32: case 1, 1 of 128 D elements "
                      "differ</h2>"),
            std::string::npos);
  EXPECT_NE(page.find("<tr><td>D[15][7]</td><td>31</td><td>3</td><td>0</td>"), std::string::npos) << page;
  EXPECT_NE(page.find("<code>ptxmma explain " + (dir_ / "set").string() +
                      " mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 --case 1 --row 15 --col 7</code>"),
            std::string::npos);
  EXPECT_NE(page.find("First failure: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 case 1"), std::string::npos);
  // 32 lanes x 4 registers, one of them marked: lane 31, d3.
  EXPECT_EQ(count(page, "<td class=\"ok\">") + count(page, "<td class=\"bad\">"), 128);
  EXPECT_EQ(count(page, "<td class=\"bad\">"), 1);
  const std::size_t lane31 = page.find("<tr><th>31</th>");
  ASSERT_NE(lane31, std::string::npos);
  EXPECT_EQ(count(page.substr(lane31, page.find("</tr>", lane31) - lane31), "<td class=\"ok\">"), 3);

  const auto matlab = run_cli("replay " + std::string(kPtxmmaSourceDir) + "/tests/data/matlab-tc/V100 --html " + html);
  EXPECT_EQ(matlab.status, 1);
  EXPECT_NE(matlab.err.find("--html applies to mma and wgmma golden sets"), std::string::npos) << matlab.err;
}

// The text and JSON reports name the element; the explain command they print runs and shows
// the GPU's value differing from ptxmma's.
TEST_F(ReplayHtml, TextAndJsonNameTheElementAndAnExplainCommandThatRuns) {
  const std::string json = (dir_ / "r.json").string();
  const auto r = run_cli("replay " + (dir_ / "set").string() + " -j 2 --json " + json);
  EXPECT_EQ(r.status, 1) << r.all();
  const std::string set = (dir_ / "set").string();
  const std::string cmd = "ptxmma explain " + set + " mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 --case 1 --row 15 --col 7";
  EXPECT_NE(r.out.find("first failure: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 case 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": 1 of 128 D elements differ\n  D[15][7] (lane 31, reg 3, elem 0): expected 0x"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n    " + cmd + "\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("lane  0"), std::string::npos) << "no lane-by-lane dump in the text";
  const auto doc = nlohmann::json::parse(slurp(json));
  const auto& v = doc["variants"][2];
  ASSERT_EQ(v["first_failure"]["case"], 1);
  ASSERT_EQ(v["first_failure"]["elements"].size(), 1U);
  const auto& e = v["first_failure"]["elements"][0];
  EXPECT_EQ(e["row"], 15);
  EXPECT_EQ(e["col"], 7);
  EXPECT_EQ(e["lane"], 31);
  EXPECT_EQ(e["register"], 3);
  EXPECT_TRUE(e["ulps"].is_number()) << e;
  EXPECT_EQ(e["explain"], cmd);
  const auto ex = run_cli(cmd.substr(std::string("ptxmma ").size()));
  EXPECT_EQ(ex.status, 0) << ex.all();
  EXPECT_NE(ex.out.find("D[15][7] (lane 31 register 3 element 0)"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("DIFFERENT"), std::string::npos) << ex.out;
}

// build/screenshots/replay-report.png
TEST_F(ReplayHtml, RendersInABrowserWhereOneIsInstalled) {
  const std::string browser = test::find_chromium();
  if (browser.empty()) GTEST_SKIP() << "no Chromium: the report is checked by parsing only";
  const fs::path html = dir_ / "r.html";
  (void)run_cli("replay " + (dir_ / "set").string() + " --html " + html.string());
  const std::string png = test::screenshot(browser, html, "replay-report", 1400, 1600);
  ASSERT_FALSE(png.empty()) << browser << " failed on " << html;
  EXPECT_GT(fs::file_size(png), 20000U);  // a blank page is a few kilobytes
}

}  // namespace
}  // namespace ptxmma
