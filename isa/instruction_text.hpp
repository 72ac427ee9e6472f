// Small text helpers shared by the instruction decoders (mma, wgmma): splitting qualifier
// strings and wording lists in error messages.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/catalog/matrix_catalog.hpp"
#include "sim/catalog/matrix_variant.hpp"
#include "sim/error.hpp"

namespace ptxmma {

// "a.b.c" -> {"a", "b", "c"}; empty pieces are kept.
std::vector<std::string_view> split(std::string_view s, char sep = '.');
// Without surrounding white space and a trailing ';'.
std::string_view trim(std::string_view s);
// Throws Error "<instruction text>: <what>".
using Fail = std::function<void(const std::string&)>;
Fail fail_with(const std::string& text);

// A shape qualifier (m<M>n<N>k<K>) of a matrix instruction: false if `t` is none; else sets `shape`
// once, before the types (`seen` says whether one was read, `types_started` whether a type was).
bool take_shape(std::string_view t, Shape& shape, bool& seen, bool types_started, const Fail& fail);

// How a family's instructions are written, for the messages of instruction_tokens.
struct InstructionForm {
  std::string_view opcode;    // "mma"
  std::string_view example;   // one instruction of the family
  std::string_view expected;  // "an mma instruction (expected mma.sync.aligned...)"
};
// The qualifiers of a matrix instruction written without operands, split at '.', the first
// checked to be the opcode; `text` gets the instruction trimmed. Errors: "empty <opcode>
// instruction", and "<text>: ..." for white space inside or another opcode.
std::vector<std::string_view> instruction_tokens(std::string_view raw, std::string& text, const InstructionForm& form);
// "a", "a or b", "a, b or c".
std::string one_of(const std::vector<std::string>& v);
// "a, b, c".
std::string all_of(const std::vector<std::string>& v);
// Appends s unless it is there already.
void add_unique(std::vector<std::string>& v, std::string s);
// Rethrows `e`, a matrix instruction's error, with " (did you mean 'X'?)" when a variant of the
// catalogue is written closely like `text` (a misspelt shape or type), X not `text` itself.
[[noreturn]] void rethrow_suggesting(const Error& e, std::string_view text, const MatrixCatalog& catalog);

}  // namespace ptxmma
