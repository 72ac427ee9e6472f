// Kernels captured on an H100/H200 (tools/capture/snippet_capture.cu): nvcc-emitted snippets
// (tests/data/snippets-sm90) and whole compiler-emitted kernels (tests/kernels), whose global-memory
// results are the GPU's. Every case must match bit for bit and run without a diagnostic.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "tools/vectors/test_vectors.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;

TEST(HardwareSnippets, EveryCapturedCaseMatchesWithoutDiagnostics) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(std::string(PTXMMA_SOURCE_DIR) + "/tests/data/snippets-sm90"))
    if (e.path().string().ends_with(".test.yaml")) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 8U);
  const auto results = run_vector_files(files, 2);
  int passed = 0;
  for (const auto& r : results) {
    EXPECT_TRUE(r.passed) << r.file << ": " << r.name << "\n" << r.detail;
    EXPECT_EQ(r.detail, "") << r.file << ": " << r.name;
    passed += r.passed ? 1 : 0;
  }
  EXPECT_EQ(passed, static_cast<int>(files.size()) * 3);
}

// The real-kernel corpus (tests/kernels, docs/kernels.md): whole compiler-emitted kernels, each
// case's expected global memory the bytes the GPU stored.
TEST(HardwareSnippets, RealKernelCorpusGivesTheGpuBytes) {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(std::string(PTXMMA_SOURCE_DIR) + "/tests/kernels"))
    if (e.path().string().ends_with(".test.yaml.xz")) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 2U);
  const auto results = run_vector_files(files, 2);
  ASSERT_EQ(results.size(), files.size() * 2);  // tools/kernels/capture.sh: two cases a kernel
  for (const auto& r : results) {
    EXPECT_TRUE(r.passed) << r.file << ": " << r.name << "\n" << r.detail;
    EXPECT_EQ(r.detail, "") << r.file << ": " << r.name;
  }
}

}  // namespace
}  // namespace ptxmma
