// `ptxmma format` on bad input: one line on stderr ("ptxmma: error: ..."), exit status 1.
// Runs the built CLI (kPtxmmaCli) through the shell.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include "tests/paths.hpp"

namespace {

struct CliResult {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

CliResult run_cli(std::initializer_list<std::string> args) {
  static int serial = 0;
  const std::string base =
      ::testing::TempDir() + "ptxmma_format_cli_" + std::to_string(getpid()) + "_" + std::to_string(serial++);
  std::string cmd = quote(kPtxmmaCli) + " format";
  for (const auto& a : args) cmd.append(" ").append(quote(a));
  cmd.append(" >").append(quote(base + ".out")).append(" 2>").append(quote(base + ".err"));
  const int raw = std::system(cmd.c_str());
  CliResult r;
  r.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

std::string show(std::initializer_list<std::string> args) {
  std::string s = "ptxmma format";
  for (const auto& a : args) s += " " + a;
  return s;
}

// Exit status 1, exactly one line on stderr, starting "ptxmma: error: " and containing `what`.
void expect_error(std::initializer_list<std::string> args, const std::string& what, bool quiet_stdout = true) {
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.status, 1) << show(args) << "\nstdout:\n" << r.out << "stderr:\n" << r.err;
  EXPECT_EQ(r.err.rfind("ptxmma: error: ", 0), 0u) << show(args) << ": stderr " << r.err;
  EXPECT_FALSE(r.err.empty()) << show(args);
  if (!r.err.empty()) {
    EXPECT_EQ(r.err.back(), '\n') << show(args);
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << show(args) << ": more than one line:\n" << r.err;
  }
  EXPECT_NE(r.err.find(what), std::string::npos) << show(args) << ": stderr " << r.err << "lacks '" << what << "'";
  if (quiet_stdout) {
    EXPECT_EQ(r.out, "") << show(args);
  }
}

TEST(FormatCli, GoodInputStillWorks) {
  const CliResult r = run_cli({"e4m3", "448"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("e4m3 0x7e"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
  const CliResult c = run_cli({"f32", "464", "--to", "e4m3", "--satfinite"});
  EXPECT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("e4m3 0x7e"), std::string::npos) << c.out;
}

TEST(FormatCli, UnknownType) {
  expect_error({"f128", "1"}, "unknown type 'f128'");
  expect_error({"F16", "1"}, "unknown type 'F16'");
  expect_error({"", "1"}, "unknown type ''");
  // The destination type is checked after the source is described.
  expect_error({"f16", "1", "--to", "fp8"}, "unknown type 'fp8'", false);
  expect_error({"f16", "1", "--to", "e4m3", "--round", "rd"}, "unknown rounding mode 'rd'", false);
}

TEST(FormatCli, MalformedNumber) {
  for (const char* bad : {"abc", "1.2.3", "1e", "1e+-5", "1,5", "0x", "-0x1", "1 2", "nan1", ".", "+"})
    expect_error({"f16", bad}, "malformed number");
  for (const char* bad : {"0xZZ", "0x1g", "0x+1", "0x-1"}) expect_error({"f16", bad}, "malformed hex value");
  expect_error({"s8", "1.5"}, "is not an integer");
  expect_error({"s32", "inf"}, "is not an integer");
}

TEST(FormatCli, OutOfRangeValue) {
  expect_error({"f16", "65520"}, "out of range for f16");  // rounds (rn) to Inf
  expect_error({"f16", "1e5"}, "out of range for f16");
  expect_error({"f16", "-1e5"}, "out of range for f16");
  expect_error({"bf16", "1e39"}, "out of range for bf16");
  expect_error({"e4m3", "1000"}, "out of range for e4m3");
  expect_error({"e4m3", "465"}, "out of range for e4m3");
  expect_error({"e5m2", "61440"}, "out of range for e5m2");
  expect_error({"ue8m0", "1e39"}, "out of range for ue8m0");
  expect_error({"s8", "200"}, "out of range for s8");
  expect_error({"s8", "-129"}, "out of range for s8");
  expect_error({"u8", "-1"}, "out of range for u8");
  expect_error({"u4", "16"}, "out of range for u4");
  expect_error({"s4", "-9"}, "out of range for s4");
  expect_error({"b1", "2"}, "out of range for b1");
  expect_error({"s32", "2147483648"}, "out of range for s32");
  expect_error({"ue8m0", "-2"}, "unsigned");
  expect_error({"ue4m3", "-1"}, "unsigned");
  expect_error({"e4m3", "inf"}, "has no infinity");
  expect_error({"e2m1", "--", "-inf"}, "has no infinity");
  expect_error({"e2m1", "nan"}, "has no NaN");
}

// Formats with neither Inf nor NaN: a value that rounds past MAX_NORM is out of range.
TEST(FormatCli, OutOfRangeForFormatsWithoutInfOrNaN) {
  expect_error({"e2m1", "100"}, "out of range for e2m1");
  expect_error({"e3m2", "-1000"}, "out of range for e3m2");
  expect_error({"e2m3", "7.8"}, "out of range for e2m3");
}

// CLI11 would take "-inf" for an option; the format command takes it back as the value.
TEST(FormatCli, NegativeInfinityAsValue) {
  expect_error({"e2m1", "-inf"}, "has no infinity");
  const CliResult r = run_cli({"f16", "-inf"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("f16 0xfc00"), std::string::npos) << r.out;
}

TEST(FormatCli, HexTooWide) {
  expect_error({"e4m3", "0x100"}, "does not fit in the 8 bits of e4m3");
  expect_error({"f16", "0x10000"}, "does not fit in the 16 bits of f16");
  expect_error({"e2m1", "0x10"}, "does not fit in the 4 bits of e2m1");
  expect_error({"e3m2", "0x40"}, "does not fit in the 6 bits of e3m2");
  expect_error({"ue4m3", "0x80"}, "does not fit in the 7 bits of ue4m3");
  expect_error({"b1", "0x2"}, "does not fit in the 1 bits of b1");
  expect_error({"tf32", "0x100000000"}, "does not fit in the 32 bits of tf32");
  expect_error({"f64", "0x10000000000000000"}, "malformed hex value");  // more than 64 bits
}

// --arch: the conversion must be a cvt of that target (docs/numerics.md §1.3); decoding needs none.
TEST(FormatCli, ArchChecksTheConversion) {
  expect_error({"f32", "1.5", "--to", "e2m1", "--satfinite", "--arch", "sm_90a"},
               "format: cvt from f32 to e2m1 needs sm_100a or later; the target is sm_90a", false);
  expect_error({"f32", "1.5", "--to", "e4m3", "--satfinite", "--arch", "sm_80"},
               "cvt from f32 to e4m3 needs sm_89 or later; the target is sm_80", false);
  expect_error({"f32", "1.5", "--to", "tf32", "--arch", "sm_86"}, "cvt from f32 to tf32 needs sm_90 or later", false);
  expect_error({"f32", "1", "--arch", "sm_91"}, "unknown target 'sm_91'");
  for (const auto& ok : {std::initializer_list<std::string>{"f32", "1.5", "--to", "e2m1", "--satfinite", "--arch", "sm_120a"},
                         {"f32", "1.5", "--to", "tf32", "--round", "rna", "--arch", "sm_80"},
                         {"f32", "1.5", "--to", "bf16", "--arch", "sm_80"},
                         {"e2m1", "0x3", "--arch", "sm_70"},
                         {"f32", "1.5", "--to", "e2m1"}}) {
    const CliResult r = run_cli(ok);
    EXPECT_EQ(r.status, 0) << show(ok) << ": " << r.err;
  }
}

}  // namespace
