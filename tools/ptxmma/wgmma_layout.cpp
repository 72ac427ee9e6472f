#include "tools/ptxmma/wgmma_layout.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <ostream>

#include "isa/wgmma_instruction.hpp"
#include "sim/catalog/wgmma_family.hpp"
#include "sim/error.hpp"
#include "sim/exec/descriptor.hpp"
#include "tools/ptxmma/layout_print.hpp"
#include "tools/ptxmma/layout_svg.hpp"

namespace ptxmma::cli {
namespace {

std::uint64_t number(const std::string& text, const char* option) {
  std::string_view s = text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size())
    throw Error(fmt::format("{} '{}': expected a number (0x<hex> or decimal) of at most 64 bits", option, text));
  return v;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The address table of one operand: A by (m, k), B by (k, n).
void print_addresses(std::ostream& os, char op, const OperandAddressing& at, Type t, int trans, bool matrix) {
  const MatrixDescriptor& d = at.descriptor();
  const bool is_a = op == 'A';
  const int rows = is_a ? at.rows() : at.k(), cols = is_a ? at.k() : at.rows();
  os << fmt::format("{}: {} x {} {} ({}) through descriptor {:#018x}: {}\n", op, rows, cols, name(t),
                    is_a ? "M x K" : "K x N", d.raw, d.text());
  os << fmt::format("   {} (imm-trans-{} {}); x = {}, k = K index\n", name(at.major()), is_a ? 'a' : 'b', trans,
                    is_a ? "m (row of A)" : "n (column of B)");
  os << fmt::format("   {}\n", at.formula());
  if (d.swizzle == Swizzle::none && d.base_offset != 0)
    os << fmt::format("   note: base offset {} is ignored without swizzle\n", d.base_offset);
  const auto [lo, hi] = at.footprint();
  const auto overlap = at.overlap();
  os << fmt::format("   reads shared bytes {:#x}..{:#x}; {}\n", lo, hi,
                    overlap ? "WARNING: " + *overlap : std::string("every element has bits of its own"));
  if (!matrix) {
    os << "\n";
    return;
  }
  os << fmt::format("\n   byte address of {}[row][col]{}\n", op, at.element_bits() == 1 ? ".bit" : "");
  Table table;
  std::vector<std::string> header = {std::string(1, op)};
  for (int c = 0; c < cols; ++c) header.push_back(std::to_string(c));
  table.push_back(std::move(header));
  for (int r = 0; r < rows; ++r) {
    std::vector<std::string> line = {std::to_string(r)};
    for (int c = 0; c < cols; ++c) {
      const SmemSlot s = is_a ? at.slot(r, c) : at.slot(c, r);
      line.push_back(at.element_bits() == 1 ? fmt::format("{:#x}.{}", s.address, s.bit) : fmt::format("{:#x}", s.address));
    }
    table.push_back(std::move(line));
  }
  print_table(os, table, "   ");
  os << "\n";
}

void print_lookup(std::ostream& os, char op, const OperandAddressing& at, std::uint64_t address) {
  const auto elements = at.elements_at(address);
  if (elements.empty()) {
    os << fmt::format("   {}: no element\n", op);
    return;
  }
  const int bytes = at.element_bits() / 8;
  for (const auto& e : elements) {
    const int row = op == 'A' ? e.x : e.k, col = op == 'A' ? e.k : e.x;
    if (at.element_bits() == 1) os << fmt::format("   {}[{}][{}] (bit {})\n", op, row, col, e.bit);
    else if (bytes > 1) os << fmt::format("   {}[{}][{}] (byte {} of {})\n", op, row, col, e.byte, bytes);
    else os << fmt::format("   {}[{}][{}]\n", op, row, col);
  }
}

}  // namespace

void add_wgmma_layout_options(CLI::App& cmd, WgmmaLayoutOptions& o) {
  cmd.add_option("--desc-a", o.desc_a, "wgmma: A's matrix descriptor (64-bit); shows the shared address of every A element");
  cmd.add_option("--desc-b", o.desc_b, "wgmma: B's matrix descriptor (64-bit); shows the shared address of every B element");
  cmd.add_option("--trans-a", o.trans_a, "wgmma: imm-trans-a (0: K-major A, 1: M-major; f16/bf16 only)")
      ->check(CLI::Range(0, 1));
  cmd.add_option("--trans-b", o.trans_b, "wgmma: imm-trans-b (0: K-major B, 1: N-major; f16/bf16 only)")
      ->check(CLI::Range(0, 1));
  cmd.add_option("--address", o.addresses, "wgmma: shared byte address(es) to look up: which A/B element they hold");
}

void print_wgmma_layout(std::ostream& os, const std::string& ptx, const std::string& arch, const std::string& operands,
                        const std::string& view, const WgmmaLayoutOptions& o, const std::string& svg) {
  const MatrixCatalog& catalog = wgmma_catalog();
  const WgmmaInstruction ins = parse_wgmma(ptx, arch, catalog);
  const MatrixVariant& v = *ins.variant;
  WgmmaOperands ops;
  ops.a_source = o.desc_a.empty() ? ASource::registers : ASource::descriptor;
  ops.imm_trans_a = o.trans_a;
  ops.imm_trans_b = o.trans_b;
  if (o.trans_a != 0 && o.desc_a.empty()) throw Error("--trans-a needs --desc-a (A in registers cannot be transposed)");
  check_wgmma_operands(v, ops);
  const std::optional<std::uint64_t> desc_a =
      o.desc_a.empty() ? std::nullopt : std::optional(number(o.desc_a, "--desc-a"));
  const std::optional<std::uint64_t> desc_b =
      o.desc_b.empty() ? std::nullopt : std::optional(number(o.desc_b, "--desc-b"));
  std::optional<OperandAddressing> at_a, at_b;
  if (desc_a)
    at_a.emplace(MatrixDescriptor::decode(*desc_a), o.trans_a ? Major::mn : Major::k, v.a, v.shape.m, v.shape.k);
  if (desc_b)
    at_b.emplace(MatrixDescriptor::decode(*desc_b), o.trans_b ? Major::mn : Major::k, v.b, v.shape.n, v.shape.k);
  std::vector<std::uint64_t> addresses;
  for (const auto& a : o.addresses) addresses.push_back(number(a, "--address"));
  if (!addresses.empty() && !at_a && !at_b) throw Error("--address needs --desc-a or --desc-b");

  const auto wants = [&](char c) {
    return operands.find(c) != std::string::npos || operands.find(static_cast<char>(c - 'a' + 'A')) != std::string::npos;
  };
  if (!svg.empty()) {
    if (!addresses.empty()) throw Error("--address and --svg: give one of them");
    std::vector<SvgFragment> fr;
    std::vector<SvgDescriptor> ds;
    if (wants('a') && !at_a) fr.push_back({"A", v.la, v.a, v.is_sparse()});
    if (wants('c') || wants('d')) fr.push_back({"C/D", v.ld, v.d});
    if (wants('a') && at_a) ds.push_back({'A', &*at_a, v.a});
    if (wants('b') && at_b) ds.push_back({'B', &*at_b, v.b});
    const std::string note = wants('b') && !at_b ? "\nB (K x N) is only ever read from shared memory, through b-desc: "
                                                   "give --desc-b for the picture of its bytes"
                                                 : "";
    write_svg(svg, layout_svg(ins.text + note, fr, ds, std::nullopt, {view != "lanes", view != "matrix"}), fr, ds);
    return;
  }
  const bool matrix = view != "lanes", lanes = view != "matrix";
  os << ins.text << "\n";
  os << fmt::format("catalogue row {}, family {}, needs {} and PTX ISA {}; target {}\n", v.row, v.family,
                    v.targets.first, v.ptx_version, arch);
  os << fmt::format("operands, A from a descriptor: {}\n", join(wgmma_operand_names(v, ASource::descriptor)));
  os << fmt::format("operands, A from registers:    {}\n", join(wgmma_operand_names(v, ASource::registers)));
  os << "T<thread>:r<register>[<element>]; thread = 32*w + lane (w: warp of the warpgroup), g = lane >> 2, "
        "t = lane % 4 (docs/wgmma-catalogue.md §0)\n\n";
  if (!addresses.empty()) {
    for (std::uint64_t a : addresses) {
      os << fmt::format("shared byte {:#x}:\n", a);
      if (at_a) print_lookup(os, 'A', *at_a, a);
      if (at_b) print_lookup(os, 'B', *at_b, a);
    }
    return;
  }
  const LayoutLibrary& lib = catalog.layouts();
  if (wants('a')) {
    if (at_a) print_addresses(os, 'A', *at_a, v.a, o.trans_a, matrix);
    else
      print_fragment(os, "A", v.is_sparse() ? "M x K/2: the stored elements, in K order" : "M x K", *v.la, v.a,
                     lib.formula(v.la->name), matrix, lanes, "register form (give --desc-a for the descriptor form)");
    if (v.is_sparse())
      print_metadata(os, "sp-meta: one .b32 register per thread, warp w describing rows 16w..16w+15", "thread",
                     v.pattern, *v.metadata, 4);
  }
  if (wants('b')) {
    if (at_b) print_addresses(os, 'B', *at_b, v.b, o.trans_b, matrix);
    else
      os << fmt::format("B: {} x {} {} (K x N), always read from shared memory through b-desc: give --desc-b to see "
                        "the address of every element\n\n",
                        v.shape.k, v.shape.n, name(v.b));
  }
  if (wants('c') || wants('d'))
    print_fragment(os, "D", "M x N", *v.ld, v.d, lib.formula(v.ld->name), matrix, lanes,
                   "also C: the accumulator registers before the instruction");
}

}  // namespace ptxmma::cli
