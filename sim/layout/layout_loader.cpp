#include "sim/layout/layout_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>

#include "sim/error.hpp"
#include "sim/layout/expr.hpp"
#include "sim/util/suggest.hpp"
#include "sim/util/target.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {

// A layout as written, compiled: its dimensions (for a template, expressions of N) and formulas.
struct LayoutTemplate {
  struct Dim {
    const char* key;
    std::string text;
    std::optional<Expr> expr;  // none: the constant `lo`
    int lo = 0, hi = 0;
  };
  std::string name;
  bool is_template = false;  // "{N}" in the name
  Dim lanes, problems, rows, cols, regs, elems;
  int copies = 1;  // `copies`: the registers repeat the fragment (FragmentLayout::copies)
  int holders = 1;  // `holders`: lanes holding each element (FragmentLayout::holders)
  Expr row, col, problem;
  std::optional<Expr> reads;  // `reads`, with holders > 1: non-zero for the holder the product reads
  bool problem_given = false;
  LayoutFormula formula;
  std::string where;  // "file:line:col" of the name, for instantiation errors
};

// The coordinates (and `reads`) of a template's elements, kept from one instance to the next
// when no formula uses N: an element (lane, r, e) then lies where it lies for every N, so the 32
// instances of a warpgroup accumulator evaluate each formula once per element, not once per N.
// Valid for one `lanes` and `elems` (E is a formula variable).
struct LayoutCoordMemo {
  static constexpr int kUnset = std::numeric_limits<int>::min();  // outside a formula's range
  int lanes = 0, elems = 0;
  std::vector<FragmentCoord> coord;  // by (r * lanes + lane) * elems + e
  std::vector<std::int8_t> reads;    // -1: not evaluated yet
};

namespace {

enum Var : int { kLane, kG, kT, kR, kE, kI, kElems, kHi, kQ, kW, kN, kVarCount };
constexpr std::array<std::string_view, kVarCount> kVariables = {"lane", "g", "t", "r", "e", "i",
                                                                "E",    "hi", "q", "w", "N"};
// Dimensions of a template ({N} in its name) may be expressions of N.
constexpr std::array<std::string_view, 1> kDimVariables = {"N"};

constexpr std::array<std::string_view, 12> kKeys = {"rows",    "cols",  "regs",   "elems",   "row",  "col",
                                                    "problems", "problem", "lanes", "copies", "holders", "reads"};

LayoutLibrary::Entry build(const LayoutTemplate& t, int n, LayoutCoordMemo* memo = nullptr);

class Loader {
 public:
  explicit Loader(const YamlFile& file) : f_(file) {}

  struct Result {
    std::map<std::string, LayoutLibrary::Entry, std::less<>> entries;
    std::map<std::string, std::shared_ptr<const LayoutTemplate>, std::less<>> templates;
    std::vector<std::string> measured_on;
    std::vector<std::string> published_for;
    std::string published_by;
  };

  Result run() {
    const YAML::Node layouts = f_.root["layouts"];
    if (!f_.root.IsMap() || !layouts) f_.fail(f_.root, "expected a top-level map with the key 'layouts'");
    if (!layouts.IsMap()) f_.fail(layouts, "'layouts' must be a map from layout name to its description");
    Result out;
    out.measured_on = targets("measured_on");
    out.published_for = targets("published_for");
    if (!out.measured_on.empty() && !out.published_for.empty())
      f_.fail(f_.root["published_for"], "a file's layouts are either 'measured_on' or 'published_for' targets, not both");
    if (const YAML::Node by = f_.root["published_by"]; by || !out.published_for.empty()) {
      if (!by || !by.IsScalar() || by.as<std::string>().empty() || out.published_for.empty())
        f_.fail(by ? by : f_.root,
                "'published_for: [targets]' and 'published_by: SOURCE' come together (layouts taken from a publication)");
      out.published_by = by.as<std::string>();
    }
    for (const auto& kv : layouts) {
      const std::string name = kv.first.as<std::string>();
      if (out.entries.contains(name) || out.templates.contains(name))
        f_.fail(kv.first, fmt::format("layout {} is defined twice", name));
      auto spec = std::make_shared<LayoutTemplate>(parse(name, kv.first, kv.second));
      if (spec->is_template) {
        out.templates.emplace(name, std::move(spec));
      } else {
        try {
          out.entries.emplace(name, build(*spec, 0));
        } catch (const Error& e) {
          f_.fail(kv.first, e.what());  // every message here starts with "layout NAME:"
        }
      }
    }
    return out;
  }

 private:
  // A top-level list of targets (`measured_on`, `published_for`); empty if absent.
  std::vector<std::string> targets(const char* key) const {
    const YAML::Node n = f_.root[key];
    std::vector<std::string> out;
    if (!n) return out;
    if (!n.IsSequence() || n.size() == 0)
      f_.fail(n, fmt::format("'{}' must be a list of targets, e.g. [sm_90, sm_90a]", key));
    for (const auto& t : n) {
      const std::string s = t.IsScalar() ? t.as<std::string>() : std::string();
      if (!target_rank(s)) f_.fail(t, fmt::format("'{}': {}", key, unknown_target(s)));
      out.push_back(s);
    }
    return out;
  }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& layout, const std::string& what) const {
    f_.fail(at, fmt::format("layout {}: {}", layout, what));
  }

  int integer(const YAML::Node& map, const std::string& layout, const char* key, std::optional<int> fallback,
              int lo, int hi) const {
    const YAML::Node n = map[key];
    if (!n) {
      if (fallback) return *fallback;
      fail(map, layout, fmt::format("missing key '{}'", key));
    }
    int v = 0;
    try {
      v = n.as<int>();
    } catch (const YAML::Exception&) {
      fail(n, layout, fmt::format("'{}' must be an integer", key));
    }
    if (v < lo || v > hi) fail(n, layout, fmt::format("'{}' is {}, outside {}..{}", key, v, lo, hi));
    return v;
  }

  // A template's dimension: an integer or an expression of N, checked when instantiated.
  LayoutTemplate::Dim dimension(const YAML::Node& map, const std::string& layout, const char* key,
                                std::optional<int> fallback, int lo, int hi) const {
    const YAML::Node n = map[key];
    LayoutTemplate::Dim d{key, "", std::nullopt, lo, hi};
    if (!n) {
      if (!fallback) fail(map, layout, fmt::format("missing key '{}'", key));
      d.text = std::to_string(*fallback);
    } else {
      if (!n.IsScalar()) fail(n, layout, fmt::format("'{}' must be an integer or an expression of N", key));
      d.text = n.as<std::string>();
    }
    try {
      d.expr = Expr::compile(d.text, kDimVariables);
    } catch (const Error& e) {
      fail(n ? n : map, layout, fmt::format("{}: {}", key, e.what()));
    }
    return d;
  }

  std::pair<std::string, Expr> expression(const YAML::Node& map, const std::string& layout, const char* key,
                                          const char* fallback) const {
    const YAML::Node n = map[key];
    std::string text;
    if (!n) {
      if (!fallback) fail(map, layout, fmt::format("missing key '{}'", key));
      text = fallback;
    } else {
      if (!n.IsScalar()) fail(n, layout, fmt::format("'{}' must be an expression (a string)", key));
      text = n.as<std::string>();
    }
    try {
      return {text, Expr::compile(text, kVariables)};
    } catch (const Error& e) {
      fail(n ? n : map, layout, fmt::format("{}: {}", key, e.what()));
    }
  }

  LayoutTemplate parse(const std::string& name, const YAML::Node& key, const YAML::Node& m) const {
    if (!m.IsMap()) fail(key, name, "expected a map with rows, cols, regs, elems, row, col");
    for (const auto& kv : m) {
      const std::string k = kv.first.as<std::string>();
      bool known = false;
      for (std::string_view want : kKeys) known = known || want == k;
      if (!known)
        fail(kv.first, name,
             fmt::format("unknown key '{}'{} (known: rows, cols, regs, elems, row, col, problems, problem, lanes, "
                         "copies, holders, reads)",
                         k, did_you_mean(k, std::vector<std::string>(kKeys.begin(), kKeys.end()))));
    }
    LayoutTemplate t;
    t.name = name;
    t.is_template = name.find("{N}") != std::string::npos;
    if (t.is_template) {
      t.lanes = dimension(m, name, "lanes", 32, 1, 1024);
      t.problems = dimension(m, name, "problems", 1, 1, 64);
      t.rows = dimension(m, name, "rows", std::nullopt, 1, 4096);
      t.cols = dimension(m, name, "cols", std::nullopt, 1, 4096);
      t.regs = dimension(m, name, "regs", std::nullopt, 1, 256);
      t.elems = dimension(m, name, "elems", std::nullopt, 1, 32);
    } else {
      const auto fixed = [](const char* k, int v) { return LayoutTemplate::Dim{k, std::to_string(v), std::nullopt, v, v}; };
      t.lanes = fixed("lanes", integer(m, name, "lanes", 32, 1, 1024));
      t.problems = fixed("problems", integer(m, name, "problems", 1, 1, 64));
      t.rows = fixed("rows", integer(m, name, "rows", std::nullopt, 1, 4096));
      t.cols = fixed("cols", integer(m, name, "cols", std::nullopt, 1, 4096));
      t.regs = fixed("regs", integer(m, name, "regs", std::nullopt, 1, 256));
      t.elems = fixed("elems", integer(m, name, "elems", std::nullopt, 1, 32));
    }
    t.copies = integer(m, name, "copies", 1, 1, 8);
    t.holders = integer(m, name, "holders", 1, 1, 8);
    if (t.holders > 1 && !m["reads"])
      fail(m, name, fmt::format("'holders' is {}, so 'reads' must say which holder of each element the product reads",
                                t.holders));
    if (t.holders == 1 && m["reads"]) fail(m["reads"], name, "'reads' chooses among the holders of 'holders' > 1");
    std::string reads_text;
    if (m["reads"]) {
      auto [text, reads] = expression(m, name, "reads", nullptr);
      reads_text = std::move(text);
      t.reads = std::move(reads);
    }
    auto [row_text, row] = expression(m, name, "row", nullptr);
    auto [col_text, col] = expression(m, name, "col", nullptr);
    auto [problem_text, problem] = expression(m, name, "problem", "0");
    t.row = std::move(row);
    t.col = std::move(col);
    t.problem = std::move(problem);
    t.problem_given = static_cast<bool>(m["problem"]);
    if (!t.is_template && t.problems.lo > 1 && !t.problem_given)
      fail(m, name, fmt::format("'problems' is {}, so 'problem' must say which problem each element belongs to",
                                t.problems.lo));
    const YAML::Mark mark = key.Mark();
    t.formula = LayoutFormula{problem_text, row_text, col_text,
                              mark.is_null() ? f_.path : fmt::format("{}:{}", f_.path, mark.line + 1), reads_text};
    t.where = mark.is_null() ? f_.path : fmt::format("{}:{}:{}", f_.path, mark.line + 1, mark.column + 1);
    return t;
  }

  const YamlFile& f_;
};

// Builds one layout from its (compiled) description; N binds the template parameter (0 otherwise).
// Errors start with "layout NAME:" (with " (N = n)" for a template instance).
LayoutLibrary::Entry build(const LayoutTemplate& t, int n, LayoutCoordMemo* memo) {
  const std::string name = t.is_template ? LayoutLibrary::instance_name(t.name, n) : t.name;
  const std::string label = t.is_template ? fmt::format("{} (N = {})", t.name, n) : t.name;
  const auto dim = [&](const LayoutTemplate::Dim& d) -> int {
    if (!d.expr) return d.lo;
    const std::array<std::int64_t, 1> v = {n};
    std::int64_t value = 0;
    try {
      value = d.expr->eval(v);
    } catch (const Error& e) {
      throw Error(fmt::format("layout {}: {}: {}", label, d.key, e.what()));
    }
    if (value < d.lo || value > d.hi)
      throw Error(fmt::format("layout {}: '{}' = {} is {}, outside {}..{}", label, d.key, d.text, value, d.lo, d.hi));
    return static_cast<int>(value);
  };
  LayoutLibrary::Entry entry;
  FragmentLayout& l = entry.layout;
  l.name = name;
  l.lanes = dim(t.lanes);
  l.problems = dim(t.problems);
  l.rows = dim(t.rows);
  l.cols = dim(t.cols);
  l.regs = dim(t.regs);
  l.elems_per_reg = dim(t.elems);
  l.copies = t.copies;
  l.holders = t.holders;
  if (l.regs % l.copies != 0)
    throw Error(fmt::format("layout {}: {} registers do not hold {} whole copies", label, l.regs, l.copies));
  if (l.problems > 1 && !t.problem_given)
    throw Error(fmt::format("layout {}: 'problems' is {}, so 'problem' must say which problem each element belongs to",
                            label, l.problems));
  entry.formula = t.formula;
  const int elems = l.elems_per_reg;
  const auto values = [&](int lane, int r, int e) {
    const int wl = lane & 31;  // lane inside its warp (128-lane warpgroup layouts)
    return std::array<std::int64_t, kVarCount>{lane, wl >> 2, lane & 3, r, e, r * elems + e, elems,
                                               wl >= 16 ? 1 : 0, (wl >> 2) & 3, lane >> 5, n};
  };
  const auto reads = [&](int lane, int r, int e) {
    try {
      return t.reads->eval(values(lane, r, e)) != 0;
    } catch (const Error& ex) {
      throw Error(fmt::format("layout {}: reads: {} at lane {} register {} element {}", label, ex.what(), lane, r, e));
    }
  };
  const auto coord = [&](int lane, int r, int e) {
    const std::array<std::int64_t, kVarCount> v = values(lane, r, e);
    const auto eval = [&](const Expr& x, const char* which) -> int {
      std::int64_t value = 0;
      try {
        value = x.eval(v);
      } catch (const Error& ex) {
        throw Error(fmt::format("layout {}: {}: {} at lane {} register {} element {}", label, which, ex.what(), lane,
                                r, e));
      }
      if (value < -(1 << 20) || value > (1 << 20))
        throw Error(fmt::format("layout {}: {} = {} is out of range at lane {} register {} element {}", label, which,
                                value, lane, r, e));
      return static_cast<int>(value);
    };
    return FragmentCoord{eval(t.problem, "problem"), eval(t.row, "row"), eval(t.col, "col")};
  };
  if (memo) {
    if (memo->lanes != l.lanes || memo->elems != elems) *memo = LayoutCoordMemo{l.lanes, elems, {}, {}};
    const std::size_t size = static_cast<std::size_t>(l.distinct()) * static_cast<std::size_t>(l.lanes * elems);
    if (memo->coord.size() < size) {
      memo->coord.resize(size, FragmentCoord{LayoutCoordMemo::kUnset, LayoutCoordMemo::kUnset, LayoutCoordMemo::kUnset});
      memo->reads.resize(size, -1);
    }
    const auto at = [&](int lane, int r, int e) {
      return static_cast<std::size_t>((r * l.lanes + lane) * elems + e);
    };
    const auto memo_coord = [&](int lane, int r, int e) {
      FragmentCoord& c = memo->coord[at(lane, r, e)];
      if (c.row == LayoutCoordMemo::kUnset) c = coord(lane, r, e);
      return c;
    };
    const auto memo_reads = [&](int lane, int r, int e) {
      std::int8_t& x = memo->reads[at(lane, r, e)];
      if (x < 0) x = reads(lane, r, e) ? 1 : 0;
      return x != 0;
    };
    if (t.reads)
      l.build(memo_coord, memo_reads);
    else
      l.build(memo_coord);
    return entry;
  }
  if (t.reads)
    l.build(coord, reads);
  else
    l.build(coord);
  return entry;
}

}  // namespace

std::span<const std::string_view> layout_variables() { return kVariables; }

bool LayoutLibrary::verified_on(std::string_view target) const {
  return measured_on_.empty() || std::ranges::find(measured_on_, target) != measured_on_.end();
}

bool LayoutLibrary::published_for(std::string_view target) const {
  return std::ranges::find(published_for_, target) != published_for_.end();
}

bool LayoutLibrary::published(std::string_view name) const { return published_.contains(name); }

void LayoutLibrary::overlay(LayoutLibrary&& arch) {
  if (arch.published_for_.empty() || !arch.templates_.empty())
    throw Error("an overlay holds the layouts of a publication ('published_for', 'published_by'), without templates");
  for (auto& [name, entry] : arch.entries_) entries_.insert_or_assign(name, std::move(entry));
  published_.insert(arch.published_.begin(), arch.published_.end());
  published_for_ = std::move(arch.published_for_);
  published_by_ = std::move(arch.published_by_);
}

LayoutLibrary LayoutLibrary::from(const YamlFile& file) {
  auto r = Loader(file).run();
  LayoutLibrary lib;
  lib.entries_ = std::move(r.entries);
  lib.templates_ = std::move(r.templates);
  lib.measured_on_ = std::move(r.measured_on);
  lib.published_for_ = std::move(r.published_for);
  lib.published_by_ = std::move(r.published_by);
  if (!lib.published_for_.empty())
    for (const auto& kv : lib.entries_) lib.published_.insert(kv.first);
  return lib;
}

LayoutLibrary LayoutLibrary::load(const std::string& path) { return from(YamlFile::load(path)); }

LayoutLibrary LayoutLibrary::parse(const std::string& yaml_text, const std::string& source_name) {
  YamlFile file;
  file.path = source_name;
  try {
    file.root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw Error(fmt::format("{}:{}:{}: {}", source_name, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return from(file);
}

std::string LayoutLibrary::instance_name(std::string_view template_name, int n) {
  std::string s(template_name);
  const std::string value = std::to_string(n);
  for (auto p = s.find("{N}"); p != std::string::npos; p = s.find("{N}", p + value.size())) s.replace(p, 3, value);
  return s;
}

std::vector<std::string> LayoutLibrary::template_names() const {
  std::vector<std::string> out;
  for (const auto& kv : templates_) out.push_back(kv.first);
  return out;
}

const FragmentLayout& LayoutLibrary::instantiate(std::string_view template_name, int n) {
  const auto t = templates_.find(template_name);
  if (t == templates_.end()) {
    if (entries_.find(template_name) != entries_.end())
      throw Error(fmt::format("layout {} is not a template (its name has no {{N}})", template_name));
    throw Error(fmt::format("unknown layout template '{}'", template_name));
  }
  const std::string name = instance_name(template_name, n);
  if (const auto it = entries_.find(name); it != entries_.end()) return it->second.layout;
  const LayoutTemplate& lt = *t->second;
  LayoutCoordMemo* memo = nullptr;
  if (!lt.row.uses(kN) && !lt.col.uses(kN) && !lt.problem.uses(kN) && !(lt.reads && lt.reads->uses(kN))) {
    std::shared_ptr<LayoutCoordMemo>& m = memos_[lt.name];
    if (!m) m = std::make_shared<LayoutCoordMemo>();
    memo = m.get();
  }
  try {
    return entries_.emplace(name, build(lt, n, memo)).first->second.layout;
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", t->second->where, e.what()));
  }
}

const FragmentLayout* LayoutLibrary::find(std::string_view name) const {
  const auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second.layout;
}

const FragmentLayout& LayoutLibrary::at(std::string_view name) const {
  if (const FragmentLayout* l = find(name)) return *l;
  throw Error(fmt::format("unknown layout '{}'", name));
}

const LayoutFormula& LayoutLibrary::formula(std::string_view name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) throw Error(fmt::format("unknown layout '{}'", name));
  return it->second.formula;
}

}  // namespace ptxmma
