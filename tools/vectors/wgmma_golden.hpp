// Warpgroup golden sets (docs/golden-format.md, format ptxmma-golden-wgmma-v1): a
// manifest.json and one .bin per (variant, N, form) entry; each case a header (descriptors,
// scale_d, shared base and size), the shared-memory image, and per thread (128) its A, C and D words;
// a sparse entry (wgmma.mma_async.sp) names its "sparse": {"selector": S} and each thread also has
// its sp-meta word e between C and D.
// A .bin may be stored as .bin.xz.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "sim/catalog/wgmma_family.hpp"
#include "sim/numeric/type.hpp"
#include "tools/vectors/golden_header.hpp"

namespace ptxmma {

inline constexpr const char* kWgmmaGoldenFormat = "ptxmma-golden-wgmma-v1";
inline constexpr const char* kMmaGoldenFormat = "ptxmma-golden-regs-v1";

// The "format" of DIR/manifest.json (to choose the reader); Error if there is none.
std::string golden_format(const std::string& dir);

struct WgmmaGoldenEntry {
  int index = 0;        // position in the manifest
  std::string ptx;      // the instruction, e.g. wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
  int n = 0;
  WgmmaOperands operands;  // A source and immediates
  std::string file;     // path of the .bin (or .bin.xz)
  int cases = 0;
  std::uint32_t smem_bytes = 0;
  int a_words = 0, c_words = 0, d_words = 0;  // per thread
  int e_words = 0;                            // sparse: the sp-meta word
  int selector = -1;                          // sparse: sp-sel
  std::map<std::string, Type> types;          // "a", "b", "d"
  [[nodiscard]] std::string label() const;    // ptx and form: "... [RS, scale-a -1, trans-b]"
};

struct WgmmaGoldenSet : GoldenHeader {
  std::uint32_t smem_alloc_bytes = 0;
  std::vector<WgmmaGoldenEntry> entries;
  // The input family of case `i` of entry `e`: families[(i + e) % len] (README "Input families").
  [[nodiscard]] std::string family_of(int entry, int case_index) const;
};

struct WgmmaGoldenCase {
  std::uint64_t desc_a = 0, desc_b = 0;
  bool scale_d = true;
  std::uint32_t smem_base = 0;
  std::vector<std::uint8_t> image;        // smem_bytes bytes, to be placed at smem_base
  std::vector<std::uint32_t> a, c, e, d;  // thread-major: 128 x a_words, c_words, e_words, d_words
};

// Reads and checks the manifest; every error names the file and the entry.
WgmmaGoldenSet read_wgmma_golden_set(const std::string& dir);
// The same from the manifest's text (DIR/manifest.json in messages).
WgmmaGoldenSet parse_wgmma_golden_manifest(const std::string& text, const std::string& dir);
// The bytes the manifest says an entry's .bin holds (decompressed): per case the header, the
// shared-memory image and 128 threads' words.
std::uint64_t wgmma_golden_file_bytes(const WgmmaGoldenEntry& e);
// Reads an entry's cases (within the golden-bytes budget, data_file.hpp); errors name the file and the case (truncation, bad header fields,
// trailing bytes).
std::vector<WgmmaGoldenCase> read_wgmma_golden_cases(const WgmmaGoldenEntry& e);
// The same from the bytes of the .bin, named `file` in messages.
std::vector<WgmmaGoldenCase> split_wgmma_golden_cases(const WgmmaGoldenEntry& e, std::span<const std::uint8_t> bytes,
                                                      const std::string& file);

}  // namespace ptxmma
