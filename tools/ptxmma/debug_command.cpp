// `ptxmma debug SNIPPET.ptx [--init STATE.yaml] [--commands FILE]`: a debugger for the PTX
// interpreter. It stops before the first instruction and reads commands from the terminal, or
// from FILE (each echoed after the prompt, so a script's output reads like a session and is
// tested like any other output). Commands:
//   step [N] (s)        execute N instructions (of whichever warp runs)
//   next [N] (n)        execute until the current warp has executed N instructions
//   continue (c)        run to a breakpoint or the end
//   break LINE (b)      stop before the instruction on LINE; delete [N]; info break
//   print REG [LANES] [warp W] (p)   a register in lanes (default all) of the current warp
//   regs [LANE] [warp W]             every register of one lane (default 0)
//   mem SPACE OFFSET LENGTH (x)      bytes of shared, global, const or param memory
//   matrix A|B|C|D [LINE]            an mma/wgmma operand as its matrix
//   where (w), list (l), help, quit (q)
// With several warps, each runs until it waits at a barrier or a wgmma.mma_async; a collective
// completes (a wgmma runs) when its warps have all arrived, and each then steps past it.
// The exit status is 1 when a command failed or the program stopped with an error.
#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"
#include "sim/exec/interpreter.hpp"
#include "sim/util/input_file.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/register_view.hpp"
#include "tools/ptxmma/snippet_options.hpp"
#include "tools/vectors/operand_matrix.hpp"
#include "tools/vectors/ptx_state.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma::cli {
namespace {

constexpr const char* kHelp =
    "step [N] (s)                    execute N instructions (default 1)\n"
    "next [N] (n)                    run until the current warp has executed N instructions\n"
    "continue (c)                    run to a breakpoint or the end\n"
    "break LINE (b)                  stop before the instruction on LINE\n"
    "delete [N]                      delete breakpoint N (default: all)\n"
    "info break                      list the breakpoints\n"
    "print REG [LANES] [warp W] (p)  a register in lanes (e.g. 0-3,8; default all) of warp W\n"
    "regs [LANE] [warp W]            every register of one lane (default lane 0)\n"
    "mem SPACE OFFSET LENGTH (x)     bytes of shared, global, const or param memory\n"
    "matrix A|B|C|D [LINE]           an operand of the mma/wgmma on LINE (default: the last) as a matrix\n"
    "where (w)                       the next instruction\n"
    "list (l)                        the source around the next instruction\n"
    "quit (q)\n";

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

std::uint64_t number(const std::string& s, const char* what) {
  std::string_view t = s;
  int base = 10;
  if (t.starts_with("0x")) t.remove_prefix(2), base = 16;
  std::uint64_t v = 0;
  const auto [e, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (t.empty() || ec != std::errc() || e != t.data() + t.size())
    throw Error(fmt::format("{}: expected a number, found '{}'", what, s));
  return v;
}

class Debugger {
 public:
  Debugger(const ptx::Program& p, Machine& m, std::vector<std::string> source, const RegisterView& view)
      : p_(p), m_(m), source_(std::move(source)), view_(view) {}

  // Runs one command; false on quit.
  bool execute(const std::string& line, std::ostream& out) {
    const auto w = words_of(line);
    if (w.empty()) return true;
    const std::string& c = w[0];
    const auto count = [&](std::size_t i) { return w.size() > i ? number(w[i], c.c_str()) : 1; };
    if (c == "quit" || c == "q") return false;
    if (c == "help" || c == "h") out << kHelp;
    else if (c == "step" || c == "s") run(out, count(1), false);
    else if (c == "next" || c == "n") run(out, count(1), true);
    else if (c == "continue" || c == "c") run(out, 0, false);
    else if (c == "break" || c == "b") add_break(w, out);
    else if (c == "delete") delete_break(w, out);
    else if (c == "info" && w.size() == 2 && w[1] == "break") info_break(out);
    else if (c == "print" || c == "p") print(w, out);
    else if (c == "regs") regs(w, out);
    else if (c == "mem" || c == "x") mem(w, out);
    else if (c == "matrix") matrix(w, out);
    else if (c == "where" || c == "w") where(out);
    else if (c == "list" || c == "l") list(out);
    else throw Error(fmt::format("unknown command '{}' (help lists them)", line));
    return true;
  }

  void fail() { failed_ = true; }
  [[nodiscard]] bool failed() const { return failed_; }

  void where(std::ostream& out) const {
    if (stopped_) {
      out << "the program stopped with an error\n";
      return;
    }
    const auto pos = m_.next();
    if (!pos) {
      const RunSummary& s = m_.summary();
      out << fmt::format("the program has finished: {} instructions issued\n", s.warp_instructions);
      return;
    }
    const ptx::Instruction& ins = p_.code[static_cast<std::size_t>(pos->pc)];
    out << fmt::format("{}line {}, lanes {:08x}: {}\n",
                       m_.warps() > 1 || m_.grid().ctas() > 1 ? m_.warp_name(pos->cta, pos->warp) + ", " : "", ins.loc.line,
                       pos->lanes, p_.line_text(ins.loc.line));
  }

 private:
  void run(std::ostream& out, std::uint64_t n, bool same_warp) {
    if (stopped_ || m_.finished()) {
      where(out);
      return;
    }
    const std::size_t before = m_.summary().warnings.size();
    try {
      if (n == 0) {  // continue: at least one step, then up to a breakpoint
        while (m_.step()) {
          const auto pos = m_.next();
          if (pos && breaks_.count(p_.code[static_cast<std::size_t>(pos->pc)].loc.line)) {
            out << fmt::format("breakpoint at line {}\n", p_.code[static_cast<std::size_t>(pos->pc)].loc.line);
            break;
          }
        }
      } else {
        const auto start = m_.next();
        for (std::uint64_t i = 0; i < n;) {
          const auto pos = m_.next();
          if (!m_.step()) break;
          if (!same_warp || (pos && start && pos->warp == start->warp)) ++i;
        }
      }
    } catch (const Error& e) {
      stopped_ = true;
      failed_ = true;
      out << e.what() << "\n";
      return;
    }
    const auto& warnings = m_.summary().warnings;
    for (std::size_t i = before; i < warnings.size(); ++i) out << warnings[i].text() << "\n";
    where(out);
  }

  [[nodiscard]] int instruction_on(int line) const {
    for (std::size_t i = 0; i < p_.code.size(); ++i)
      if (p_.code[i].loc.line == line) return static_cast<int>(i);
    return -1;
  }

  void add_break(const std::vector<std::string>& w, std::ostream& out) {
    if (w.size() != 2) throw Error("break LINE");
    const int line = static_cast<int>(number(w[1], "break"));
    const int pc = instruction_on(line);
    if (pc < 0) throw Error(fmt::format("{}:{}: no instruction on this line", p_.file, line));
    breaks_[line] = next_break_++;
    out << fmt::format("breakpoint {} at line {}: {}\n", breaks_[line], line,
                       p_.line_text(line));
  }

  void delete_break(const std::vector<std::string>& w, std::ostream& out) {
    if (w.size() == 1) {
      breaks_.clear();
      out << "deleted every breakpoint\n";
      return;
    }
    const auto id = static_cast<int>(number(w[1], "delete"));
    for (auto it = breaks_.begin(); it != breaks_.end(); ++it)
      if (it->second == id) {
        out << fmt::format("deleted breakpoint {} (line {})\n", id, it->first);
        breaks_.erase(it);
        return;
      }
    throw Error(fmt::format("no breakpoint {}", id));
  }

  void info_break(std::ostream& out) const {
    if (breaks_.empty()) out << "no breakpoints\n";
    for (const auto& [line, id] : breaks_) out << fmt::format("breakpoint {} at line {}\n", id, line);
  }

  // The CTA that runs now (the last one once the grid has finished): what print, regs, mem shared
  // and matrix show.
  [[nodiscard]] int cta() const {
    const auto pos = m_.next();
    return pos ? pos->cta : m_.ctas() - 1;
  }
  [[nodiscard]] std::string label(int warp) const {
    return m_.warps() > 1 || m_.grid().ctas() > 1 ? m_.warp_name(cta(), warp) + " " : "";
  }

  // The warp of "warp W" at w[i], w[i+1] (a warp that runs), else the current one.
  [[nodiscard]] int warp_arg(const std::vector<std::string>& w, std::size_t& n) const {
    int warp = 0;
    if (const auto pos = m_.next()) warp = pos->warp;
    if (n >= 2 && w[n - 2] == "warp") {
      const auto id = static_cast<int>(number(w[n - 1], "warp"));
      warp = id - m_.warp_id(0);
      if (warp < 0 || warp >= m_.warps()) throw Error(fmt::format("warp {} does not run", id));
      n -= 2;
    }
    return warp;
  }

  void print(const std::vector<std::string>& w, std::ostream& out) const {
    std::size_t n = w.size();
    const int warp = warp_arg(w, n);
    if (n < 2 || n > 3) throw Error("print REG [LANES] [warp W]");
    const int r = p_.find_register(w[1]);
    if (r < 0) throw Error(fmt::format("no register {} in {}", w[1], p_.file));
    std::uint32_t lanes = 0xffffffffU;
    if (n == 3) {
      const auto mask = lane_mask(w[2]);
      if (!mask) throw Error(fmt::format("bad lane list '{}' (e.g. 0-3,8)", w[2]));
      lanes = *mask;
    }
    const auto& decl = p_.registers[static_cast<std::size_t>(r)];
    const int bits = ptx::bits(decl.type);
    const ValueView view = default_view(decl.type);
    for (int lane = 0; lane < 32; ++lane) {
      if (!((lanes >> lane) & 1U)) continue;
      const std::uint64_t v = m_.reg(warp * 32 + lane, r, cta());
      out << fmt::format("{}lane {:>2} {} = {}  {}\n", label(warp), lane, decl.name, hex_text(v, bits),
                         typed_text(v, bits, view));
    }
  }

  void regs(const std::vector<std::string>& w, std::ostream& out) const {
    std::size_t n = w.size();
    const int warp = warp_arg(w, n);
    if (n > 2) throw Error("regs [LANE] [warp W]");
    const auto lane = n == 2 ? static_cast<int>(number(w[1], "regs")) : 0;
    if (lane > 31) throw Error(fmt::format("lane {} is not 0..31", lane));
    out << fmt::format("{}lane {}\n", label(warp), lane) << view_.lines(m_, warp * 32 + lane, cta());
  }

  void mem(const std::vector<std::string>& w, std::ostream& out) const {
    if (w.size() != 4) throw Error("mem SPACE OFFSET LENGTH");
    const Memory* m = w[1] == "shared" ? &m_.shared(cta()) : w[1] == "global" ? &m_.global()
                      : w[1] == "const" ? &m_.constant() : w[1] == "param" ? &m_.param() : nullptr;
    if (!m) throw Error(fmt::format("unknown memory '{}' (shared, global, const, param)", w[1]));
    const std::uint64_t len = number(w[3], "mem");
    if (len > (1U << 20)) throw Error("mem: at most 1 MiB");
    out << hex_dump(*m, number(w[2], "mem"), len);
  }

  void matrix(const std::vector<std::string>& w, std::ostream& out) const {
    std::size_t n = w.size();
    const int warp = warp_arg(w, n);
    if (n < 2 || n > 3) throw Error("matrix A|B|C|D [LINE] [warp W]");
    const int pc = matrix_instruction(p_, n == 3 ? static_cast<int>(number(w[2], "matrix")) : 0);
    out << format_matrix(operand_matrix(m_, pc, w[1], warp, cta()));
  }

  void list(std::ostream& out) const {
    const auto pos = m_.next();
    const int at = pos ? p_.code[static_cast<std::size_t>(pos->pc)].loc.line : 0;
    const int from = std::max(1, at - 3), to = std::min(static_cast<int>(source_.size()), at + 3);
    for (int l = from; l <= to; ++l)
      out << fmt::format("{}{:>5}  {}\n", l == at ? "=>" : "  ", l, source_[static_cast<std::size_t>(l - 1)]);
  }

  const ptx::Program& p_;
  Machine& m_;
  std::vector<std::string> source_;
  const RegisterView& view_;
  std::map<int, int> breaks_;  // line -> breakpoint number
  int next_break_ = 1;
  bool stopped_ = false, failed_ = false;
};

}  // namespace

void add_debug_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("debug", "step through a PTX kernel or snippet: breakpoints, registers, memory, matrices");
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
    // A script is read whole, bounded like every input (/dev/zero or a folder is an error).
    std::istringstream script(opts->commands.empty() ? std::string() : read_input_file(opts->commands));
    try {
      const ptx::Program prog = ptx::parse_ptx_file(opts->file, po);
      const RegisterView view(prog, {}, opts->as);
      Machine m = state.machine(prog, io);
      state.apply(m);
      Debugger d(prog, m, prog.lines, view);
      std::istream& in = opts->commands.empty() ? std::cin : script;
      std::cout << fmt::format("{}: {} ({}), {}{} warp{}\n", opts->file, prog.bare ? "snippet" : "kernel " + prog.entry,
                               prog.target, m.ctas() > 1 ? fmt::format("{} CTAs of ", m.ctas()) : "", m.warps(),
                               m.warps() == 1 ? "" : "s");
      m.start();  // stopped before the first instruction
      d.where(std::cout);
      for (std::string line;;) {
        std::cout << "(ptxmma) " << std::flush;
        if (!std::getline(in, line)) break;
        if (!opts->commands.empty()) std::cout << line << "\n";
        try {
          if (!d.execute(line, std::cout)) break;
        } catch (const Error& e) {
          std::cout << "error: " << e.what() << "\n";
          d.fail();
        }
      }
      if (d.failed()) throw CLI::RuntimeError(1);
    } catch (const ptx::PtxError& e) {
      std::cout.flush();
      std::cerr << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace ptxmma::cli
