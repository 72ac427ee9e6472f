// Malformed golden sets give one clear error naming the file and variant.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/error.hpp"
#include "tests/malformed/malformed.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/replay.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;

class BrokenGolden : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ptxmma-golden-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  void write_bin(const std::string& name, std::size_t words) {
    std::ofstream out(dir_ / name, std::ios::binary);
    const std::string zeros(words * 4, '\0');
    out << zeros;
  }
  std::string manifest(const std::string& ptx, const std::string& words, int cases = 1) {
    return R"({"format": "ptxmma-golden-regs-v1", "set": "t", "device": "x", "sm": "sm_90", "families": ["bits"],
               "variants": [{"ptx": ")" +
           ptx + R"(", "file": "v.bin", "cases": )" + std::to_string(cases) + R"(, "words": )" + words + "}]}";
  }
  static std::string error_of(const std::function<void()>& f) { return malformed::error_of(f); }
  fs::path dir_;
};

constexpr const char* kF16 = "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32";
constexpr const char* kWords = R"({"a": 2, "b": 1, "c": 4, "d": 4})";

TEST_F(BrokenGolden, MissingManifest) {
  EXPECT_NE(error_of([&] { read_golden_set(dir_.string()); }).find("manifest.json: cannot open"), std::string::npos);
}

TEST_F(BrokenGolden, NotJson) {
  write("manifest.json", "{\"format\": ");
  EXPECT_NE(error_of([&] { read_golden_set(dir_.string()); }).find("manifest.json: not valid JSON"), std::string::npos);
}

TEST_F(BrokenGolden, WrongFormat) {
  write("manifest.json", R"({"format": "something-else"})");
  EXPECT_NE(error_of([&] { read_golden_set(dir_.string()); }).find("is not ptxmma-golden-regs-v1"), std::string::npos);
}

TEST_F(BrokenGolden, MissingWords) {
  write("manifest.json", manifest(kF16, R"({"a": 2, "b": 1, "c": 4})"));
  EXPECT_NE(error_of([&] { read_golden_set(dir_.string()); }).find("variants[0] (" + std::string(kF16) + "): words: missing 'd'"),
            std::string::npos);
}

TEST_F(BrokenGolden, FileOutsideTheSet) {
  write("manifest.json", R"({"format": "ptxmma-golden-regs-v1", "set": "t", "device": "x", "sm": "sm_90", "families": [],
     "variants": [{"ptx": "p", "file": "../../etc/passwd", "cases": 1, "words": {"a": 1, "b": 1, "c": 1, "d": 1}}]})");
  EXPECT_NE(error_of([&] { read_golden_set(dir_.string()); }).find("must be a plain file name"), std::string::npos);
}

TEST_F(BrokenGolden, TruncatedBinary) {
  write("manifest.json", manifest(kF16, kWords, 2));
  write_bin("v.bin", 2 * 32 * 11 - 5);
  const GoldenSet set = read_golden_set(dir_.string());
  const std::string e = error_of([&] { read_golden_cases(set.variants[0]); });
  EXPECT_NE(e.find("v.bin: 2796 bytes, but the manifest's 2 cases x 32 lanes x 11 words need 2816 (truncated?)"),
            std::string::npos)
      << e;
}

TEST_F(BrokenGolden, WrongRegisterCount) {
  write("manifest.json", manifest(kF16, R"({"a": 4, "b": 1, "c": 4, "d": 4})"));
  write_bin("v.bin", 32 * 13);
  const GoldenSet set = read_golden_set(dir_.string());
  const std::string e = error_of([&] { replay(set, "sm_90a"); });
  EXPECT_NE(e.find("variants[0] (" + std::string(kF16) + "): manifest gives words a=4 b=1 c=4 d=4, the instruction has "
                   "a=2 b=1 c=4 d=4"),
            std::string::npos)
      << e;
}

TEST_F(BrokenGolden, UnknownVariantCountsAsFailed) {
  write("manifest.json", manifest("mma.sync.aligned.m16n8k9.row.col.f32.f16.f16.f32", kWords, 3));
  write_bin("v.bin", 3 * 32 * 11);
  const ReplayReport r = replay(read_golden_set(dir_.string()), "sm_90a");
  ASSERT_EQ(r.variants.size(), 1U);
  EXPECT_FALSE(r.variants[0].supported);
  EXPECT_EQ(r.failed_cases, 3);
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace ptxmma
