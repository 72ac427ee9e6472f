// Kernels captured on an H100/H200 (tools/capture/snippet_capture.cu): nvcc-emitted snippets
// (tests/data/snippets-sm90) and whole compiler-emitted kernels (tests/kernels), whose global-memory
// results are the GPU's. Every case must match bit for bit and run without a diagnostic.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tests/paths.hpp"
#include "tools/vectors/data_file.hpp"
#include "tools/vectors/test_vectors.hpp"

namespace ptxmma {
namespace {

namespace fs = std::filesystem;

// The captured vector files under tests/DIR (recursively) whose names end in `suffix`, sorted.
std::vector<std::string> captured(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(std::string(kPtxmmaSourceDir) + "/tests/" + dir))
    if (e.path().string().ends_with(suffix)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Runs the files; every case must pass without a diagnostic. Returns how many cases ran.
std::size_t expect_gpu_results(const std::vector<std::string>& files) {
  const auto results = run_vector_files(files, 2);
  for (const auto& r : results) {
    EXPECT_TRUE(r.passed) << r.file << ": " << r.name << "\n" << r.detail;
    EXPECT_EQ(r.detail, "") << r.file << ": " << r.name;
  }
  return results.size();
}

TEST(HardwareSnippets, EveryCapturedCaseMatchesWithoutDiagnostics) {
  const auto files = captured("data/snippets-sm90", ".test.yaml");
  ASSERT_GE(files.size(), 8U);
  EXPECT_EQ(expect_gpu_results(files), files.size() * 3);  // tools/capture/snippets/capture.sh: three cases a file
}

// Bulk copies and TMA (tests/data/tma-sm90, docs/hardware/tensormap-sm90.md): cp.async.bulk both
// ways with cp.reduce.async.bulk (two cases), and one TMA box per file through tensor maps the
// driver encoded: every swizzle, ranks 1..5, element strides, boxes past the tensor's ends, NaN
// fill, and the same box stored back (tma_tile_*); im2col loads of 3d..5d tensors through the pixel
// box with offsets, element strides, swizzles and the NaN fill (i2c_*); tensormap.replace of every
// field on a map in global (r_*_g) or shared memory (r_*_s), the modified map and a load through it.
TEST(HardwareSnippets, BulkCopiesAndTmaBoxesGiveTheGpuBytes) {
  const auto files = captured("data/tma-sm90", ".test.yaml.xz");
  ASSERT_GE(files.size(), 146U);
  EXPECT_EQ(expect_gpu_results(files), files.size() + 1);  // bulk_copy has two cases, the boxes one each
}

// A captured im2col load with its map declared by parameters in the state (docs/state-format.md)
// instead of the driver's bytes: ptxmma's encoding of the declaration gives the GPU's result too.
TEST(HardwareSnippets, Im2colMapDeclaredByItsParametersGivesTheGpuBytes) {
  const std::string dir = std::string(kPtxmmaSourceDir) + "/tests/data/tma-sm90/";
  const std::vector<std::uint8_t> raw = read_data_file(dir + "i2c_4d_base.test.yaml.xz");
  std::string text(raw.begin(), raw.end());
  const auto at = text.find("params: [{bytes: \"");
  ASSERT_NE(at, std::string::npos);
  const auto end = text.find("\"}", at);
  text.replace(at + 9, end + 2 - (at + 9),
               "{tensor_map: {type: f16, address: 0x100000, dims: [16, 6, 5, 2], strides: [32, 192, 960], "
               "lower_corner: [-1, -1], upper_corner: [-1, -1], channels_per_pixel: 16, pixels_per_column: 32}}");
  text.replace(text.find("snippet_file: tma_modes.ptx"), 27, "snippet_file: " + dir + "tma_modes.ptx");
  const fs::path file = fs::temp_directory_path() / "ptxmma_i2c_declared.test.yaml";
  std::ofstream(file) << text;
  EXPECT_EQ(expect_gpu_results({file.string()}), 1U);
  fs::remove(file);
}

// Bulk reductions (tests/data/reduce-sm90, docs/hardware/bulk-reduce-sm90.md): each floating-point
// form of cp.reduce.async.bulk (two cases a file; 24 for .add.f64, whose NaN choice needs elements
// with two NaNs) and cp.reduce.async.bulk.tensor with each
// operation the H200 ran on a map of each element type (one case a file, add also across the
// tensor's edges).
TEST(HardwareSnippets, BulkReductionsGiveTheGpuBytes) {
  const auto files = captured("data/reduce-sm90", ".test.yaml.xz");
  ASSERT_EQ(files.size(), 45U);
  EXPECT_EQ(expect_gpu_results(files), 7U * 2 + 24 + 37);
}

// Clusters (tests/data/cluster-sm90, docs/hardware/clusters-sm90.md): a grid of two clusters of
// four CTAs through distributed shared memory (mapa, ld/st/atom/red .shared::cluster, a generic
// peer address), cluster barriers, mbarrier arrivals from other CTAs and a TMA box multicast to
// every CTA of the cluster (two cases).
TEST(HardwareSnippets, ClustersGiveTheGpuBytes) {
  const auto files = captured("data/cluster-sm90", ".test.yaml.xz");
  ASSERT_EQ(files.size(), 1U);
  EXPECT_EQ(expect_gpu_results(files), 2U);
}

// The real-kernel corpus (tests/kernels, docs/kernels.md): whole compiler-emitted kernels, each
// case's expected global memory the bytes the GPU stored.
TEST(HardwareSnippets, RealKernelCorpusGivesTheGpuBytes) {
  const auto files = captured("kernels", ".test.yaml.xz");
  ASSERT_EQ(files.size(), 19U);
  // tools/kernels/capture.sh: 16 Triton kernels (the TMA matmul among them) with two cases each;
  // the CUDA samples' two files with four (two kernels, two targets); the CuTe tutorial's three
  // GEMMs (one sm_80, two sm_90a) in one file, two cases each.
  EXPECT_EQ(expect_gpu_results(files), 16U * 2 + 2 * 4 + 3 * 2);
}

}  // namespace
}  // namespace ptxmma
