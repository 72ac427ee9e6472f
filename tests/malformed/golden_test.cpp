// Malformed golden sets (manifest.json + .bin, mma and wgmma; tools/vectors/golden_set.hpp,
// wgmma_golden.hpp): one message naming the file, the entry and what is wrong.
#include <gtest/gtest.h>

#include "tests/malformed/malformed.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/wgmma_golden.hpp"

namespace ptxmma::malformed {
namespace {

struct BadSet {
  const char* what;
  std::string manifest, bin;
  std::string error;  // "DIR" stands for the set's folder
};

// m16n8k8 f16: a=2 b=1 c=4 d=4 words per lane, 1408 bytes a case.
std::string mma_manifest(const std::string& variant) {
  return R"({"format": "ptxmma-golden-regs-v1", "set": "t", "device": "x", "sm": "sm_90", "families": ["bits"],
  "variants": [)" + variant + "]}";
}
const std::string kVariant =
    R"({"ptx": "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", "file": "v.bin", "cases": 1, "words": {"a": 2, "b": 1, "c": 4, "d": 4}})";
std::string with(std::string s, const std::string& from, const std::string& to) {
  return s.replace(s.find(from), from.size(), to);
}

// m64n8k32 s8 SS: 64 bytes of shared memory, 4 C and 4 D words per thread.
std::string wgmma_manifest(const std::string& from = "", const std::string& to = "") {
  const std::string m = R"({"format": "ptxmma-golden-wgmma-v1", "set": "t", "device": "x", "sm": "sm_90", "smem_alloc_bytes": 98304,
  "families": ["bits"], "variants": [{"ptx": "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8", "n": 8,
  "a_source": "descriptor", "imm_scale_a": 1, "imm_scale_b": 1, "imm_trans_a": 0, "imm_trans_b": 0,
  "file": "v.bin", "cases": 1, "smem_bytes": 64, "words": {"a": 0, "c": 4, "d": 4}}]})";
  return from.empty() ? m : with(m, from, to);
}
// v.bin.xz of 1409 zero bytes (Python: lzma.compress(bytes(1409), check=lzma.CHECK_CRC32)); 1408: kXz1408.
const std::string kXz1409 = std::string("\xfd\x37\x7a\x58\x5a\x00\x00\x01\x69\x22\xde\x36\x02\x00\x21\x01\x16\x00\x00\x00\x74\x2f\xe5\xa3\xe0\x05\x80\x00\x0f\x5d\x00\x00\x6f\xfd\xff\xff\xa3\xb7\xff\x47\x3d\x4e\xb0\x7d\x00\x00\x00\x00\xf4\x8c\x3d\x27\x00\x01\x27\x81\x0b\x00\x00\x00\x70\xff\x7b\x82\x3e\x30\x0d\x8b\x02\x00\x00\x00\x00\x01\x59\x5a", 76);
std::string le(std::uint32_t w) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>(w >> (8 * i));
  return s;
}
std::string wgmma_case(std::uint32_t scale_d = 1, std::uint32_t smem_base = 0x400, std::uint32_t smem = 64) {
  return le(0x40) + le(0x10) + le(0x80040) + le(0x10) + le(scale_d) + le(smem_base) + le(smem) + le(0) +
         std::string(smem, '\0') + std::string(128 * 8 * 4, '\0');
}
std::string set_error(const TempDir& dir, const BadSet& b) {
  std::filesystem::remove(dir.path("v.bin"));
  std::filesystem::remove(dir.path("v.bin.xz"));
  dir.write("manifest.json", b.manifest);
  dir.write(b.bin.starts_with("\xfd" "7zXZ") ? "v.bin.xz" : "v.bin", b.bin);
  return error_of([&] {
    if (b.manifest.find("wgmma-v1") != std::string::npos) {
      for (const auto& e : read_wgmma_golden_set(dir.path("")).entries) (void)read_wgmma_golden_cases(e);
    } else {
      for (const auto& v : read_golden_set(dir.path("")).variants) (void)read_golden_cases(v);
    }
  });
}

TEST(Malformed, GoldenSets) {
  const std::string ok_bin(1408, '\0');
  const std::vector<BadSet> bad = {
      {"truncated manifest", mma_manifest(kVariant).substr(0, 60), ok_bin, "DIR/manifest.json: not valid JSON at byte 61: [json.exception.parse_error.101] parse error at line 1, column 61: syntax error while parsing value - invalid string: missing closing quote; last read: '\"x'"},
      {"not a golden format", with(mma_manifest(kVariant), "regs-v1", "regs-v9"), ok_bin, "DIR/manifest.json: format 'ptxmma-golden-regs-v9' is not ptxmma-golden-regs-v1"},
      {"missing field", with(mma_manifest(kVariant), R"(, "d": 4)", ""), ok_bin, "DIR/manifest.json: variants[0] (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32): words: missing 'd'"},
      {"count of the wrong type", with(mma_manifest(kVariant), R"("cases": 1)", R"("cases": "1")"), ok_bin, "DIR/manifest.json: variants[0] (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32): 'cases' = \"1\" is not an integer"},
      {"fractional count", with(mma_manifest(kVariant), R"("cases": 1)", R"("cases": 1.5)"), ok_bin, "DIR/manifest.json: variants[0] (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32): 'cases' = 1.5 is not an integer"},
      {"count out of range", with(mma_manifest(kVariant), R"("cases": 1)", R"("cases": 0)"), ok_bin, "DIR/manifest.json: variants[0] (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32): 'cases' = 0 is out of range [1, 1048576]"},
      {"huge count", with(mma_manifest(kVariant), R"("cases": 1)", R"("cases": 18446744073709551615)"), ok_bin, "DIR/manifest.json: variants[0] (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32): 'cases' = 18446744073709551615 is out of range [1, 1048576]"},
      {"number overflow", with(mma_manifest(kVariant), R"("cases": 1)", R"("cases": 1e400)"), ok_bin, "DIR/manifest.json: not valid JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'"},
      {"duplicate key in an entry", with(mma_manifest(kVariant), R"("cases": 1)", R"("cases": 1, "cases": 2)"), ok_bin, "DIR/manifest.json: duplicate key 'cases'"},
      {"file outside the set", with(mma_manifest(kVariant), "v.bin", "../v.bin"), ok_bin, "DIR/manifest.json: variants[0] (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32): 'file' must be a plain file name, not '../v.bin'"},
      {"unknown type", with(mma_manifest(kVariant), "}}", R"(}, "types": {"a": "f16", "b": "f17", "c": "f32", "d": "f32"}})"), ok_bin, "DIR/manifest.json: variants[0] (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32): types: unknown type 'f17' for b"},
      {"truncated .bin", mma_manifest(kVariant), ok_bin.substr(0, 1400), "DIR/v.bin: 1400 bytes, but the manifest's 1 cases x 32 lanes x 11 words need 1408 (truncated?)"},
      {"long .bin", mma_manifest(kVariant), ok_bin + "x", "DIR/v.bin: 1409 bytes, but the manifest's 1 cases x 32 lanes x 11 words need 1408"},
      {"corrupt .xz", mma_manifest(kVariant), std::string("\xfd" "7zXZ\0\0\x04garbage", 15), "DIR/v.bin.xz: not a valid xz file (corrupt data, liblzma error 9)"},
      // Once "liblzma error 0".
      {"truncated .xz", mma_manifest(kVariant), kXz1408.substr(0, 40), "DIR/v.bin.xz: not a valid xz file (truncated, liblzma error 10)"},
      {".xz longer than the manifest's cases", mma_manifest(kVariant), kXz1409, "DIR/v.bin.xz: more than 1408 bytes when decompressed, the most it may hold"},
      // A small .xz once expanded to GiBs per job before its size was checked.
      {".xz bomb", with(mma_manifest(kVariant), R"("cases": 1)", R"("cases": 1048576)"), kXz1408, "DIR/v.bin.xz: 4429185024 golden bytes in flight (the manifest's cases, 1476395008 bytes, held three times while read), more than the budget of 1073741824 (raise it with --max-golden-bytes)"},
      {"too many cases in all", mma_manifest(with(kVariant, R"("cases": 1)", R"("cases": 1000000)") + "," + with(kVariant, R"("cases": 1)", R"("cases": 48577)")), ok_bin, "DIR/manifest.json: variants[1] (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32): 1048577 golden cases in the manifest, more than the budget of 1048576 (raise it with --max-golden-cases)"},
      {"no variants", mma_manifest(""), ok_bin, "DIR/manifest.json: 'variants' is empty (a set that checks nothing passes nothing)"},
      {"wgmma: illegal immediate", wgmma_manifest(R"("imm_scale_b": 1)", R"("imm_scale_b": 2)"), wgmma_case(), "DIR/manifest.json: variants[0] (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8): 'imm_scale_b' = 2 is not one of 1, -1"},
      {"wgmma: A words for a descriptor A", wgmma_manifest(R"("a": 0)", R"("a": 4)"), wgmma_case(), "DIR/manifest.json: variants[0] (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8): words a = 4 does not fit a_source 'descriptor'"},
      {"wgmma: scale_d not a flag", wgmma_manifest(), wgmma_case(2), "DIR/v.bin: case 0 (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS]): header scale_d is 2, not 0 or 1"},
      {"wgmma: image outside shared memory", wgmma_manifest(), wgmma_case(1, 0x3fff0), "DIR/v.bin: case 0 (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS]): header smem_base 0x3fff0 with 64 bytes is not a 16-byte aligned range below 256 KiB"},
      {"wgmma: header size differs", wgmma_manifest(), wgmma_case(1, 0x400, 32), "DIR/v.bin: case 0 (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS]): header smem_bytes 32 differs from the manifest's 64"},
      {"wgmma: truncated", wgmma_manifest(), wgmma_case().substr(0, 100), "DIR/v.bin: case 0 (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS]): the file ends inside the thread words (4 bytes left, 4096 needed; truncated?)"},
      {"wgmma: trailing bytes", wgmma_manifest(), wgmma_case() + "xyz", "DIR/v.bin: 3 bytes after the last of the manifest's 1 cases (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 [SS])"},
      {"wgmma: many cases, few bytes", wgmma_manifest(R"("cases": 1)", R"("cases": 1048576)"), wgmma_case(), "DIR/v.bin: 13186891776 golden bytes in flight (the manifest's cases, 4395630592 bytes, held three times while read), more than the budget of 1073741824 (raise it with --max-golden-bytes)"},
      {"wgmma: too many cases in all", with(wgmma_manifest(R"("cases": 1)", R"("cases": 1048576)"), R"(, "words": {"a": 0, "c": 4, "d": 4}})", R"(, "words": {"a": 0, "c": 4, "d": 4}}, {"ptx": "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8", "n": 8, "a_source": "descriptor", "imm_scale_a": 1, "imm_scale_b": 1, "imm_trans_a": 0, "imm_trans_b": 0, "file": "v.bin", "cases": 1, "smem_bytes": 64, "words": {"a": 0, "c": 4, "d": 4}})"), wgmma_case(), "DIR/manifest.json: variants[1] (wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8): 1048577 golden cases in the manifest, more than the budget of 1048576 (raise it with --max-golden-cases)"},
      {"wgmma: no variants", with(wgmma_manifest(), R"("variants": [{)", R"("variants": [], "x": [{)"), wgmma_case(), "DIR/manifest.json: 'variants' is empty (a set that checks nothing passes nothing)"},
  };
  ASSERT_GE(bad.size(), 10U);
  const TempDir dir;
  for (const BadSet& b : bad) {
    SCOPED_TRACE(b.what);
    std::string want = b.error;
    for (std::size_t at; (at = want.find("DIR/")) != std::string::npos;) want.replace(at, 4, dir.path(""));
    EXPECT_EQ(set_error(dir, b), want);
  }
}

}  // namespace
}  // namespace ptxmma::malformed
