// wgmma instruction cases of `ptxmma test` (tools/vectors/wgmma_vector, wgmma_operands): A and B
// as matrices placed by every default layout (each swizzle, K- and MN-major, A in shared memory
// or registers, sparse A) or through given descriptors give D = A x B + C; the wgmma keys' errors are
// located.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/error.hpp"
#include "tools/vectors/test_vectors.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;
const std::string kF16 = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16";

// Small integers: every product and sum is exact in f32, so D = A x B + C whatever the order.
int a_at(int m, int k) { return (m + 2 * k) % 7 - 3; }
// B picks column n of A and twice column n + 8: D[m][n] = A[m][n] + 2 A[m][n + 8] + C[m][n].
int b_at(int k, int n) { return k == n ? 1 : k == n + 8 ? 2 : 0; }
int c_at(int m, int n) { return (m * 3 + n) % 5; }

std::string rows(int r, int c, int (*f)(int, int)) {
  std::string out;
  for (int i = 0; i < r; ++i) {
    out += "      - \"";
    for (int j = 0; j < c; ++j) out += (j ? " " : "") + std::to_string(f(i, j));
    out += "\"\n";
  }
  return out;
}

int d_at(int m, int n) { return a_at(m, n) + 2 * a_at(m, n + 8) + c_at(m, n); }

// One f16 case with `keys` (YAML lines at case level) and D worked out above.
std::string f16_case(const std::string& name, const std::string& keys) {
  return "  - name: " + name + "\n    instruction: " + kF16 + "\n" + keys + "    A:\n" + rows(64, 16, a_at) +
         "    B:\n" + rows(16, 8, b_at) + "    C:\n" + rows(64, 8, c_at) + "    expect:\n      D:\n" +
         rows(64, 8, d_at);
}

struct RunResult {
  int passed = 0, failed = 0;
  std::string detail;
};

RunResult run_text(const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("ptxmma-wgmma-vectors-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(p) << text;
  RunResult r;
  for (const CaseResult& c : run_vector_files({p.string()}, 2)) {
    (c.passed ? r.passed : r.failed)++;
    r.detail += c.name + ": " + c.detail;
  }
  fs::remove(p);
  return r;
}

std::string load_error(const std::string& text) {
  try {
    (void)VectorFile::parse(text, "bad.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(WgmmaVectors, EveryDefaultLayoutGivesTheProduct) {
  std::string text = "target: sm_90a\ncases:\n";
  for (const char* sw : {"none", "32B", "64B", "128B"}) {
    const std::string s = std::string("    swizzle: ") + sw + "\n";
    text += f16_case(std::string("SS ") + sw, s);
    text += f16_case(std::string("RS ") + sw, s + "    a_source: registers\n");
    text += f16_case(std::string("SS trans ") + sw, s + "    imm_trans_a: 1\n    imm_trans_b: 1\n");
    text += f16_case(std::string("RS trans-b ") + sw, s + "    a_source: registers\n    imm_trans_b: 1\n");
  }
  const RunResult r = run_text(text);
  EXPECT_EQ(r.failed, 0) << r.detail;
  EXPECT_EQ(r.passed, 16);
}

TEST(WgmmaVectors, GivenDescriptorsAsValuesOrFields) {
  // The default K-major layout without swizzle, spelled out: A at 0 (SBO = 32 bytes / 16 x 128),
  // B at 2048 (A's 64 rows end at byte 2047).
  const std::string text = "cases:\n" +
                           f16_case("fields", "    desc_a: {start: 0, lbo: 128, sbo: 256}\n"
                                              "    desc_b: {start: 2048, lbo: 128, sbo: 256, swizzle: none}\n") +
                           f16_case("values", "    desc_a: 0x0000001000080000\n    desc_b: 0x0000001000080080\n");
  const RunResult r = run_text(text);
  EXPECT_EQ(r.failed, 0) << r.detail;
  EXPECT_EQ(r.passed, 2);
}

TEST(WgmmaVectors, ScaleDAndImmScale) {
  // scale-d 0: C is not read; imm-scale-a -1: A negated. D = -(A x B).
  std::string text = "cases:\n  - name: negated\n    instruction: " + kF16 +
                     "\n    scale_d: 0\n    imm_scale_a: -1\n    A:\n" + rows(64, 16, a_at) + "    B:\n" +
                     rows(16, 8, b_at) + "    C: 1000\n    expect:\n      D:\n" +
                     rows(64, 8, [](int m, int n) { return -(a_at(m, n) + 2 * a_at(m, n + 8)); });
  const RunResult r = run_text(text);
  EXPECT_EQ(r.failed, 0) << r.detail;
}

TEST(WgmmaVectors, SparseATakesItsLogicalMatrix) {
  // m64n8k32 f16 sparse: A keeps columns 4c and 4c + 2 of each chunk: A[m][k] = a_at(m, k/2) there.
  // B[k][n] = 1 where k = 4n or k = 4n + 2 (n < 8): D[m][n] = A[m][4n] + A[m][4n + 2].
  const auto a = [](int m, int k) { return k % 2 == 0 ? a_at(m, k / 2) : 0; };
  const auto b = [](int k, int n) { return k == 4 * n || k == 4 * n + 2 ? 1 : 0; };
  const auto d = [](int m, int n) { return a_at(m, 2 * n) + a_at(m, 2 * n + 1); };
  std::string text = "cases:\n";
  for (const char* form : {"descriptor", "registers"})
    for (const char* sw : {"none", "32B", "128B"})
      text += std::string("  - name: ") + form + " " + sw +
              "\n    instruction: wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16\n    a_source: " + form +
              "\n    swizzle: " + sw + "\n    A:\n" + rows(64, 32, +a) + "    B:\n" + rows(32, 8, +b) +
              "    expect:\n      D:\n" + rows(64, 8, +d);
  const RunResult r = run_text(text);
  EXPECT_EQ(r.failed, 0) << r.detail;
  EXPECT_EQ(r.passed, 6);
}

TEST(WgmmaVectors, BadCasesGiveLocatedErrors) {
  const std::string head = "cases:\n  - name: c\n    instruction: " + kF16 + "\n";
  const std::string ab = "    A: 1\n    B: 1\n    expect:\n      D: 16\n";
  struct Bad {
    std::string text, error;
  } bad[] = {
      {head + "    A: [[1, 2]]\n    B: 1\n    expect:\n      D: 16\n",
       "bad.yaml:4:8: A: expected 64 rows (a 64x16 matrix of f16), found 1"},
      {head + "    desc_a: 0x0000001000080000\n    desc_b: 0x0000001000083fff\n" + ab,
       "bad.yaml:5:13: B element (0, 0) lies at shared byte 0x3fff0, outside the 233472 bytes of shared memory"},
      {head + "    desc_a: 0x0000001000080000\n    desc_b: 0x0000001000080000\n    A: 1\n    B: 2\n    expect:\n      D: 32\n",
       "bad.yaml:5:13: A[0][0] and B[0][0] share shared byte 0x1 but differ there"},
      {"cases:\n  - name: c\n    instruction: wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3\n    imm_trans_a: 1\n" + ab,
       "bad.yaml:4:18: "},
      {head + "    imm_scale_a: 2\n" + ab, "bad.yaml:4:18: 'imm_scale_a' takes 1 or -1, found '2'"},
      {head + "    swizzle: 16B\n" + ab, "bad.yaml:4:14: 'swizzle' takes none, 32B, 64B or 128B, found '16B'"},
      {head + "    a_source: registers\n    desc_a: 0\n    desc_b: 0\n" + ab,
       "bad.yaml:5:13: desc_a: A comes from registers (a_source: registers)"},
      {head + "    swizzle: 32B\n    desc_a: 0\n    desc_b: 0x800\n" + ab,
       "bad.yaml:4:14: 'swizzle' picks the default layout; the descriptors given carry their own"},
      {head + "    desc_b: 0x800\n" + ab, "bad.yaml:4:13: give desc_a and desc_b both"},
      {head + "    desc_a: 0x4000\n    desc_b: 0x800\n" + ab, "bad.yaml:4:13: desc_a: matrix descriptor 0x0000000000004000: reserved bits 15:14"},
      {head + "    desc_a: {start: 8}\n    desc_b: 0x800\n" + ab, "bad.yaml:4:13: desc_a: matrix descriptor: the start address 0x8 is not a multiple of 16 bytes"},
      {head + "    scale_A: 1\n" + ab, "bad.yaml:4:14: scale_A: " + kF16 + " is not block-scaled"},
      {"cases:\n  - name: c\n    instruction: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n    swizzle: 32B\n" + ab,
       "bad.yaml:4:14: 'swizzle' belongs to wgmma instruction cases"},
  };
  for (const Bad& b : bad) {
    const std::string e = load_error(b.text);
    EXPECT_EQ(e.substr(0, b.error.size()), b.error) << b.text;
  }
}

}  // namespace
}  // namespace ptxmma
