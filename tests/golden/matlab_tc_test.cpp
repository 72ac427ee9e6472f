// The recorded dot products of tests/data/matlab-tc (V100 ... B200) replay bit for bit through the
// model of each file's architecture; malformed files give errors naming the file and line.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "sim/error.hpp"
#include "tests/malformed/malformed.hpp"
#include "tests/cli.hpp"
#include "tests/golden/matlab_tc_files.hpp"
#include "tests/paths.hpp"
#include "tools/vectors/matlab_tc.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;

std::string data_dir() { return std::string(kPtxmmaSourceDir) + "/tests/data/matlab-tc"; }

// One test per manifest file: the file's model is supported and every case matches.
class MatlabTcFileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MatlabTcFileTest, MatchesBitForBit) {
  EXPECT_GE(test::expect_file_matches(data_dir(), GetParam()).passed, 600);
}

INSTANTIATE_TEST_SUITE_P(MatlabTc, MatlabTcFileTest, ::testing::ValuesIn(test::manifest_files(data_dir())),
                         test::file_test_name);

TEST(MatlabTc, WholeSetIs46FilesAnd27607Cases) {
  const MatlabTcSet set = read_matlab_tc(data_dir());
  EXPECT_EQ(set.files.size(), 46U);
  long rows = 0;
  for (const auto& f : set.files) rows += f.rows;
  EXPECT_EQ(rows, 27607);
}

TEST(MatlabTc, ArchitectureAndFamilyPerFile) {
  const MatlabTcSet set = read_matlab_tc(data_dir());
  const auto find = [&](const std::string& name) -> const MatlabTcFile& { return test::find_file(set, name); };
  EXPECT_EQ(find("V100/fp16_f32.csv").arch, "sm_70");
  EXPECT_EQ(find("A2/tf32_f32.csv").arch, "sm_86");
  EXPECT_EQ(find("Ada/e4m3_f16.csv").arch, "sm_89");
  EXPECT_EQ(find("H200/bf16_f32.csv").arch, "sm_90a");
  EXPECT_EQ(find("B200/e5m2_f32.csv").arch, "sm_100a");
  EXPECT_EQ(matlab_tc_family(find("A100/fp16_f16.csv"), "sm_80"), "hmma");
  EXPECT_EQ(matlab_tc_family(find("L40S/e4m3_f32.csv"), "sm_89"), "fp8_via_hmma");
  EXPECT_EQ(matlab_tc_family(find("H100/e5m2_f32_wgmma.csv"), "sm_90a"), "qgmma");
  const MatlabTcFile& k4 = find("H100/tf32_f32.csv");
  EXPECT_EQ(k4.k, 4);
  EXPECT_EQ(k4.k_instr, 8);
  EXPECT_EQ(find("H200/e4m3_f32_wgmma.csv").k_instr, 0);  // "unknown"
}

TEST(MatlabTc, PerGpuFolderAndSingleFile) {
  const MatlabTcSet gpu = read_matlab_tc(data_dir() + "/A2");
  ASSERT_EQ(gpu.files.size(), 4U);
  for (const auto& f : gpu.files) EXPECT_EQ(f.name.rfind("A2/", 0), 0U) << f.name;
  EXPECT_TRUE(is_matlab_tc_path(data_dir()));
  EXPECT_TRUE(is_matlab_tc_path(data_dir() + "/A2"));
  EXPECT_TRUE(is_matlab_tc_path(data_dir() + "/A2/fp16_f16.csv"));
  EXPECT_FALSE(is_matlab_tc_path(std::string(kPtxmmaSourceDir) + "/tests/data/mma-sm90-h200"));
}

// Another architecture's model is a real alternative: B200's FP8 results reject the published
// one-block model that sm_120a uses (docs/hardware/matlab-tc.md).
TEST(MatlabTc, ArchOverrideRunsAnotherModel) {
  const MatlabTcReport r = replay_matlab_tc(read_matlab_tc(data_dir() + "/B200/e4m3_f16.csv"), "sm_120a");
  ASSERT_EQ(r.files.size(), 1U);
  EXPECT_EQ(r.files[0].model, "sm_120a/fp8_via_hmma");
  EXPECT_GT(r.failed, 100);
  EXPECT_FALSE(r.ok());
  std::ostringstream text;
  print(r, text);
  EXPECT_NE(text.str().find("first failure: B200/e4m3_f16.csv line "), std::string::npos) << text.str();
}

// The CLI: a matlab-tc path is recognised; the exit status says whether anything failed.
TEST(MatlabTc, CliExitStatus) {
  const auto ok = test::run_cli("replay " + data_dir() + "/V100");
  EXPECT_EQ(ok.status, 0) << ok.all();
  EXPECT_NE(ok.out.find("V100/fp16_f32.csv  sm_70/hmma  cases  600  failed    0"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("replay: 1200 passed, 0 failed"), std::string::npos) << ok.out;
  const auto bad = test::run_cli("replay " + data_dir() + "/B200/e4m3_f16.csv --arch sm_120a");
  EXPECT_NE(bad.status, 0) << bad.all();
  EXPECT_NE(bad.out.find("failed  221"), std::string::npos) << bad.out;
}

class BrokenMatlabTc : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ptxmma-matlab-tc-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "G");
    manifest("G/x.csv,G,sm_80,fp16,fp32,2,wmma,wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32,16,c,1\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void manifest(const std::string& lines) {
    std::ofstream(dir_ / "manifest.csv") << "file,gpu,arch,in_fmt,acc_fmt,k,path,ptx,k_instr,c_used,rows\n" << lines;
  }
  void csv(const std::string& body) { std::ofstream(dir_ / "G" / "x.csv") << "row,a,b,c_src_f32,c,d\n" << body; }
  static std::string error_of(const std::function<void()>& f) { return malformed::error_of(f); }
  std::string replay_error() {
    return error_of([&] { replay_matlab_tc(read_matlab_tc(dir_.string())); });
  }
  fs::path dir_;
};

TEST_F(BrokenMatlabTc, GoodFileRuns) {
  csv("0,3c00 4000,3c00 3c00,3f800000,3f800000,40800000\n");  // 1 + 2 + 1 = 4
  const MatlabTcReport r = replay_matlab_tc(read_matlab_tc(dir_.string()));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.passed, 1);
}

TEST_F(BrokenMatlabTc, WrongDigitCount) {
  csv("0,3c00 400,3c00 3c00,3f800000,3f800000,40800000\n");
  const std::string e = replay_error();
  EXPECT_NE(e.find("G/x.csv:2: a: '400' is not 4 hex digits of f16"), std::string::npos) << e;
}

TEST_F(BrokenMatlabTc, WrongK) {
  csv("0,3c00 4000,3c00 3c00,3f800000,3f800000,40800000\n1,3c00,3c00,3f800000,3f800000,40000000\n");
  manifest("G/x.csv,G,sm_80,fp16,fp32,2,wmma,wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32,16,c,2\n");
  const std::string e = replay_error();
  EXPECT_NE(e.find("G/x.csv:3: a has 1 values, the manifest's k is 2"), std::string::npos) << e;
}

TEST_F(BrokenMatlabTc, MissingField) {
  csv("0,3c00 4000,3c00 3c00,3f800000,40800000\n");
  const std::string e = replay_error();
  EXPECT_NE(e.find("G/x.csv:2: 5 fields, expected 6"), std::string::npos) << e;
}

TEST_F(BrokenMatlabTc, BadHeader) {
  std::ofstream(dir_ / "G" / "x.csv") << "a,b,c,d\n";
  const std::string e = replay_error();
  EXPECT_NE(e.find("G/x.csv:1: the header is not 'row,a,b,c_src_f32,c,d'"), std::string::npos) << e;
}

TEST_F(BrokenMatlabTc, RowCountDiffersFromManifest) {
  csv("0,3c00 4000,3c00 3c00,3f800000,3f800000,40800000\n1,3c00 4000,3c00 3c00,3f800000,3f800000,40800000\n");
  const std::string e = replay_error();
  EXPECT_NE(e.find("G/x.csv: 2 cases, the manifest (G/x.csv) says 1"), std::string::npos) << e;
}

TEST_F(BrokenMatlabTc, ManifestErrorsNameTheLine) {
  csv("0,3c00 4000,3c00 3c00,3f800000,3f800000,40800000\n");
  manifest("G/x.csv,G,sm_80,fp12,fp32,2,wmma,w,16,c,1\n");
  EXPECT_NE(replay_error().find("manifest.csv:2: unknown in_fmt 'fp12'"), std::string::npos) << replay_error();
  manifest("G/x.csv,G,sm_80,fp16,fp32,2,wmma,w,16,c\n");
  EXPECT_NE(replay_error().find("manifest.csv:2: 10 fields, the header has 11"), std::string::npos) << replay_error();
  manifest("G/x.csv,G,sm_80,fp16,fp32,2,tcgen05,w,16,c,1\n");
  EXPECT_NE(replay_error().find("manifest.csv:2: path 'tcgen05' is not wmma, mma.sync, wgmma or tcgen05.mma"),
            std::string::npos);
}

TEST_F(BrokenMatlabTc, UnlistedCsv) {
  csv("0,3c00 4000,3c00 3c00,3f800000,3f800000,40800000\n");
  std::ofstream(dir_ / "G" / "y.csv") << "row,a,b,c_src_f32,c,d\n";
  const std::string e = replay_error();
  EXPECT_NE(e.find("G/y.csv: not listed in"), std::string::npos) << e;
}

// A model the architecture lacks is reported as unsupported, with every case counted as failed.
TEST_F(BrokenMatlabTc, UnsupportedFileFails) {
  csv("0,3c00 4000,3c00 3c00,3f800000,3f800000,40800000\n");
  manifest("G/x.csv,G,sm_80,fp16,fp32,2,wgmma,wgmma.x,unknown,c,1\n");
  const MatlabTcReport r = replay_matlab_tc(read_matlab_tc(dir_.string()));
  ASSERT_EQ(r.files.size(), 1U);
  EXPECT_FALSE(r.files[0].supported);
  EXPECT_NE(r.files[0].error.find("no rounding model for hgmma"), std::string::npos) << r.files[0].error;
  EXPECT_EQ(r.failed, 1);
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace ptxmma
