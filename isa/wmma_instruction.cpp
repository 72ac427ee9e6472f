#include "isa/wmma_instruction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "isa/instruction_text.hpp"
#include "isa/matrix_legality.hpp"
#include "sim/error.hpp"
#include "sim/util/target.hpp"

namespace ptxmma {

namespace {

constexpr InstructionForm kForm = {"wmma", "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32",
                                   "a wmma instruction (expected wmma.mma, wmma.load or wmma.store)"};

// A layout qualifier (.row or .col) into `l`; false if `t` is neither.
bool take_layout(std::string_view t, MatrixLayout& l) {
  if (t != "row" && t != "col") return false;
  l = t == "row" ? MatrixLayout::row : MatrixLayout::col;
  return true;
}

MmaInstruction parse_wmma_syntax(std::string_view raw) {
  MmaInstruction ins;
  const std::vector<std::string_view> tok = instruction_tokens(raw, ins.text, kForm);
  const Fail fail = fail_with(ins.text);
  const auto at = [&](std::size_t k) { return k < tok.size() ? tok[k] : std::string_view{}; };
  if (at(1) != "mma") fail("expected wmma.mma");
  std::size_t k = 2;
  if (at(k) == "xor" || at(k) == "and") {
    if (at(k + 1) != "popc") fail(fmt::format("'.{}' must be followed by '.popc'", at(k)));
    ins.bitop = at(k) == "xor" ? BitOp::xor_popc : BitOp::and_popc;
    k += 2;
  }
  if (at(k) != "sync" || at(k + 1) != "aligned") fail("expected wmma.mma[.xor.popc|.and.popc].sync.aligned");
  k += 2;
  if (!take_layout(at(k), ins.alayout) || !take_layout(at(k + 1), ins.blayout))
    fail("expected the A and B layouts (.row or .col each) after .sync.aligned");
  k += 2;
  bool have_shape = false;
  if (!take_shape(at(k), ins.shape, have_shape, false, fail)) fail("expected the shape (e.g. .m16n16k16) after the layouts");
  ++k;
  // The PTX ISA writes f64's rounding after the shape; nvcc 13.0 writes it after the types, and
  // ptxas takes either (docs/wmma-catalogue.md).
  const auto take_rounding = [&] {
    const auto r = parse_rounding(at(k));
    if (!r || at(k).empty()) return;
    if (*r == Rounding::rna) fail("unknown rounding '.rna' (f64 takes .rn, .rz, .rm or .rp)");
    if (ins.rounding) fail("the rounding is given twice");
    ins.rounding = r;
    ++k;
  };
  take_rounding();
  std::vector<Type> types;
  for (; k < tok.size(); ++k) {
    const auto t = parse_type(tok[k]);
    if (!t) break;
    types.push_back(*t);
  }
  take_rounding();
  if (at(k) == "satfinite") {
    ins.satfinite = true;
    ++k;
  }
  if (k < tok.size()) fail(fmt::format("unexpected '.{}'", tok[k]));
  if (types.size() == 2) {  // f16: .dtype.ctype
    ins.d = types[0], ins.c = types[1];
    ins.a = ins.b = Type::f16;
  } else if (types.size() == 4) {
    ins.d = types[0], ins.a = types[1], ins.b = types[2], ins.c = types[3];
    if (ins.a == Type::f16 && ins.b == Type::f16) fail("f16 inputs are written with .dtype.ctype only");
  } else {
    fail(fmt::format("expected the types .dtype.ctype (f16) or .dtype.atype.btype.ctype, found {}", types.size()));
  }
  return ins;
}

const MatrixVariant& check_wmma(const MmaInstruction& ins, std::string_view target, const MatrixCatalog& catalog) {
  return check_matrix(ins, target, catalog, [&](const Candidates& all, const Fail& fail) {
    const std::string shape = shape_name(ins.shape);
    const Candidates by_shape = all.narrow([&](const MatrixVariant& v) { return v.shape == ins.shape; });
    if (by_shape.empty())
      fail(fmt::format("unknown shape .{} (wmma.mma shapes: {})", shape,
                       all_of(all.collect([](const MatrixVariant& v) { return shape_name(v.shape); }))));
    const Candidates by_ab = by_input_types(by_shape, ins, shape, fail);
    const Candidates by_layout = by_layouts(by_ab, ins, shape, fail);
    const Candidates by_dc = by_accumulators(by_layout, ins, shape, fail);
    const Candidates by_bitop = by_bit_operation(by_satfinite(by_dc, all, ins, fail), all, ins, fail);
    check_rounding(by_bitop, all, ins, ins.rounding, fail);
    return by_bitop;
  });
}

}  // namespace

MmaInstruction parse_wmma(std::string_view text, std::string_view target, const MatrixCatalog& catalog) {
  try {
    MmaInstruction ins = parse_wmma_syntax(text);
    ins.variant = &check_wmma(ins, target, catalog);
    return ins;
  } catch (const Error& e) {
    rethrow_suggesting(e, text, catalog);
  }
}

MmaInstruction parse_wmma(std::string_view text, std::string_view target) {
  return parse_wmma(text, target, wmma_catalog(target));
}

MmaInstruction parse_warp_mma(std::string_view text, std::string_view target) {
  return trim(text).starts_with("wmma") ? parse_wmma(text, target) : parse_mma(text, target);
}

WmmaTransfer parse_wmma_transfer(std::string_view text, std::string_view target) {
  return parse_wmma_transfer(text, target, wmma_catalog(target));
}

WmmaTransfer parse_wmma_transfer(std::string_view raw, std::string_view target, const MatrixCatalog& catalog) {
  WmmaTransfer x;
  const std::vector<std::string_view> tok = instruction_tokens(raw, x.text, kForm);
  const Fail fail = fail_with(x.text);
  const auto at = [&](std::size_t k) { return k < tok.size() ? tok[k] : std::string_view{}; };
  const bool load = at(1) == "load";
  if (!load && at(1) != "store") fail("expected wmma.load or wmma.store");
  const std::string_view op = at(2);
  if (load && op != "a" && op != "b" && op != "c") fail("expected wmma.load.a, .b or .c");
  if (!load && op != "d") fail("expected wmma.store.d");
  x.operand = op == "a" ? Operand::a : op == "b" ? Operand::b : op == "c" ? Operand::c : Operand::d;
  if (at(3) != "sync" || at(4) != "aligned") fail(fmt::format("expected wmma.{}.{}.sync.aligned", at(1), op));
  if (!take_layout(at(5), x.layout)) fail("expected the layout (.row or .col) after .sync.aligned");
  bool have_shape = false;
  if (!take_shape(at(6), x.shape, have_shape, false, fail)) fail("expected the shape (e.g. .m16n16k16) after the layout");
  std::size_t k = 7;
  if (at(k) == "global" || at(k) == "shared" || at(k) == "shared::cta") x.space = std::string(at(k++));
  const auto t = parse_type(at(k));
  if (!t) fail(at(k).empty() ? std::string("missing the element type") : fmt::format("unknown type '.{}'", at(k)));
  x.type = *t;
  if (k + 1 < tok.size()) fail(fmt::format("unexpected '.{}'", tok[k + 1]));

  // The variants whose operand has this shape and type give the fragment.
  std::vector<const MatrixVariant*> found;
  std::vector<std::string> types;
  for (const MatrixVariant& v : catalog.variants()) {
    if (v.shape != x.shape) continue;
    add_unique(types, std::string(name(v.type(x.operand))));
    if (v.type(x.operand) == x.type) found.push_back(&v);
  }
  const std::string shape = shape_name(x.shape);
  if (types.empty())
    fail(fmt::format("unknown shape .{} (wmma shapes: {})", shape, all_of([&] {
                       std::vector<std::string> s;
                       for (const MatrixVariant& v : catalog.variants()) add_unique(s, shape_name(v.shape));
                       return s;
                     }())));
  if (found.empty())
    fail(fmt::format("{} of {} is {}, not {}", name(x.operand), shape, one_of(types), name(x.type)));
  const auto memory = [&](const MatrixVariant* v) {
    return x.operand == Operand::a ? v->alayout : x.operand == Operand::b ? v->blayout : x.layout;
  };
  const auto same = std::find_if(found.begin(), found.end(), [&](const MatrixVariant* v) { return memory(v) == x.layout; });
  // Sub-byte A and B exist only as row.col: A row-major, B column-major.
  if (same == found.end())
    fail(fmt::format("{} {} of {} is loaded .{} only", name(x.type), name(x.operand), shape, name(memory(found.front()))));
  x.fragment = &(*same)->layout(x.operand);
  x.bits = element_bits(x.type, Container::packed);
  const auto legal = std::find_if(found.begin(), found.end(),
                                  [&](const MatrixVariant* v) { return !target_shortfall(v->targets, target); });
  if (legal == found.end()) fail(*target_shortfall(found.front()->targets, target));
  return x;
}

}  // namespace ptxmma
