#include "tools/ptxmma/snippet_options.hpp"

namespace ptxmma::cli {

void add_snippet_options(CLI::App& cmd, SnippetOptions& o) {
  cmd.add_option("SNIPPET", o.file, "a .ptx file: a kernel (.entry) or a bare instruction sequence")->required();
  cmd.add_option("--init", o.init, "initial state: registers per lane, shared/global memory, parameters (docs/state-format.md)");
  cmd.add_option("--entry", o.entry, "the kernel to run when the file has several");
  cmd.add_option("--arch", o.arch, "rounding models of mma (configs/models/<arch>.yaml)");
  cmd.add_option("--max-steps", o.max_steps, "instructions per lane before the run stops (default 1000000)");
  cmd.add_flag("--strict", o.strict, "diagnostics (wgmma hazards, differing descriptors) are errors");
}

SnippetSetup snippet_setup(const SnippetOptions& o) {
  SnippetSetup s;
  s.parse.entry = o.entry;
  s.interp.arch = o.arch;
  s.interp.max_steps = o.max_steps;
  s.interp.strict = o.strict;
  if (!o.init.empty()) s.state = PtxState::load(o.init);
  s.state.configure(s.interp);
  return s;
}

}  // namespace ptxmma::cli
