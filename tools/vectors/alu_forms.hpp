// The ordinary-instruction forms the decoder accepts: every combination of the qualifier axes of
// the opcode table's `forms` column (isa/ptx_opcodes.hpp) that the opcode's own decoder takes, with
// its operands found the same way (a register of each width, a predicate, a predicate pair or an
// immediate, first that the decoder accepts, slot by slot). A form decoded tomorrow is enumerated
// without new code here. Used by the ALU capture (tools/capture/make_alu_capture.cpp).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "isa/ptx_types.hpp"

namespace ptxmma {

// One operand of a form: a register (declared .pred, .b16, .b32 or .b64) or an immediate.
struct AluSlot {
  std::string name;                      // "%r1", "%p0", or the immediate's text
  ptx::PtxType decl = ptx::PtxType::b32;  // declared type; none for an immediate
  ptx::PtxType type = ptx::PtxType::none; // what the instruction takes it as (f32, u16, pred, ...)
  bool dest = false;
  [[nodiscard]] bool immediate() const { return decl == ptx::PtxType::none; }
};

struct AluForm {
  std::string text;            // opcode and qualifiers: "add.rn.ftz.f32"
  std::string line;            // the whole instruction: "add.rn.ftz.f32 %r0, %r1, %r2;"
  std::vector<AluSlot> slots;  // operands in order (a p|q destination: two slots)
  bool approx = false;         // an approximation (.approx, div.full): outside the bit-exact set
};

// Every form of the opcodes with a `forms` column, in table order, for `target` ("sm_90a").
// `opcodes` empty: all of them.
std::vector<AluForm> enumerate_alu_forms(std::string_view target, const std::vector<std::string>& opcodes = {});

}  // namespace ptxmma
