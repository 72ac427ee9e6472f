#include "tools/ptxmma/layout_print.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <ostream>

namespace ptxmma::cli {
namespace {

std::string slot_text(const FragmentLayout& l, const FragmentSlot& s) {
  if (l.elems_per_reg == 1) return fmt::format("T{}:r{}", s.lane, s.reg);
  return fmt::format("T{}:r{}[{}]", s.lane, s.reg, s.elem);
}

// Lanes of a problem, e.g. "lanes 4-7, 20-23".
std::string problem_lanes(const FragmentLayout& l, int p) {
  std::vector<int> lanes;
  for (int lane = 0; lane < l.lanes; ++lane)
    for (int r = 0; r < l.regs; ++r)
      if (l.coord(lane, r, 0).problem == p && (lanes.empty() || lanes.back() != lane)) lanes.push_back(lane);
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    out += fmt::format("{}{}", out.empty() ? "" : ", ", i == j ? fmt::format("{}", lanes[i])
                                                               : fmt::format("{}-{}", lanes[i], lanes[j]));
    i = j + 1;
  }
  return out;
}

}  // namespace

void print_table(std::ostream& os, const Table& t, const std::string& indent, bool right) {
  std::vector<std::size_t> width;
  for (const auto& row : t)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  for (const auto& row : t) {
    std::string line = indent;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c == 0) line += fmt::format("{:<{}}", row[c], width[c]);
      else if (right) line += fmt::format("  {:>{}}", row[c], width[c]);
      else line += fmt::format("  {:<{}}", row[c], width[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    os << line << "\n";
  }
}

void print_fragment(std::ostream& os, std::string_view op, std::string_view dims, const FragmentLayout& l, Type t,
                    const LayoutFormula& f, bool matrix, bool lanes, std::string_view what) {
  const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(op.front())));
  os << fmt::format("{}: {} x {} {} ({}){}{}, layout {} ({})\n", op, l.rows, l.cols, name(t), dims,
                    l.problems > 1 ? fmt::format(", {} independent problems", l.problems) : "",
                    what.empty() ? "" : fmt::format(", {}", what), l.name, f.source);
  os << fmt::format("   {} {}-bit register{} x {} element{} per {}; element i = r*{} + e{}\n", l.regs,
                    t == Type::f64 ? 64 : 32, l.regs == 1 ? "" : "s", l.elems_per_reg, l.elems_per_reg == 1 ? "" : "s",
                    l.lanes > 32 ? "thread" : "lane", l.elems_per_reg,
                    l.problems > 1 ? fmt::format("; problem = {}", f.problem) : "");
  os << fmt::format("   row = {}    col = {}\n", f.row, f.col);
  if (l.holders > 1)
    os << fmt::format("   each element is held by {} lanes; the product reads the one where {} (the matrix view "
                      "shows it, the lane view every holder)\n",
                      l.holders, f.reads);

  if (matrix) {
    for (int p = 0; p < l.problems; ++p) {
      os << "\n";
      if (l.problems > 1) os << fmt::format("   problem {} (lanes {})\n", p, problem_lanes(l, p));
      Table t;
      std::vector<std::string> header = {std::string(op)};
      for (int c = 0; c < l.cols; ++c) header.push_back(fmt::format("{}", c));
      t.push_back(std::move(header));
      for (int r = 0; r < l.rows; ++r) {
        std::vector<std::string> row = {fmt::format("{}", r)};
        for (int c = 0; c < l.cols; ++c) row.push_back(slot_text(l, l.slot(p, r, c)));
        t.push_back(std::move(row));
      }
      print_table(os, t, "   ");
    }
  }
  if (lanes) {
    os << "\n";
    Table t;
    for (int lane = 0; lane < l.lanes; ++lane) {
      std::vector<std::string> row = {fmt::format("T{}", lane)};
      for (int r = 0; r < l.regs; ++r)
        for (int e = 0; e < l.elems_per_reg; ++e) {
          const FragmentCoord& c = l.coord(lane, r, e);
          const int i = r * l.elems_per_reg + e;
          row.push_back(l.problems > 1 ? fmt::format("{}{}:p{}({},{})", letter, i, c.problem, c.row, c.col)
                                       : fmt::format("{}{}:({},{})", letter, i, c.row, c.col));
        }
      t.push_back(std::move(row));
    }
    print_table(os, t, "   ", false);
  }
  os << "\n";
}

void print_metadata(std::ostream& os, std::string_view header, std::string_view unit, SparsePattern p,
                    const SparseMetadata& m, int warps) {
  const int w = chunk_columns(p);
  os << fmt::format("{}; pattern {} ({} of every {} K columns stored), class {} (configs/mma/sparse.yaml)\n", header,
                    name(p), stored_per_chunk(p), w, m.name);
  os << fmt::format("   T<{}>:n<nibble> (bits 4n+3..4n) describes the chunk of K columns of each A row\n", unit);
  for (int sel = 0; sel < m.selectors; ++sel) {
    os << fmt::format("\n   sparsity selector {}\n", sel);
    Table t(1, std::vector<std::string>{"row"});
    for (int c = 0; c < m.chunks; ++c) t[0].push_back(fmt::format("k{}-{}", c * w, c * w + w - 1));
    for (int r = 0; r < warps * m.rows; ++r) {
      t.push_back({std::to_string(r)});
      for (int c = 0; c < m.chunks; ++c) {
        const SparseMetadata::Source& src = m.source(sel, r % m.rows, c);
        t.back().push_back(fmt::format("T{}:n{}", 32 * (r / m.rows) + src.lane, src.nibble));
      }
    }
    print_table(os, t, "   ");
  }
  os << "\n";
}

void print_scales(std::ostream& os, bool a, const ScaleSelection& s) {
  const int V = s.scale_vec, count = a ? s.layout->a.count : s.layout->b.count;
  os << fmt::format("{}: {} scale factors ({}) in scale-{}-data, one .b32 register per lane, under byte-id-{} {} and "
                    "thread-id-{} {} (configs/mma/block_scale.yaml)\n",
                    a ? "SF_A" : "SF_B", a ? fmt::format("{} x {}", count, V) : fmt::format("{} x {}", V, count),
                    name(s.type), a ? 'a' : 'b', a ? 'a' : 'b', a ? s.byte_a : s.byte_b, a ? 'a' : 'b',
                    a ? s.tid_a : s.tid_b);
  os << fmt::format("   T<lane>:b<byte>: byte b (bits 8b+7..8b) of the lane's register; K-block v is the K "
                    "indices v*K/{0} .. (v+1)*K/{0} - 1 of {1}\n",
                    V, a ? "row m of A" : "column n of B");
  Table t;
  const auto at = [&](int x, int v) {
    const int src = s.source(a, x, v);
    return fmt::format("T{}:b{}", src / 4, src % 4);
  };
  if (a) {
    t.push_back({"row"});
    for (int v = 0; v < V; ++v) t[0].push_back(fmt::format("v{}", v));
    for (int x = 0; x < count; ++x) {
      t.push_back({std::to_string(x)});
      for (int v = 0; v < V; ++v) t.back().push_back(at(x, v));
    }
  } else {
    t.push_back({"block"});
    for (int x = 0; x < count; ++x) t[0].push_back(std::to_string(x));
    for (int v = 0; v < V; ++v) {
      t.push_back({fmt::format("v{}", v)});
      for (int x = 0; x < count; ++x) t.back().push_back(at(x, v));
    }
  }
  os << "\n";
  print_table(os, t, "   ");
  os << "\n";
}

}  // namespace ptxmma::cli
