#include "isa/ptx_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <set>
#include <sstream>

#include "isa/contraction.hpp"
#include "isa/ptx_opcodes.hpp"
#include "sim/util/input_file.hpp"
#include "sim/util/suggest.hpp"
#include "sim/util/target.hpp"

namespace ptxmma::ptx {

// ---- Program helpers ---------------------------------------------------------------------------

namespace {
struct SpecialName {
  std::string_view name;
  Special s;
};
constexpr std::array<SpecialName, 36> kSpecials = {{
    {"%laneid", Special::laneid},       {"%warpid", Special::warpid},       {"%nwarpid", Special::nwarpid},
    {"%tid.x", Special::tid_x},         {"%tid.y", Special::tid_y},         {"%tid.z", Special::tid_z},
    {"%ntid.x", Special::ntid_x},       {"%ntid.y", Special::ntid_y},       {"%ntid.z", Special::ntid_z},
    {"%ctaid.x", Special::ctaid_x},     {"%ctaid.y", Special::ctaid_y},     {"%ctaid.z", Special::ctaid_z},
    {"%nctaid.x", Special::nctaid_x},   {"%nctaid.y", Special::nctaid_y},   {"%nctaid.z", Special::nctaid_z},
    {"%lanemask_eq", Special::lanemask_eq}, {"%lanemask_lt", Special::lanemask_lt},
    {"%lanemask_le", Special::lanemask_le}, {"%lanemask_gt", Special::lanemask_gt},
    {"%lanemask_ge", Special::lanemask_ge}, {"WARP_SZ", Special::warpsize},
    {"%clusterid.x", Special::clusterid_x}, {"%clusterid.y", Special::clusterid_y},
    {"%clusterid.z", Special::clusterid_z}, {"%nclusterid.x", Special::nclusterid_x},
    {"%nclusterid.y", Special::nclusterid_y}, {"%nclusterid.z", Special::nclusterid_z},
    {"%cluster_ctaid.x", Special::cluster_ctaid_x}, {"%cluster_ctaid.y", Special::cluster_ctaid_y},
    {"%cluster_ctaid.z", Special::cluster_ctaid_z}, {"%cluster_nctaid.x", Special::cluster_nctaid_x},
    {"%cluster_nctaid.y", Special::cluster_nctaid_y}, {"%cluster_nctaid.z", Special::cluster_nctaid_z},
    {"%cluster_ctarank", Special::cluster_ctarank}, {"%cluster_nctarank", Special::cluster_nctarank},
    {"%is_explicit_cluster", Special::is_explicit_cluster},
}};
}  // namespace

std::optional<Special> parse_special(std::string_view n) {
  for (const auto& s : kSpecials)
    if (s.name == n) return s.s;
  return std::nullopt;
}

std::string_view name(Special s) {
  for (const auto& x : kSpecials)
    if (x.s == s) return x.name;
  return "?";
}

std::string_view name(AtomOp op) {
  static constexpr std::string_view kNames[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"};
  return kNames[static_cast<std::size_t>(op)];
}

std::string_view name(TensormapField f) {
  static constexpr std::string_view kNames[] = {"global_address", "rank",          "box_dim",
                                                "global_dim",     "global_stride", "element_stride",
                                                "elemtype",       "interleave_layout", "swizzle_mode",
                                                "fill_mode"};
  return kNames[static_cast<std::size_t>(f)];
}

std::string_view name(Space s) {
  switch (s) {
    case Space::none: return "none";
    case Space::reg: return "reg";
    case Space::shared: return "shared";
    case Space::global: return "global";
    case Space::param: return "param";
    case Space::local: return "local";
    case Space::constant: return "const";
    case Space::generic: return "generic";
    case Space::shared_cluster: return "shared::cluster";
  }
  return "?";
}

int Program::find_register(std::string_view n) const {
  for (std::size_t i = 0; i < registers.size(); ++i)
    if (registers[i].name == n) return static_cast<int>(i);
  for (std::size_t i = 0; i < registers.size(); ++i)
    if (registers[i].source == n) return static_cast<int>(i);
  return -1;
}

const Variable* Program::find_param(std::string_view n) const {
  for (const Variable& v : params)
    if (v.name == n) return &v;
  return nullptr;
}

std::string_view Program::line_text(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > lines.size()) return {};
  const std::string_view s = lines[static_cast<std::size_t>(line - 1)];
  const std::size_t a = s.find_first_not_of(" \t");
  return a == std::string_view::npos ? std::string_view() : s.substr(a);
}

// ---- the parser ----------------------------------------------------------------------------------

namespace {

constexpr std::size_t kMaxErrors = 20;
constexpr long kMaxRegistersPerDecl = 65536;
constexpr std::size_t kMaxRegisters = 1 << 20;
constexpr int kMaxDepth = 256;
// Variables' bytes are allocated (initializers, zeroed .global): bound what a file can ask for.
constexpr std::uint64_t kMaxVariableBytes = 16ULL << 20;
constexpr std::uint64_t kGlobalBase = 0x7f0000000000ULL;  // module .global variables

struct StmtError {
  SourceLoc loc;
  std::string message;
};

struct Symbol {
  int reg = -1;               // a register
  std::vector<int> comps;     // a vector register: its components
  int param = -1;             // a call parameter: its index in Program::call_params
};

// Call parameters and .local variables live in a per-thread frame; bound it.
constexpr std::uint64_t kMaxFrameBytes = 64 * 1024;

std::uint64_t align_up(std::uint64_t x, std::uint64_t a) { return a <= 1 ? x : (x + a - 1) / a * a; }

class Parser {
 public:
  Parser(std::string_view text, std::string file, ParseOptions opts)
      : file_(std::move(file)), opts_(std::move(opts)) {
    toks_ = lex(text, file_);
    std::string line;
    std::istringstream in{std::string(text)};
    while (std::getline(in, line)) prog_.lines.push_back(line);
    prog_.file = file_;
    prog_.target = opts_.default_target;
  }

  Program run() {
    select_entry();
    while (!at(Tok::end)) {
      if (diags_.size() >= kMaxErrors) break;
      try {
        statement();
      } catch (const StmtError& e) {
        error(e.loc, e.message);
        recover();
      }
    }
    if (diags_.size() < kMaxErrors) finish();
    if (!diags_.empty()) {
      if (diags_.size() >= kMaxErrors) diags_.push_back({file_, diags_.back().loc, "too many errors; stopping"});
      throw PtxError(std::move(diags_));
    }
    return std::move(prog_);
  }

 private:
  // ---- tokens ----
  const Token& peek(std::size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  bool at(Tok k) const { return peek().kind == k; }
  bool at(Tok k, std::string_view s) const { return peek().kind == k && peek().text == s; }
  bool at_punct(char c) const { return at(Tok::punct, std::string_view(&c, 1)); }
  const Token& next() {
    const Token& t = peek();
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  [[noreturn]] void fail(SourceLoc at, std::string what) const { throw StmtError{at, std::move(what)}; }
  [[noreturn]] void fail_here(std::string what) const { fail(peek().loc, std::move(what)); }
  std::string describe(const Token& t) const {
    if (t.kind == Tok::end) return "end of file";
    if (t.kind == Tok::string) return fmt::format("\"{}\"", t.text);
    return fmt::format("'{}'", t.text);
  }
  void expect_punct(char c, std::string_view context) {
    if (!at_punct(c)) fail_here(fmt::format("expected '{}' {}, found {}", c, context, describe(peek())));
    next();
  }
  void error(SourceLoc at, std::string what) { diags_.push_back({file_, at, std::move(what)}); }
  // Skips to the end of the statement: past the next ';', or up to a brace.
  void recover() {
    while (!at(Tok::end)) {
      if (at_punct(';')) {
        next();
        return;
      }
      if (at_punct('{') || at_punct('}')) return;
      next();
    }
  }
  void skip_line(int line) {
    while (!at(Tok::end) && peek().loc.line == line) next();
  }
  std::uint64_t number(const Token& t, std::string_view what) const {
    std::uint64_t v = 0;
    std::string_view s = t.text;
    if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.remove_suffix(1);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s.remove_prefix(2);
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s.remove_prefix(2);
    else if (s.size() > 1 && s[0] == '0') base = 8, s.remove_prefix(1);
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (t.kind != Tok::number || ec != std::errc() || p != s.data() + s.size())
      fail(t.loc, fmt::format("expected {} (an integer), found {}", what, describe(t)));
    return v;
  }
  static bool is_float_text(std::string_view s) {
    if (s.size() > 1 && s[0] == '0' && std::string_view("fFdD").find(s[1]) != std::string_view::npos) return true;
    if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return false;
    return s.find_first_of(".eE") != std::string_view::npos;
  }

  // ---- scopes and declarations ----
  Symbol* lookup(const std::string& n) {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(n); f != it->end()) return &f->second;
    return nullptr;
  }
  // " (did you mean 'X'?)" for a misspelt register, X visible here; not for one that differs from
  // X only in its numbers (%r9 where %r<4> is declared: which one was meant cannot be guessed).
  [[nodiscard]] std::string suggest_register(const std::string& name) const {
    const auto letters = [](std::string_view n) {
      std::string out;
      for (const char c : n)
        if (c < '0' || c > '9') out += c;
      return out;
    };
    const std::string shape = letters(name);
    std::vector<std::string> names;
    for (const auto& scope : scopes_)
      for (const auto& [n, sym] : scope)
        if ((sym.reg >= 0 || !sym.comps.empty()) && letters(n) != shape) names.push_back(n);
    return did_you_mean(name, names);
  }
  int add_register(const std::string& source, PtxType t, SourceLoc loc) {
    if (prog_.registers.size() >= kMaxRegisters) fail(loc, "too many registers");
    auto& scope = scopes_.back();
    if (scope.count(source)) fail(loc, fmt::format("register '{}' is already declared in this scope", source));
    const int uses = ++name_uses_[source];
    RegisterDecl r;
    r.source = source;
    r.name = uses == 1 ? source : fmt::format("{}#{}", source, uses);
    r.type = t;
    r.loc = loc;
    prog_.registers.push_back(std::move(r));
    const int idx = static_cast<int>(prog_.registers.size() - 1);
    scope[source] = Symbol{idx, {}};
    return idx;
  }

  void select_entry() {
    std::vector<std::string> entries;
    std::map<std::string, SourceLoc> first;
    for (std::size_t k = 0; k + 1 < toks_.size(); ++k)
      if (toks_[k].kind == Tok::dotted && toks_[k].text == ".entry" && toks_[k + 1].kind == Tok::ident) {
        const Token& n = toks_[k + 1];
        // Both bodies would run under one name.
        if (const auto [at, fresh] = first.emplace(n.text, n.loc); !fresh)
          throw PtxError({Diagnostic{file_, n.loc, fmt::format("kernel '{}' is already defined at line {}", n.text,
                                                               at->second.line)}});
        entries.push_back(n.text);
      }
    if (!opts_.entry.empty()) {
      if (std::find(entries.begin(), entries.end(), opts_.entry) == entries.end()) {
        std::string list;
        for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
        const bool given = !opts_.entry_file.empty();
        throw PtxError({Diagnostic{given ? opts_.entry_file : file_, given ? opts_.entry_loc : SourceLoc{1, 1},
                                   fmt::format("no kernel '{}' in {} (kernels: {})", opts_.entry,
                                               given ? file_ : "the file", list.empty() ? "none" : list)}});
      }
      chosen_ = opts_.entry;
    } else if (entries.size() > 1) {
      std::string list;
      for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
      throw PtxError({Diagnostic{file_, {1, 1}, fmt::format("the file has {} kernels ({}); choose one with --entry",
                                                            entries.size(), list)}});
    } else if (entries.size() == 1) {
      chosen_ = entries[0];
    }
  }

  // ---- statements ----
  void statement() {
    const Token& t = peek();
    if (t.kind == Tok::punct && t.text == ";") {
      next();
      return;
    }
    if (t.kind == Tok::punct && t.text == "{") {
      body_code(t.loc);
      next();
      if (static_cast<int>(scopes_.size()) >= kMaxDepth) fail(t.loc, "blocks nested too deeply");
      push_scope();
      block_opens_.push_back(t.loc);
      return;
    }
    if (t.kind == Tok::punct && t.text == "}") {
      next();
      if (block_opens_.empty()) {
        if (in_kernel_) {
          end_kernel();
          return;
        }
        fail(t.loc, "unmatched '}'");
      }
      block_opens_.pop_back();
      pop_scope();
      return;
    }
    if (t.kind == Tok::dotted) {
      directive();
      return;
    }
    if (t.kind == Tok::ident && peek(1).kind == Tok::punct && peek(1).text == ":") {
      body_code(t.loc);
      label();
      return;
    }
    if (t.kind == Tok::ident || (t.kind == Tok::punct && t.text == "@")) {
      body_code(t.loc);
      instruction();
      return;
    }
    fail(t.loc, fmt::format("expected a directive, a label or an instruction, found {}", describe(t)));
  }

  // Code (labels, instructions, .reg) outside a kernel makes the file a bare snippet.
  void body_code(SourceLoc loc) {
    if (in_kernel_) return;
    if (kernel_done_) fail(loc, "instructions outside the kernel (a file is either one kernel or a bare snippet)");
    if (!prog_.functions.empty())
      fail(loc, "instructions outside a body in a file with .func (put them in a kernel, .entry)");
    prog_.bare = true;
  }

  void directive() {
    const Token& t = next();
    const std::string& d = t.text;
    if (d == ".version") {
      const Token& v = next();
      if (v.kind != Tok::number) fail(v.loc, fmt::format("expected a version number after .version, found {}", describe(v)));
      prog_.version = v.text;
      return;
    }
    if (d == ".target") {
      outer_only(t, d);
      const Token& v = next();
      if (v.kind != Tok::ident) fail(v.loc, fmt::format("expected a target (e.g. sm_90a) after .target, found {}", describe(v)));
      if (!target_rank(v.text)) fail(v.loc, unknown_target(v.text));
      prog_.target = v.text;
      while (at_punct(',')) {
        next();
        const Token& o = next();
        if (o.kind != Tok::ident) fail(o.loc, fmt::format("expected a target option after ',', found {}", describe(o)));
      }
      return;
    }
    if (d == ".address_size") {
      outer_only(t, d);
      const Token& v = next();
      const std::uint64_t n = number(v, "the address size");
      if (n != 32 && n != 64) fail(v.loc, fmt::format(".address_size must be 32 or 64, not {}", v.text));
      prog_.address_size = static_cast<int>(n);
      return;
    }
    if (d == ".file" || d == ".loc" || d == ".section") {
      if (d == ".section") {
        skip_line(t.loc.line);
        if (at_punct('{')) skip_braces();
        return;
      }
      skip_line(t.loc.line);
      return;
    }
    if (d == ".pragma") {
      while (!at(Tok::end) && !at_punct(';')) next();
      expect_punct(';', "after .pragma");
      return;
    }
    if (d == ".visible" || d == ".weak" || d == ".extern") {
      outer_only(t, d);
      if (at(Tok::dotted, ".entry")) return;  // the next statement is the entry
      if (at(Tok::dotted, ".func")) {
        extern_next_ = d == ".extern";
        return;
      }
      variable(d == ".extern");
      return;
    }
    if (d == ".entry") {
      outer_only(t, d);
      entry(t);
      return;
    }
    if (d == ".func") {
      outer_only(t, d);
      function(t);
      return;
    }
    if (d == ".param") {
      call_param_decl(t);
      return;
    }
    if (d == ".reg") {
      body_code(t.loc);
      reg_decl(t);
      return;
    }
    if (d == ".shared" || d == ".global" || d == ".const" || d == ".local") {
      --pos_;
      variable(false);
      return;
    }
    if (d == ".maxntid" || d == ".reqntid" || d == ".minnctapersm" || d == ".maxnctapersm" || d == ".maxnreg" ||
        d == ".noreturn")
      fail(t.loc, fmt::format("'{}' belongs between the kernel's parameters and its body", d));
    fail(t.loc, fmt::format("unknown directive '{}'", d));
  }

  void outer_only(const Token& t, const std::string& d) {
    if (in_kernel_ || !block_opens_.empty()) fail(t.loc, fmt::format("'{}' is not allowed inside a kernel or block", d));
  }

  void skip_braces() {
    // Skips a balanced { ... } (iteratively).
    long depth = 0;
    do {
      if (at(Tok::end)) fail_here("unterminated '{'");
      const Token& x = next();
      if (x.kind == Tok::punct && x.text == "{") ++depth;
      if (x.kind == Tok::punct && x.text == "}") --depth;
    } while (depth > 0);
  }

  // .reg [.vN] .type name[<N>] {, name[<N>]} ;
  void reg_decl(const Token& t) {
    int vec = 1;
    if (at(Tok::dotted) && (peek().text == ".v2" || peek().text == ".v4" || peek().text == ".v8")) {
      vec = peek().text[2] - '0';
      next();
    }
    const Token& ty = next();
    const auto type = ty.kind == Tok::dotted ? parse_ptx_type(ty.text) : std::nullopt;
    if (!type) fail(ty.loc, fmt::format("expected a register type after .reg (e.g. .b32), found {}", describe(ty)));
    if (!declarable(*type))
      fail(ty.loc, fmt::format("'{}' is not a register type (.pred, .b8-.b64, .u/.s8-64, .f16, .f16x2, .bf16, .bf16x2, .f32, .f64)", ty.text));
    if (vec > 1 && *type == PtxType::pred) fail(ty.loc, "predicate registers cannot be vectors");
    if (vec == 8) fail(ty.loc, ".v8 registers are not supported");
    (void)t;
    for (;;) {
      const Token& n = next();
      if (n.kind != Tok::ident) fail(n.loc, fmt::format("expected a register name, found {}", describe(n)));
      if (parse_special(n.text) || n.text == "%tid" || n.text == "%ntid" || n.text == "%ctaid" || n.text == "%nctaid")
        fail(n.loc, fmt::format("'{}' is a special register", n.text));
      long range = -1;
      if (at_punct('<') && !peek().space_before) {
        next();
        const Token& c = next();
        const std::uint64_t k = number(c, "a register count");
        if (k > static_cast<std::uint64_t>(kMaxRegistersPerDecl))
          fail(c.loc, fmt::format("too many registers in one declaration ({}; at most {})", c.text, kMaxRegistersPerDecl));
        range = static_cast<long>(k);
        expect_punct('>', "after the register count");
      }
      const auto declare = [&](const std::string& nm) {
        if (vec == 1) {
          add_register(nm, *type, n.loc);
          return;
        }
        static constexpr std::array<const char*, 4> kComp = {"x", "y", "z", "w"};
        auto& scope = scopes_.back();
        if (scope.count(nm)) fail(n.loc, fmt::format("register '{}' is already declared in this scope", nm));
        Symbol s;
        for (int c = 0; c < vec; ++c) s.comps.push_back(add_register(nm + "." + kComp[static_cast<std::size_t>(c)], *type, n.loc));
        scope[nm] = s;
      };
      if (range < 0) {
        declare(n.text);
      } else {
        for (long k = 0; k < range; ++k) declare(n.text + std::to_string(k));
      }
      if (at_punct(',')) {
        next();
        continue;
      }
      break;
    }
    expect_punct(';', "after the register declaration");
  }

  // [.visible|.extern|...] .shared|.global|.const|.local [.align N] [.vN] .type name[dims] [= init] {, ...} ;
  void variable(bool external) {
    const Token& sp = next();
    Space space;
    if (sp.text == ".shared") space = Space::shared;
    else if (sp.text == ".global") space = Space::global;
    else if (sp.text == ".const") space = Space::constant;
    else if (sp.text == ".local") {
      if (!in_kernel_) fail(sp.loc, ".local variables belong in a kernel or function body");
      space = Space::local;
    }
    else fail(sp.loc, fmt::format("expected .shared, .global or .const, found {}", describe(sp)));
    int align = 0, vec = 1;
    std::optional<PtxType> type;
    while (at(Tok::dotted)) {
      const Token& q = next();
      if (q.text == ".align") {
        const Token& a = next();
        const std::uint64_t v = number(a, "an alignment");
        if (v == 0 || (v & (v - 1)) != 0 || v > 4096) fail(a.loc, fmt::format("alignment {} is not a power of two up to 4096", a.text));
        align = static_cast<int>(v);
      } else if (q.text == ".v2" || q.text == ".v4") {
        vec = q.text[2] - '0';
      } else if (auto ty = parse_ptx_type(q.text); ty && declarable(*ty) && *ty != PtxType::pred) {
        type = ty;
      } else {
        fail(q.loc, fmt::format("unexpected '{}' in a {} declaration", q.text, sp.text));
      }
    }
    if (!type) fail_here(fmt::format("expected a type in the {} declaration, found {}", sp.text, describe(peek())));
    const std::uint64_t esize = static_cast<std::uint64_t>(bits(*type) / 8 * vec);
    if (align == 0) align = static_cast<int>(esize);
    if (align < static_cast<int>(esize) && vec == 1) {}  // under-aligned variables are allowed
    for (;;) {
      const Token& n = next();
      if (n.kind != Tok::ident) fail(n.loc, fmt::format("expected a variable name, found {}", describe(n)));
      for (const Variable& v : prog_.variables)
        if (v.name == n.text) fail(n.loc, fmt::format("variable '{}' is already declared", n.text));
      Variable v;
      v.name = n.text;
      v.space = space;
      v.type = *type;
      v.align = align;
      v.loc = n.loc;
      std::uint64_t count = 1;
      bool open = false;
      while (at_punct('[')) {
        next();
        if (at_punct(']')) {
          open = true;
          next();
          continue;
        }
        const Token& c = next();
        const std::uint64_t k = number(c, "an array size");
        if (k == 0 || k > kMaxVariableBytes) fail(c.loc, fmt::format("array size {} is out of range", c.text));
        count *= k;
        if (variable_bytes_ + count * esize > kMaxVariableBytes)
          fail(c.loc, fmt::format("the variables need more than {} bytes (16 MiB), the simulator's limit",
                                  kMaxVariableBytes));
        expect_punct(']', "after the array size");
      }
      if (open && !(external && space == Space::shared))
        fail(n.loc, fmt::format("'{}[]' without a size is allowed only for .extern .shared", n.text));
      v.external = open;
      v.size = open ? 0 : count * esize;
      variable_bytes_ += v.size;
      if (at_punct('=')) {
        const Token& eq = next();
        if (space == Space::shared || space == Space::local)
          fail(eq.loc, fmt::format("{} variables cannot have initializers", sp.text));
        initializer(v, esize / static_cast<std::uint64_t>(vec), count * static_cast<std::uint64_t>(vec));
      }
      place(v);
      prog_.variables.push_back(std::move(v));
      if (at_punct(',')) {
        next();
        continue;
      }
      break;
    }
    expect_punct(';', fmt::format("after the {} declaration", sp.text));
  }

  void place(Variable& v) {
    if (v.space == Space::shared) {
      v.address = align_up(prog_.shared_static_bytes, static_cast<std::uint64_t>(v.align));
      if (!v.external) prog_.shared_static_bytes = v.address + v.size;
    } else if (v.space == Space::local) {
      v.address = align_up(prog_.local_bytes, static_cast<std::uint64_t>(v.align));
      prog_.local_bytes = v.address + v.size;
      if (prog_.local_bytes + prog_.call_param_bytes > kMaxFrameBytes)
        fail(v.loc, fmt::format("the .local variables and call parameters need more than {} bytes a thread, the "
                                "simulator's limit", kMaxFrameBytes));
    } else if (v.space == Space::global) {
      v.address = align_up(global_end_, static_cast<std::uint64_t>(v.align));
      global_end_ = v.address + v.size;
    } else {
      v.address = align_up(const_end_, static_cast<std::uint64_t>(v.align));
      const_end_ = v.address + v.size;
    }
  }

  // = value | = { v, v, ... } (nested braces are flattened)
  void initializer(Variable& v, std::uint64_t esize, std::uint64_t count) {
    int depth = 0;
    std::uint64_t n = 0;
    Instruction fake;
    fake.text = v.name + " initializer";
    for (;;) {
      if (at_punct('{')) {
        next();
        if (++depth > kMaxDepth) fail_here("initializer nested too deeply");
        continue;
      }
      if (at_punct('}')) {
        if (depth == 0) fail_here("unmatched '}' in the initializer");
        next();
        --depth;
        if (depth == 0) break;
        if (at_punct(',')) next();
        continue;
      }
      Operand op;
      op.loc = peek().loc;
      bool neg = false;
      if (at_punct('-')) {
        neg = true;
        next();
      }
      const Token& x = next();
      if (x.kind != Tok::number) fail(x.loc, fmt::format("expected a constant in the initializer, found {}", describe(x)));
      op.kind = Operand::Kind::imm;
      op.text = (neg ? "-" : "") + x.text;
      op.imm_float = is_float_text(x.text);
      if (!op.imm_float) op.value = neg ? 0 - number(x, "a constant") : number(x, "a constant");
      try {
        decode::coerce_imm(fake, op, v.type, "a value");
      } catch (const DecodeError& e) {
        fail(e.loc, e.message);
      }
      if (++n > count) fail(op.loc, fmt::format("too many values for '{}' ({} elements)", v.name, count));
      for (std::uint64_t b = 0; b < esize; ++b) v.init.push_back(static_cast<std::uint8_t>(op.value >> (8 * b)));
      if (depth == 0) break;
      if (at_punct(',')) next();
    }
    v.init.resize(static_cast<std::size_t>(count * esize), 0);
  }

  // After `.param`: [.align N] [.ptr ...] .type name [ '[' N ']' ] (the address is the caller's).
  Variable param_spec() {
    Variable v;
    v.space = Space::param;
    int align = 0;
    std::optional<PtxType> type;
    while (at(Tok::dotted)) {
      const Token& q = next();
      if (q.text == ".align") {
        align = static_cast<int>(number(next(), "an alignment"));
      } else if (q.text == ".ptr" || q.text == ".global" || q.text == ".shared" || q.text == ".const" ||
                 q.text == ".local") {
      } else if (auto ty = parse_ptx_type(q.text); ty && declarable(*ty) && *ty != PtxType::pred) {
        type = ty;
      } else {
        fail(q.loc, fmt::format("unexpected '{}' in a parameter", q.text));
      }
    }
    if (!type) fail_here(fmt::format("expected the parameter's type, found {}", describe(peek())));
    const Token& pn = next();
    if (pn.kind != Tok::ident) fail(pn.loc, fmt::format("expected the parameter's name, found {}", describe(pn)));
    std::uint64_t count = 1;
    if (at_punct('[')) {
      next();
      count = number(next(), "an array size");
      if (count == 0 || count > 4096) fail(pn.loc, "parameter array size out of range");
      expect_punct(']', "after the array size");
    }
    const std::uint64_t es = static_cast<std::uint64_t>(bits(*type) / 8);
    if (align == 0) align = static_cast<int>(es);
    if (align <= 0 || (align & (align - 1)) != 0 || align > 4096)
      fail(pn.loc, fmt::format("alignment {} is not a power of two up to 4096", align));
    v.name = pn.text;
    v.type = *type;
    v.align = align;
    v.size = es * count;
    v.loc = pn.loc;
    return v;
  }

  // A call parameter in the per-thread frame; returns its index in Program::call_params.
  int add_call_param(Variable v) {
    const std::uint64_t off = align_up(prog_.call_param_bytes, static_cast<std::uint64_t>(v.align));
    if (off + v.size + prog_.local_bytes > kMaxFrameBytes)
      fail(v.loc, fmt::format("the call parameters and .local variables need more than {} bytes a thread, the "
                              "simulator's limit", kMaxFrameBytes));
    v.address = Program::kCallParamBase + off;
    prog_.call_param_bytes = off + v.size;
    prog_.call_params.push_back(std::move(v));
    return static_cast<int>(prog_.call_params.size() - 1);
  }
  void scope_param(int index) {
    const Variable& v = prog_.call_params[static_cast<std::size_t>(index)];
    auto& scope = scopes_.back();
    if (scope.count(v.name)) fail(v.loc, fmt::format("'{}' is already declared in this scope", v.name));
    scope[v.name] = Symbol{-1, {}, index};
  }

  // .param declarations of a call site, in a body: .param [.align N] .type name[N] {, ...} ;
  void call_param_decl(const Token& t) {
    if (!in_kernel_) fail(t.loc, "'.param' outside a kernel or function body");
    for (;;) {
      scope_param(add_call_param(param_spec()));
      if (!at_punct(',')) break;
      next();
      if (at(Tok::dotted, ".param")) next();
    }
    expect_punct(';', "after the .param declaration");
  }

  // ( .param ... {, .param ...} ) of a .func: its return parameters or its parameters.
  std::vector<Variable> param_list() {
    std::vector<Variable> out;
    next();  // '('
    while (!at_punct(')')) {
      if (!out.empty()) expect_punct(',', "between parameters");
      const Token& p = next();
      if (p.kind != Tok::dotted || p.text != ".param")
        fail(p.loc, fmt::format("expected .param, found {} (.reg parameters are not supported)", describe(p)));
      out.push_back(param_spec());
    }
    next();
    return out;
  }

  // [.extern|.visible|.weak] .func [(returns)] name [(params)] [.noreturn] ( ; | { body } )
  void function(const Token& t) {
    const bool ext = extern_next_;
    extern_next_ = false;
    if (prog_.bare) fail(t.loc, "a .func in a bare snippet (put the instructions in a kernel, .entry)");
    std::vector<Variable> rets, params;
    if (at_punct('(')) rets = param_list();
    const Token& n = next();
    if (n.kind != Tok::ident) fail(n.loc, fmt::format("expected the function's name after .func, found {}", describe(n)));
    if (at_punct('(')) params = param_list();
    while (at(Tok::dotted)) {
      const Token& d = next();
      if (d.text == ".pragma") {
        while (!at(Tok::end) && !at_punct(';')) next();
        expect_punct(';', "after .pragma");
        if (at_punct(';')) break;
      } else if (d.text != ".noreturn") {
        fail(d.loc, fmt::format("unexpected '{}' in the declaration of '{}'", d.text, n.text));
      }
    }
    int idx = -1;
    for (std::size_t k = 0; k < prog_.functions.size(); ++k)
      if (prog_.functions[k].name == n.text) idx = static_cast<int>(k);
    const bool fresh = idx < 0;
    if (fresh) {
      prog_.functions.push_back(Function{n.text, n.loc, false, 0, 0, {}, {}});
      idx = static_cast<int>(prog_.functions.size() - 1);
    } else {
      const Function& f = prog_.functions[static_cast<std::size_t>(idx)];
      if (f.params.size() != params.size() || f.returns.size() != rets.size())
        fail(n.loc, fmt::format("'{}' is declared at line {} with {} parameters and {} return values; here with {} "
                                "and {}",
                                n.text, f.loc.line, f.params.size(), f.returns.size(), params.size(), rets.size()));
    }
    const bool body = at_punct('{');
    if (!body) {
      expect_punct(';', fmt::format("or '{{' after the declaration of '{}'", n.text));
    } else {
      if (ext) fail(n.loc, fmt::format("'{}' is .extern: it has no body here", n.text));
      if (prog_.functions[static_cast<std::size_t>(idx)].defined)
        fail(n.loc, fmt::format("function '{}' is already defined at line {}", n.text,
                                prog_.functions[static_cast<std::size_t>(idx)].loc.line));
    }
    // The parameters are those of the definition (its body names them), or of the first declaration.
    if (body || fresh) {
      std::vector<int> pi, ri;
      for (Variable& v : params) pi.push_back(add_call_param(std::move(v)));
      for (Variable& v : rets) ri.push_back(add_call_param(std::move(v)));
      Function& f = prog_.functions[static_cast<std::size_t>(idx)];
      f.params = std::move(pi);
      f.returns = std::move(ri);
    }
    if (!body) return;
    next();  // '{'
    Function& f = prog_.functions[static_cast<std::size_t>(idx)];
    f.loc = n.loc;
    f.defined = true;
    f.begin = static_cast<int>(prog_.code.size());
    in_kernel_ = true;
    cur_function_ = idx;
    push_scope();
    for (const int k : f.returns) scope_param(k);
    for (const int k : f.params) scope_param(k);
  }

  // .entry name ( params ) [performance directives] { body }
  void entry(const Token& t) {
    const Token& n = next();
    if (n.kind != Tok::ident) fail(n.loc, fmt::format("expected the kernel name after .entry, found {}", describe(n)));
    if (prog_.bare) fail(t.loc, "a kernel (.entry) after bare instructions (a file is either one kernel or a bare snippet)");
    const bool take = n.text == chosen_;
    std::vector<Variable> params;
    if (at_punct('(')) {
      next();
      std::uint64_t offset = 0;
      while (!at_punct(')')) {
        if (!params.empty()) expect_punct(',', "between parameters");
        const Token& p = next();
        if (p.kind != Tok::dotted || p.text != ".param")
          fail(p.loc, fmt::format("expected .param, found {}", describe(p)));
        Variable v = param_spec();
        v.address = offset = align_up(offset, static_cast<std::uint64_t>(v.align));
        offset += v.size;
        params.push_back(std::move(v));
      }
      next();
    }
    int ntid[3] = {0, 0, 0}, ncta[3] = {0, 0, 0}, maxcluster = 0;
    bool explicit_cluster = false;
    while (at(Tok::dotted)) {
      const Token& d = next();
      if (d.text == ".maxntid" || d.text == ".reqntid") {
        std::uint64_t threads = 1;
        for (int k = 0; k < 3; ++k) {
          const Token& c = next();
          const std::uint64_t v = number(c, "a thread count");
          threads *= std::min<std::uint64_t>(v, 1025);
          if (v == 0) fail(c.loc, fmt::format("{} of 0 threads; a block has 1 to 1024", d.text));
          if (threads > 1024) fail(c.loc, fmt::format("{} of more than 1024 threads; a block has 1 to 1024", d.text));
          ntid[k] = static_cast<int>(v);
          if (!at_punct(',')) break;
          next();
        }
      } else if (d.text == ".minnctapersm" || d.text == ".maxnctapersm" || d.text == ".maxnreg") {
        (void)number(next(), "a number");
      } else if (d.text == ".maxclusterrank") {
        const Token& c = next();
        const std::uint64_t v = number(c, "a cluster size");
        if (v == 0 || v > 16) fail(c.loc, fmt::format(".maxclusterrank {}; a cluster has 1 to 16 CTAs", v));
        maxcluster = static_cast<int>(v);
      } else if (d.text == ".reqnctapercluster") {
        std::uint64_t ctas = 1;
        for (int k = 0; k < 3; ++k) {
          const Token& c = next();
          const std::uint64_t v = number(c, "a CTA count");
          ctas *= std::min<std::uint64_t>(v, 17);
          if (v == 0 || ctas > 16)
            fail(c.loc, fmt::format(".reqnctapercluster of {} CTAs; a cluster has 1 to 16", v == 0 ? 0 : ctas));
          ncta[k] = static_cast<int>(v);
          if (!at_punct(',')) break;
          next();
        }
        for (int& v : ncta) v = std::max(v, 1);
        explicit_cluster = true;
      } else if (d.text == ".explicitcluster") {
        explicit_cluster = true;
      } else if (d.text == ".noreturn") {
      } else if (d.text == ".pragma") {
        while (!at(Tok::end) && !at_punct(';')) next();
        expect_punct(';', "after .pragma");
      } else {
        fail(d.loc, fmt::format("unexpected '{}' before the kernel body", d.text));
      }
    }
    if (!at_punct('{')) fail_here(fmt::format("expected '{{' to start the body of '{}', found {}", n.text, describe(peek())));
    if (!take) {
      skip_braces();
      return;
    }
    next();
    prog_.entry = n.text;
    prog_.entry_begin = static_cast<int>(prog_.code.size());
    prog_.params = std::move(params);
    for (int k = 0; k < 3; ++k) prog_.reqntid[k] = ntid[k];
    for (int k = 0; k < 3; ++k) prog_.reqnctapercluster[k] = ncta[k];
    prog_.maxclusterrank = maxcluster;
    prog_.explicit_cluster = explicit_cluster;
    in_kernel_ = true;
    push_scope();
  }

  void end_kernel() {
    in_kernel_ = false;
    pop_scope();
    if (cur_function_ >= 0) {
      prog_.functions[static_cast<std::size_t>(cur_function_)].end = static_cast<int>(prog_.code.size());
      cur_function_ = -1;
    } else {
      kernel_done_ = true;
      prog_.entry_end = static_cast<int>(prog_.code.size());
    }
    resolve_labels();
  }

  // Labels are scoped to their { } block, as registers are: inline-asm blocks may each define
  // the same label. A branch goes to the label of its own block or of the nearest enclosing one.
  void push_scope() {
    scopes_.emplace_back();
    block_parent_.push_back(blocks_.back());
    blocks_.push_back(static_cast<int>(block_parent_.size()) - 1);
  }
  void pop_scope() {
    scopes_.pop_back();
    blocks_.pop_back();
  }

  void label() {
    const Token& n = next();
    next();  // ':'
    const int pc = static_cast<int>(prog_.code.size());
    if (!block_labels_.emplace(std::pair(blocks_.back(), n.text), pc).second)
      fail(n.loc, fmt::format("label '{}' is already defined in this block", n.text));
    if (lookup(n.text)) fail(n.loc, fmt::format("'{}' is a register, not a label", n.text));
    // Program::labels names each once: the k-th label of a name gets "name#k" ('#' is no
    // identifier character, so no label of the source has that name). Counted, not searched: a
    // search from "name#2" on was quadratic in the copies (thousands of inline-asm blocks).
    const int k = ++label_copies_[n.text];
    prog_.labels[k == 1 ? n.text : fmt::format("{}#{}", n.text, k)] = pc;
  }

  // ---- instructions ----
  void instruction() {
    Instruction ins;
    if (at_punct('@')) {
      next();
      bool neg = false;
      if (at_punct('!')) {
        neg = true;
        next();
      }
      const Token& g = next();
      if (g.kind != Tok::ident) fail(g.loc, fmt::format("expected a predicate register after '@', found {}", describe(g)));
      const Symbol* s = lookup(g.text);
      if (!s || s->reg < 0)
        fail(g.loc, fmt::format("register '{}' is not declared{}", g.text, suggest_register(g.text)));
      const RegisterDecl& r = prog_.registers[static_cast<std::size_t>(s->reg)];
      if (r.type != PtxType::pred)
        fail(g.loc, fmt::format("type mismatch: the guard {} is declared .{}; a guard must be a .pred register", g.text, name(r.type)));
      ins.guard = s->reg;
      ins.guard_negated = neg;
    }
    const Token& op = next();
    if (op.kind != Tok::ident) fail(op.loc, fmt::format("expected an instruction, found {}", describe(op)));
    ins.loc = op.loc;
    ins.opcode = op.text;
    ins.text = op.text;
    while (at(Tok::dotted) && !peek().space_before) {
      const Token& q = next();
      ins.text += q.text;
      ins.quals.push_back(q.text.substr(1));
    }
    const int family = find_opcode(ins.opcode);
    if (family < 0) fail(op.loc, fmt::format("unknown instruction '{}'{}", ins.text, suggestion(form_like(ins.text, ins.opcode))));
    ins.family = family;
    if (ins.opcode == "call") {
      call_operands(ins);
    } else if (!at_punct(';')) {
      for (;;) {
        ins.ops.push_back(operand());
        if (at_punct(',')) {
          next();
          continue;
        }
        break;
      }
    }
    if (!at_punct(';')) fail_here(fmt::format("expected ',' or ';' after an operand of '{}', found {}", ins.text, describe(peek())));
    next();
    try {
      opcode_table()[static_cast<std::size_t>(family)].decode(ins, DecodeContext{prog_, prog_.target});
    } catch (const DecodeError& e) {
      error(e.loc, e.message + suggest_form(ins));
      return;
    }
    prog_.code.push_back(std::move(ins));
  }

  // call{.uni} [(rets),] name [, (args)]: ops[0] the return parameters, ops[1] the function's
  // name (resolved when the file ends), ops[2] the arguments; vectors, possibly empty.
  void call_operands(Instruction& ins) {
    const auto list = [&] {
      Operand v;
      v.kind = Operand::Kind::vec;
      v.loc = next().loc;  // '('
      v.text = "(...)";
      while (!at_punct(')')) {
        if (!v.elems.empty()) expect_punct(',', "between call parameters");
        v.elems.push_back(simple());
        if (v.elems.size() > 4096) fail(v.loc, "too many call parameters");
      }
      next();
      return v;
    };
    Operand rets, args;
    rets.kind = args.kind = Operand::Kind::vec;
    rets.loc = args.loc = peek().loc;
    if (at_punct('(')) {
      rets = list();
      expect_punct(',', "after the return parameters of call");
    }
    const Token& fn = next();
    if (fn.kind != Tok::ident) fail(fn.loc, fmt::format("expected the function to call, found {}", describe(fn)));
    Operand f;
    f.kind = Operand::Kind::symbol;
    f.loc = fn.loc;
    f.text = fn.text;
    if (at_punct(',')) {
      next();
      if (!at_punct('(')) fail_here(fmt::format("expected '(' and the arguments of the call, found {}", describe(peek())));
      args = list();
      if (at_punct(','))
        fail_here("indirect calls (through a register, with a prototype or a target list) are not supported");
    }
    ins.ops = {std::move(rets), std::move(f), std::move(args)};
  }

  Operand operand() {
    if (at_punct('{')) {
      Operand v;
      v.kind = Operand::Kind::vec;
      v.loc = next().loc;
      v.text = "{...}";
      if (at_punct('}')) fail_here("empty vector '{}'");
      for (;;) {
        v.elems.push_back(simple());
        if (v.elems.size() > 256) fail(v.loc, "vector operand too long");
        if (at_punct(',')) {
          next();
          continue;
        }
        break;
      }
      expect_punct('}', "to close the vector operand");
      return v;
    }
    if (at_punct('[')) {
      Operand a;
      a.kind = Operand::Kind::addr;
      a.loc = next().loc;
      a.text = "[...]";
      if (at(Tok::number)) {
        a.value = number(next(), "an address");
      } else {
        Operand base = simple();
        if (base.kind != Operand::Kind::reg && base.kind != Operand::Kind::symbol)
          fail(base.loc, fmt::format("an address is [register], [symbol] or [constant] with an optional offset, not '{}'", base.text));
        a.elems.push_back(std::move(base));
        if (at_punct('+') || at_punct('-')) {
          bool neg = next().text == "-";
          if (at_punct('-')) {
            neg = !neg;
            next();
          }
          const std::uint64_t off = number(next(), "an offset");
          a.value = neg ? 0 - off : off;
        }
        // [tensor-map, {c0, ...}]: cp.async.bulk.tensor's map and coordinates (elems[1]).
        if (at_punct(',')) {
          next();
          if (!at_punct('{')) fail_here(fmt::format("expected the coordinates {{...}} after ',', found {}", describe(peek())));
          a.elems.push_back(operand());
        }
      }
      expect_punct(']', "to close the address");
      return a;
    }
    Operand s = simple();
    if (at_punct('|')) {
      next();
      Operand pair;
      pair.kind = Operand::Kind::vec;
      pair.text = "|";
      pair.loc = s.loc;
      pair.elems.push_back(std::move(s));
      pair.elems.push_back(simple());
      return pair;
    }
    return s;
  }

  Operand simple() {
    Operand o;
    o.loc = peek().loc;
    if (at_punct('_')) {
      next();
      o.kind = Operand::Kind::sink;
      o.text = "_";
      return o;
    }
    if (at_punct('!')) {
      next();
      Operand p = simple();
      if (p.kind != Operand::Kind::reg) fail(p.loc, fmt::format("'!' applies only to predicate registers, not '{}'", p.text));
      p.negated = true;
      p.loc = o.loc;
      return p;
    }
    bool neg = false;
    if (at_punct('-')) {
      neg = true;
      next();
      if (!at(Tok::number)) fail_here(fmt::format("expected a number after '-', found {}", describe(peek())));
    }
    if (at(Tok::number)) {
      const Token& n = next();
      o.kind = Operand::Kind::imm;
      o.text = (neg ? "-" : "") + n.text;
      o.imm_float = is_float_text(n.text);
      if (!o.imm_float) {
        const std::uint64_t v = number(n, "a constant");
        o.value = neg ? 0 - v : v;
      }
      return o;
    }
    const Token& id = next();
    if (id.kind != Tok::ident) fail(id.loc, fmt::format("expected an operand, found {}", describe(id)));
    std::string text = id.text;
    std::string comp;
    if (at(Tok::dotted) && !peek().space_before) comp = next().text;
    o.text = text + comp;
    if (auto sp = parse_special(o.text)) {
      o.kind = Operand::Kind::special;
      o.special = *sp;
      return o;
    }
    if (Symbol* s = lookup(text); s && s->param >= 0) {
      o.kind = Operand::Kind::symbol;
      o.value = prog_.call_params[static_cast<std::size_t>(s->param)].address;
      return o;
    }
    if (Symbol* s = lookup(text)) {
      if (!comp.empty()) {
        if (s->comps.empty()) fail(id.loc, fmt::format("'{}' is not a vector register; '{}' has no component", text, o.text));
        const std::string full = text + comp;
        Symbol* c = lookup(full);
        if (!c) fail(id.loc, fmt::format("vector register '{}' has no component '{}'", text, comp));
        o.kind = Operand::Kind::reg;
        o.reg = c->reg;
        return o;
      }
      if (!s->comps.empty()) {
        o.kind = Operand::Kind::vec;
        for (const int r : s->comps) {
          Operand e;
          e.kind = Operand::Kind::reg;
          e.reg = r;
          e.loc = id.loc;
          e.text = prog_.registers[static_cast<std::size_t>(r)].source;
          o.elems.push_back(std::move(e));
        }
        return o;
      }
      o.kind = Operand::Kind::reg;
      o.reg = s->reg;
      return o;
    }
    if (!comp.empty() || text.front() == '%') {
      if (text == "%tid" || text == "%ntid" || text == "%ctaid" || text == "%nctaid")
        fail(id.loc, fmt::format("'{}' needs a component (.x, .y or .z)", o.text));
      fail(id.loc, fmt::format("register '{}' is not declared{}", o.text, suggest_register(o.text)));
    }
    if (const Variable* p = prog_.find_param(text)) {
      o.kind = Operand::Kind::symbol;
      o.value = p->address;
      return o;
    }
    for (const Variable& v : prog_.variables)
      if (v.name == text) {
        o.kind = Operand::Kind::symbol;
        o.value = v.address + (v.space == Space::global ? kGlobalBase : 0);
        return o;
      }
    o.kind = Operand::Kind::label;  // resolved at the end of the kernel
    o.block = blocks_.back();
    return o;
  }

  void resolve_labels() {
    for (Instruction& ins : prog_.code) {
      for (Operand& op : ins.ops) {
        if (op.kind != Operand::Kind::label || op.target >= 0) continue;
        auto it = block_labels_.end();
        for (int b = op.block; b >= 0 && it == block_labels_.end(); b = block_parent_[static_cast<std::size_t>(b)])
          it = block_labels_.find(std::pair(b, op.text));
        if (it == block_labels_.end()) {
          error(op.loc, fmt::format("undeclared identifier '{}' (not a register, variable or label)", op.text));
          continue;
        }
        op.target = it->second;
      }
    }
  }

  // Each call names a function of the file, with as many arguments and return values as it takes,
  // each the size of its parameter.
  void resolve_calls() {
    const int family = find_opcode("call");
    const auto param_at = [&](std::uint64_t address) -> const Variable* {
      for (const Variable& v : prog_.call_params)
        if (v.address == address) return &v;
      return nullptr;
    };
    for (Instruction& ins : prog_.code) {
      if (ins.family != family) continue;
      const Operand& fn = ins.ops[1];
      int idx = -1;
      for (std::size_t k = 0; k < prog_.functions.size(); ++k)
        if (prog_.functions[k].name == fn.text) idx = static_cast<int>(k);
      if (idx < 0) {
        error(fn.loc, fmt::format("'{}' calls '{}', which is not a function of this file (.func)", ins.text, fn.text));
        continue;
      }
      const Function& f = prog_.functions[static_cast<std::size_t>(idx)];
      ins.d.mode = idx;
      const auto check = [&](const Operand& list, const std::vector<int>& formal, const char* what) {
        if (list.elems.size() != formal.size()) {
          error(list.loc, fmt::format("'{}' passes {} {} to '{}', which takes {} (declared at line {})", ins.text,
                                      list.elems.size(), what, f.name, formal.size(), f.loc.line));
          return;
        }
        for (std::size_t i = 0; i < formal.size(); ++i) {
          const Variable* a = list.elems[i].kind == Operand::Kind::symbol ? param_at(list.elems[i].value) : nullptr;
          const Variable& p = prog_.call_params[static_cast<std::size_t>(formal[i])];
          if (!a)
            error(list.elems[i].loc, fmt::format("'{}': a call passes .param variables declared in the calling body, "
                                                 "not '{}'", ins.text, list.elems[i].text));
          else if (a->size != p.size)
            error(list.elems[i].loc, fmt::format("'{}' of {} bytes passed to '{}' of '{}', which has {} bytes",
                                                 a->name, a->size, p.name, f.name, p.size));
        }
      };
      check(ins.ops[2], f.params, "arguments");
      check(ins.ops[0], f.returns, "return values");
    }
  }

  void finish() {
    if (in_kernel_) {
      error(toks_.back().loc, fmt::format("missing '}}' at the end of kernel '{}'", prog_.entry));
      return;
    }
    if (!block_opens_.empty()) {
      error(block_opens_.back(), "unclosed '{'");
      return;
    }
    if (prog_.bare) resolve_labels();
    if (prog_.bare || prog_.entry.empty()) prog_.entry_end = static_cast<int>(prog_.code.size());
    if (prog_.entry.empty() && !prog_.functions.empty()) error({1, 1}, "the file has .func but no kernel (.entry)");
    resolve_calls();
    contract_multiply_adds(prog_);
    // Global variables sit at kGlobalBase in the global space.
    for (Variable& v : prog_.variables)
      if (v.space == Space::global) v.address += kGlobalBase;
  }

  std::vector<Token> toks_;
  std::size_t pos_ = 0;
  std::string file_;
  ParseOptions opts_;
  Program prog_;
  std::vector<Diagnostic> diags_;
  std::vector<std::map<std::string, Symbol>> scopes_{1};  // [0]: the bare snippet's / module scope
  std::vector<SourceLoc> block_opens_;
  std::vector<int> blocks_{0};        // the open { } blocks, innermost last (0: the module / snippet)
  std::vector<int> block_parent_{-1};  // by block number
  std::map<std::pair<int, std::string>, int> block_labels_;  // (block, label) -> instruction index
  std::map<std::string, int> label_copies_;                  // labels of each name so far
  std::map<std::string, int> name_uses_;
  std::string chosen_;
  bool in_kernel_ = false;  // in a body: the kernel's, or cur_function_'s
  bool kernel_done_ = false;
  int cur_function_ = -1;
  bool extern_next_ = false;  // the .func that follows is .extern
  std::uint64_t global_end_ = 0, const_end_ = 0;
  std::uint64_t variable_bytes_ = 0;  // all variables so far (kMaxVariableBytes)
};

}  // namespace

Program parse_ptx(std::string_view text, const std::string& file, const ParseOptions& options) {
  return Parser(text, file, options).run();
}

Program parse_ptx_file(const std::string& path, const ParseOptions& options) {
  return parse_ptx(read_input_file(path), path, options);
}

}  // namespace ptxmma::ptx
