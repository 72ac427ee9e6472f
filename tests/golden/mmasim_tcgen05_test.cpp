// tcgen05.mma cases computed by MMA-Sim (tests/data/mmasim-tcgen05, docs/tcgen05.md) replay bit for
// bit through sm_100a's tcgen05 models; the set tells those models from their neighbours.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/error.hpp"
#include "tests/malformed/malformed.hpp"
#include "tests/golden/matlab_tc_files.hpp"
#include "tests/paths.hpp"
#include "tools/vectors/matlab_tc.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;

std::string data_dir() { return std::string(kPtxmmaSourceDir) + "/tests/data/mmasim-tcgen05"; }

class MmaSimTcgen05FileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MmaSimTcgen05FileTest, MatchesBitForBit) {
  const MatlabTcReport r = test::expect_file_matches(data_dir(), GetParam());
  ASSERT_EQ(r.files.size(), 1U);
  EXPECT_EQ(r.files[0].model.rfind("sm_100a/tcgen05_", 0), 0U) << r.files[0].model;
}

INSTANTIATE_TEST_SUITE_P(MmaSimTcgen05, MmaSimTcgen05FileTest, ::testing::ValuesIn(test::manifest_files(data_dir())),
                         test::file_test_name);

using test::find_file;

// Every kind MMA-Sim models has its file; the kind names the family, the formats and scales come
// from the manifest.
TEST(MmaSimTcgen05, KindsTypesAndScales) {
  const MatlabTcSet set = read_matlab_tc(data_dir());
  EXPECT_EQ(set.files.size(), 20U);
  const MatlabTcFile& mixed = find_file(set, "f8f6f4/e4m3_e5m2_f16.csv");
  EXPECT_EQ(mixed.in, Type::e4m3);
  EXPECT_EQ(mixed.b, Type::e5m2);
  EXPECT_EQ(mixed.acc, Type::f16);
  EXPECT_FALSE(mixed.scale);
  EXPECT_EQ(matlab_tc_family(mixed, "sm_100a"), "tcgen05_f8f6f4");
  const MatlabTcFile& nv = find_file(set, "mxf4nvf4/e2m1_ue4m3_x4_f32.csv");
  EXPECT_EQ(nv.k, 64);
  ASSERT_TRUE(nv.scale);
  EXPECT_EQ(*nv.scale, Type::ue4m3);
  EXPECT_EQ(nv.scale_k, 16);
  EXPECT_EQ(matlab_tc_family(nv, "sm_100a"), "tcgen05_mxf4nvf4");
  EXPECT_EQ(matlab_tc_family(find_file(set, "tf32/tf32_f32.csv"), "sm_100a"), "tcgen05_tf32");
  EXPECT_EQ(find_file(set, "mxf8f6f4/e5m2_e4m3_f32.csv").scale_k, 32);
}

// tcgen05's kind::f8f6f4 is one block of 32 products and C in MMA-Sim, not the f16 HMMA steps that
// B200's FP8 mma.sync was recorded doing (docs/hardware/matlab-tc.md): the same cases run through
// that model differ.
TEST(MmaSimTcgen05, F8f6f4IsNotTheMmaSyncFp8Path) {
  MatlabTcSet set = read_matlab_tc(data_dir() + "/f8f6f4/e4m3_e4m3_f32.csv");
  ASSERT_EQ(set.files.size(), 1U);
  set.files[0].machine = "mma.sync";
  set.files[0].ptx = "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32";
  const MatlabTcReport r = replay_matlab_tc(set);
  EXPECT_EQ(r.files[0].model, "sm_100a/fp8_via_hmma");
  EXPECT_GT(r.failed, 20);
}

// sm_120a's mma.sync kind::mxf4 and ::mxf4nvf4 models cite MMA-Sim, whose code for them is its
// tcgen05 code: the same cases through them agree (an all-zero group sets the block's exponent).
TEST(MmaSimTcgen05, Sm120BlockScaledMmaSyncAgrees) {
  const std::pair<const char*, const char*> files[] = {
      {"/mxf4/e2m1_ue8m0_f32.csv", "kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"},
      {"/mxf4nvf4/e2m1_ue8m0_x2_f32.csv", "kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"},
      {"/mxf4nvf4/e2m1_ue8m0_x4_f32.csv", "kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0"},
      {"/mxf4nvf4/e2m1_ue4m3_x4_f32.csv", "kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3"}};
  for (const auto& [file, kind] : files) {
    MatlabTcSet set = read_matlab_tc(data_dir() + file);
    ASSERT_EQ(set.files.size(), 1U);
    set.files[0].machine = "mma.sync";
    set.files[0].ptx = std::string("mma.sync.aligned.m16n8k64.row.col.") + kind;
    const MatlabTcReport r = replay_matlab_tc(set, "sm_120a");
    ASSERT_TRUE(r.files[0].supported) << file << ": " << r.files[0].error;
    EXPECT_EQ(r.failed, 0) << file;
    EXPECT_GT(r.passed, 0) << file;
  }
}

// Outside sm_100a there is no tcgen05 model: the file is reported, not run.
TEST(MmaSimTcgen05, OtherArchitecturesHaveNoModel) {
  const MatlabTcReport r = replay_matlab_tc(read_matlab_tc(data_dir() + "/mxf4/e2m1_ue8m0_f32.csv"), "sm_120a");
  ASSERT_EQ(r.files.size(), 1U);
  EXPECT_FALSE(r.files[0].supported);
  EXPECT_NE(r.files[0].error.find("no rounding model for tcgen05_mxf4"), std::string::npos) << r.files[0].error;
}

class BrokenScaledFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ptxmma-mmasim-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "K");
    manifest("2,ue8m0,1");
  }
  void TearDown() override { fs::remove_all(dir_); }
  // k = 2 e4m3 products, scale_k as given: kind::mxf8f6f4's arithmetic on a short row.
  void manifest(const std::string& k_scale) {
    const auto k = k_scale.substr(0, k_scale.find(','));
    std::ofstream(dir_ / "manifest.csv")
        << "file,gpu,arch,in_fmt,b_fmt,acc_fmt,k,path,ptx,k_instr,rows,scale_fmt,scale_k\n"
        << "K/x.csv,none,sm_100,e4m3,e5m2,fp32," << k << ",tcgen05.mma,tcgen05.mma.cta_group::1.kind::mxf8f6f4," << k
        << ",1," << k_scale.substr(k_scale.find(',') + 1) << "\n";
  }
  void csv(const std::string& body) {
    std::ofstream(dir_ / "K" / "x.csv") << "row,a,b,scale_a,scale_b,c_src_f32,c,d\n" << body;
  }
  std::string replay_error() {
    return malformed::error_of([&] { replay_matlab_tc(read_matlab_tc(dir_.string())); });
  }
  fs::path dir_;
};

// e4m3 1.0 (0x38) x e5m2 2.0 (0x40), twice, each scaled by 2^1 x 2^-1, + 1 = 5.
TEST_F(BrokenScaledFile, GoodFileRuns) {
  csv("0,38 38,40 40,80 80,7e 7e,3f800000,3f800000,40a00000\n");
  const MatlabTcReport r = replay_matlab_tc(read_matlab_tc(dir_.string()));
  EXPECT_TRUE(r.ok()) << r.files[0].error;
  EXPECT_EQ(r.passed, 1);
}

TEST_F(BrokenScaledFile, ScaleCount) {
  csv("0,38 38,40 40,80,7e 7e,3f800000,3f800000,40a00000\n");
  const std::string e = replay_error();
  EXPECT_NE(e.find("K/x.csv:2: scale_a has 1 values, the manifest's k / scale_k is 2"), std::string::npos) << e;
}

TEST_F(BrokenScaledFile, UnscaledHeader) {
  std::ofstream(dir_ / "K" / "x.csv") << "row,a,b,c_src_f32,c,d\n";
  const std::string e = replay_error();
  EXPECT_NE(e.find("K/x.csv:1: the header is not 'row,a,b,scale_a,scale_b,c_src_f32,c,d'"), std::string::npos) << e;
}

TEST_F(BrokenScaledFile, ManifestScales) {
  csv("0,38 38,40 40,80 80,7e 7e,3f800000,3f800000,40a00000\n");
  manifest("2,ue5m2,1");
  EXPECT_NE(replay_error().find("manifest.csv:2: scale_fmt 'ue5m2' is not ue8m0 or ue4m3"), std::string::npos)
      << replay_error();
  manifest("2,ue8m0,3");
  EXPECT_NE(replay_error().find("manifest.csv:2: a scaled file needs scale_k dividing k = 2"), std::string::npos)
      << replay_error();
}

}  // namespace
}  // namespace ptxmma
