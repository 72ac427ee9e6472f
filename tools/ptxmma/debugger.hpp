// The command interpreter of `ptxmma debug`: a Machine run one instruction at a time under
// breakpoints (lines, labels, file:line, with conditions), watchpoints (a register of some lanes,
// a memory range), displays, Ctrl-C; and what can be looked at when it stops (typed registers,
// special registers, memory, lanes, warps, CTAs, barriers, an mma's operands as matrices).
// docs/ptx-interpreter.md, "Debugging", lists the commands.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sim/exec/interpreter.hpp"
#include "tools/ptxmma/register_view.hpp"

namespace ptxmma::cli {

class Debugger {
 public:
  // A fresh machine with the initial state applied, stopped before its first instruction (for the
  // start, `run` and `restart`).
  using MakeMachine = std::function<std::unique_ptr<Machine>()>;

  Debugger(const ptx::Program& p, MakeMachine make, const RegisterView& view);
  ~Debugger();

  // Runs one command; false on quit. A bad command throws Error (the session goes on).
  bool execute(const std::string& line, std::ostream& out);
  // Whether an empty line repeats `line` (stepping and running commands, as in gdb).
  [[nodiscard]] static bool repeats(const std::string& line);
  // The next instruction, or that the program has finished or stopped with an error.
  void where(std::ostream& out);
  // Tab completion: command names for the first word, else registers, labels, subcommands.
  [[nodiscard]] std::vector<std::string> completions(std::string_view word, bool first) const;
  [[nodiscard]] const Machine& machine() const { return *m_; }
  // Whether the program stopped with a runtime error.
  [[nodiscard]] bool stopped() const { return stopped_; }

 private:
  struct Target;      // a register or a special register, by name
  struct Condition;   // REG OP VALUE [lane L]
  struct Point;       // a breakpoint or a watchpoint
  struct Format;      // /x /d /u /f /t or a PTX type
  enum class Until : std::uint8_t { steps, warp_steps, breakpoint, finish };

  void run(std::ostream& out, Until until, std::uint64_t n, bool stop_at_first = false);
  [[nodiscard]] bool hit_breakpoint(const Machine::Position& pos, std::ostream& out);
  [[nodiscard]] bool hit_watchpoint(const Machine::Position& ran, std::ostream& out);
  void after_stop(std::ostream& out, std::size_t warnings_before);
  void restart(std::ostream& out, bool run_to_breakpoint);

  void add_break(const std::vector<std::string>& w, std::ostream& out);
  void add_watch(const std::vector<std::string>& w, std::ostream& out);
  void condition(const std::vector<std::string>& w, std::ostream& out);
  void delete_points(const std::vector<std::string>& w, std::ostream& out);
  void info(const std::vector<std::string>& w, std::ostream& out);
  void info_points(std::ostream& out, bool watches) const;
  void info_lanes(const std::vector<std::string>& w, std::ostream& out);
  void info_warps(std::ostream& out);
  void info_ctas(std::ostream& out);
  void info_barriers(std::ostream& out);
  void display(const std::string& line, const std::vector<std::string>& w, std::ostream& out);
  void undisplay(const std::vector<std::string>& w, std::ostream& out);
  void show_displays(std::ostream& out);

  void print(const std::vector<std::string>& w, const Format& f, std::ostream& out);
  void examine(const std::vector<std::string>& w, std::string_view spec, std::ostream& out);
  void regs(const std::vector<std::string>& w, std::ostream& out);
  void mem(const std::vector<std::string>& w, std::ostream& out);
  void matrix(const std::vector<std::string>& w, std::ostream& out);
  void list(const std::vector<std::string>& w, std::ostream& out);

  [[nodiscard]] Target target(const std::string& name) const;
  [[nodiscard]] Condition parse_condition(const std::vector<std::string>& w, std::size_t from) const;
  [[nodiscard]] bool holds(const Condition& c, int cta, int warp, std::uint32_t lanes, int& lane) const;
  [[nodiscard]] std::uint64_t value_of(const Target& t, int cta, int thread, int part = 0) const;
  [[nodiscard]] int location(const std::string& where, std::string& note) const;
  [[nodiscard]] int cta();
  [[nodiscard]] std::string label(int warp);
  [[nodiscard]] int warp_arg(const std::vector<std::string>& w, std::size_t& n);
  [[nodiscard]] const Memory& memory(const std::string& space);
  [[nodiscard]] std::string point_text(const Point& p) const;

  const ptx::Program& p_;
  MakeMachine make_;
  std::unique_ptr<Machine> m_;
  const RegisterView& view_;
  std::vector<Point> points_;
  int next_point_ = 1;
  std::vector<std::pair<int, std::string>> displays_;  // number, print command
  int next_display_ = 1;
  // (cta, warp, pc) of every mma and wgmma.mma_async a warp has stepped past, so that `matrix D`
  // can say when the instruction has not run yet.
  std::set<std::tuple<int, int, int>> ran_mma_;
  bool stopped_ = false;
};

}  // namespace ptxmma::cli
