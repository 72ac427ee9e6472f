// Malformed wgmma golden sets give one clear error naming the file and the entry or case.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>

#include "sim/error.hpp"
#include "tests/malformed/malformed.hpp"
#include "tests/paths.hpp"
#include "tools/vectors/wgmma_golden.hpp"
#include "tools/vectors/wgmma_replay.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;

class BrokenWgmmaGolden : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ptxmma-wgmma-golden-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name, std::ios::binary) << text; }
  // m64n8k32 s8 SS: no A words, 4 C and 4 D words per thread.
  std::string manifest(const std::string& entry_extra = "", int cases = 1, int smem = 64,
                       const std::string& format = "ptxmma-golden-wgmma-v1") {
    return R"({"format": ")" + format + R"(", "set": "t", "device": "x", "sm": "sm_90", "smem_alloc_bytes": 98304,
               "families": ["bits"], "variants": [{"ptx": "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8", "n": 8,
               "a_source": "descriptor", "imm_scale_a": 1, "imm_scale_b": 1, "imm_trans_a": 0, "imm_trans_b": 0,
               "file": "v.bin", "cases": )" +
           std::to_string(cases) + R"(, "smem_bytes": )" + std::to_string(smem) +
           R"(, "words": {"a": 0, "c": 4, "d": 4}, "types": {"a": "s8", "b": "s8", "d": "s32"})" + entry_extra + "}]}";
  }
  static std::string le(std::uint32_t w) {
    std::string s(4, '\0');
    for (int i = 0; i < 4; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>(w >> (8 * i));
    return s;
  }
  // One case: header, image, thread words.
  static std::string one_case(std::uint32_t scale_d = 1, std::uint32_t smem = 64, std::uint32_t reserved = 0) {
    std::string s = le(0x00000040) + le(0x10) + le(0x00080040) + le(0x10) + le(scale_d) + le(0x400) + le(smem) +
                    le(reserved);
    s += std::string(smem, '\0');
    s += std::string(128 * 8 * 4, '\0');
    return s;
  }
  static std::string error_of(const std::function<void()>& f) { return malformed::error_of(f); }
  std::string cases_error() {
    return error_of([&] { (void)read_wgmma_golden_cases(read_wgmma_golden_set(dir_.string()).entries.at(0)); });
  }
  fs::path dir_;
};

TEST_F(BrokenWgmmaGolden, AGoodSetReads) {
  write("manifest.json", manifest());
  write("v.bin", one_case());
  EXPECT_EQ(golden_format(dir_.string()), "ptxmma-golden-wgmma-v1");
  const WgmmaGoldenSet s = read_wgmma_golden_set(dir_.string());
  ASSERT_EQ(s.entries.size(), 1U);
  EXPECT_EQ(s.entries[0].label(), "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS]");
  const auto cases = read_wgmma_golden_cases(s.entries[0]);
  ASSERT_EQ(cases.size(), 1U);
  EXPECT_EQ(cases[0].desc_b, 0x1000080040U);
  EXPECT_EQ(cases[0].smem_base, 0x400U);
  EXPECT_EQ(cases[0].c.size(), 512U);
  const ReplayReport r = replay_wgmma(s, "sm_90a");  // all zeros: D = 0
  EXPECT_EQ(r.passed_cases, 1);
  EXPECT_EQ(r.variants.at(0).family, "igmma");
}

TEST_F(BrokenWgmmaGolden, ManifestErrors) {
  write("manifest.json", manifest("", 1, 64, "ptxmma-golden-regs-v1"));
  EXPECT_NE(error_of([&] { (void)read_wgmma_golden_set(dir_.string()); }).find("is not ptxmma-golden-wgmma-v1"),
            std::string::npos);
  std::string shared = manifest();  // (a repeated key would be its own error: duplicate key)
  shared.replace(shared.find(R"("a_source": "descriptor")"), 24, R"("a_source": "shared")");
  write("manifest.json", shared);
  EXPECT_NE(error_of([&] { (void)read_wgmma_golden_set(dir_.string()); }).find("manifest.json: variants[0]"),
            std::string::npos);
  std::string m = manifest();
  m.replace(m.find(R"("imm_scale_b": 1)"), 16, R"("imm_scale_b": 2)");
  write("manifest.json", m);
  EXPECT_NE(error_of([&] { (void)read_wgmma_golden_set(dir_.string()); })
                .find("(wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8): 'imm_scale_b' = 2 is not one of 1, -1"),
            std::string::npos);
}

TEST_F(BrokenWgmmaGolden, TruncationNamesTheFileCaseAndPart) {
  write("manifest.json", manifest("", 2));
  const std::string two = one_case() + one_case();
  write("v.bin", two.substr(0, two.size() / 2 + 10));
  const std::string e = cases_error();
  EXPECT_NE(e.find("v.bin: case 1 (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS]): the file ends inside the "
                   "header (10 bytes left, 32 needed; truncated?)"),
            std::string::npos)
      << e;
  write("v.bin", one_case() + one_case().substr(0, 60));
  EXPECT_NE(cases_error().find("case 1 (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS]): the file ends inside the "
                               "shared-memory image"),
            std::string::npos);
  write("v.bin", one_case() + one_case().substr(0, 200));
  EXPECT_NE(cases_error().find("the file ends inside the thread words"), std::string::npos);
  write("v.bin", one_case() + one_case() + "xyz");
  EXPECT_NE(cases_error().find("v.bin: 3 bytes after the last of the manifest's 2 cases"), std::string::npos);
}

TEST_F(BrokenWgmmaGolden, BadHeaderFields) {
  write("manifest.json", manifest());
  write("v.bin", one_case(2));
  EXPECT_NE(cases_error().find("case 0 (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS]): header scale_d is 2, not 0 or 1"),
            std::string::npos);
  write("v.bin", one_case(1, 64, 5));
  EXPECT_NE(cases_error().find("header word 7 is 0x5, not 0"), std::string::npos);
  write("v.bin", one_case(1, 32));
  EXPECT_NE(cases_error().find("header smem_bytes 32 differs from the manifest's 64"), std::string::npos);
}

TEST_F(BrokenWgmmaGolden, CompressedFiles) {
  write("manifest.json", manifest());
  const std::string missing = cases_error();
  EXPECT_NE(missing.find("v.bin: cannot open (nor "), std::string::npos) << missing;
  // A real entry of the test data, compressed, under the name the manifest gives.
  const fs::path src = fs::path(kPtxmmaSourceDir) / "tests/data/wgmma-sm90/m64n8k32.s32.s8.s8.ss.bin.xz";
  std::string m = manifest("", 4, 9216);
  write("manifest.json", m);
  fs::copy_file(src, dir_ / "v.bin.xz");
  const WgmmaGoldenSet s = read_wgmma_golden_set(dir_.string());
  EXPECT_EQ(read_wgmma_golden_cases(s.entries[0]).size(), 4U);
  EXPECT_EQ(replay_wgmma(s, "sm_90a").passed_cases, 4);
  // Truncated xz.
  const auto size = fs::file_size(dir_ / "v.bin.xz");
  fs::resize_file(dir_ / "v.bin.xz", size / 2);
  EXPECT_NE(cases_error().find("v.bin.xz: not a valid xz file"), std::string::npos) << cases_error();
}

}  // namespace
}  // namespace ptxmma
