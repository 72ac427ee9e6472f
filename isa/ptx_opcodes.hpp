// The opcode table of the PTX front end: one row per opcode (the first component of an
// instruction, "add", "ldmatrix", "mma", ...) with the family's decoder. A decoder checks the
// qualifiers and operands of one instruction (kinds, counts, register types) and fills
// Instruction::d; errors are DecodeError at the offending token. The interpreter keeps a table of
// the same opcodes with their semantic functions (sim/exec/interpreter.cpp): adding an opcode
// (wgmma.mma_async, say) is one row here and one row there.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "isa/ptx_program.hpp"

namespace ptxmma::ptx {

struct DecodeError {
  SourceLoc loc;
  std::string message;
};

struct DecodeContext {
  const Program& program;
  std::string_view target;  // .target of the program (legality of mma variants and cvt forms)
};

using DecodeFn = void (*)(Instruction& ins, const DecodeContext& cx);

// How the interpreter's SIMT core treats an opcode.
// call: into a .func (Decoded::mode its index in Program::functions) or a built-in function.
enum class Flow : std::uint8_t { normal, branch, exit, call };

struct OpcodeSpec {
  std::string_view opcode;
  DecodeFn decode;
  Flow flow = Flow::normal;
  // Qualifier axes a form enumerator expands ("{|rn|rz} {f32|f64}"; see register_alu); "" for
  // opcodes it does not cover.
  std::string_view forms = {};
};

std::span<const OpcodeSpec> opcode_table();
// Index in opcode_table(), or -1.
int find_opcode(std::string_view opcode);
// The candidates the qualifier axes of `forms` give ("{|rn|rz} {f32|f64}" -> ".f32", ".rn.f32", ...),
// each "" or a string of ".q" qualifiers. Errors: an unclosed '{'.
std::vector<std::string> expand_qualifier_axes(std::string_view forms);
// The opcode and the opcode with each qualifier string its forms column gives ("add.rn.f32").
std::vector<std::string> instruction_forms(std::string_view opcode);
// The form closest to `text`, an instruction whose opcode is unknown (sim/util/suggest.hpp), among
// those of the opcodes within a typo's reach of `opcode`, or "". Not every form of the table: that
// is some 60,000 strings, and a file of unknown instructions compared each of them.
std::string form_like(std::string_view text, std::string_view opcode);
// " (did you mean 'X'?)" for an instruction with a qualifier that no form of its opcode uses and
// is no PTX type (a misspelling: add.f23, mad.lo.s23), X the form written most like it; else "".
std::string suggest_form(const Instruction& ins);

// Shared by the decoders (isa/ptx_decode*.cpp).
namespace decode {

[[noreturn]] void fail(SourceLoc at, const std::string& what);
[[noreturn]] void fail(const Instruction& ins, const std::string& what);

// Qualifiers of one instruction, consumed by the decoder; finish() rejects what is left.
class Quals {
 public:
  explicit Quals(const Instruction& ins);
  bool take(std::string_view q);                       // present? (marks it used)
  // The one of `options` present (marks it), or "" if none; two of them is an error.
  std::string_view take_one(std::initializer_list<std::string_view> options, std::string_view what);
  // Every type qualifier, in order (marks them).
  std::vector<PtxType> types();
  void finish() const;

 private:
  const Instruction& ins_;
  std::vector<bool> used_;
};

// Operand checks. `what` names the operand in messages ("destination", "operand a", ...).
void count(const Instruction& ins, std::size_t n);
void count(const Instruction& ins, std::size_t lo, std::size_t hi);
// A register of type compatible with `t` (a wider one when `wider`).
void reg(const Program& p, const Instruction& ins, Operand& op, PtxType t, std::string_view what, bool wider = false);
// A register, an immediate (coerced into `t`) or a special register.
void value(const Program& p, const Instruction& ins, Operand& op, PtxType t, std::string_view what, bool wider = false);
// A predicate register, possibly negated (`!%p`) when allowed.
void pred(const Program& p, const Instruction& ins, Operand& op, std::string_view what, bool negation_ok);
// An address operand [reg], [symbol] or [constant] with an optional offset, its base register a
// 32- or 64-bit integer, a named variable in `space` (any, when generic).
void address(const Program& p, const Instruction& ins, Operand& op, Space space);
// An immediate integer operand.
std::int64_t integer(const Instruction& ins, const Operand& op, std::string_view what);
// Converts an immediate to the bits of type `t` (decimal and 0f/0d floats are rounded .rn into
// float types); error if it does not fit.
void coerce_imm(const Instruction& ins, Operand& op, PtxType t, std::string_view what);

}  // namespace decode
}  // namespace ptxmma::ptx
