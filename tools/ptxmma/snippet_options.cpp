#include "tools/ptxmma/snippet_options.hpp"

#include "sim/model/model.hpp"

namespace ptxmma::cli {

void add_snippet_options(CLI::App& cmd, SnippetOptions& o) {
  cmd.add_option("SNIPPET", o.file, "a .ptx file: a kernel (.entry) or a bare instruction sequence")->required();
  cmd.add_option("--init", o.init, "initial state: registers per lane, shared/global memory, parameters (docs/state-format.md)");
  cmd.add_option("--entry", o.entry, "the kernel to run when the file has several");
  cmd.add_option("--arch", o.arch, "rounding models of mma (configs/models/<arch>.yaml)");
  cmd.add_option("--max-steps", o.max_steps, "instructions per lane before the run stops (default 1000000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62));  // "-1" would wrap to an endless run
  cmd.add_flag("--strict", o.strict, "diagnostics (wgmma hazards, differing descriptors) are errors");
}

SnippetSetup snippet_setup(const SnippetOptions& o) {
  SnippetSetup s;
  s.parse.entry = o.entry;
  s.interp.arch = o.arch;
  (void)models_for(o.arch);  // an unknown --arch is an error even when the program has no mma
  s.interp.max_steps = o.max_steps;
  s.interp.strict = o.strict;
  if (!o.init.empty()) s.state = PtxState::load(o.init);
  s.state.configure(s.interp);
  return s;
}

}  // namespace ptxmma::cli
