// PTX text -> Program: the module directives (.version, .target, .address_size), one kernel
// (.visible .entry with parameters) or a bare instruction sequence, .reg declarations (ranges
// %r<12>, vectors .v2/.v4, predicates), .shared/.global/.const variables with alignment and
// initializers, { } scopes, labels, guards (@%p, @!%p) and instructions, each decoded through
// the opcode table (isa/ptx_opcodes.hpp).
//
// Errors are collected like a compiler's (up to 20) and thrown together as one PtxError whose
// lines read "file:line:col: error: message". The parser is a loop over statements with an
// explicit scope stack: no recursion that input can deepen.
#pragma once
#include <string>
#include <string_view>

#include "isa/ptx_program.hpp"

namespace ptxmma::ptx {

struct ParseOptions {
  std::string entry;                    // the kernel to take when the file has several
  std::string entry_file;               // where `entry` was given, for messages ("" : the PTX file's 1:1)
  SourceLoc entry_loc;
  std::string default_target = "sm_90a";  // when the text has no .target
};

Program parse_ptx(std::string_view text, const std::string& file, const ParseOptions& options = {});
// Reads `path` (Error if it cannot) and parses it, naming it `path` in messages.
Program parse_ptx_file(const std::string& path, const ParseOptions& options = {});

}  // namespace ptxmma::ptx
