// Replays a golden set through the simulator and compares every D word bit for bit.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/numeric/packing.hpp"
#include "sim/numeric/type.hpp"
#include "tools/vectors/golden_set.hpp"

namespace ptxmma {

// The D registers of one failing case, for reports that show them side by side.
struct FailedCase {
  int index = -1;                       // case number in the set; -1: none failed
  int threads = 0, words = 0;           // lanes (32) or warpgroup threads (128); D words of each
  Type d = Type::f32;                   // D element type, as the registers hold it
  Container container = Container::packed;
  std::vector<std::uint32_t> want, got; // threads x words
};

struct VariantReplay {
  std::string ptx;
  int cases = 0;
  int failed_cases = 0;
  long mismatched_values = 0;  // D elements that differ
  bool supported = true;
  std::string error;           // why not supported
  std::string first_failure;   // lane-by-lane report of the first failing case
  FailedCase first;            // its D registers
  std::string family;          // machine path of the variant (rounding-model family), when known
  std::vector<int> failed_case_indices;
};

struct ReplayReport {
  std::string set, device, sm, arch;
  std::vector<VariantReplay> variants;
  int passed_cases = 0, failed_cases = 0;
  [[nodiscard]] bool ok() const;
};

// Variants run on `jobs` threads; the report is the same whatever the number of jobs.
ReplayReport replay(const GoldenSet& set, const std::string& arch, int jobs = 1);
void print(const ReplayReport& r, std::ostream& os);
void write_json(const ReplayReport& r, const std::string& path);

}  // namespace ptxmma
