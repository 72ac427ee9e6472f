#include "tools/ptxmma/debugger.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <compare>
#include <ostream>
#include <sstream>

#include "sim/error.hpp"
#include "sim/exec/mbarrier.hpp"
#include "sim/numeric/exact.hpp"
#include "tools/ptxmma/line_reader.hpp"
#include "sim/util/suggest.hpp"
#include "tools/vectors/operand_matrix.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma::cli {
namespace {

constexpr const char* kHelp =
    "Running (Enter repeats step, next, continue, finish; Ctrl-C stops a running program):\n"
    "  step [N] (s)                  execute N instructions of whichever warp runs (default 1)\n"
    "  next [N] (n)                  run until the current warp has executed N instructions and is next again\n"
    "  continue (c)                  run to a breakpoint, a watchpoint or the end\n"
    "  finish                        run until the current warp returns from the .func it is in\n"
    "  run (r)                       start again from the first instruction and run to a breakpoint\n"
    "  restart                       start again, stopped before the first instruction\n"
    "Stopping:\n"
    "  break LOC [if COND] (b)       LOC: LINE, FILE:LINE or a label ($L_loop); a line without an\n"
    "                                instruction means the next instruction; COND: REG OP VALUE [lane L]\n"
    "                                with OP one of == != < <= > >= (any lane of the path, or lane L)\n"
    "  condition N [COND]            set (or remove) breakpoint N's condition\n"
    "  watch REG [LANES] [warp W]    stop when the register changes in those lanes (default all)\n"
    "  watch SPACE OFFSET LENGTH     stop when bytes of shared, global, const or param memory change\n"
    "  delete [N...] (d)             delete breakpoints and watchpoints (default: all)\n"
    "  display[/F] REG [LANES] [TYPE] [warp W]   print it at every stop; undisplay [N]\n"
    "Looking:\n"
    "  print[/F] REG [LANES] [TYPE] [warp W] (p)   a register or special register (%laneid, %tid,\n"
    "                                %ctaid.x, ...) in lanes (e.g. 0-3,8; default all) of warp W;\n"
    "                                F: x (hex), d (signed), u (unsigned), f (float), t (binary) or\n"
    "                                a PTX type (f16x2, e4m3x4, s32, ...), as TYPE too\n"
    "  x[/NF] SPACE OFFSET [LENGTH]  memory (shared, global, const, param): LENGTH bytes in hex\n"
    "                                (default 16), or N values of F: x d u f t with a size b h w g\n"
    "                                (x/4xw), or a PTX type (x/8f16)\n"
    "  info registers [LANE] [warp W]   every register of one lane (default 0); also: regs\n"
    "  info lanes [warp W]           each lane's state and %tid\n"
    "  info warps | ctas | barriers  what each warp and CTA is doing, who waits at which barrier\n"
    "  info tmem [LANES:COLUMNS]     tensor memory (tcgen05): the allocations, or cells (0-31:0-7)\n"
    "  info breakpoints | watchpoints | display\n"
    "  matrix A|B|C|D [LINE] [warp W]   an operand of the mma/wgmma on LINE (default: the last)\n"
    "  mem SPACE OFFSET LENGTH       bytes of memory in hex\n"
    "  where (w, bt)                 the next instruction\n"
    "  list [LINE|LABEL] (l)         the source around the next instruction (or LINE)\n"
    "  help (h), quit (q)\n";

// Command names (with gdb's abbreviations) for suggestions and completion.
const std::vector<std::string>& command_names() {
  static const std::vector<std::string> names = {
      "step", "s", "stepi", "si", "next", "n", "nexti", "ni", "continue", "c", "finish", "fin", "run", "r",
      "restart", "break", "b", "condition", "watch", "delete", "d", "display", "undisplay", "print", "p",
      "x", "info", "i", "regs", "mem", "matrix", "where", "w", "bt", "backtrace", "list", "l", "help", "h",
      "quit", "q"};
  return names;
}

const std::vector<std::string>& info_names() {
  static const std::vector<std::string> names = {"registers", "lanes",       "warps",       "ctas", "barriers",
                                                 "tmem",      "breakpoints", "watchpoints", "display"};
  return names;
}

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

bool is_number(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

// A command word "print/x" -> "print" and "x".
std::pair<std::string, std::string> split_format(const std::string& word) {
  const std::size_t slash = word.find('/');
  if (slash == std::string::npos) return {word, ""};
  return {word.substr(0, slash), word.substr(slash + 1)};
}

// Whether a unique prefix or the exact name of `names` matches `word` (info subcommands: gdb
// takes "info reg", "info b").
std::string expand(const std::string& word, const std::vector<std::string>& names) {
  std::string found;
  for (const std::string& n : names) {
    if (n == word) return n;
    if (n.starts_with(word)) {
      if (!found.empty()) return "";
      found = n;
    }
  }
  return found;
}

// The three-component special registers, printed as (x, y, z).
const std::vector<std::string>& special_vectors() {
  static const std::vector<std::string> v = {"%tid", "%ntid", "%ctaid", "%nctaid", "%clusterid", "%nclusterid",
                                             "%cluster_ctaid", "%cluster_nctaid"};
  return v;
}

std::string binary_text(std::uint64_t bits, int width) {
  std::string s = "0b";
  for (int i = width - 1; i >= 0; --i) s += ((bits >> i) & 1U) ? '1' : '0';
  return s;
}

// The ordering of two exact values; unordered when either is a NaN.
std::partial_ordering compare(const ExactValue& a, const ExactValue& b) {
  if (a.cls == FpClass::nan || b.cls == FpClass::nan) return std::partial_ordering::unordered;
  const auto rank = [](const ExactValue& v) { return v.cls == FpClass::infinity ? (v.negative ? -1 : 1) : 0; };
  if (rank(a) != rank(b)) return rank(a) <=> rank(b);
  if (rank(a) != 0) return std::partial_ordering::equivalent;
  const Rational x = a.cls == FpClass::zero ? Rational(0) : a.value;
  const Rational y = b.cls == FpClass::zero ? Rational(0) : b.value;
  return x < y ? std::partial_ordering::less : x > y ? std::partial_ordering::greater : std::partial_ordering::equivalent;
}

}  // namespace

// A register (reg >= 0) or special registers (one, or the x, y, z of %tid and its kind).
struct Debugger::Target {
  std::string name;
  int reg = -1;
  std::vector<ptx::Special> specials;
  ptx::PtxType type = ptx::PtxType::u32;
  int bits = 32;
};

struct Debugger::Condition {
  Target target;
  std::string op;  // == != < <= > >=
  std::uint64_t value = 0;
  int lane = -1;  // -1: any lane on the path
  std::string expr;  // REG OP VALUE
  std::string text;  // with the lane
};

struct Debugger::Point {
  enum class Kind : std::uint8_t { line, reg, memory };
  int id = 0;
  Kind kind = Kind::line;
  int line = 0;                              // line: the instruction's line
  std::optional<Condition> cond;             // line
  Target target;                             // reg
  int cta = 0, warp = 0;                     // reg: whose registers; memory: cta (shared)
  std::uint32_t lanes = 0;                   // reg
  std::vector<std::uint64_t> old;            // reg: per lane
  std::string space;                         // memory
  std::uint64_t offset = 0, length = 0;      // memory
  std::vector<std::uint8_t> bytes;           // memory: as last seen
  int hits = 0;
};

struct Debugger::Format {
  char letter = 0;   // x d u f t, or 0
  std::string type;  // a PTX type or view, or ""
};

Debugger::Debugger(const ptx::Program& p, MakeMachine make, const RegisterView& view)
    : p_(p), make_(std::move(make)), m_(make_()), view_(view) {}

Debugger::~Debugger() = default;

bool Debugger::repeats(const std::string& line) {
  const auto w = words_of(line);
  if (w.empty()) return false;
  static const std::vector<std::string> r = {"step", "s", "stepi", "si", "next", "n", "nexti", "ni",
                                             "continue", "c", "finish", "fin"};
  return std::find(r.begin(), r.end(), w[0]) != r.end();
}

bool Debugger::execute(const std::string& line, std::ostream& out) {
  const auto w = words_of(line);
  if (w.empty()) return true;
  const std::pair<std::string, std::string> split = split_format(w[0]);
  const std::string& c = split.first;
  const std::string& suffix = split.second;
  const auto count = [&w, &c](std::size_t i) { return w.size() > i ? number(w[i], c.c_str()) : 1; };
  const auto format = [&suffix, &c]() {
    Format f;
    if (suffix.size() == 1 && std::string_view("xduft").find(suffix[0]) != std::string_view::npos) f.letter = suffix[0];
    else if (!suffix.empty()) f.type = suffix;
    if (!suffix.empty() && c != "print" && c != "p" && c != "display") throw Error(fmt::format("{} takes no /FORMAT", c));
    return f;
  };
  if (c == "quit" || c == "q") return false;
  if (c == "help" || c == "h") out << kHelp;
  else if (c == "step" || c == "s" || c == "stepi" || c == "si") run(out, Until::steps, count(1));
  else if (c == "next" || c == "n" || c == "nexti" || c == "ni") run(out, Until::warp_steps, count(1));
  else if (c == "continue" || c == "c") run(out, Until::breakpoint, 0);
  else if (c == "finish" || c == "fin") run(out, Until::finish, 0);
  else if (c == "run" || c == "r") restart(out, true);
  else if (c == "restart") restart(out, false);
  else if (c == "break" || c == "b") add_break(w, out);
  else if (c == "condition") condition(w, out);
  else if (c == "watch") add_watch(w, out);
  else if (c == "delete" || c == "d") delete_points(w, out);
  else if (c == "display") display(line, w, out);
  else if (c == "undisplay") undisplay(w, out);
  else if (c == "info" || c == "i") info(w, out);
  else if (c == "print" || c == "p") print(w, format(), out);
  else if (c == "x") examine(w, suffix, out);
  else if (c == "regs") regs(w, out);
  else if (c == "mem") mem(w, out);
  else if (c == "matrix") matrix(w, out);
  else if (c == "where" || c == "w" || c == "bt" || c == "backtrace") where(out);
  else if (c == "list" || c == "l") list(w, out);
  else throw Error(fmt::format("unknown command '{}'{} (help lists them)", w[0], did_you_mean(c, command_names())));
  return true;
}

std::vector<std::string> Debugger::completions(std::string_view word, bool first) const {
  if (first) return command_names();
  std::vector<std::string> c = info_names();
  for (const char* s : {"shared", "global", "const", "param", "warp", "lane", "if", "A", "B", "C", "D"})
    c.push_back(s);
  for (const ptx::RegisterDecl& r : p_.registers) c.push_back(r.source);
  for (const auto& [name, pc] : p_.labels) c.push_back(name);
  if (word.starts_with('%'))
    for (int s = 0; s <= static_cast<int>(ptx::Special::is_explicit_cluster); ++s)
      c.emplace_back(ptx::name(static_cast<ptx::Special>(s)));
  for (const std::string& s : special_vectors()) c.push_back(s);
  return c;
}

void Debugger::where(std::ostream& out) {
  if (stopped_) {
    out << "the program stopped with an error (run or restart starts it again)\n";
    return;
  }
  const auto pos = m_->next();
  if (!pos) {
    out << fmt::format("the program has finished: {} instructions issued\n", m_->summary().warp_instructions);
    return;
  }
  const ptx::Instruction& ins = p_.code[static_cast<std::size_t>(pos->pc)];
  out << fmt::format("{}line {}, lanes {:08x}: {}\n",
                     m_->warps() > 1 || m_->grid().ctas() > 1 ? m_->warp_name(pos->cta, pos->warp) + ", " : "",
                     ins.loc.line, pos->lanes, p_.line_text(ins.loc.line));
}

// --- running -------------------------------------------------------------------------------

void Debugger::run(std::ostream& out, Until until, std::uint64_t n, bool stop_at_first) {
  if (stopped_ || m_->finished()) {
    where(out);
    return;
  }
  const std::size_t before = m_->summary().warnings.size();
  const auto start = m_->next();
  if (!start) {
    where(out);
    return;
  }
  const int depth = m_->warp_state(start->warp).depth;
  if (until == Until::finish && depth == 0)
    throw Error(fmt::format("finish: {} is in the kernel, not in a called .func (continue runs to the end)",
                            m_->warp_name(start->cta, start->warp)));
  InterruptScope::take();  // a Ctrl-C typed before this command is not for it
  // The warp `next` and `finish` follow: other warps and CTAs run meanwhile, as the scheduler
  // interleaves them; it has finished once its CTA has or it has.
  const auto start_finished = [&] {
    return m_->cta_state(start->cta) == Machine::CtaIs::finished ||
           m_->warp_state(start->warp, start->cta).is == Machine::WarpState::Is::finished;
  };
  try {
    std::uint64_t done = 0;
    bool counted = false;  // next: the warp has executed its N; the others run until it is next again
    for (bool first = true;; first = false) {
      if (InterruptScope::take()) {
        out << "interrupted\n";
        break;
      }
      const auto pos = m_->next();
      if (!pos) break;
      const bool same_warp = pos->cta == start->cta && pos->warp == start->warp;
      if (counted && same_warp) break;
      // finish: the call has returned once the warp's next instruction is in the caller.
      if (until == Until::finish && same_warp && m_->warp_state(pos->warp).depth < depth) {
        out << fmt::format("returned from the call ({})\n", m_->warp_name(start->cta, start->warp));
        break;
      }
      if ((!first || stop_at_first) && hit_breakpoint(*pos, out)) break;
      const ptx::Instruction& ins = p_.code[static_cast<std::size_t>(pos->pc)];
      if (ins.d.mma || ins.d.wgmma) ran_mma_.insert({pos->cta, pos->warp, pos->pc});
      m_->step();
      if (hit_watchpoint(*pos, out)) break;
      if (until == Until::steps && ++done == n) break;
      if (until == Until::warp_steps && same_warp && ++done == n) counted = true;
      if ((counted || until == Until::finish) && start_finished()) {
        out << fmt::format("{} has finished\n", m_->warp_name(start->cta, start->warp));
        break;
      }
    }
  } catch (const Error& e) {
    stopped_ = true;
    out << e.what() << "\n";
    return;
  }
  after_stop(out, before);
}

void Debugger::after_stop(std::ostream& out, std::size_t warnings_before) {
  const auto& warnings = m_->summary().warnings;
  for (std::size_t i = warnings_before; i < warnings.size(); ++i) out << warnings[i].text() << "\n";
  where(out);
  show_displays(out);
}

bool Debugger::hit_breakpoint(const Machine::Position& pos, std::ostream& out) {
  const int line = p_.code[static_cast<std::size_t>(pos.pc)].loc.line;
  for (Point& bp : points_) {
    if (bp.kind != Point::Kind::line || bp.line != line) continue;
    int lane = -1;
    if (bp.cond && !holds(*bp.cond, pos.cta, pos.warp, pos.lanes, lane)) continue;
    ++bp.hits;
    if (bp.cond)
      out << fmt::format("breakpoint at line {} ({} in lane {})\n", line, bp.cond->expr, lane);
    else
      out << fmt::format("breakpoint at line {}\n", line);
    return true;
  }
  return false;
}

bool Debugger::hit_watchpoint(const Machine::Position& ran, std::ostream& out) {
  bool hit = false;
  const std::string by = fmt::format("line {}{}", p_.code[static_cast<std::size_t>(ran.pc)].loc.line,
                                     m_->warps() > 1 || m_->grid().ctas() > 1 ? ", " + m_->warp_name(ran.cta, ran.warp) : "");
  for (Point& wp : points_) {
    if (wp.kind == Point::Kind::reg) {
      if (wp.cta >= m_->ctas()) continue;
      for (int lane = 0; lane < 32; ++lane) {
        if (!((wp.lanes >> lane) & 1U)) continue;
        const std::uint64_t v = value_of(wp.target, wp.cta, wp.warp * 32 + lane);
        std::uint64_t& old = wp.old[static_cast<std::size_t>(lane)];
        if (v == old) continue;
        const ValueView view = default_view(wp.target.type);
        out << fmt::format("watchpoint {}: {} lane {}: {}  {} -> {}  {} (by {})\n", wp.id, wp.target.name, lane,
                           hex_text(old, wp.target.bits), typed_text(old, wp.target.bits, view),
                           hex_text(v, wp.target.bits), typed_text(v, wp.target.bits, view), by);
        old = v;
        hit = true;
      }
      if (hit) ++wp.hits;
    } else if (wp.kind == Point::Kind::memory) {
      std::vector<std::uint8_t> now(wp.length);
      memory(wp.space).read(wp.offset, now.data(), now.size());
      if (now == wp.bytes) continue;
      std::size_t from = 0;
      while (now[from] == wp.bytes[from]) ++from;
      std::size_t to = now.size();
      while (now[to - 1] == wp.bytes[to - 1]) --to;
      std::string was, is;
      for (std::size_t i = from; i < std::min(to, from + 16); ++i) {
        was += fmt::format(" {:02x}", wp.bytes[i]);
        is += fmt::format(" {:02x}", now[i]);
      }
      out << fmt::format("watchpoint {}: {} [{:#x}, {:#x}) changed (by {}):{}  ->{}{}\n", wp.id, wp.space,
                         wp.offset + from, wp.offset + to, by, was, is, to - from > 16 ? " ..." : "");
      wp.bytes = std::move(now);
      ++wp.hits;
      hit = true;
    }
  }
  return hit;
}

void Debugger::restart(std::ostream& out, bool run_to_breakpoint) {
  m_ = make_();
  stopped_ = false;
  ran_mma_.clear();
  for (Point& p : points_) {  // watchpoints start from the fresh values
    if (p.kind == Point::Kind::reg)
      for (int lane = 0; lane < 32; ++lane) p.old[static_cast<std::size_t>(lane)] = value_of(p.target, p.cta, p.warp * 32 + lane);
    if (p.kind == Point::Kind::memory) memory(p.space).read(p.offset, p.bytes.data(), p.bytes.size());
  }
  out << "started again from the first instruction\n";
  if (run_to_breakpoint) run(out, Until::breakpoint, 0, true);
  else after_stop(out, 0);
}

// --- breakpoints, watchpoints, displays ------------------------------------------------------

int Debugger::location(const std::string& where, std::string& note) const {
  int line = 0;
  std::string_view at = where;
  if (const std::size_t colon = where.rfind(':'); colon != std::string::npos) {
    const std::string file = where.substr(0, colon);
    const std::string_view base = std::string_view(p_.file).substr(p_.file.rfind('/') + 1);
    if (file != p_.file && file != base && !p_.file.ends_with("/" + file))
      throw Error(fmt::format("break: no file '{}' (the program is {})", file, p_.file));
    at = std::string_view(where).substr(colon + 1);
  }
  if (is_number(at)) {
    line = static_cast<int>(number(std::string(at), "break"));
  } else {
    std::string name(at);
    auto it = p_.labels.find(name);
    if (it == p_.labels.end() && name.starts_with('$')) it = p_.labels.find(name.substr(1));
    if (it == p_.labels.end()) it = p_.labels.find("$" + name);
    if (it == p_.labels.end()) {
      std::vector<std::string> labels;
      for (const auto& entry : p_.labels) labels.push_back(entry.first);
      throw Error(fmt::format("break: no line or label '{}' in {}{}", where, p_.file, did_you_mean(name, labels)));
    }
    if (it->second >= static_cast<int>(p_.code.size()))
      throw Error(fmt::format("break: label '{}' has no instruction after it", name));
    return p_.code[static_cast<std::size_t>(it->second)].loc.line;
  }
  // The first instruction on the line or after it (a comment, a label or a blank line moves on).
  int best = 0;
  for (const ptx::Instruction& ins : p_.code)
    if (ins.loc.line >= line && (best == 0 || ins.loc.line < best)) best = ins.loc.line;
  if (best == 0) throw Error(fmt::format("{}:{}: no instruction on this line or after it", p_.file, line));
  if (best != line) note = fmt::format("line {} has no instruction; ", line);
  return best;
}

void Debugger::add_break(const std::vector<std::string>& w, std::ostream& out) {
  if (w.size() < 2 || (w.size() > 2 && w[2] != "if")) throw Error("break LINE|FILE:LINE|LABEL [if REG OP VALUE [lane L]]");
  std::string note;
  Point bp;
  bp.line = location(w[1], note);
  if (w.size() > 2) bp.cond = parse_condition(w, 3);
  bp.id = next_point_++;
  out << fmt::format("{}breakpoint {} at line {}{}: {}\n", note, bp.id, bp.line,
                     bp.cond ? " if " + bp.cond->text : "", p_.line_text(bp.line));
  points_.push_back(std::move(bp));
}

Debugger::Condition Debugger::parse_condition(const std::vector<std::string>& w, std::size_t from) const {
  std::vector<std::string> c(w.begin() + static_cast<std::ptrdiff_t>(from), w.end());
  Condition cond;
  if (c.size() == 5 && c[3] == "lane") {
    cond.lane = static_cast<int>(number(c[4], "lane"));
    if (cond.lane > 31) throw Error(fmt::format("lane {} is not 0..31", cond.lane));
    c.resize(3);
  }
  static const std::vector<std::string> ops = {"==", "!=", "<", "<=", ">", ">="};
  if (c.size() != 3 || std::find(ops.begin(), ops.end(), c[1]) == ops.end())
    throw Error("a condition is REG OP VALUE [lane L], with OP one of == != < <= > >= (e.g. %r1 == 4 lane 3)");
  cond.target = target(c[0]);
  if (cond.target.specials.size() > 1)
    throw Error(fmt::format("{} has three components: compare one ({}.x)", c[0], c[0]));
  cond.op = c[1];
  cond.value = parse_value_text(c[2], cond.target.bits, cond.target.type);
  cond.expr = fmt::format("{} {} {}", cond.target.name, cond.op, c[2]);
  cond.text = cond.expr + (cond.lane >= 0 ? fmt::format(" lane {}", cond.lane) : "");
  return cond;
}

bool Debugger::holds(const Condition& c, int cta, int warp, std::uint32_t lanes, int& lane) const {
  if (c.lane >= 0) lanes &= 1U << c.lane;
  const ValueView view = default_view(c.target.type);
  for (int l = 0; l < 32; ++l) {
    if (!((lanes >> l) & 1U)) continue;
    const std::uint64_t v = value_of(c.target, cta, warp * 32 + l);
    std::partial_ordering o = std::partial_ordering::unordered;
    if (view.kind == ValueView::Kind::floating && view.count == 1) {
      o = compare(exact_value(view.elem, v), exact_value(view.elem, c.value));
    } else if (view.kind == ValueView::Kind::signed_int && view.count == 1) {
      const int shift = 64 - c.target.bits;
      o = (static_cast<std::int64_t>(v << shift) >> shift) <=> (static_cast<std::int64_t>(c.value << shift) >> shift);
    } else {
      o = v <=> c.value;
    }
    const bool yes = c.op == "==" ? o == 0 : c.op == "!=" ? o != 0 : c.op == "<" ? o < 0 : c.op == "<=" ? o <= 0
                     : c.op == ">" ? o > 0 : o >= 0;
    if (yes) {
      lane = l;
      return true;
    }
  }
  return false;
}

void Debugger::condition(const std::vector<std::string>& w, std::ostream& out) {
  if (w.size() < 2) throw Error("condition N [REG OP VALUE [lane L]]");
  const auto id = static_cast<int>(number(w[1], "condition"));
  for (Point& p : points_) {
    if (p.id != id) continue;
    if (p.kind != Point::Kind::line) throw Error(fmt::format("{} is a watchpoint: conditions are for breakpoints", id));
    if (w.size() == 2) {
      p.cond.reset();
      out << fmt::format("breakpoint {} is now unconditional\n", id);
    } else {
      p.cond = parse_condition(w, 2);
      out << fmt::format("breakpoint {}: stop if {}\n", id, p.cond->text);
    }
    return;
  }
  throw Error(fmt::format("no breakpoint {}", id));
}

void Debugger::add_watch(const std::vector<std::string>& w, std::ostream& out) {
  Point wp;
  if (w.size() == 4 && !w[1].starts_with('%')) {
    wp.kind = Point::Kind::memory;
    wp.space = w[1];
    wp.offset = number(w[2], "watch");
    wp.length = number(w[3], "watch");
    if (wp.length == 0 || wp.length > 4096) throw Error("watch: 1 to 4096 bytes");
    wp.cta = cta();
    wp.bytes.resize(wp.length);
    memory(wp.space).read(wp.offset, wp.bytes.data(), wp.bytes.size());
  } else {
    std::size_t n = w.size();
    wp.warp = warp_arg(w, n);
    if (n < 2 || n > 3) throw Error("watch REG [LANES] [warp W], or watch SPACE OFFSET LENGTH");
    wp.kind = Point::Kind::reg;
    wp.target = target(w[1]);
    if (wp.target.reg < 0) throw Error(fmt::format("{} is a special register: it does not change", w[1]));
    wp.lanes = 0xffffffffU;
    if (n == 3) {
      const auto mask = lane_mask(w[2]);
      if (!mask) throw Error(fmt::format("bad lane list '{}' (e.g. 0-3,8)", w[2]));
      wp.lanes = *mask;
    }
    wp.cta = cta();
    wp.old.resize(32);
    for (int lane = 0; lane < 32; ++lane) wp.old[static_cast<std::size_t>(lane)] = value_of(wp.target, wp.cta, wp.warp * 32 + lane);
  }
  wp.id = next_point_++;
  out << fmt::format("watchpoint {}: {}\n", wp.id, point_text(wp));
  points_.push_back(std::move(wp));
}

std::string Debugger::point_text(const Point& p) const {
  switch (p.kind) {
    case Point::Kind::line:
      return fmt::format("line {}{}", p.line, p.cond ? " if " + p.cond->text : "");
    case Point::Kind::reg:
      return fmt::format("{} in lanes {:08x} of {}", p.target.name, p.lanes, m_->warp_name(p.cta, p.warp));
    case Point::Kind::memory:
      return fmt::format("{} [{:#x}, {:#x})", p.space, p.offset, p.offset + p.length);
  }
  return "";
}

void Debugger::delete_points(const std::vector<std::string>& w, std::ostream& out) {
  if (w.size() == 1) {
    points_.clear();
    out << "deleted every breakpoint and watchpoint\n";
    return;
  }
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto id = static_cast<int>(number(w[i], "delete"));
    const auto it = std::find_if(points_.begin(), points_.end(), [id](const Point& p) { return p.id == id; });
    if (it == points_.end()) throw Error(fmt::format("no breakpoint or watchpoint {}", id));
    out << fmt::format("deleted {} {} ({})\n", it->kind == Point::Kind::line ? "breakpoint" : "watchpoint", id,
                       point_text(*it));
    points_.erase(it);
  }
}

void Debugger::display(const std::string& line, const std::vector<std::string>& w, std::ostream& out) {
  if (w.size() < 2) {
    show_displays(out);
    return;
  }
  // What follows "display" is a print command: check it now, then keep it.
  const std::string format = split_format(w[0]).second;
  const std::string cmd = "print" + (format.empty() ? "" : "/" + format) + line.substr(line.find(w[0]) + w[0].size());
  std::ostringstream first;
  execute(cmd, first);
  displays_.emplace_back(next_display_++, cmd);
  out << fmt::format("{}: {}\n", displays_.back().first, cmd) << first.str();
}

void Debugger::undisplay(const std::vector<std::string>& w, std::ostream& out) {
  if (w.size() == 1) {
    displays_.clear();
    out << "deleted every display\n";
    return;
  }
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto id = static_cast<int>(number(w[i], "undisplay"));
    const auto it = std::find_if(displays_.begin(), displays_.end(), [id](const auto& d) { return d.first == id; });
    if (it == displays_.end()) throw Error(fmt::format("no display {}", id));
    displays_.erase(it);
  }
}

void Debugger::show_displays(std::ostream& out) {
  if (stopped_) return;
  for (const auto& d : displays_) {
    out << fmt::format("{}: {}\n", d.first, d.second);
    try {
      execute(d.second, out);
    } catch (const Error& e) {
      out << "  (" << e.what() << ")\n";
    }
  }
}

// --- looking ---------------------------------------------------------------------------------

Debugger::Target Debugger::target(const std::string& name) const {
  Target t;
  t.name = name;
  if (const int r = p_.find_register(name); r >= 0) {
    t.reg = r;
    t.type = p_.registers[static_cast<std::size_t>(r)].type;
    t.bits = ptx::bits(t.type);
    return t;
  }
  if (const auto s = ptx::parse_special(name)) {
    t.specials = {*s};
    return t;
  }
  if (std::find(special_vectors().begin(), special_vectors().end(), name) != special_vectors().end()) {
    for (const char* axis : {".x", ".y", ".z"}) t.specials.push_back(*ptx::parse_special(name + axis));
    return t;
  }
  std::string hint;
  if (!name.starts_with('%') && (p_.find_register("%" + name) >= 0 || ptx::parse_special("%" + name)))
    hint = fmt::format(" (did you mean '%{}'?)", name);
  else
    hint = did_you_mean(name, completions(name.starts_with('%') ? name : "%" + name, false));
  throw Error(fmt::format("no register {} in {}{}", name, p_.file, hint));
}

std::uint64_t Debugger::value_of(const Target& t, int cta, int thread, int part) const {
  if (t.reg >= 0) return m_->reg(thread, t.reg, cta);
  return m_->special(t.specials[static_cast<std::size_t>(part)], thread, cta);
}

int Debugger::cta() {
  const auto pos = m_->next();
  return pos ? pos->cta : m_->running_cta();
}

std::string Debugger::label(int warp) {
  return m_->warps() > 1 || m_->grid().ctas() > 1 ? m_->warp_name(cta(), warp) + " " : "";
}

int Debugger::warp_arg(const std::vector<std::string>& w, std::size_t& n) {
  int warp = 0;
  if (const auto pos = m_->next()) warp = pos->warp;
  if (n >= 2 && w[n - 2] == "warp") {
    const auto id = static_cast<int>(number(w[n - 1], "warp"));
    warp = id - m_->warp_id(0);
    if (warp < 0 || warp >= m_->warps()) throw Error(fmt::format("warp {} does not run", id));
    n -= 2;
  }
  return warp;
}

const Memory& Debugger::memory(const std::string& space) {
  if (space == "shared") return m_->shared(cta());
  if (space == "global") return m_->global();
  if (space == "const") return m_->constant();
  if (space == "param") return m_->param();
  throw Error(fmt::format("unknown memory '{}' (shared, global, const, param){}", space,
                          did_you_mean(space, {"shared", "global", "const", "param"})));
}

void Debugger::print(const std::vector<std::string>& w, const Format& f, std::ostream& out) {
  std::size_t n = w.size();
  const int warp = warp_arg(w, n);
  if (n < 2 || n > 4) throw Error("print[/FORMAT] REG [LANES] [TYPE] [warp W]");
  const Target t = target(w[1]);
  std::uint32_t lanes = 0xffffffffU;
  std::string type = f.type;
  for (std::size_t i = 2; i < n; ++i) {
    if (const auto mask = lane_mask(w[i])) lanes = *mask;
    else if (type.empty() && !is_number(w[i]) && !w[i].empty() && w[i][0] != '-') type = w[i];
    else throw Error(fmt::format("bad lane list '{}' (e.g. 0-3,8)", w[i]));
  }
  const int bits = t.bits;
  // The text of one value under the format: hex and typed, or what /x /d /u /f /t ask for.
  std::optional<ValueView> view;
  if (!type.empty()) view = parse_view(type, bits);
  else if (f.letter == 'd' || f.letter == 'u') view = parse_view(fmt::format("{}{}", f.letter == 'd' ? 's' : 'u', bits), bits);
  else if (f.letter == 'f') {
    if (bits != 16 && bits != 32 && bits != 64) throw Error(fmt::format("/f: a {}-bit register is no float", bits));
    view = parse_view(fmt::format("f{}", bits), bits);
  }
  const auto text = [&](std::uint64_t v) {
    if (f.letter == 'x') return hex_text(v, bits);
    if (f.letter == 't') return binary_text(v, bits);
    if (f.letter != 0) return typed_text(v, bits, *view);
    if (t.reg < 0 && !view) return std::to_string(v);
    return fmt::format("{}  {}", hex_text(v, bits), typed_text(v, bits, view ? *view : default_view(t.type)));
  };
  const int c = cta();
  for (int lane = 0; lane < 32; ++lane) {
    if (!((lanes >> lane) & 1U)) continue;
    std::string value;
    if (t.specials.size() > 1) {
      value = "(";
      for (int part = 0; part < 3; ++part) value += (part ? ", " : "") + text(value_of(t, c, warp * 32 + lane, part));
      value += ")";
    } else {
      value = text(value_of(t, c, warp * 32 + lane));
    }
    out << fmt::format("{}lane {:>2} {} = {}\n", label(warp), lane, t.name, value);
  }
}

void Debugger::examine(const std::vector<std::string>& w, std::string_view spec, std::ostream& out) {
  if (w.size() < 3 || w.size() > 4) throw Error("x[/NF] SPACE OFFSET [LENGTH]");
  const Memory& mem = memory(w[1]);
  const std::uint64_t offset = number(w[2], "x");
  std::uint64_t count = 0;
  while (!spec.empty() && spec[0] >= '0' && spec[0] <= '9') count = count * 10 + static_cast<std::uint64_t>(spec[0] - '0'), spec.remove_prefix(1);
  if (spec.empty()) {  // bytes in hex
    const std::uint64_t len = w.size() == 4 ? number(w[3], "x") : count ? count : 16;
    if (len > (1U << 20)) throw Error("x: at most 1 MiB");
    out << hex_dump(mem, offset, len);
    return;
  }
  if (w.size() == 4) throw Error("x/NF SPACE OFFSET: the count is N, not a length");
  if (count == 0) count = 1;
  if (count > 65536) throw Error("x: at most 65536 values");
  // A PTX type (x/8f16), else gdb's letters: format x d u f t and size b h w g.
  char letter = 'x';
  int size = 32;
  std::optional<ValueView> view;
  std::string s(spec);
  if (spec.size() <= 2 && std::all_of(spec.begin(), spec.end(), [](char ch) { return std::string_view("xduftbhwg").find(ch) != std::string_view::npos; })) {
    for (const char ch : spec) {
      if (std::string_view("xduft").find(ch) != std::string_view::npos) letter = ch;
      else size = ch == 'b' ? 8 : ch == 'h' ? 16 : ch == 'w' ? 32 : 64;
    }
    if (letter == 'd' || letter == 'u') view = parse_view(fmt::format("{}{}", letter == 'd' ? 's' : 'u', size), size);
    if (letter == 'f') {
      if (size == 8) throw Error("x/f: give a size h, w or g, or a type (x/4e4m3)");
      view = parse_view(fmt::format("f{}", size), size);
    }
  } else {
    const auto t = ptx::parse_ptx_type(s);
    size = t ? ptx::bits(*t) : 0;
    if (!t || size < 8) {
      // A format with a count (e4m3x4 is 32 bits): its container is the register it names.
      for (const int width : {8, 16, 32, 64}) {
        try {
          view = parse_view(s, width);
          size = width;
          break;
        } catch (const Error&) {
        }
      }
      if (!view) throw Error(fmt::format("x: '{}' is neither a format (x d u f t with b h w g) nor a type", s));
    } else {
      view = parse_view(s, size);
    }
    letter = 0;
  }
  const std::uint64_t step = static_cast<std::uint64_t>(size) / 8;
  const int per_line = size <= 16 ? 8 : 4;
  std::vector<std::uint8_t> bytes(count * step);
  mem.read(offset, bytes.data(), bytes.size());
  std::string line;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t v = 0;
    for (std::uint64_t b = 0; b < step; ++b) v |= static_cast<std::uint64_t>(bytes[i * step + b]) << (8 * b);
    if (i % static_cast<std::uint64_t>(per_line) == 0) {
      if (!line.empty()) out << line << "\n";
      line = fmt::format("{} {:#06x}:", mem.space(), offset + i * step);
    }
    line += "  " + (letter == 'x' ? hex_text(v, size) : letter == 't' ? binary_text(v, size) : typed_text(v, size, *view));
  }
  out << line << "\n";
}

void Debugger::regs(const std::vector<std::string>& w, std::ostream& out) {
  std::size_t n = w.size();
  const int warp = warp_arg(w, n);
  if (n > 2) throw Error("info registers [LANE] [warp W]");
  const auto lane = n == 2 ? static_cast<int>(number(w[1], "registers")) : 0;
  if (lane > 31) throw Error(fmt::format("lane {} is not 0..31", lane));
  out << fmt::format("{}lane {}\n", label(warp), lane) << view_.lines(*m_, warp * 32 + lane, cta());
}

void Debugger::mem(const std::vector<std::string>& w, std::ostream& out) {
  if (w.size() != 4) throw Error("mem SPACE OFFSET LENGTH");
  const Memory& m = memory(w[1]);
  const std::uint64_t len = number(w[3], "mem");
  if (len > (1U << 20)) throw Error("mem: at most 1 MiB");
  out << hex_dump(m, number(w[2], "mem"), len);
}

void Debugger::matrix(const std::vector<std::string>& w, std::ostream& out) {
  std::size_t n = w.size();
  const int warp = warp_arg(w, n);
  if (n < 2 || n > 3) throw Error("matrix A|B|C|D [LINE] [warp W]");
  const int pc = matrix_instruction(p_, n == 3 ? static_cast<int>(number(w[2], "matrix")) : 0);
  const int c = cta();
  const OperandMatrix om = operand_matrix(*m_, pc, w[1], warp, c);
  if (w[1] == "D") {
    // A wgmma has run for every warp of its warpgroup once one of them has stepped past it, or
    // when this warp waits at it released (the four arrived); an mma when this warp stepped past.
    const bool wgmma = p_.code[static_cast<std::size_t>(pc)].d.wgmma != nullptr;
    bool ran = ran_mma_.count({c, warp, pc}) > 0;
    if (wgmma) {
      for (int g = warp / 4 * 4; g < warp / 4 * 4 + 4 && g < m_->warps(); ++g) ran = ran || ran_mma_.count({c, g, pc}) > 0;
      const Machine::WarpState st = m_->warp_state(warp);
      ran = ran || (c == m_->running_cta() && st.pc == pc && st.is == Machine::WarpState::Is::ready);
    }
    if (!ran)
      out << fmt::format("note: the {} on line {} has not run yet in {}: D shows what its registers hold now\n",
                         wgmma ? "wgmma.mma_async" : "mma", p_.code[static_cast<std::size_t>(pc)].loc.line,
                         m_->warp_name(c, warp));
  }
  out << format_matrix(om);
}

void Debugger::list(const std::vector<std::string>& w, std::ostream& out) {
  int at = 0;
  if (w.size() == 2) {
    std::string note;
    at = is_number(w[1]) ? static_cast<int>(number(w[1], "list")) : location(w[1], note);
  } else if (const auto pos = m_->next()) {
    at = p_.code[static_cast<std::size_t>(pos->pc)].loc.line;
  }
  const int last = static_cast<int>(p_.lines.size());
  const int from = std::max(1, std::min(at, last) - 3), to = std::min(last, std::max(at, 1) + 3);
  const auto pos = m_->next();
  const int next_line = pos ? p_.code[static_cast<std::size_t>(pos->pc)].loc.line : 0;
  for (int l = from; l <= to; ++l)
    out << fmt::format("{}{:>5}  {}\n", l == next_line ? "=>" : "  ", l, p_.lines[static_cast<std::size_t>(l - 1)]);
}

// --- info ------------------------------------------------------------------------------------

void Debugger::info(const std::vector<std::string>& w, std::ostream& out) {
  if (w.size() < 2) throw Error("info registers|lanes|warps|ctas|barriers|tmem|breakpoints|watchpoints|display");
  const std::string what = w[1] == "r" || w[1] == "regs" ? "registers" : w[1] == "b" ? "breakpoints" : expand(w[1], info_names());
  if (what.empty())
    throw Error(fmt::format("info: unknown subject '{}' (registers, lanes, warps, ctas, barriers, tmem, breakpoints, "
                            "watchpoints, display){}",
                            w[1], did_you_mean(w[1], info_names())));
  std::vector<std::string> rest(w.begin() + 1, w.end());
  if (what == "registers") {
    if (rest.size() >= 2 && rest[1].starts_with('%')) print(rest, Format{}, out);
    else regs(rest, out);
  } else if (what == "lanes") {
    info_lanes(rest, out);
  } else if (what == "warps") {
    info_warps(out);
  } else if (what == "ctas") {
    info_ctas(out);
  } else if (what == "barriers") {
    info_barriers(out);
  } else if (what == "tmem") {
    // info tmem [LANES:COLUMNS]: the CTA's allocations, and the region's cells (default: none).
    if (rest.size() > 2) throw Error("info tmem [LANES:COLUMNS]");
    const TensorMemory& tm = m_->cta(cta()).tmem;
    if (rest.size() == 2) {
      out << tmem_dump(tm, parse_tmem_region(rest[1], "info tmem"));
    } else {
      std::string alloc;
      for (const TensorMemory::Allocation& a : tm.allocations())
        alloc += fmt::format("{}columns {}-{} (line {})", alloc.empty() ? "" : ", ", a.column, a.column + a.columns - 1,
                             p_.code[static_cast<std::size_t>(a.tag)].loc.line);
      out << fmt::format("tensor memory: {}{}\n", alloc.empty() ? "nothing allocated" : "allocated " + alloc,
                         tm.permit() ? "" : "; the allocation permit is relinquished");
    }
  } else if (what == "breakpoints") {
    info_points(out, false);
  } else if (what == "watchpoints") {
    info_points(out, true);
  } else {
    if (displays_.empty()) out << "no displays\n";
    for (const auto& d : displays_) out << fmt::format("{}: {}\n", d.first, d.second);
  }
}

void Debugger::info_points(std::ostream& out, bool watches) const {
  bool any = false;
  for (const Point& p : points_) {
    if ((p.kind != Point::Kind::line) != watches) continue;
    any = true;
    out << fmt::format("{} {} at {}{}\n", watches ? "watchpoint" : "breakpoint", p.id, point_text(p),
                       p.hits ? fmt::format(", hit {} time{}", p.hits, p.hits == 1 ? "" : "s") : "");
  }
  if (!any) out << (watches ? "no watchpoints\n" : "no breakpoints\n");
}

void Debugger::info_lanes(const std::vector<std::string>& w, std::ostream& out) {
  std::size_t n = w.size();
  const int warp = warp_arg(w, n);
  if (n > 1) throw Error("info lanes [warp W]");
  const int c = cta();
  const Machine::WarpState st = m_->warp_state(warp);
  const bool running = c == m_->running_cta() && !m_->finished();
  out << fmt::format("{}{}\n", label(warp), running && st.pc >= 0
                                                 ? fmt::format("at line {}", p_.code[static_cast<std::size_t>(st.pc)].loc.line)
                                                 : std::string("finished"));
  const Target tid = target("%tid");
  for (int lane = 0; lane < 32; ++lane) {
    const std::uint32_t bit = 1U << lane;
    const char* state = !running                ? "finished"
                        : (st.exited & bit)     ? "exited"
                        : (st.lanes & bit)      ? "active"
                        : st.is == Machine::WarpState::Is::finished ? "finished"
                                                : "inactive (on another path)";
    out << fmt::format("  lane {:>2}  %tid ({}, {}, {})  {}\n", lane, value_of(tid, c, warp * 32 + lane, 0),
                       value_of(tid, c, warp * 32 + lane, 1), value_of(tid, c, warp * 32 + lane, 2), state);
  }
}

void Debugger::info_warps(std::ostream& out) {
  const auto pos = m_->next();
  const int c = pos ? pos->cta : m_->running_cta();
  for (int w = 0; w < m_->warps(); ++w) {
    const Machine::WarpState st = m_->warp_state(w);
    const auto line = [this](int pc) { return p_.code[static_cast<std::size_t>(pc)].loc.line; };
    std::string what;
    switch (st.is) {
      case Machine::WarpState::Is::finished: what = "finished"; break;
      case Machine::WarpState::Is::ready: what = fmt::format("at line {}, lanes {:08x}", line(st.pc), st.lanes); break;
      case Machine::WarpState::Is::waiting:
        what = fmt::format("waits at line {} ({})", line(st.pc), p_.code[static_cast<std::size_t>(st.pc)].text);
        break;
      case Machine::WarpState::Is::parked:
        what = fmt::format("waits at line {} on the mbarrier at shared {:#x}", line(st.pc), st.mbarrier);
        break;
    }
    if (st.depth > 0) what += fmt::format(", {} call{} deep", st.depth, st.depth == 1 ? "" : "s");
    if (st.exited) what += fmt::format(", lanes {:08x} exited", st.exited);
    out << fmt::format("{} {}: {}\n", pos && pos->warp == w ? "*" : " ", m_->warp_name(c, w), what);
  }
}

void Debugger::info_ctas(std::ostream& out) {
  const int running = m_->running_cta();
  const bool done = m_->finished() || stopped_;
  for (int c = 0; c < m_->ctas(); ++c) {
    const Machine::CtaIs is = done ? Machine::CtaIs::finished : m_->cta_state(c);
    const std::string state = is == Machine::CtaIs::finished ? "finished"
                              : is == Machine::CtaIs::running ? "running"
                                                              : "not started";
    out << fmt::format("{} {}: {}\n", c == running && !done ? "*" : " ", m_->cta(c).name(), state);
  }
}

void Debugger::info_barriers(std::ostream& out) {
  (void)m_->next();
  bool any = false;
  const int c = m_->running_cta();
  for (int w = 0; w < m_->warps(); ++w) {
    const Machine::WarpState st = m_->warp_state(w);
    if (st.is == Machine::WarpState::Is::waiting) {
      const ptx::Instruction& ins = p_.code[static_cast<std::size_t>(st.pc)];
      out << fmt::format("{} waits at line {}: {}\n", m_->warp_name(c, w), ins.loc.line, p_.line_text(ins.loc.line));
      any = true;
    } else if (st.is == Machine::WarpState::Is::parked) {
      out << fmt::format("{} waits at line {} on the mbarrier at shared {:#x}: {}\n", m_->warp_name(c, w),
                         p_.code[static_cast<std::size_t>(st.pc)].loc.line, st.mbarrier,
                         Mbarrier::decode(m_->shared(c).load(st.mbarrier, 8)).describe());
      any = true;
    }
  }
  if (!any) out << "no warp waits at a barrier\n";
}

}  // namespace ptxmma::cli
