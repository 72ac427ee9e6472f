// `ptxmma layout INSTRUCTION [--arch sm_90a] [--operand abcd] [--view both|matrix|lanes]`:
// where each element of A, B, C and D lives, as the matrix view (which lane/register/element holds
// each cell) and the lane view (what each register element of each lane holds).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "isa/mma_instruction.hpp"
#include "sim/catalog/mma_catalog.hpp"
#include "sim/error.hpp"
#include "tools/ptxmma/commands.hpp"

namespace ptxmma::cli {
namespace {

using Table = std::vector<std::vector<std::string>>;

// Column 0 left-aligned (row labels), the rest right-aligned (or left-aligned), two spaces apart.
void print_table(std::ostream& os, const Table& t, const std::string& indent, bool right = true) {
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

void print_operand(std::ostream& os, const MmaVariant& v, const LayoutLibrary& lib, Operand op, bool matrix,
                   bool lanes) {
  const FragmentLayout& l = v.layout(op);
  const Type t = v.type(op);
  const LayoutFormula& f = lib.formula(l.name);
  const char* dims = op == Operand::a ? "M x K" : op == Operand::b ? "K x N" : "M x N";
  const char letter = static_cast<char>('a' + static_cast<int>(op));
  os << fmt::format("{}: {} x {} {} ({}){}, layout {} ({})\n", name(op), l.rows, l.cols, name(t), dims,
                    l.problems > 1 ? fmt::format(", {} independent problems", l.problems) : "", l.name, f.source);
  os << fmt::format("   {} {}-bit register{} x {} element{} per lane; element i = r*{} + e{}\n", l.regs,
                    t == Type::f64 ? 64 : 32, l.regs == 1 ? "" : "s", l.elems_per_reg, l.elems_per_reg == 1 ? "" : "s",
                    l.elems_per_reg, l.problems > 1 ? fmt::format("; problem = {}", f.problem) : "");
  os << fmt::format("   row = {}    col = {}\n", f.row, f.col);

  if (matrix) {
    for (int p = 0; p < l.problems; ++p) {
      os << "\n";
      if (l.problems > 1) os << fmt::format("   problem {} (lanes {})\n", p, problem_lanes(l, p));
      Table t;
      std::vector<std::string> header = {fmt::format("{}", name(op))};
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

}  // namespace

void add_layout_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("layout", "show which lane, register and element holds each element of A, B, C, D");
  struct Opts {
    std::string ptx, arch = "sm_90a", operands = "abcd", view = "both";
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("INSTRUCTION", opts->ptx, "e.g. mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")->required();
  cmd->add_option("--arch", opts->arch, "target the instruction must be legal on (default sm_90a)");
  cmd->add_option("--operand", opts->operands, "which operands to show, any of a b c d (default abcd)");
  cmd->add_option("--view", opts->view, "both (default), matrix or lanes")
      ->check(CLI::IsMember({"both", "matrix", "lanes"}));
  cmd->callback([opts] {
    for (char c : opts->operands)
      if (std::string_view("abcdABCD").find(c) == std::string_view::npos)
        throw Error(fmt::format("--operand '{}': expected letters among a, b, c, d", opts->operands));
    const MmaCatalog& catalog = mma_catalog();
    const MmaInstruction ins = parse_mma(opts->ptx, opts->arch, catalog);
    const MmaVariant& v = *ins.variant;
    std::ostream& os = std::cout;
    os << ins.text << "\n";
    os << fmt::format("catalogue row {}, family {}, needs {} and PTX ISA {}; target {}\n", v.row, v.family,
                      v.min_target, v.ptx_version, opts->arch);
    os << "T<lane>:r<register>[<element>]; g = lane >> 2, t = lane % 4 (ptx-mma-catalog.md §0)\n\n";
    const bool matrix = opts->view != "lanes", lanes = opts->view != "matrix";
    for (Operand op : {Operand::a, Operand::b, Operand::c, Operand::d}) {
      const char lower = static_cast<char>('a' + static_cast<int>(op));
      const char upper = static_cast<char>('A' + static_cast<int>(op));
      if (opts->operands.find(lower) == std::string::npos && opts->operands.find(upper) == std::string::npos)
        continue;
      print_operand(os, v, catalog.layouts(), op, matrix, lanes);
    }
  });
}

}  // namespace ptxmma::cli
