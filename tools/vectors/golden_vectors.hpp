// Records of golden sets as test-vector cases (docs/test-vectors.md, `ptxmma golden --to-test`):
// each record's operands as the logical matrices a case gives, through the register codec (a
// sparse A expanded through the record's metadata; a wgmma's A and B read from its shared-memory
// image through its descriptors, which the case keeps, so that it places them where the GPU read
// them), and the GPU's D as the expected matrix. A record is written only when the case built
// from it reads exactly what the GPU read (the same register words, the same A and B elements
// after the descriptors, the same stored A elements at the same columns); the others are named
// with the reason.
#pragma once
#include <string>
#include <vector>

namespace ptxmma {

// "DIR", "DIR:ENTRIES" or "DIR:ENTRIES:CASES", lists as 0,3-5 (indices of the manifest's entries
// and of an entry's cases), each sorted with every index once; empty lists: all. Error "TEXT: bad
// index list ..." for digits that are no such list (out of range, high before low) where TEXT is
// no folder.
struct GoldenRecords {
  std::string dir;
  std::vector<int> entries, cases;
};
GoldenRecords parse_golden_records(const std::string& text);

// One line per record: where it is (DIR:ENTRY:CASE), the instruction and form, its input family,
// and for wgmma the descriptors and scale-d.
std::string list_golden_records(const GoldenRecords& r);

struct GoldenVectors {
  std::string yaml;                  // a whole vector file
  int cases = 0;
  std::vector<std::string> skipped;  // "DIR:ENTRY:CASE: why"
};
// The records as one vector file on `target`, `command` named in its header comment.
GoldenVectors golden_to_vectors(const std::vector<GoldenRecords>& records, const std::string& target,
                                const std::string& command);

}  // namespace ptxmma
