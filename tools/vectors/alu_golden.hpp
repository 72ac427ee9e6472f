// ALU golden sets (format ptxmma-golden-alu-v1, docs/hardware/alu-sm90.md): ordinary PTX
// instructions run on a GPU, one record per case of every operand's bits, sources as given and
// destinations as the GPU wrote them. A manifest.json lists the forms (the instruction line and its
// operands); the records of each opcode's forms follow each other in OPCODE.bin (or .bin.xz).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "tools/vectors/alu_forms.hpp"

namespace ptxmma {

inline constexpr const char* kAluGoldenFormat = "ptxmma-golden-alu-v1";

struct AluGoldenForm {
  AluForm form;
  std::string file;                // OPCODE.bin, relative to the set
  std::vector<std::uint64_t> words;  // cases x slots, case-major (filled by read_alu_golden_set)
};

struct AluGoldenSet {
  std::string dir, set, device, sm, driver, ptxas, ptx_target, ptx_version, tool;
  int driver_version = 0;
  int cases = 0;
  std::uint64_t seed = 0;
  std::vector<AluGoldenForm> forms;
};

// Reads the manifest and every record file; errors name the file and the form.
AluGoldenSet read_alu_golden_set(const std::string& dir);
// Writes DIR/manifest.json and DIR/OPCODE.bin (uncompressed; xz them to store).
void write_alu_golden_set(const AluGoldenSet& set, const std::string& dir);

// The text of a form's operand for the manifest ("%r1:b32:f32", "%r0:b32:f32:d", "0xe8:imm:b32")
// and back.
std::string slot_text(const AluSlot& s);
AluSlot parse_slot_text(const std::string& text, const std::string& where);

struct AluFormResult {
  std::string line;
  int cases = 0, failed = 0;
  std::string error;         // the form does not parse or run
  std::string first_failure; // inputs, want and got of its first failing case
};

struct AluReplayReport {
  std::string set, device;
  std::vector<AluFormResult> forms;
  int passed = 0, failed = 0;
  [[nodiscard]] bool ok() const { return failed == 0; }
};

// Runs every case of every form through the interpreter (for the set's ptx_target), on `jobs`
// threads; the report is the same for any number.
AluReplayReport replay_alu(const AluGoldenSet& set, int jobs = 1);
// Failing forms (with their first failing case), then "replay: N passed, M failed".
void print(const AluReplayReport& r, std::ostream& os);

}  // namespace ptxmma
