// Decoders of the arithmetic, logic, move, conversion and comparison families.
#include <fmt/format.h>

#include <algorithm>

#include "isa/cvt_target.hpp"
#include "isa/ptx_decode.hpp"
#include "sim/util/target.hpp"

namespace ptxmma::ptx::decode {
namespace {

PtxType one_type(const Instruction& ins, Quals& q, std::initializer_list<PtxType> allowed) {
  const auto ts = q.types();
  if (ts.empty()) fail(ins, fmt::format("'{}' needs a type (e.g. .{})", ins.text, name(*allowed.begin())));
  if (ts.size() > 1) fail(ins, fmt::format("'{}' has {} types; it takes one", ins.text, ts.size()));
  for (const PtxType t : allowed)
    if (t == ts[0]) return t;
  std::string list;
  for (const PtxType t : allowed) list += (list.empty() ? "." : ", .") + std::string(name(t));
  fail(ins, fmt::format("'{}': .{} is not a type of '{}' (it takes {})", ins.text, name(ts[0]), ins.opcode, list));
}

bool is_float(PtxType t) { return type_class(t) == TypeClass::floating; }

PtxType widened(PtxType t) {
  switch (t) {
    case PtxType::u16: return PtxType::u32;
    case PtxType::u32: return PtxType::u64;
    case PtxType::s16: return PtxType::s32;
    case PtxType::s32: return PtxType::s64;
    default: return PtxType::none;
  }
}

std::optional<Rounding> float_rounding(Quals& q, const Instruction& ins, bool rna_ok = false) {
  const std::string_view r = q.take_one({"rn", "rz", "rm", "rp", "rna"}, "rounding");
  if (r.empty()) return std::nullopt;
  if (r == "rna" && !rna_ok) fail(ins, fmt::format("'{}': .rna is only a rounding of cvt", ins.text));
  return parse_rounding(r);
}

constexpr std::initializer_list<PtxType> kIntTypes = {PtxType::u16, PtxType::u32, PtxType::u64, PtxType::s16,
                                                      PtxType::s32, PtxType::s64};

// add sub mul mad fma min max neg abs div rem
void arith(Instruction& ins, const DecodeContext& cx, int arity) {
  Quals q(ins);
  const std::string& op = ins.opcode;
  const bool fma = op == "fma";
  const std::vector<PtxType> allowed_float = {PtxType::f16, PtxType::f16x2, PtxType::bf16, PtxType::bf16x2,
                                              PtxType::f32, PtxType::f64};
  std::vector<PtxType> allowed;
  if (op != "fma") allowed.insert(allowed.end(), kIntTypes.begin(), kIntTypes.end());
  if (op == "div") allowed.insert(allowed.end(), {PtxType::f32, PtxType::f64});
  else if (op != "rem") allowed.insert(allowed.end(), allowed_float.begin(), allowed_float.end());
  if (op == "neg" || op == "abs") std::erase_if(allowed, [](PtxType t) { return type_class(t) == TypeClass::unsigned_int; });
  const auto ts = q.types();
  if (ts.size() != 1) fail(ins, fmt::format("'{}' needs exactly one type, found {}", ins.text, ts.size()));
  const PtxType t = ts[0];
  if (std::find(allowed.begin(), allowed.end(), t) == allowed.end()) {
    fail(ins, fmt::format("'{}': .{} is not a type of '{}'", ins.text, name(t), op));
  }
  Decoded& d = ins.d;
  d.type = t;
  if (is_float(t)) {
    d.rnd = float_rounding(q, ins);
    d.ftz = q.take("ftz");
    d.sat = q.take("sat");
    if (op == "min" || op == "max") {
      d.mode = q.take("NaN") ? 1 : 0;
      if (q.take("xorsign")) fail(ins, fmt::format("'{}': .xorsign is not supported", ins.text));
      if (d.rnd) fail(ins, fmt::format("'{}': min and max take no rounding modifier", ins.text));
      if (d.sat) fail(ins, fmt::format("'{}': min and max take no .sat", ins.text));
    }
    if (op == "neg" || op == "abs") {
      if (d.rnd || d.sat) fail(ins, fmt::format("'{}': neg and abs take only .ftz", ins.text));
    }
    if (op == "div") {
      if (q.take("approx") || q.take("full"))
        fail(ins, fmt::format("'{}': approximate division is not modelled (its error bound is not bit-exact); use "
                              "div.rn/.rz/.rm/.rp", ins.text));
      if (!d.rnd) fail(ins, fmt::format("'{}' needs a rounding modifier (.rn, .rz, .rm or .rp)", ins.text));
    }
    if (op == "fma" || op == "mad") {
      if (!d.rnd) fail(ins, fmt::format("'{}' needs a rounding modifier (.rn, .rz, .rm or .rp)", ins.text));
      d.relu = q.take("relu");
      if (d.relu && (t == PtxType::f32 || t == PtxType::f64))
        fail(ins, fmt::format("'{}': .relu applies to .f16/.bf16 fma only", ins.text));
    }
    if ((t == PtxType::f16 || t == PtxType::f16x2 || t == PtxType::bf16 || t == PtxType::bf16x2) && d.rnd &&
        *d.rnd != Rounding::rn)
      fail(ins, fmt::format("'{}': .{} instructions take only .rn", ins.text, name(t)));
    if (t == PtxType::f64 && d.ftz) fail(ins, fmt::format("'{}': .ftz does not apply to .f64", ins.text));
    if (t == PtxType::f64 && d.sat) fail(ins, fmt::format("'{}': .sat does not apply to .f64", ins.text));
    if ((t == PtxType::bf16 || t == PtxType::bf16x2) && d.ftz)
      fail(ins, fmt::format("'{}': .ftz does not apply to .{}", ins.text, name(t)));
    if (q.take_one({"lo", "hi", "wide"}, "mode") != "")
      fail(ins, fmt::format("'{}': .lo/.hi/.wide apply to integer multiplies only", ins.text));
  } else {
    if (op == "mul" || op == "mad") {
      const std::string_view m = q.take_one({"lo", "hi", "wide"}, "multiply mode");
      if (m.empty()) fail(ins, fmt::format("'{}' needs .lo, .hi or .wide", ins.text));
      d.mode = static_cast<int>(m == "lo" ? MulMode::lo : m == "hi" ? MulMode::hi : MulMode::wide);
      if (m == "wide" && widened(t) == PtxType::none)
        fail(ins, fmt::format("'{}': .wide takes .16 or .32 types", ins.text));
    }
    d.sat = q.take("sat");
    if (d.sat && !((op == "add" || op == "sub") && t == PtxType::s32) &&
        !(op == "mad" && t == PtxType::s32 && d.mode == static_cast<int>(MulMode::hi)))
      fail(ins, fmt::format("'{}': .sat applies to .s32 add, sub and mad.hi only", ins.text));
    if (q.take("cc")) fail(ins, fmt::format("'{}': carry (.cc) is not supported", ins.text));
    (void)fma;
  }
  q.finish();
  count(ins, static_cast<std::size_t>(arity) + 1);
  const bool wide = d.mode == static_cast<int>(MulMode::wide) && !is_float(t);
  const PtxType dt = wide ? widened(t) : t;
  const Program& p = cx.program;
  reg(p, ins, ins.ops[0], dt, "the destination");
  static constexpr std::string_view kNames[] = {"operand a", "operand b", "operand c"};
  for (int i = 1; i <= arity; ++i) {
    const PtxType st = (i == 3 && wide) ? dt : t;
    value(p, ins, ins.ops[static_cast<std::size_t>(i)], st, kNames[i - 1]);
  }
}

void dec_add(Instruction& i, const DecodeContext& c) { arith(i, c, 2); }
void dec_mul(Instruction& i, const DecodeContext& c) { arith(i, c, 2); }
void dec_mad(Instruction& i, const DecodeContext& c) { arith(i, c, 3); }
void dec_unary(Instruction& i, const DecodeContext& c) { arith(i, c, 1); }

// and or xor not cnot
void dec_logic(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const bool unary = ins.opcode == "not" || ins.opcode == "cnot";
  const PtxType t = ins.opcode == "cnot" ? one_type(ins, q, {PtxType::b16, PtxType::b32, PtxType::b64})
                                         : one_type(ins, q, {PtxType::pred, PtxType::b16, PtxType::b32, PtxType::b64});
  q.finish();
  ins.d.type = t;
  count(ins, unary ? 2 : 3);
  const Program& p = cx.program;
  if (t == PtxType::pred) {
    pred(p, ins, ins.ops[0], "the destination", false);
    for (std::size_t i = 1; i < ins.ops.size(); ++i) pred(p, ins, ins.ops[i], i == 1 ? "operand a" : "operand b", false);
    return;
  }
  reg(p, ins, ins.ops[0], t, "the destination");
  for (std::size_t i = 1; i < ins.ops.size(); ++i) value(p, ins, ins.ops[i], t, i == 1 ? "operand a" : "operand b");
}

void dec_shift(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = ins.opcode == "shl"
                        ? one_type(ins, q, {PtxType::b16, PtxType::b32, PtxType::b64})
                        : one_type(ins, q, {PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u16, PtxType::u32,
                                            PtxType::u64, PtxType::s16, PtxType::s32, PtxType::s64});
  q.finish();
  ins.d.type = t;
  count(ins, 3);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
  value(cx.program, ins, ins.ops[2], PtxType::u32, "the shift amount");
}

void dec_bfe(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = one_type(ins, q, {PtxType::u32, PtxType::u64, PtxType::s32, PtxType::s64});
  q.finish();
  ins.d.type = t;
  count(ins, 4);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
  value(cx.program, ins, ins.ops[2], PtxType::u32, "the position");
  value(cx.program, ins, ins.ops[3], PtxType::u32, "the length");
}

void dec_bfi(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = one_type(ins, q, {PtxType::b32, PtxType::b64});
  q.finish();
  ins.d.type = t;
  count(ins, 5);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a (the field)");
  value(cx.program, ins, ins.ops[2], t, "operand b (the base)");
  value(cx.program, ins, ins.ops[3], PtxType::u32, "the position");
  value(cx.program, ins, ins.ops[4], PtxType::u32, "the length");
}

void dec_prmt(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = one_type(ins, q, {PtxType::b32});
  const std::string_view m = q.take_one({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}, "prmt mode");
  q.finish();
  ins.d.type = t;
  ins.d.mode = static_cast<int>(m.empty() ? PrmtMode::none
                                : m == "f4e"  ? PrmtMode::f4e
                                : m == "b4e"  ? PrmtMode::b4e
                                : m == "rc8"  ? PrmtMode::rc8
                                : m == "ecl"  ? PrmtMode::ecl
                                : m == "ecr"  ? PrmtMode::ecr
                                              : PrmtMode::rc16);
  count(ins, 4);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
  value(cx.program, ins, ins.ops[2], t, "operand b");
  value(cx.program, ins, ins.ops[3], t, "the selector");
}

void dec_lop3(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = one_type(ins, q, {PtxType::b32});
  q.finish();
  ins.d.type = t;
  count(ins, 5);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
  value(cx.program, ins, ins.ops[2], t, "operand b");
  value(cx.program, ins, ins.ops[3], t, "operand c");
  const std::int64_t lut = integer(ins, ins.ops[4], "the lookup table");
  if (lut < 0 || lut > 255) fail(ins.ops[4].loc, fmt::format("'{}': the lookup table must be 0..255", ins.text));
}

// popc clz brev
void dec_bitcount(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = one_type(ins, q, {PtxType::b32, PtxType::b64});
  q.finish();
  ins.d.type = t;
  count(ins, 2);
  reg(cx.program, ins, ins.ops[0], ins.opcode == "brev" ? t : PtxType::u32, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
}

// bfind{.shiftamt}.type d, a
void dec_bfind(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = one_type(ins, q, {PtxType::u32, PtxType::u64, PtxType::s32, PtxType::s64});
  ins.d.mode = q.take("shiftamt") ? 1 : 0;
  q.finish();
  ins.d.type = t;
  count(ins, 2);
  reg(cx.program, ins, ins.ops[0], PtxType::u32, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
}

// shf.{l,r}.{clamp,wrap}.b32 d, a, b, c: a funnel shift of the 64-bit b:a.
void dec_shf(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const std::string_view dir = q.take_one({"l", "r"}, "shift direction");
  const std::string_view mode = q.take_one({"clamp", "wrap"}, "shift mode");
  const PtxType t = one_type(ins, q, {PtxType::b32});
  q.finish();
  if (dir.empty() || mode.empty()) fail(ins, fmt::format("'{}' needs .l or .r and .clamp or .wrap", ins.text));
  ins.d.type = t;
  ins.d.mode = dir == "l" ? 0 : 1;
  ins.d.mode2 = mode == "wrap" ? 1 : 0;
  count(ins, 4);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
  value(cx.program, ins, ins.ops[2], t, "operand b");
  value(cx.program, ins, ins.ops[3], PtxType::u32, "the shift amount");
}

// mov.type d, a | mov.type d, {a, b, ...} | mov.type {a, b, ...}, d
void dec_mov(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t =
      one_type(ins, q,
               {PtxType::pred, PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u16, PtxType::u32, PtxType::u64,
                PtxType::s16, PtxType::s32, PtxType::s64, PtxType::f16, PtxType::f16x2, PtxType::bf16,
                PtxType::bf16x2, PtxType::f32, PtxType::f64});
  q.finish();
  ins.d.type = t;
  count(ins, 2);
  const Program& p = cx.program;
  Operand& dst = ins.ops[0];
  Operand& src = ins.ops[1];
  const auto elements = [&](Operand& v, std::string_view what) {
    if (type_class(t) != TypeClass::bits)
      fail(v.loc, fmt::format("'{}': packing and unpacking need a .b16, .b32 or .b64 type", ins.text));
    const std::size_t n = v.elems.size();
    const int w = bits(t) / static_cast<int>(n);
    if ((n != 2 && n != 4) || (w != 8 && w != 16 && w != 32))
      fail(v.loc, fmt::format("'{}': {} has {} elements; .{} packs 2 or 4 elements of 8, 16 or 32 bits", ins.text,
                              what, n, name(t)));
    const PtxType et = w == 8 ? PtxType::b8 : w == 16 ? PtxType::b16 : PtxType::b32;
    for (Operand& e : v.elems) {
      if (e.kind == Operand::Kind::sink && &v == &dst) continue;
      if (&v == &dst)
        reg(p, ins, e, et, fmt::format("an element of {}", what));
      else
        value(p, ins, e, et, fmt::format("an element of {}", what));
    }
  };
  if (dst.kind == Operand::Kind::vec) {
    if (src.kind == Operand::Kind::vec) fail(src.loc, fmt::format("'{}': both operands are vectors", ins.text));
    elements(dst, "the destination");
    value(p, ins, src, t, "the source");
    return;
  }
  if (t == PtxType::pred) {
    pred(p, ins, dst, "the destination", false);
    pred(p, ins, src, "the source", false);
    return;
  }
  reg(p, ins, dst, t, "the destination");
  if (src.kind == Operand::Kind::vec) {
    elements(src, "the source");
    return;
  }
  value(p, ins, src, t, "the source");
}

// cvta{.to}.space.size d, a: the interpreter's generic addresses are the spaces' own, except
// shared, which sits in a window (sim/exec/interpreter.hpp).
void dec_cvta(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const bool to = q.take("to");
  const std::string_view s = q.take_one({"shared", "shared::cta", "global", "local", "const", "param"}, "state space");
  if (s.empty()) fail(ins, fmt::format("'{}' needs a state space (.shared, .global, ...)", ins.text));
  const PtxType t = one_type(ins, q, {PtxType::u32, PtxType::u64});
  q.finish();
  ins.d.type = t;
  ins.d.space = s.starts_with("shared") ? Space::shared : s == "global" ? Space::global : Space::local;
  ins.d.mode = to ? 1 : 0;
  count(ins, 2);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "the address");
}

CmpOp parse_cmp(const Instruction& ins, Quals& q) {
  static constexpr std::string_view kOps[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                              "hs",  "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  const std::string_view c = q.take_one({"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu",
                                         "ltu", "leu", "gtu", "geu", "num", "nan"},
                                        "comparison");
  if (c.empty()) fail(ins, fmt::format("'{}' needs a comparison (.eq, .lt, ...)", ins.text));
  for (std::size_t i = 0; i < std::size(kOps); ++i)
    if (kOps[i] == c) return static_cast<CmpOp>(i);
  return CmpOp::eq;
}

void check_cmp(const Instruction& ins, CmpOp c, PtxType t) {
  const bool fl = is_float(t);
  const bool unordered = c >= CmpOp::equ;
  const bool unsigned_only = c >= CmpOp::lo && c <= CmpOp::hs;
  if (fl && unsigned_only) fail(ins, fmt::format("'{}': .lo/.ls/.hi/.hs compare integers", ins.text));
  if (!fl && unordered) fail(ins, fmt::format("'{}': .{} compares floating-point values", ins.text, ins.quals[0]));
}

void dec_setp(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const CmpOp c = parse_cmp(ins, q);
  const std::string_view b = q.take_one({"and", "or", "xor"}, "boolean operation");
  const bool ftz = q.take("ftz");
  const PtxType t =
      one_type(ins, q,
               {PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u16, PtxType::u32, PtxType::u64, PtxType::s16,
                PtxType::s32, PtxType::s64, PtxType::f16, PtxType::f16x2, PtxType::bf16, PtxType::bf16x2,
                PtxType::f32, PtxType::f64});
  q.finish();
  check_cmp(ins, c, t);
  if (type_class(t) == TypeClass::bits && c != CmpOp::eq && c != CmpOp::ne)
    fail(ins, fmt::format("'{}': .b types compare only .eq and .ne", ins.text));
  if (lanes_of(t) == 2) fail(ins, fmt::format("'{}': packed comparisons are not supported", ins.text));
  Decoded& d = ins.d;
  d.type = t;
  d.mode = static_cast<int>(c);
  d.mode2 = static_cast<int>(b.empty() ? BoolOp::none : b == "and" ? BoolOp::and_ : b == "or" ? BoolOp::or_ : BoolOp::xor_);
  d.ftz = ftz;
  count(ins, b.empty() ? 3 : 4);
  const Program& p = cx.program;
  Operand& dst = ins.ops[0];
  if (dst.kind == Operand::Kind::vec && dst.text == "|") {
    pred(p, ins, dst.elems[0], "the destination", false);
    pred(p, ins, dst.elems[1], "the second destination", false);
  } else {
    pred(p, ins, dst, "the destination", false);
  }
  value(p, ins, ins.ops[1], t, "operand a");
  value(p, ins, ins.ops[2], t, "operand b");
  if (!b.empty()) pred(p, ins, ins.ops[3], "operand c", true);
}

void dec_selp(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = one_type(ins, q,
                             {PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u16, PtxType::u32, PtxType::u64,
                              PtxType::s16, PtxType::s32, PtxType::s64, PtxType::f32, PtxType::f64, PtxType::f16,
                              PtxType::f16x2, PtxType::bf16, PtxType::bf16x2});
  q.finish();
  ins.d.type = t;
  count(ins, 4);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
  value(cx.program, ins, ins.ops[2], t, "operand b");
  pred(cx.program, ins, ins.ops[3], "the selector", true);
}

bool narrow_packed(PtxType t) { return type_class(t) == TypeClass::narrow && t != PtxType::tf32; }

// cvt{.irnd|.frnd}{.ftz}{.sat}{.relu}{.satfinite}.dtype.atype d, a{, b}
void dec_cvt(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  Decoded& d = ins.d;
  const std::string_view irnd = q.take_one({"rni", "rzi", "rmi", "rpi"}, "integer rounding");
  d.rnd = float_rounding(q, ins, true);
  if (!irnd.empty()) {
    if (d.rnd) fail(ins, fmt::format("'{}': two roundings", ins.text));
    d.rnd = parse_rounding(irnd.substr(0, 2));
    d.int_rnd = true;
  }
  d.ftz = q.take("ftz");
  d.sat = q.take("sat");
  d.relu = q.take("relu");
  d.satfinite = q.take("satfinite");
  const auto ts = q.types();
  q.finish();
  if (ts.size() != 2) fail(ins, fmt::format("'{}' needs two types (.dtype.atype), found {}", ins.text, ts.size()));
  const PtxType dt = ts[0], st = ts[1];
  d.type = dt;
  d.type2 = st;
  const auto bad = [&](const std::string& why) { fail(ins, fmt::format("'{}': {}", ins.text, why)); };
  for (const PtxType t : ts)
    if (t == PtxType::pred || type_class(t) == TypeClass::bits)
      bad(fmt::format(".{} is not a type of cvt", name(t)));
  const bool dfl = is_float(dt) || dt == PtxType::tf32, sfl = is_float(st);
  const bool two_sources = (narrow_packed(dt) || lanes_of(dt) == 2) && st == PtxType::f32;
  // Which conversions exist.
  if (narrow_packed(st) || narrow_packed(dt) || lanes_of(dt) == 2 || lanes_of(st) == 2 || dt == PtxType::tf32) {
    const bool down_pair = two_sources || (narrow_packed(dt) && (st == PtxType::f16x2 || st == PtxType::bf16x2));
    const bool up_pair = narrow_packed(st) && (dt == PtxType::f16x2 || dt == PtxType::bf16x2);
    const bool tf32 = dt == PtxType::tf32 && st == PtxType::f32;
    if (!down_pair && !up_pair && !tf32) bad(fmt::format("no conversion from .{} to .{}", name(st), name(dt)));
    if (lanes_of(dt) == 4 || lanes_of(st) == 4) bad("the x4 conversions (.rs) are not supported");
    if (down_pair && narrow_packed(dt)) {
      if (dt == PtxType::ue8m0x2) {
        if (!d.rnd || (*d.rnd != Rounding::rz && *d.rnd != Rounding::rp)) bad("conversions to .ue8m0x2 need .rz or .rp");
      } else {
        if (!d.rnd || *d.rnd != Rounding::rn) bad(fmt::format("conversions to .{} need .rn", name(dt)));
        if (!d.satfinite) bad(fmt::format("conversions to .{} need .satfinite", name(dt)));
      }
    } else if (down_pair) {
      if (!d.rnd) bad(fmt::format("conversions to .{} need a rounding modifier", name(dt)));
    }
    if (up_pair && d.rnd && *d.rnd != Rounding::rn) bad(fmt::format("conversions from .{} take only .rn", name(st)));
    if (up_pair && d.satfinite) bad(fmt::format("conversions from .{} take no .satfinite", name(st)));
    if (tf32 && !d.rnd) bad("cvt to .tf32 needs .rna, .rn or .rz");
    if (tf32 && d.rnd && *d.rnd != Rounding::rna && *d.rnd != Rounding::rn && *d.rnd != Rounding::rz)
      bad("cvt to .tf32 takes .rna, .rn or .rz");
    if (d.int_rnd) bad("integer roundings do not apply to packed conversions");
    if (d.sat) bad(".sat does not apply here (use .satfinite)");
    d.mode = tf32 ? 3 : up_pair ? 2 : 1;  // 1: pack (down), 2: unpack (up), 3: tf32
  } else {
    d.mode = 0;  // scalar
    const int db = bits(dt), sb = bits(st);
    if (dfl && sfl) {
      const bool narrowing = db < sb || (db == sb && dt != st);
      if (narrowing && !d.rnd) bad("a narrowing float conversion needs a rounding modifier (.rn, .rz, .rm, .rp)");
      if (d.int_rnd && dt != st && db < sb) bad("an integer rounding needs the same or a wider float type");
    } else if (dfl && !sfl) {
      if (d.int_rnd) bad("an integer-to-float conversion takes .rn, .rz, .rm or .rp");
    } else if (!dfl && sfl) {
      if (!d.rnd || !d.int_rnd) bad("a float-to-integer conversion needs .rni, .rzi, .rmi or .rpi");
    } else {
      if (d.rnd) bad("an integer conversion takes no rounding modifier");
    }
    if (d.satfinite && !(dfl && (dt == PtxType::f16 || dt == PtxType::bf16)))
      bad(".satfinite applies to conversions to .f16, .bf16 and the packed formats");
    if (d.relu && !(dt == PtxType::f16 || dt == PtxType::bf16)) bad(".relu applies to conversions to .f16 and .bf16");
  }
  if (d.ftz && st != PtxType::f32 && dt != PtxType::f32) bad(".ftz applies to .f32 conversions only");
  const CvtForm form{element_format(dt), element_format(st), d.rnd, d.relu, d.satfinite, two_sources};
  if (auto why = target_shortfall(cvt_min_target(form), cx.target)) bad(*why);
  const Program& p = cx.program;
  const std::size_t n = two_sources ? 3 : 2;
  count(ins, n);
  const PtxType dreg = dt == PtxType::tf32 ? PtxType::b32 : dt;
  reg(p, ins, ins.ops[0], dreg, "the destination", !dfl || narrow_packed(dt));
  for (std::size_t i = 1; i < n; ++i)
    value(p, ins, ins.ops[i], st, n == 3 ? (i == 1 ? "operand a" : "operand b") : "the source",
          !sfl && type_class(st) != TypeClass::floating);
}

}  // namespace

void register_alu(std::vector<OpcodeSpec>& t) {
  t.push_back({"add", dec_add});
  t.push_back({"sub", dec_add});
  t.push_back({"mul", dec_mul});
  t.push_back({"div", dec_mul});
  t.push_back({"rem", dec_mul});
  t.push_back({"min", dec_mul});
  t.push_back({"max", dec_mul});
  t.push_back({"mad", dec_mad});
  t.push_back({"fma", dec_mad});
  t.push_back({"neg", dec_unary});
  t.push_back({"abs", dec_unary});
  t.push_back({"and", dec_logic});
  t.push_back({"or", dec_logic});
  t.push_back({"xor", dec_logic});
  t.push_back({"not", dec_logic});
  t.push_back({"cnot", dec_logic});
  t.push_back({"shl", dec_shift});
  t.push_back({"shr", dec_shift});
  t.push_back({"bfe", dec_bfe});
  t.push_back({"bfi", dec_bfi});
  t.push_back({"prmt", dec_prmt});
  t.push_back({"lop3", dec_lop3});
  t.push_back({"popc", dec_bitcount});
  t.push_back({"clz", dec_bitcount});
  t.push_back({"brev", dec_bitcount});
  t.push_back({"bfind", dec_bfind});
  t.push_back({"shf", dec_shf});
  t.push_back({"mov", dec_mov});
  t.push_back({"cvta", dec_cvta});
  t.push_back({"cvt", dec_cvt});
  t.push_back({"setp", dec_setp});
  t.push_back({"selp", dec_selp});
}

}  // namespace ptxmma::ptx::decode
