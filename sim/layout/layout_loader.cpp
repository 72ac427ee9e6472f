#include "sim/layout/layout_loader.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>

#include "sim/catalog/yaml_file.hpp"
#include "sim/error.hpp"
#include "sim/layout/expr.hpp"

namespace ptxmma {

namespace {

enum Var : int { kLane, kG, kT, kR, kE, kI, kElems, kHi, kQ, kVarCount };
constexpr std::array<std::string_view, kVarCount> kVariables = {"lane", "g", "t", "r", "e", "i", "E", "hi", "q"};

constexpr std::array<std::string_view, 9> kKeys = {"rows", "cols", "regs", "elems", "row",
                                                   "col",  "problems", "problem", "lanes"};

class Loader {
 public:
  explicit Loader(const YamlFile& file) : f_(file) {}

  std::map<std::string, LayoutLibrary::Entry, std::less<>> run() {
    const YAML::Node layouts = f_.root["layouts"];
    if (!f_.root.IsMap() || !layouts) f_.fail(f_.root, "expected a top-level map with the key 'layouts'");
    if (!layouts.IsMap()) f_.fail(layouts, "'layouts' must be a map from layout name to its description");
    std::map<std::string, LayoutLibrary::Entry, std::less<>> out;
    for (const auto& kv : layouts) {
      const std::string name = kv.first.as<std::string>();
      if (out.contains(name)) f_.fail(kv.first, fmt::format("layout {} is defined twice", name));
      out.emplace(name, one(name, kv.first, kv.second));
    }
    return out;
  }

 private:
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

  LayoutLibrary::Entry one(const std::string& name, const YAML::Node& key, const YAML::Node& m) const {
    if (!m.IsMap()) fail(key, name, "expected a map with rows, cols, regs, elems, row, col");
    for (const auto& kv : m) {
      const std::string k = kv.first.as<std::string>();
      bool known = false;
      for (std::string_view want : kKeys) known = known || want == k;
      if (!known)
        fail(kv.first, name,
             fmt::format("unknown key '{}' (known: rows, cols, regs, elems, row, col, problems, problem, lanes)", k));
    }
    LayoutLibrary::Entry entry;
    FragmentLayout& l = entry.layout;
    l.name = name;
    l.lanes = integer(m, name, "lanes", 32, 1, 1024);
    l.problems = integer(m, name, "problems", 1, 1, 64);
    l.rows = integer(m, name, "rows", std::nullopt, 1, 4096);
    l.cols = integer(m, name, "cols", std::nullopt, 1, 4096);
    l.regs = integer(m, name, "regs", std::nullopt, 1, 256);
    l.elems_per_reg = integer(m, name, "elems", std::nullopt, 1, 32);
    auto [row_text, row] = expression(m, name, "row", nullptr);
    auto [col_text, col] = expression(m, name, "col", nullptr);
    auto [problem_text, problem] = expression(m, name, "problem", "0");
    if (l.problems > 1 && !m["problem"])
      fail(m, name, fmt::format("'problems' is {}, so 'problem' must say which problem each element belongs to",
                                l.problems));
    const YAML::Mark mark = key.Mark();
    entry.formula = LayoutFormula{problem_text, row_text, col_text,
                                  mark.is_null() ? f_.path : fmt::format("{}:{}", f_.path, mark.line + 1)};

    const int elems = l.elems_per_reg;
    try {
      l.build([&](int lane, int r, int e) {
        const std::array<std::int64_t, kVarCount> v = {lane, lane >> 2, lane & 3, r, e, r * elems + e,
                                                       elems, lane >= 16 ? 1 : 0, (lane >> 2) & 3};
        const auto eval = [&](const Expr& x, const char* which) -> int {
          std::int64_t value = 0;
          try {
            value = x.eval(v);
          } catch (const Error& ex) {
            throw Error(fmt::format("layout {}: {}: {} at lane {} register {} element {}", name, which, ex.what(),
                                    lane, r, e));
          }
          if (value < -(1 << 20) || value > (1 << 20))
            throw Error(fmt::format("layout {}: {} = {} is out of range at lane {} register {} element {}", name,
                                    which, value, lane, r, e));
          return static_cast<int>(value);
        };
        return FragmentCoord{eval(problem, "problem"), eval(row, "row"), eval(col, "col")};
      });
    } catch (const Error& e) {
      f_.fail(key, e.what());  // every message here starts with "layout NAME:"
    }
    return entry;
  }

  const YamlFile& f_;
};

}  // namespace

std::span<const std::string_view> layout_variables() { return kVariables; }

LayoutLibrary LayoutLibrary::load(const std::string& path) {
  const YamlFile file = YamlFile::load(path);
  LayoutLibrary lib;
  lib.entries_ = Loader(file).run();
  return lib;
}

LayoutLibrary LayoutLibrary::parse(const std::string& yaml_text, const std::string& source_name) {
  YamlFile file;
  file.path = source_name;
  try {
    file.root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw Error(fmt::format("{}:{}:{}: {}", source_name, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  LayoutLibrary lib;
  lib.entries_ = Loader(file).run();
  return lib;
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
