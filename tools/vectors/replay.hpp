// Replays a golden set through the simulator and compares every D word bit for bit.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/numeric/packing.hpp"
#include "sim/numeric/type.hpp"
#include "sim/layout/register_codec.hpp"
#include "tools/vectors/element_mismatch.hpp"
#include "tools/vectors/golden_set.hpp"

namespace ptxmma {

// The D registers of one failing case, for reports that show them side by side, and its
// differing elements.
struct FailedCase {
  int index = -1;                       // case number in the set; -1: none failed
  int threads = 0, words = 0;           // lanes (32) or warpgroup threads (128); D words of each
  Type d = Type::f32;                   // D element type, as the registers hold it
  Container container = Container::packed;
  std::vector<std::uint32_t> want, got; // threads x words
  std::vector<ElementMismatch> elements;
  std::optional<RegisterCodec> codec;   // D's
};

struct VariantReplay {
  std::string ptx;
  int cases = 0;
  int failed_cases = 0;
  long mismatched_values = 0;  // D elements that differ
  bool supported = true;
  std::string error;           // why not supported
  int selector = -1;           // sparse entries: the sparsity selector
  std::string first_failure;   // report of the first failing case: each differing element
  FailedCase first;            // its D registers and elements
  // The `ptxmma explain` command for an element of the first failing case, up to --row.
  std::string explain;
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
// The summary (entries that differ only in their sparsity selector on one line), then the first
// failing case's elements.
void print(const ReplayReport& r, std::ostream& os);
void write_json(const ReplayReport& r, const std::string& path);

// The report of a failing case: a header line, then each differing element (at most
// kShownElements) with its explain command when there is one.
constexpr std::size_t kShownElements = 16;
std::string failure_text(const std::string& title, const FailedCase& f, const std::string& explain);
// A path as one word of a shell command: quoted when it holds anything but letters, digits and
// "_./-+:,@%=".
std::string shell_word(const std::string& s);
// "... --row R --col C" (with --problem for m8n8k4's stacked rows) completing `explain`.
std::string explain_command(const std::string& explain, const FailedCase& f, const ElementMismatch& m);

}  // namespace ptxmma
