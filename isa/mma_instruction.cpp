#include "isa/mma_instruction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "isa/instruction_text.hpp"
#include "isa/matrix_legality.hpp"
#include "sim/error.hpp"

namespace ptxmma {

namespace {

// ---- qualifier tables ---------------------------------------------------------------------------

enum class Cls : std::uint8_t { layout, rounding, satfinite, bitop, popc, kind, block_scale, scale_vec };

struct Qualifier {
  std::string_view token;
  Cls cls;
  int value;  // MatrixLayout, Rounding, BitOp, MmaKind or the scale vector size, by class
};

constexpr std::array<Qualifier, 19> kQualifiers = {{
    {"row", Cls::layout, static_cast<int>(MatrixLayout::row)},
    {"col", Cls::layout, static_cast<int>(MatrixLayout::col)},
    {"rn", Cls::rounding, static_cast<int>(Rounding::rn)},
    {"rna", Cls::rounding, static_cast<int>(Rounding::rna)},
    {"rz", Cls::rounding, static_cast<int>(Rounding::rz)},
    {"rm", Cls::rounding, static_cast<int>(Rounding::rm)},
    {"rp", Cls::rounding, static_cast<int>(Rounding::rp)},
    {"satfinite", Cls::satfinite, 0},
    {"xor", Cls::bitop, static_cast<int>(BitOp::xor_popc)},
    {"and", Cls::bitop, static_cast<int>(BitOp::and_popc)},
    {"popc", Cls::popc, 0},
    {"kind::f8f6f4", Cls::kind, static_cast<int>(MmaKind::f8f6f4)},
    {"kind::mxf8f6f4", Cls::kind, static_cast<int>(MmaKind::mxf8f6f4)},
    {"kind::mxf4", Cls::kind, static_cast<int>(MmaKind::mxf4)},
    {"kind::mxf4nvf4", Cls::kind, static_cast<int>(MmaKind::mxf4nvf4)},
    {"block_scale", Cls::block_scale, 0},
    {"scale_vec::1X", Cls::scale_vec, 1},
    {"scale_vec::2X", Cls::scale_vec, 2},
    {"scale_vec::4X", Cls::scale_vec, 4},
}};

const Qualifier* find_qualifier(std::string_view tok) {
  for (const Qualifier& q : kQualifiers)
    if (q.token == tok) return &q;
  return nullptr;
}

constexpr InstructionForm kForm = {"mma", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                                   "an mma instruction (expected mma.sync.aligned...)"};

std::string scale_text(int vec, std::optional<Type> stype) {
  return fmt::format(".scale_vec::{}X with .{}", vec, stype ? name(*stype) : "?");
}

}  // namespace

// ---- syntax ----------------------------------------------------------------------------------------

MmaInstruction parse_mma_syntax(std::string_view raw) {
  MmaInstruction ins;
  std::vector<std::string_view> tok = instruction_tokens(raw, ins.text, kForm);
  const Fail fail = fail_with(ins.text);
  if (tok.size() > 1 && (tok[1] == "sp" || tok[1] == "sp::ordered_metadata")) {
    ins.sparse = tok[1] == "sp" ? Sparsity::sp : Sparsity::ordered;
    tok.erase(tok.begin() + 1);
  }
  if (tok.size() < 3 || tok[1] != "sync" || tok[2] != "aligned")
    fail(ins.sparse == Sparsity::dense ? "expected mma.sync.aligned" : fmt::format("expected mma.{}.sync.aligned", name(ins.sparse)));

  enum Phase { before_types, in_types, after_types } phase = before_types;
  bool have_shape = false, have_kind = false, have_rounding = false;
  int layouts = 0;
  std::vector<Type> types;
  std::string_view prev = "aligned";  // previous token, for order rules
  for (std::size_t k = 3; k < tok.size(); ++k) {
    const std::string_view t = tok[k];
    if (t.empty()) fail(k + 1 == tok.size() ? "trailing '.'" : "empty qualifier (two dots in a row)");
    if (const auto ty = parse_type(t)) {
      if (phase == after_types)
        fail(fmt::format("unexpected type '.{}' after '.{}' (the types .dtype.atype.btype.ctype come together)", t, prev));
      phase = in_types;
      types.push_back(*ty);
      prev = t;
      continue;
    }
    if (phase == in_types) phase = after_types;
    if (take_shape(t, ins.shape, have_shape, phase != before_types, fail)) {
      prev = t;
      continue;
    }
    const Qualifier* q = find_qualifier(t);
    if (!q) fail(fmt::format("unknown qualifier '.{}'", t));
    const auto once = [&](bool& seen, std::string_view what) {
      if (seen) fail(fmt::format("{} given twice", what));
      seen = true;
    };
    const auto before = [&](std::string_view what) {
      if (phase != before_types) fail(fmt::format("'.{}' must come before the types", what));
    };
    switch (q->cls) {
      case Cls::layout:
        if (!have_shape) fail(fmt::format("missing the shape (e.g. .m16n8k16) before '.{}'", t));
        if (layouts == 2) fail(fmt::format("a third layout '.{}' (A and B take one each: .row.col)", t));
        if (const Qualifier* p = find_qualifier(prev); !parse_shape(prev) && !(p && p->cls == Cls::layout))
          fail(fmt::format("the layout '.{}' must come right after the shape", t));
        (layouts == 0 ? ins.alayout : ins.blayout) = static_cast<MatrixLayout>(q->value);
        ++layouts;
        break;
      case Cls::rounding:
        if (have_rounding)
          fail(fmt::format("two rounding modifiers: .{} and .{}", name(*ins.rounding), t));
        have_rounding = true;
        ins.rounding = static_cast<Rounding>(q->value);
        break;
      case Cls::satfinite: once(ins.satfinite, "'.satfinite'"); break;
      case Cls::bitop: {
        if (phase != after_types) fail(fmt::format("'.{}.popc' must come after the types (...s32.b1.b1.s32.{}.popc)", t, t));
        if (ins.bitop != BitOp::none) fail(fmt::format("two bit operations: .{} and .{}", name(ins.bitop), t));
        if (k + 1 >= tok.size() || tok[k + 1] != "popc") fail(fmt::format("'.{}' must be followed by '.popc'", t));
        ins.bitop = static_cast<BitOp>(q->value);
        ++k;
        prev = "popc";
        continue;
      }
      case Cls::popc: fail("'.popc' must follow '.xor' or '.and'"); break;
      case Cls::kind:
        before(t);
        if (have_kind) fail(fmt::format("two kinds: .kind::{} and .{}", name(ins.kind), t));
        have_kind = true;
        ins.kind = static_cast<MmaKind>(q->value);
        break;
      case Cls::block_scale:
        before(t);
        once(ins.block_scale, "'.block_scale'");
        break;
      case Cls::scale_vec:
        before(t);
        if (!ins.block_scale) fail(fmt::format("'.{}' must follow '.block_scale'", t));
        if (ins.scale_vec) fail(fmt::format("two scale vectors: .scale_vec::{}X and .{}", ins.scale_vec, t));
        ins.scale_vec = q->value;
        break;
    }
    prev = t;
  }

  if (!have_shape) fail("missing the shape (e.g. .m16n8k16)");
  if (layouts == 0) fail(fmt::format("missing the layouts after .{} (.row.col)", shape_name(ins.shape)));
  if (layouts == 1) fail("only one layout; A and B need one each (.row.col)");
  const std::size_t want = ins.block_scale ? 5 : 4;
  if (types.size() != want) {
    if (ins.block_scale)
      fail(fmt::format("expected 5 types with .block_scale (.dtype.atype.btype.ctype.stype), found {}", types.size()));
    fail(fmt::format("expected 4 types (.dtype.atype.btype.ctype), found {}", types.size()));
  }
  ins.d = types[0], ins.a = types[1], ins.b = types[2], ins.c = types[3];
  if (ins.block_scale) ins.stype = types[4];
  return ins;
}

// ---- legality against the catalogue ----------------------------------------------------------------

const MatrixVariant& check_mma(const MmaInstruction& ins, std::string_view target, const MatrixCatalog& catalog) {
  return check_matrix(ins, target, catalog, [&](const Candidates& all, const Fail& fail) {
    using V = MatrixVariant;
    const std::string shape = shape_name(ins.shape);
    const std::string inputs = inputs_text(ins);
    const std::string kind_text = ins.kind == MmaKind::none ? "" : fmt::format(".kind::{}", name(ins.kind));

    // 1. shape
    const Candidates by_shape = all.narrow([&](const V& v) { return v.shape == ins.shape; });
    if (by_shape.empty())
      fail(fmt::format("unknown shape .{} (mma{} shapes: {})", shape,
                       ins.sparse == Sparsity::dense ? ".sync" : fmt::format(".{}", name(ins.sparse)),
                       all_of(all.collect([](const V& v) { return shape_name(v.shape); }))));
    // 2. a kind that does not exist for this shape (or in this sparse spelling)
    const Candidates of_kind = all.narrow([&](const V& v) { return v.kind == ins.kind; });
    if (ins.kind != MmaKind::none && ins.sparse != Sparsity::dense && of_kind.empty())
      fail(fmt::format("sparse {} is only mma.sp::ordered_metadata", kind_text));
    if (ins.kind != MmaKind::none && by_shape.narrow([&](const V& v) { return v.kind == ins.kind; }).empty())
      fail(fmt::format("{} needs shape {}; the shape is {}", kind_text,
                       one_of(of_kind.collect([](const V& v) { return shape_name(v.shape); })), shape));
    // 3. A and B types
    const Candidates by_ab = by_input_types(by_shape, ins, shape, fail);
    // 4. kind
    const Candidates by_kind = by_ab.narrow([&](const V& v) { return v.kind == ins.kind; });
    if (by_kind.empty()) {
      const auto kinds = by_ab.collect([](const V& v) {
        return v.kind == MmaKind::none ? std::string("no .kind") : fmt::format(".kind::{}", name(v.kind));
      });
      if (ins.kind == MmaKind::none) fail(fmt::format("{} on {} need {}", inputs, shape, one_of(kinds)));
      if (kinds.size() == 1 && kinds[0] == "no .kind")
        fail(fmt::format("{} on {} take no .kind qualifier", inputs, shape));
      fail(fmt::format("{} on {} take {}, not {}", inputs, shape, one_of(kinds), kind_text));
    }
    // 5. block scaling
    const Candidates by_bs = by_kind.narrow([&](const V& v) { return v.block_scale == ins.block_scale; });
    if (by_bs.empty()) {
      if (ins.block_scale && ins.kind == MmaKind::none)
        fail(fmt::format(".block_scale needs {}",
                         one_of(all.narrow([](const V& v) { return v.block_scale; }).collect([](const V& v) {
                           return fmt::format(".kind::{}", name(v.kind));
                         }))));
      if (ins.block_scale) fail(fmt::format("{} takes no .block_scale", kind_text));
      fail(fmt::format("{} needs .block_scale", kind_text));
    }
    const Candidates by_scale = by_bs.narrow([&](const V& v) {
      return v.stype == ins.stype && (v.scale_vec == ins.scale_vec || (ins.scale_vec == 0 && v.scale_vec_is_default));
    });
    if (by_scale.empty()) {
      if (ins.scale_vec == 0 && std::none_of(by_bs.begin(), by_bs.end(), [](auto* v) { return v->scale_vec_is_default; }))
        fail(fmt::format("{} needs {}", kind_text,
                         one_of(by_bs.collect([](const V& v) { return fmt::format(".scale_vec::{}X", v.scale_vec); }))));
      int given = ins.scale_vec;
      for (const V* v : by_bs)
        if (given == 0 && v->scale_vec_is_default) given = v->scale_vec;
      fail(fmt::format("{} takes {}, not {}", kind_text,
                       one_of(by_bs.collect([](const V& v) { return scale_text(v.scale_vec, v.stype); })),
                       scale_text(given, ins.stype)));
    }
    // 6. layouts, 7. C and D types, 8. .satfinite, 9. b1 bit operation, 10. rounding
    const Candidates by_layout = by_layouts(by_scale, ins, shape, fail);
    const Candidates by_dc = by_accumulators(by_layout, ins, shape, fail);
    const Candidates by_bitop = by_bit_operation(by_satfinite(by_dc, all, ins, fail), all, ins, fail);
    check_rounding(by_bitop, all, ins, ins.rounding, fail);
    return by_bitop;
  });
}

MmaInstruction parse_mma(std::string_view text, std::string_view target, const MatrixCatalog& catalog) {
  try {
    MmaInstruction ins = parse_mma_syntax(text);
    ins.variant = &check_mma(ins, target, catalog);
    return ins;
  } catch (const Error& e) {
    rethrow_suggesting(e, text, catalog);
  }
}

}  // namespace ptxmma
