// The options `ptxmma run` and `ptxmma debug` share (the snippet, its initial state, the kernel,
// --arch, --max-steps, --strict) and the parser and interpreter settings they make.
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "isa/ptx_parser.hpp"
#include "sim/exec/interpreter.hpp"
#include "tools/vectors/ptx_state.hpp"

namespace ptxmma::cli {

struct SnippetOptions {
  std::string file, init, entry, arch = "sm_90a", ctas;
  std::uint64_t max_steps = 1'000'000;
  bool strict = false;
};

void add_snippet_options(CLI::App& cmd, SnippetOptions& o);

struct SnippetSetup {
  ptx::ParseOptions parse;
  InterpreterOptions interp;
  PtxState state;  // loaded from --init, already applied to `interp` (block size, shared memory)
};
SnippetSetup snippet_setup(const SnippetOptions& o);

}  // namespace ptxmma::cli
