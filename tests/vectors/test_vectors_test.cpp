// YAML test vectors (tools/vectors/test_vectors, `ptxmma test`): every examples/*.test.yaml passes,
// malformed files give located errors, a wrong expectation names the differing cell, and the
// output does not depend on --jobs.
#include "tests/paths.hpp"
#include "tools/vectors/test_vectors.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/error.hpp"
#include "tests/cli.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;
const std::string kExamples = std::string(kPtxmmaSourceDir) + "/examples/";

std::vector<std::string> example_files() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kExamples)) {
    const std::string n = e.path().filename().string();
    if (n.size() > 10 && n.ends_with(".test.yaml")) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

using test::run_cli;
using test::slurp;

class TempDir {
 public:
  TempDir() {
    static int serial = 0;
    dir_ = fs::temp_directory_path() / ("ptxmma-vectors-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    fs::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = (dir_ / name).string();
    std::ofstream(p) << text;
    return p;
  }

 private:
  fs::path dir_;
};

// The error of loading `text`, with the file's path replaced by FILE.
std::string load_error(const std::string& text) {
  const TempDir d;
  const std::string p = d.write("bad.yaml", text);
  try {
    (void)VectorFile::load(p);
  } catch (const Error& e) {
    std::string s = e.what();
    for (std::size_t at; (at = s.find(p)) != std::string::npos;) s.replace(at, p.size(), "FILE");
    return s;
  }
  return "(no error)";
}

const std::string kMma = "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32";

TEST(TestVectors, EveryExampleFilePasses) {
  const auto files = example_files();
  ASSERT_GE(files.size(), 12U);
  const auto results = run_vector_files(files, 4);
  std::size_t cases = 0;
  for (const auto& r : results) {
    EXPECT_TRUE(r.passed) << r.file << ": " << r.name << "\n" << r.detail;
    ++cases;
  }
  EXPECT_GE(cases, 40U);
}

TEST(TestVectors, ExamplesCoverEveryFamily) {
  std::string all;
  for (const auto& f : example_files()) all += slurp(f);
  for (const char* s : {".f32.f16.f16.f32", ".f32.bf16.bf16.f32", ".f32.tf32.tf32.f32", ".f32.e4m3.e4m3.f32",
                        ".f16.e4m3.e4m3.f16", ".satfinite.s32.s8.s8.s32", ".s32.s4.u4.s32", ".xor.popc", ".and.popc",
                        ".rz.f64.f64.f64.f64", "m8n8k4.row.col.f16.f16.f16.f16", "snippet_file: mma_f16_ldmatrix.ptx",
                        "snippet_file: cvt_pack.ptx"})
    EXPECT_NE(all.find(s), std::string::npos) << s;
}

struct Bad {
  const char* what;
  std::string text;
  std::string error;
};

TEST(TestVectors, MalformedFilesGiveLocatedErrors) {
  const std::string head = "cases:\n  - name: c\n    instruction: " + kMma + "\n";
  const std::string rows8 = "[[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8],"
                            "[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8]]";
  const std::vector<Bad> bad = {
      {"wrong matrix shape (rows)", head + "    A: [[1], [2]]\n    B: 1\n    expect: {D: 0}\n", "FILE:4:8: A: expected 8 rows (a 8x16 matrix of s8), found 2"},
      {"wrong matrix shape (row length)", head + "    A: " + rows8 + "\n    B: 1\n    expect: {D: 0}\n", "FILE:4:9: A row 0: expected 16 values (a 8x16 matrix of s8), found 8"},
      {"unknown type", "cases:\n  - instruction: mma.sync.aligned.m16n8k16.row.col.f32.f17.f17.f32\n    A: 1\n    B: 1\n    expect: {D: 0}\n", "FILE:2:18: mma.sync.aligned.m16n8k16.row.col.f32.f17.f17.f32: unknown qualifier '.f17' (did you mean 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'?)"},
      {"bad hex", head + "    A: 0x1g\n    B: 1\n    expect: {D: 0}\n", "FILE:4:8: A: malformed hex value '0x1g'"},
      {"value out of range", head + "    A: 300\n    B: 1\n    expect: {D: 0}\n", "FILE:4:8: A: 300 is out of range for 8 bits"},
      {"duplicate key", head + "    A: 1\n    A: 2\n    B: 1\n    expect: {D: 0}\n", "FILE:5:5: duplicate key 'A'"},
      {"missing expect", head + "    A: 1\n    B: 1\n", "FILE:2:5: case 'c' has no 'expect'"},
      {"expect without D", head + "    A: 1\n    B: 1\n    expect: {registers: {}}\n", "FILE:6:14: unknown key 'registers' in 'expect' of an instruction case (expected D)"},
      {"unknown instruction", "cases:\n  - instruction: ldmatrix.sync.aligned.m8n8.x4.shared.b16\n    expect: {D: 0}\n", "FILE:2:18: unknown instruction 'ldmatrix.sync.aligned.m8n8.x4.shared.b16': an instruction case takes an mma, a wmma.mma or a wgmma.mma_async; run anything else as a snippet"},
      {"unknown key", head + "    A: 1\n    B: 1\n    Q: 1\n    expect: {D: 0}\n", "FILE:6:5: unknown key 'Q' in a case (expected name, target, instruction, A, B, C, expect, snippet, snippet_file, init, init_file, entry, max_steps, strict, scale_A, scale_B, a_source, desc_a, desc_b, swizzle, scale_d, imm_scale_a, imm_scale_b, imm_trans_a, imm_trans_b)"},
      {"missing matrix", head + "    A: 1\n    expect: {D: 0}\n", "FILE:2:5: case 'c' needs matrix B"},
      {"instruction and snippet", head + "    snippet: \"mov.u32 %r1, 1;\"\n    expect: {D: 0}\n", "FILE:2:5: case 'c' needs exactly one of 'instruction', 'snippet', 'snippet_file'"},
      {"illegal on the target", "target: sm_75\ncases:\n  - instruction: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32\n    A: 1\n    B: 1\n    expect: {D: 0}\n", "FILE:3:18: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32: needs sm_80 or later; the target is sm_75"},
      {"no cases", "target: sm_90a\n", "FILE:1:1: missing key 'cases'"},
      {"duplicate case name", "cases:\n  - name: x\n    instruction: " + kMma + "\n    A: 1\n    B: 1\n    expect: {D: 15}\n  - name: x\n    instruction: " + kMma + "\n    A: 1\n    B: 1\n    expect: {D: 15}\n", "FILE:7:11: duplicate case name 'x'"},
      {"undeclared register", "cases:\n  - snippet: |\n      .reg .b32 %r1;\n      mov.u32 %r1, 1;\n    expect:\n      registers: {\"%r2\": 1}\n", "FILE:6:19: register %r2 is not declared in the snippet"},
      {"bad register value", "cases:\n  - snippet: |\n      .reg .b32 %r1;\n      mov.u32 %r1, 1;\n    expect:\n      registers: {\"%r1\": \"f17x2 1 2\"}\n", "FILE:6:26: unknown type 'f17x2' (a PTX type such as f32, f16x2, e4m3x2, s32, or an element type with a count such as e4m3x4, e2m1x8)"},
      {"snippet does not parse", "cases:\n  - snippet: |\n      .reg .b32 %r1;\n      mov.u32 %r1, %r9;\n    expect:\n      registers: {\"%r1\": 1}\n", "FILE:4:14: error: register '%r9' is not declared\nFILE: case 'case 1': the snippet does not parse"},
      {"no such kernel", "cases:\n  - snippet: |\n      .entry k() { ret; }\n    entry: q\n    expect:\n      registers: {}\n", "FILE:4:12: error: no kernel 'q' in FILE (kernels: k)"},
      {"yaml syntax", "cases: [\n", "FILE:2:1: end of sequence flow not found"},
  };
  ASSERT_GE(bad.size(), 10U);
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    EXPECT_EQ(load_error(b.text), b.error);
  }
}

// D = A x B with A, B all ones: every cell is 16; the file says 17 at D[2][5], which lane 10
// holds in its register 1 (m8n8k16 D: row lane / 4, column 2 (lane % 4) + reg).
const std::string kWrongMma =
    "cases:\n"
    "  - name: ones\n"
    "    instruction: mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32\n"
    "    A: 1\n"
    "    B: 1\n"
    "    expect:\n"
    "      D: [\"16 16 16 16 16 16 16 16\", \"16 16 16 16 16 16 16 16\", \"16 16 16 16 16 17 16 16\",\n"
    "          \"16 16 16 16 16 16 16 16\", \"16 16 16 16 16 16 16 16\", \"16 16 16 16 16 16 16 16\",\n"
    "          \"16 16 16 16 16 16 16 16\", \"16 16 16 16 16 16 16 16\"]\n"
    "  - name: ones right\n"
    "    instruction: mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32\n"
    "    A: 1\n"
    "    B: 1\n"
    "    expect: {D: 16}\n"
    "  - name: snippet wrong\n"
    "    snippet: |\n"
    "      .reg .f32 %f1;\n"
    "      add.f32 %f1, %f1, 0f3FC00000;\n"
    "    init: {registers: {\"%f1\": 1}}\n"
    "    expect:\n"
    "      registers:\n"
    "        \"%f1\": [{lanes: 0-30, value: 2.5}, {lanes: 31, value: 2.25}]\n"
    "  - name: bad init\n"
    "    snippet: |\n"
    "      .reg .b32 %r1;\n"
    "      mov.u32 %r1, 1;\n"
    "    init: {registers: {\"%r7\": 1}}\n"
    "    expect:\n"
    "      registers: {\"%r1\": 1}\n";

TEST(TestVectors, WrongExpectationNamesTheCell) {
  const TempDir d;
  const std::string p = d.write("wrong.yaml", kWrongMma);
  const auto r = run_vector_files({p}, 1);
  ASSERT_EQ(r.size(), 4U);
  EXPECT_FALSE(r[0].passed);
  EXPECT_EQ(r[0].name, "ones");
  EXPECT_EQ(r[0].detail,
            "  1 of 64 D elements differ (mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32)\n"
            "  D[2][5] (lane 10, reg 1, elem 0): expected 0x00000011 (17), got 0x00000010 (16), off by 1\n");
  EXPECT_TRUE(r[1].passed) << r[1].detail;
  EXPECT_FALSE(r[2].passed);
  EXPECT_EQ(r[2].detail,
            "  1 register value differs\n"
            "  lane 31 %f1: expected 0x40100000 (2.25), got 0x40200000 (2.5)\n");
  EXPECT_FALSE(r[3].passed);
  EXPECT_EQ(r[3].detail, "  error: " + p + ":27:24: register %r7 is not declared in " + p + "\n");
}

// A kernel that ends with a cp.async in flight (the CuTe sm80 tutorial's last prefetches do):
// `expect: warnings` names the warning the run must give; any other is reported, and an expected
// warning that does not come fails the case.
TEST(TestVectors, ExpectedWarningsMustComeAndOthersAreReported) {
  const std::string kernel =
      "      .version 8.0\n      .target sm_80\n      .address_size 64\n"
      "      .visible .entry k(.param .u64 p) {\n"
      "        .shared .align 16 .b8 s[16];\n        .reg .b64 %rd<2>;\n        .reg .b32 %r<2>;\n"
      "        ld.param.u64 %rd1, [p];\n        mov.u32 %r1, s;\n"
      "        cp.async.cg.shared.global [%r1], [%rd1], 16;\n"
      "        st.global.u32 [%rd1+16], 7;\n        ret;\n      }\n";
  const auto vector_case = [&](const std::string& name, const std::string& warnings) {
    return "  - name: " + name + "\n    snippet: |\n" + kernel +
           "    init:\n      params: [0x1000]\n      global:\n        - {address: 0x1000, type: u32, values: [1, 2, 3, 4, 5]}\n"
           "    expect:\n      global:\n        - {address: 0x1010, type: u32, values: [7]}\n" + warnings;
  };
  const TempDir d;
  const std::string p = d.write(
      "warn.yaml", "description: expected warnings\ntarget: sm_80\ncases:\n" +
                       vector_case("expected", "      warnings: [\"cp.async is still in flight\"]\n") +
                       vector_case("unexpected", "") +
                       vector_case("missing", "      warnings: [\"cp.async is still in flight\", \"no such warning\"]\n"));
  const auto r = run_vector_files({p}, 1);
  ASSERT_EQ(r.size(), 3U);
  EXPECT_TRUE(r[0].passed);
  EXPECT_EQ(r[0].detail, "");
  EXPECT_TRUE(r[1].passed);
  EXPECT_NE(r[1].detail.find("this cp.async is still in flight when the program ends"), std::string::npos) << r[1].detail;
  EXPECT_FALSE(r[2].passed);
  EXPECT_EQ(r[2].detail, "  expected a warning containing 'no such warning', none came\n");
  EXPECT_NE(load_error("cases:\n" + vector_case("bad", "      warnings: 3\n")).find("'warnings' takes a list"), std::string::npos);
}

TEST(TestVectorsCli, ExamplesPassAndSayHowMany) {
  std::string args = "test";
  for (const auto& f : example_files()) args += " " + f;
  const auto r = run_cli(args + " --jobs 4");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos);
  EXPECT_NE(r.out.find("PASS " + kExamples + "mma_b1.test.yaml: m16n8k256 xor.popc random case 0\n"), std::string::npos);
  const std::size_t lines = static_cast<std::size_t>(std::count(r.out.begin(), r.out.end(), '\n'));
  EXPECT_NE(r.out.find("test: " + std::to_string(lines - 1) + " passed, 0 failed\n"), std::string::npos) << r.out;
}

TEST(TestVectorsCli, FailuresExitOneAndJobsDoNotChangeTheOutput) {
  const TempDir d;
  const std::string wrong = d.write("wrong.yaml", kWrongMma);
  const std::string bad = d.write("bad.yaml", "cases: 3\n");
  const std::string files = kExamples + "mma_int8.test.yaml " + wrong + " " + bad + " " + kExamples + "snippet_cvt_pack.test.yaml";
  const auto one = run_cli("test " + files + " --jobs 1");
  const auto two = run_cli("test " + files + " --jobs 2");
  const auto eight = run_cli("test " + files + " -j 8");
  EXPECT_EQ(one.status, 1);
  EXPECT_EQ(two.status, 1);
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.out, eight.out);
  EXPECT_NE(one.out.find("FAIL " + wrong + ": ones\n"
                         "  1 of 64 D elements differ (mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32)\n"
                         "  D[2][5] (lane 10, reg 1, elem 0): expected 0x00000011 (17), got 0x00000010 (16), off by 1\n"
                         "PASS " + wrong + ": ones right\n"),
            std::string::npos) << one.out;
  EXPECT_NE(one.out.find("FAIL " + bad + ": (file)\n  " + bad + ":1:8: 'cases' takes a non-empty list of cases\n"),
            std::string::npos) << one.out;
  EXPECT_NE(one.out.find("\ntest: 7 passed, 4 failed\n"), std::string::npos) << one.out;
}

// `ptxmma test --arch`: the target of a file that names none; a file's own target: wins.
TEST(TestVectors, ArchIsTheTargetOfFilesThatNameNone) {
  const std::string cases = R"(cases:
  - snippet: |
      .reg .b32 %a<4>, %b<2>, %s;
      .reg .f32 %c<4>, %d<4>;
      mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3}, %s, {0, 0}, %s, {0, 0};
    expect:
      registers: {"%d0": 0.0}
)";
  EXPECT_EQ(VectorFile::parse(cases, "t.test.yaml", "sm_120a").cases.size(), 1U);
  try {
    (void)VectorFile::parse(cases, "t.test.yaml");
    ADD_FAILURE() << "sm_90a took a block-scaled mma";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs sm_120a; the target is sm_90a"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)VectorFile::parse("target: sm_90a\n" + cases, "t.test.yaml", "sm_120a"), Error);
}

}  // namespace
}  // namespace ptxmma
