// `ptxmma layout INSTRUCTION [--arch sm_90a] [--operand abcd] [--view both|matrix|lanes] [--svg FILE]
// [--byte-id-a N --thread-id-a N --byte-id-b N --thread-id-b N]`: where each element of A, B, C and
// D lives, as the matrix view (which lane/register/element holds each cell) and the lane view (what
// each register element of each lane holds), and for a block-scaled mma where each scale factor
// lives under the selectors; as text, JSON or an SVG picture (layout_svg.hpp). wgmma instructions
// take descriptors too (wgmma_layout.hpp); wmma.load / wmma.store show the one fragment they move.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "isa/wmma_instruction.hpp"
#include "sim/catalog/mma_family.hpp"
#include "sim/catalog/wmma_family.hpp"
#include "sim/error.hpp"
#include "sim/util/target.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "tools/ptxmma/layout_print.hpp"
#include "tools/ptxmma/layout_svg.hpp"
#include "tools/ptxmma/wgmma_layout.hpp"
#include "tools/vectors/output_file.hpp"

namespace ptxmma::cli {
namespace {

void print_operand(std::ostream& os, const MatrixVariant& v, const LayoutLibrary& lib, Operand op, bool matrix,
                   bool lanes) {
  const FragmentLayout& l = v.layout(op);
  const bool sparse_a = op == Operand::a && v.sparse != Sparsity::dense;
  const char* dims = sparse_a ? "M x K/2: the stored elements, in K order" : op == Operand::a ? "M x K"
                     : op == Operand::b                               ? "K x N"
                                                                      : "M x N";
  print_fragment(os, name(op), dims, l, v.type(op), lib.formula(l.name), matrix, lanes);
}

// An operand's layout as JSON: for every element (problem by problem, row by row) the lane,
// register and element that hold it (the one the product reads; the others under "also_held_by").
nlohmann::json operand_json(const FragmentLayout& l, Type t, const LayoutLibrary& lib) {
  const nlohmann::json published = lib.published(l.name) ? nlohmann::json(lib.published_by()) : nlohmann::json(nullptr);
  const LayoutFormula& f = lib.formula(l.name);
  nlohmann::json cells = nlohmann::json::array();
  for (int p = 0; p < l.problems; ++p)
    for (int r = 0; r < l.rows; ++r) {
      nlohmann::json row = nlohmann::json::array();
      for (int c = 0; c < l.cols; ++c) {
        const FragmentSlot& s = l.slot(p, r, c);
        nlohmann::json cell = {{"lane", s.lane}, {"register", s.reg}, {"element", s.elem}};
        for (int k = 1; k < l.holders; ++k) {  // the holders the product does not read
          const FragmentSlot& h = l.holder(p, r, c, k);
          cell["also_held_by"].push_back({{"lane", h.lane}, {"register", h.reg}, {"element", h.elem}});
        }
        row.push_back(std::move(cell));
      }
      cells.push_back(std::move(row));
    }
  return {{"layout", l.name}, {"type", std::string(name(t))}, {"problems", l.problems}, {"rows", l.rows},
          {"cols", l.cols}, {"registers", l.regs}, {"elements_per_register", l.elems_per_reg},
          {"holders", l.holders}, {"published_by", published},
          {"formula", {{"problem", f.problem}, {"row", f.row}, {"col", f.col}, {"source", f.source}}},
          {"cells", std::move(cells)}};
}

// What is unverified of an operand's layout on `arch`: nothing for the PTX ISA's layouts and those
// measured on the target; else that it is published, or measured elsewhere and assumed.
std::optional<std::string> unverified(const LayoutLibrary& lib, const FragmentLayout& l, const std::string& arch) {
  if (lib.published(l.name)) return fmt::format("published ({}), not verified on hardware", lib.published_by());
  if (lib.verified_on(arch)) return std::nullopt;
  return fmt::format("measured on {} only; for {} assumed from them, not verified on hardware",
                     fmt::join(lib.measured_on(), ", "), arch);
}

// The text view's lines on unverified layouts: one for all four operands where they agree, else
// one per group of operands.
void print_unverified(std::ostream& os, const MatrixVariant& v, const LayoutLibrary& lib, const std::string& arch) {
  std::vector<std::pair<std::optional<std::string>, std::string>> groups;  // what is unverified, operands
  for (Operand op : {Operand::a, Operand::b, Operand::c, Operand::d}) {
    const std::optional<std::string> p = unverified(lib, v.layout(op), arch);
    const auto it = std::ranges::find_if(groups, [&](const auto& g) { return g.first == p; });
    if (it == groups.end()) groups.emplace_back(p, std::string(1, static_cast<char>('A' + static_cast<int>(op))));
    else it->second += fmt::format(", {}", static_cast<char>('A' + static_cast<int>(op)));
  }
  for (const auto& [p, ops] : groups)
    if (p)
      os << fmt::format("fragment layouts{}: {} (docs/hardware/wmma-layouts-published.md)\n",
                        groups.size() == 1 ? "" : " of " + ops, *p);
}

// wmma.load / wmma.store: the one fragment it moves, as the target holds it (on Volta, A's and B's
// depend on the memory layout).
void print_transfer(std::ostream& os, const std::string& ptx, const std::string& arch, const std::string& view,
                    const std::string& svg, const JsonOutput& json) {
  const WmmaTransfer x = parse_wmma_transfer(ptx, arch);
  const LayoutLibrary& lib = wmma_catalog(arch).layouts();
  const FragmentLayout& l = *x.fragment;
  const std::string op(1, static_cast<char>(std::toupper(static_cast<unsigned char>(name(x.operand)[0]))));
  if (!svg.empty()) {
    const std::vector<SvgFragment> fr = {{op, &l, x.type}};
    write_svg(svg, layout_svg(x.text, fr, {}, std::nullopt, {view != "lanes", view != "matrix"}), fr, {});
    return;
  }
  if (json.on()) {
    nlohmann::json j = {{"instruction", x.text},
                        {"target", arch},
                        {"layouts_verified_on_hardware", lib.verified_on(arch)},
                        {"operands", {{std::string(name(x.operand)), operand_json(l, x.type, lib)}}}};
    json.write(j);
    if (json.to_stdout()) return;
  }
  os << x.text << "\n";
  os << fmt::format("{} as a .{} matrix in memory loads into (stores from) the registers; target {}\n", op,
                    name(x.layout), arch);
  if (const std::optional<std::string> u = unverified(lib, l, arch))
    os << fmt::format("fragment layout: {} (docs/hardware/wmma-layouts-published.md)\n", *u);
  os << "T<lane>:r<register>[<element>]; g = lane >> 2, t = lane % 4 (docs/mma-catalogue.md §0)\n\n";
  const char* dims = x.operand == Operand::a ? "M x K" : x.operand == Operand::b ? "K x N" : "M x N";
  print_fragment(os, op, dims, l, x.type, lib.formula(l.name), view != "lanes", view != "matrix");
}

// Where each scale factor lives: SF_A row by row (V per row), SF_B K-block by K-block (N each).
nlohmann::json scales_json(const ScaleSelection& s) {
  const auto where = [&](bool a, int x, int v) {
    const int at = s.source(a, x, v);
    return nlohmann::json{{"lane", at / 4}, {"byte", at % 4}};
  };
  nlohmann::json sa = nlohmann::json::array(), sb = nlohmann::json::array();
  for (int x = 0; x < s.layout->a.count; ++x) {
    sa.push_back(nlohmann::json::array());
    for (int v = 0; v < s.scale_vec; ++v) sa.back().push_back(where(true, x, v));
  }
  for (int v = 0; v < s.scale_vec; ++v) {
    sb.push_back(nlohmann::json::array());
    for (int x = 0; x < s.layout->b.count; ++x) sb.back().push_back(where(false, x, v));
  }
  return {{"type", std::string(name(s.type))}, {"scale_vec", s.scale_vec}, {"byte_id_a", s.byte_a},
          {"thread_id_a", s.tid_a}, {"byte_id_b", s.byte_b}, {"thread_id_b", s.tid_b},
          {"scale_a", std::move(sa)}, {"scale_b", std::move(sb)}};
}

}  // namespace

void add_layout_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("layout", "show which lane, register and element holds each element of A, B, C, D");
  struct Opts {
    std::string ptx, arch = "sm_90a", operands = "abcd", view = "both", svg;
    int byte_a = 0, tid_a = 0, byte_b = 0, tid_b = 0;  // block-scale selectors
    WgmmaLayoutOptions wgmma;
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("INSTRUCTION", opts->ptx,
                  "e.g. mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32, wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                  "or wmma.load.a.sync.aligned.row.m16n16k16.f16 (its one fragment)")
      ->required();
  add_wgmma_layout_options(*cmd, opts->wgmma);
  cmd->add_option("--arch", opts->arch, "target the instruction must be legal on (default sm_90a)");
  cmd->add_option("--operand", opts->operands, "which operands to show, any of a b c d (default abcd)");
  cmd->add_option("--view", opts->view, "both (default), matrix or lanes (the text and the --svg picture)")
      ->check(CLI::IsMember({"both", "matrix", "lanes"}));
  for (auto [flag, value] : {std::pair{"--byte-id-a", &opts->byte_a}, std::pair{"--thread-id-a", &opts->tid_a},
                              std::pair{"--byte-id-b", &opts->byte_b}, std::pair{"--thread-id-b", &opts->tid_b}})
    cmd->add_option(flag, *value,
                    fmt::format("block-scaled mma: the {} selector (default 0); where scale-{}-data holds each scale "
                                "factor under it",
                                flag + 2, flag[std::string_view(flag).size() - 1]));
  cmd->add_option("--svg", opts->svg, "write the layouts (and descriptor pictures) as an SVG picture to FILE instead")
      ->each(check_output_path);
  opts->json.add(*cmd, "each operand's element -> lane, register, element map (mma)");
  cmd->callback([opts, cmd] {
    const bool selectors = cmd->count("--byte-id-a") + cmd->count("--thread-id-a") + cmd->count("--byte-id-b") +
                               cmd->count("--thread-id-b") > 0;
    for (char c : opts->operands)
      if (std::string_view("abcdABCD").find(c) == std::string_view::npos)
        throw Error(fmt::format("--operand '{}': expected letters among a, b, c, d", opts->operands));
    if (opts->ptx.rfind("wgmma", 0) == 0) {
      if (selectors) throw Error("--byte-id-a/b and --thread-id-a/b apply to block-scaled mma (.block_scale) only");
      if (opts->json.on()) throw Error("--json: the layouts of mma instructions (a wgmma's: as text or --svg)");
      print_wgmma_layout(std::cout, opts->ptx, opts->arch, opts->operands, opts->view, opts->wgmma, opts->svg);
      return;
    }
    if (opts->wgmma.given())
      throw Error("--desc-a, --desc-b, --trans-a, --trans-b and --address apply to wgmma instructions only");
    if (opts->ptx.starts_with("wmma.load") || opts->ptx.starts_with("wmma.store")) {
      print_transfer(std::cout, opts->ptx, opts->arch, opts->view, opts->svg, opts->json);
      return;
    }
    const MmaInstruction ins = parse_warp_mma(opts->ptx, opts->arch);
    const MatrixCatalog& catalog = ins.text.starts_with("wmma") ? wmma_catalog(opts->arch) : mma_catalog();
    const MatrixVariant& v = *ins.variant;
    std::optional<ScaleSelection> scales;
    if (v.scales) {
      v.scales->check(v.scale_vec, opts->byte_a, opts->tid_a, opts->byte_b, opts->tid_b);
      scales = ScaleSelection{v.scales, v.scale_vec, opts->byte_a, opts->tid_a, opts->byte_b, opts->tid_b, *v.stype};
    } else if (selectors) {
      throw Error("--byte-id-a/b and --thread-id-a/b apply to block-scaled mma (.block_scale) only");
    }
    const auto wants = [&](char c) {
      return opts->operands.find(c) != std::string::npos ||
             opts->operands.find(static_cast<char>(c - 'a' + 'A')) != std::string::npos;
    };
    if (!opts->svg.empty()) {
      std::vector<SvgFragment> fr;
      if (wants('a')) fr.push_back({"A", &v.layout(Operand::a), v.a, v.is_sparse()});
      if (wants('b')) fr.push_back({"B", &v.layout(Operand::b), v.b});
      const bool same = &v.layout(Operand::c) == &v.layout(Operand::d) && v.c == v.d;
      if (same && (wants('c') || wants('d'))) fr.push_back({"C/D", &v.layout(Operand::d), v.d});
      if (!same && wants('c')) fr.push_back({"C", &v.layout(Operand::c), v.c});
      if (!same && wants('d')) fr.push_back({"D", &v.layout(Operand::d), v.d});
      write_svg(opts->svg, layout_svg(ins.text, fr, {}, scales, {opts->view != "lanes", opts->view != "matrix"}), fr,
                {});
      return;
    }
    if (opts->json.on()) {
      nlohmann::json j = {{"instruction", ins.text},
                          {"family", v.family},
                          {"target", targets_text(v.targets)},
                          {"layouts_verified_on_hardware", catalog.layouts().verified_on(opts->arch)},

                          {"operands", nlohmann::json::object()}};
      for (Operand op : {Operand::a, Operand::b, Operand::c, Operand::d})
        if (wants(static_cast<char>('a' + static_cast<int>(op))))
          j["operands"][std::string(name(op))] = operand_json(v.layout(op), v.type(op), catalog.layouts());
      if (scales) j["scales"] = scales_json(*scales);
      opts->json.write(j);
      if (opts->json.to_stdout()) return;
    }
    std::ostream& os = std::cout;
    os << ins.text << "\n";
    os << fmt::format("catalogue row {}, family {}, needs {} and PTX ISA {}; target {}\n", v.row, v.family,
                      v.targets.first, v.ptx_version, opts->arch);
    print_unverified(os, v, catalog.layouts(), opts->arch);
    os << "T<lane>:r<register>[<element>]; g = lane >> 2, t = lane % 4 (docs/mma-catalogue.md §0)\n\n";
    const bool matrix = opts->view != "lanes", lanes = opts->view != "matrix";
    for (Operand op : {Operand::a, Operand::b, Operand::c, Operand::d}) {
      const char lower = static_cast<char>('a' + static_cast<int>(op));
      const char upper = static_cast<char>('A' + static_cast<int>(op));
      if (opts->operands.find(lower) == std::string::npos && opts->operands.find(upper) == std::string::npos)
        continue;
      print_operand(os, v, catalog.layouts(), op, matrix, lanes);
      if (op == Operand::a && v.sparse != Sparsity::dense)
        print_metadata(os, "E: metadata, one .b32 register per lane", "lane", v.pattern, *v.metadata, 1);
      if (scales && (op == Operand::a || op == Operand::b)) print_scales(os, op == Operand::a, *scales);
    }
  });
}

}  // namespace ptxmma::cli
