// Register-level golden sets (docs/golden-format.md, format ptxmma-golden-regs-v1): a
// manifest.json and one .bin per variant of cases x 32 lanes x (a + b + c + d) words; a sparse
// entry (mma.sp, docs/hardware/mma-sp-format.md) adds one metadata word e between C and D.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "sim/numeric/type.hpp"
#include "tools/vectors/golden_header.hpp"

namespace ptxmma {

struct OperandWords {
  int a = 0, b = 0, c = 0, d = 0;
  int e = 0;  // sparse: the metadata register
  [[nodiscard]] int total() const { return a + b + c + e + d; }
};

struct GoldenVariant {
  int index = 0;        // position in the manifest
  std::string ptx;      // the instruction that ran
  std::string file;     // path of the .bin
  int cases = 0;
  OperandWords words;   // per lane
  int selector = -1;    // sparse entries: the sparsity selector the instruction ran with
  std::map<std::string, Type> types;  // "a", "b", "c", "d"
};

struct GoldenSet : GoldenHeader {
  std::vector<GoldenVariant> variants;
};

// One case of an mma variant: per lane, its A, B, C (and metadata E) words and the D words the
// GPU produced.
struct GoldenCase {
  std::vector<std::uint32_t> a, b, c, e, d;  // lane-major
};

// Reads and checks the manifest; every error names the file and the variant.
GoldenSet read_golden_set(const std::string& dir);
// The same from the manifest's text (DIR/manifest.json in messages).
GoldenSet parse_golden_manifest(const std::string& text, const std::string& dir);
// The bytes the manifest says a variant's .bin holds (decompressed).
std::uint64_t golden_file_bytes(const GoldenVariant& v);
// Reads a variant's .bin (opened read-only; within the golden-bytes budget, data_file.hpp) and
// splits it into cases; checks its size.
std::vector<GoldenCase> read_golden_cases(const GoldenVariant& v);
// The same from the bytes of the .bin, named `file` in messages.
std::vector<GoldenCase> split_golden_cases(const GoldenVariant& v, std::span<const std::uint8_t> bytes,
                                           const std::string& file);

}  // namespace ptxmma
