// Replays a golden set through the simulator and compares every D word bit for bit.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "tools/vectors/golden_set.hpp"

namespace ptxmma {

struct VariantReplay {
  std::string ptx;
  int cases = 0;
  int failed_cases = 0;
  long mismatched_values = 0;  // D elements that differ
  bool supported = true;
  std::string error;           // why not supported
  std::string first_failure;   // lane-by-lane report of the first failing case
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
