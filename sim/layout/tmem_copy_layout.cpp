#include "sim/layout/tmem_copy_layout.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/error.hpp"
#include "sim/layout/expr.hpp"
#include "sim/util/config_dir.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {

TmemCopyLayouts TmemCopyLayouts::load(const std::string& path) {
  const YamlFile f = YamlFile::load(path);
  f.check_unique_keys();
  f.check_keys(f.root, {"shapes"}, "the file");
  const YAML::Node shapes = f.root["shapes"];
  if (!shapes || !shapes.IsMap()) f.fail(shapes ? shapes : f.root, "'shapes' takes a map of shapes");
  static constexpr std::array<std::string_view, 2> kVars = {"lane", "r"};
  TmemCopyLayouts out;
  for (const auto& kv : shapes) {
    TmemCopyShape s;
    s.name = f.located([&] { return kv.first.as<std::string>(); });
    const YAML::Node n = kv.second;
    f.check_keys(n, {"rows", "regs", "repeat", "row", "col", "half"}, "shape '" + s.name + "'");
    s.rows = f.get<int>(n, "rows");
    s.regs = f.get<int>(n, "regs");
    s.repeat = f.get<int>(n, "repeat");
    if (s.rows != 16 && s.rows != 32) f.fail(n["rows"], "rows must be 16 or 32");
    if (s.regs < 1 || s.regs > 4) f.fail(n["regs"], "regs must be 1..4");
    s.halves = static_cast<bool>(n["half"]);
    const int halves = s.halves ? 2 : 1;
    // Every register of .x1 holds one cell of rows x repeat (x halves).
    if (s.rows * s.repeat * halves != 32 * s.regs)
      f.fail(n, fmt::format("shape '{}': {} lanes x {} registers do not fill {} rows x {} columns{}", s.name, 32,
                            s.regs, s.rows, s.repeat, s.halves ? " x 2 halves" : ""));
    try {
      const Expr row = Expr::compile(f.get<std::string>(n, "row"), kVars);
      const Expr col = Expr::compile(f.get<std::string>(n, "col"), kVars);
      const std::optional<Expr> half =
          s.halves ? std::optional<Expr>(Expr::compile(f.get<std::string>(n, "half"), kVars)) : std::nullopt;
      std::vector<int> owner(static_cast<std::size_t>(s.rows * s.repeat * halves), -1);
      for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < s.regs; ++r) {
          const std::array<std::int64_t, 2> v = {lane, r};
          const std::int64_t y = row.eval(v), x = col.eval(v), h = half ? half->eval(v) : 0;
          if (y < 0 || y >= s.rows || x < 0 || x >= s.repeat || h < 0 || h >= halves)
            throw Error(fmt::format("lane {} register {} -> row {}, column {}{}: outside {} rows x {} columns", lane, r,
                                    y, x, s.halves ? fmt::format(", half {}", h) : "", s.rows, s.repeat));
          int& o = owner[static_cast<std::size_t>((h * s.rows + y) * s.repeat + x)];
          if (o >= 0)
            throw Error(fmt::format("row {}, column {}{} is held by lane {} register {} and lane {} register {}", y, x,
                                    s.halves ? fmt::format(", half {}", h) : "", o / s.regs, o % s.regs, lane, r));
          o = lane * s.regs + r;
          s.cells.push_back({static_cast<std::uint16_t>(y), static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(h)});
        }
    } catch (const Error& e) {
      f.fail(n, fmt::format("shape '{}': {}", s.name, e.what()));
    }
    out.shapes_.push_back(std::move(s));
  }
  return out;
}

const TmemCopyShape* TmemCopyLayouts::find(std::string_view name) const {
  const auto it = std::ranges::find_if(shapes_, [&](const TmemCopyShape& s) { return s.name == name; });
  return it == shapes_.end() ? nullptr : &*it;
}

const TmemCopyLayouts& tmem_copy_layouts() {
  static const TmemCopyLayouts layouts = TmemCopyLayouts::load(config_dir() + "/tcgen05/tmem_copy.yaml");
  return layouts;
}

}  // namespace ptxmma
