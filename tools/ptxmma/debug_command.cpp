// `ptxmma debug SNIPPET.ptx [--init STATE.yaml] [--commands FILE]`: a debugger for the PTX
// interpreter (tools/ptxmma/debugger.hpp has the commands). It stops before the first
// instruction and reads commands from the terminal (libedit: line editing, history, Tab), from a
// pipe, or from FILE; commands not typed at a terminal are echoed after the prompt, so that a
// script's output reads like a session and is tested like any other output. An empty line
// repeats a stepping command (not in a command file, where blank lines separate).
// The exit status is 0 after quit or the end of the input; with --commands it is 1 when a
// command failed or the program stopped with an error (a script's failure is visible).
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"
#include "sim/exec/interpreter.hpp"
#include "sim/util/input_file.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/debugger.hpp"
#include "tools/ptxmma/line_reader.hpp"
#include "tools/ptxmma/register_view.hpp"
#include "tools/ptxmma/snippet_options.hpp"
#include "tools/vectors/ptx_state.hpp"

namespace ptxmma::cli {

void add_debug_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("debug", "step through a PTX kernel or snippet: breakpoints, watchpoints, registers, memory, matrices");
  struct Opts : SnippetOptions {
    std::string commands;
    std::vector<std::string> as;
  };
  auto opts = std::make_shared<Opts>();
  add_snippet_options(*cmd, *opts);
  cmd->add_option("--commands", opts->commands, "read the commands from FILE instead of the terminal");
  cmd->add_option("--as", opts->as, "show a register as another type in regs, e.g. %r1=e4m3x4 (repeatable)");
  cmd->callback([opts] {
    const SnippetSetup setup = snippet_setup(*opts);
    const ptx::ParseOptions& po = setup.parse;
    InterpreterOptions io = setup.interp;
    io.print = &std::cout;  // device printf, as it runs
    const PtxState& state = setup.state;
    const bool script_file = !opts->commands.empty();
    // A script is read whole, bounded like every input (/dev/zero or a folder is an error).
    std::istringstream script(script_file ? read_input_file(opts->commands) : std::string());
    try {
      const ptx::Program prog = ptx::parse_ptx_file(opts->file, po);
      const RegisterView view(prog, {}, opts->as);
      const auto make = [&prog, &io, &state] {
        auto m = std::make_unique<Machine>(state.machine(prog, io));
        state.apply(*m);
        m->start();  // stopped before the first instruction
        return m;
      };
      Debugger d(prog, make, view);
      const InterruptScope interrupts;
      const bool terminal = !script_file && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
      LineReader reader(script_file ? static_cast<std::istream&>(script) : std::cin, std::cout, terminal, !terminal,
                        "(ptxmma) ", [&d](std::string_view word, bool first) { return d.completions(word, first); });
      const Machine& probe = d.machine();
      std::cout << fmt::format("{}: {} ({}), {}{} warp{}\n", opts->file, prog.bare ? "snippet" : "kernel " + prog.entry,
                               prog.target, probe.ctas() > 1 ? fmt::format("{} CTAs of ", probe.ctas()) : "",
                               probe.warps(), probe.warps() == 1 ? "" : "s");
      d.where(std::cout);
      bool failed = false;
      std::string last;
      while (const auto got = reader.read()) {
        std::string line = *got;
        if (line.find_first_not_of(" \t") == std::string::npos) {
          if (script_file || !Debugger::repeats(last)) continue;
          line = last;
        }
        last = line;
        try {
          if (!d.execute(line, std::cout)) break;
        } catch (const Error& e) {
          std::cout << "error: " << e.what() << "\n";
          failed = true;
        }
        std::cout.flush();
      }
      if (script_file && (failed || d.stopped())) throw CLI::RuntimeError(1);
    } catch (const ptx::PtxError& e) {
      std::cout.flush();
      std::cerr << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace ptxmma::cli
