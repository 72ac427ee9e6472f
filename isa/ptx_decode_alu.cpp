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
bool narrow_packed(PtxType t) { return type_class(t) == TypeClass::narrow && t != PtxType::tf32; }

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

// Fails unless the program's target has what first came with `need` ("sm_80").
void need(const Instruction& ins, const DecodeContext& cx, std::string_view need_target) {
  if (auto why = target_shortfall(need_target, cx.target)) fail(ins, fmt::format("'{}': {}", ins.text, *why));
}

bool half(PtxType t) { return t == PtxType::f16 || t == PtxType::f16x2; }
bool brain(PtxType t) { return t == PtxType::bf16 || t == PtxType::bf16x2; }

// add sub mul mad fma min max neg abs div rem copysign on float types.
void float_quals(Instruction& ins, const DecodeContext& cx, Quals& q, PtxType t) {
  const std::string& op = ins.opcode;
  Decoded& d = ins.d;
  const auto bad = [&](const std::string& why) { fail(ins, fmt::format("'{}': {}", ins.text, why)); };
  const bool div_like = op == "div";
  if (div_like) {
    const std::string_view a = q.take_one({"approx", "full"}, "division kind");
    d.approx = a == "approx";
    d.mode = a == "full" ? 1 : 0;
    if (!a.empty() && t != PtxType::f32) bad(fmt::format(".{} division is .f32 only", a));
  }
  d.rnd = float_rounding(q, ins);
  d.ftz = q.take("ftz");
  d.sat = q.take("sat");
  const bool minmax = op == "min" || op == "max";
  if (minmax) {
    d.mode = q.take("NaN") ? 1 : 0;
    const bool xs = q.take("xorsign");
    const bool ab = q.take("abs");
    if (xs != ab) bad(".xorsign and .abs go together (.xorsign.abs)");
    d.mode2 = xs ? 1 : 0;
    if (d.rnd) bad("min and max take no rounding modifier");
    if (d.sat) bad("min and max take no .sat");
    if (t == PtxType::f64 && (d.mode || xs)) bad(".NaN and .xorsign.abs do not apply to .f64");
    if (d.mode) need(ins, cx, "sm_80");
    if (xs) need(ins, cx, "sm_86");
    if (d.mode && xs && t != PtxType::f32 && !half(t) && !brain(t)) bad(".NaN.xorsign.abs takes .f32, .f16 and .bf16 types");
  }
  if ((op == "neg" || op == "abs" || op == "copysign") && (d.rnd || d.sat))
    bad(fmt::format("{} takes no rounding and no .sat", op));
  if (op == "copysign" && d.ftz) bad("copysign takes no .ftz");
  if (op == "div") {
    if (!d.approx && d.mode == 0 && !d.rnd)
      fail(ins, fmt::format("'{}' needs .approx, .full or a rounding modifier (.rn, .rz, .rm, .rp)", ins.text));
    if ((d.approx || d.mode == 1) && d.rnd) bad(".approx and .full take no rounding modifier");
    if (d.sat) bad("div takes no .sat");
  }
  if (op == "fma" || op == "mad") {
    if (!d.rnd) fail(ins, fmt::format("'{}' needs a rounding modifier (.rn, .rz, .rm or .rp)", ins.text));
    d.relu = q.take("relu");
    if (d.relu && (t == PtxType::f32 || t == PtxType::f64)) bad(".relu applies to .f16/.bf16 fma only");
    if (d.relu && d.sat) bad(".relu and .sat exclude each other");
    if (op == "mad" && (half(t) || brain(t))) bad(".f16 and .bf16 types take fma, not mad");
  }
  if ((half(t) || brain(t)) && d.rnd && *d.rnd != Rounding::rn)
    bad(fmt::format(".{} instructions take only .rn", name(t)));
  if (t == PtxType::f64 && d.ftz) bad(".ftz does not apply to .f64");
  if (t == PtxType::f64 && d.sat) bad(".sat does not apply to .f64");
  if (brain(t) && (d.ftz || d.sat)) bad(fmt::format(".ftz and .sat do not apply to .{}", name(t)));
  if (q.take_one({"lo", "hi", "wide"}, "mode") != "") bad(".lo/.hi/.wide apply to integer multiplies only");
  // bf16 arithmetic: fma, min, max, neg, abs since sm_80; add, sub, mul since sm_90.
  if (brain(t)) need(ins, cx, op == "add" || op == "sub" || op == "mul" ? "sm_90" : "sm_80");
  if (half(t) && (d.relu || d.mode == 1)) need(ins, cx, "sm_80");
}

// add sub mul mad fma min max neg abs div rem copysign mul24 mad24 sad
void arith(Instruction& ins, const DecodeContext& cx, int arity) {
  Quals q(ins);
  const std::string& op = ins.opcode;
  const auto bad = [&](const std::string& why) { fail(ins, fmt::format("'{}': {}", ins.text, why)); };
  const std::vector<PtxType> allowed_float = {PtxType::f16, PtxType::f16x2, PtxType::bf16, PtxType::bf16x2,
                                              PtxType::f32, PtxType::f64};
  std::vector<PtxType> allowed;
  if (op == "mul24" || op == "mad24") {
    allowed = {PtxType::u32, PtxType::s32};
  } else if (op == "copysign") {
    allowed = {PtxType::f32, PtxType::f64};
  } else {
    if (op != "fma") allowed.insert(allowed.end(), kIntTypes.begin(), kIntTypes.end());
    if (op == "div" || op == "mad") allowed.insert(allowed.end(), {PtxType::f32, PtxType::f64});
    else if (op != "rem" && op != "sad") allowed.insert(allowed.end(), allowed_float.begin(), allowed_float.end());
  }
  if (op == "neg" || op == "abs") std::erase_if(allowed, [](PtxType t) { return type_class(t) == TypeClass::unsigned_int; });
  const auto ts = q.types();
  if (ts.size() != 1) fail(ins, fmt::format("'{}' needs exactly one type, found {}", ins.text, ts.size()));
  const PtxType t = ts[0];
  if (std::find(allowed.begin(), allowed.end(), t) == allowed.end()) bad(fmt::format(".{} is not a type of '{}'", name(t), op));
  Decoded& d = ins.d;
  d.type = t;
  if (is_float(t)) {
    float_quals(ins, cx, q, t);
  } else {
    if (op == "mul" || op == "mad" || op == "mul24" || op == "mad24") {
      const std::string_view m =
          op.ends_with("24") ? q.take_one({"lo", "hi"}, "multiply mode") : q.take_one({"lo", "hi", "wide"}, "multiply mode");
      if (m.empty()) fail(ins, fmt::format("'{}' needs {}", ins.text, op.ends_with("24") ? ".lo or .hi" : ".lo, .hi or .wide"));
      d.mode = static_cast<int>(m == "lo" ? MulMode::lo : m == "hi" ? MulMode::hi : MulMode::wide);
      if (m == "wide" && widened(t) == PtxType::none) bad(".wide takes .16 or .32 types");
    }
    if (op == "min" || op == "max") {
      d.relu = q.take("relu");
      if (d.relu && t != PtxType::s32) bad(".relu applies to .s32 min and max");
      if (d.relu) need(ins, cx, "sm_90");
    }
    d.sat = q.take("sat");
    const bool hi_s32 = t == PtxType::s32 && d.mode == static_cast<int>(MulMode::hi);
    if (d.sat && !((op == "add" || op == "sub") && t == PtxType::s32) && !((op == "mad" || op == "mad24") && hi_s32))
      bad(".sat applies to .s32 add and sub, and to mad.hi.s32 and mad24.hi.s32");
    if (q.take("cc")) bad("carry (.cc) is not supported");
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

// rcp and sqrt: .approx{.ftz}.f32, .rnd{.ftz}.f32, .rnd.f64, rcp.approx.ftz.f64.
void dec_rcp_sqrt(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  Decoded& d = ins.d;
  const auto bad = [&](const std::string& why) { fail(ins, fmt::format("'{}': {}", ins.text, why)); };
  d.approx = q.take("approx");
  d.rnd = float_rounding(q, ins);
  d.ftz = q.take("ftz");
  const PtxType t = one_type(ins, q, {PtxType::f32, PtxType::f64});
  q.finish();
  d.type = t;
  if (d.approx == d.rnd.has_value()) bad("needs .approx or a rounding modifier (.rn, .rz, .rm, .rp), not both");
  if (t == PtxType::f64 && d.approx && (ins.opcode != "rcp" || !d.ftz)) bad("the .f64 approximation is rcp.approx.ftz.f64 only");
  if (t == PtxType::f64 && !d.approx && d.ftz) bad(".ftz does not apply to .f64");
  count(ins, 2);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
}

// testp.op.type p, a
void dec_testp(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  static constexpr std::string_view kTests[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
  const std::string_view c = q.take_one({"finite", "infinite", "number", "notanumber", "normal", "subnormal"}, "test");
  if (c.empty()) fail(ins, fmt::format("'{}' needs a test (.finite, .infinite, .number, .notanumber, .normal, .subnormal)", ins.text));
  const PtxType t = one_type(ins, q, {PtxType::f32, PtxType::f64});
  q.finish();
  ins.d.type = t;
  ins.d.mode = static_cast<int>(std::find(std::begin(kTests), std::end(kTests), c) - std::begin(kTests));
  count(ins, 2);
  pred(cx.program, ins, ins.ops[0], "the destination", false);
  value(cx.program, ins, ins.ops[1], t, "operand a");
}

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

// bmsk.{clamp,wrap}.b32 d, a, b: b one-bits from bit a. szext.{clamp,wrap}.{u32,s32} d, a, b:
// a's low b bits, zero- or sign-extended. d.mode2: 1 for .wrap.
void dec_bmsk_szext(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const std::string_view mode = q.take_one({"clamp", "wrap"}, "mode");
  const PtxType t = ins.opcode == "bmsk" ? one_type(ins, q, {PtxType::b32}) : one_type(ins, q, {PtxType::u32, PtxType::s32});
  q.finish();
  if (mode.empty()) fail(ins, fmt::format("'{}' needs .clamp or .wrap", ins.text));
  ins.d.type = t;
  ins.d.mode2 = mode == "wrap" ? 1 : 0;
  count(ins, 3);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t == PtxType::b32 ? PtxType::u32 : t, "operand a");
  value(cx.program, ins, ins.ops[2], PtxType::u32, "operand b");
}

// dp4a.atype.btype d, a, b, c and dp2a.{lo,hi}.atype.btype d, a, b, c: d (.s32 if either source
// type is signed, else .u32) = c + the dot product of a's bytes (dp2a: halves) with b's bytes.
void dec_dot(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const bool two = ins.opcode == "dp2a";
  const std::string_view half_sel = two ? q.take_one({"lo", "hi"}, "half") : "";
  const auto ts = q.types();
  q.finish();
  if (two && half_sel.empty()) fail(ins, fmt::format("'{}' needs .lo or .hi", ins.text));
  if (ts.size() != 2) fail(ins, fmt::format("'{}' needs two types (.atype.btype), found {}", ins.text, ts.size()));
  for (const PtxType t : ts)
    if (t != PtxType::u32 && t != PtxType::s32) fail(ins, fmt::format("'{}': the source types are .u32 or .s32", ins.text));
  const bool sgn = ts[0] == PtxType::s32 || ts[1] == PtxType::s32;
  const PtxType dt = sgn ? PtxType::s32 : PtxType::u32;
  ins.d.type = ts[0];
  ins.d.type2 = ts[1];
  ins.d.mode = half_sel == "hi" ? 1 : 0;
  count(ins, 4);
  reg(cx.program, ins, ins.ops[0], dt, "the destination");
  value(cx.program, ins, ins.ops[1], ts[0], "operand a");
  value(cx.program, ins, ins.ops[2], ts[1], "operand b");
  value(cx.program, ins, ins.ops[3], dt, "operand c");
}

// mov.type d, a | mov.type d, {a, b, ...} | mov.type {a, b, ...}, d
void dec_mov(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t =
      one_type(ins, q,
               {PtxType::pred, PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u16, PtxType::u32, PtxType::u64,
                PtxType::s16, PtxType::s32, PtxType::s64, PtxType::f32, PtxType::f64});  // ptxas: no .f16/.bf16 types
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
  const std::string_view s =
      q.take_one({"shared", "shared::cta", "shared::cluster", "global", "local", "const", "param"}, "state space");
  if (s.empty()) fail(ins, fmt::format("'{}' needs a state space (.shared, .global, ...)", ins.text));
  const PtxType t = one_type(ins, q, {PtxType::u32, PtxType::u64});
  q.finish();
  ins.d.type = t;
  ins.d.space = s == "shared::cluster"   ? Space::shared_cluster
                : s.starts_with("shared") ? Space::shared
                : s == "global"          ? Space::global
                : s == "const"           ? Space::constant
                : s == "param"           ? Space::param
                                         : Space::local;
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
  if (unsigned_only && type_class(t) == TypeClass::signed_int)
    fail(ins, fmt::format("'{}': .lo, .ls, .hi and .hs compare unsigned values", ins.text));
}

constexpr std::initializer_list<PtxType> kCompareTypes = {
    PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u16,  PtxType::u32,    PtxType::u64, PtxType::s16, PtxType::s32,
    PtxType::s64, PtxType::f16, PtxType::f16x2, PtxType::bf16, PtxType::bf16x2, PtxType::f32, PtxType::f64};

// The comparison, boolean operation and .ftz of setp and set; the source type in d.type2.
BoolOp compare_quals(Instruction& ins, const DecodeContext& cx, Quals& q, PtxType st) {
  const CmpOp c = parse_cmp(ins, q);
  const std::string_view b = q.take_one({"and", "or", "xor"}, "boolean operation");
  Decoded& d = ins.d;
  d.ftz = q.take("ftz");
  check_cmp(ins, c, st);
  if (type_class(st) == TypeClass::bits && c != CmpOp::eq && c != CmpOp::ne)
    fail(ins, fmt::format("'{}': .b types compare only .eq and .ne", ins.text));
  if (d.ftz && st != PtxType::f32 && !half(st)) fail(ins, fmt::format("'{}': .ftz applies to .f32 and .f16 comparisons", ins.text));
  if (brain(st)) need(ins, cx, "sm_90");
  d.mode = static_cast<int>(c);
  const BoolOp bop = b.empty() ? BoolOp::none : b == "and" ? BoolOp::and_ : b == "or" ? BoolOp::or_ : BoolOp::xor_;
  d.mode2 = static_cast<int>(bop);
  return bop;
}

// setp.cmp{.bool}{.ftz}.type p[|q], a, b{, {!}c}; packed types set p from the low halves, q from
// the high ones, and need the pair.
void dec_setp(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  // The type first: the comparison checks need it.
  const auto ts = q.types();
  if (ts.size() != 1) fail(ins, fmt::format("'{}' needs exactly one type, found {}", ins.text, ts.size()));
  const PtxType t = ts[0];
  if (std::find(kCompareTypes.begin(), kCompareTypes.end(), t) == kCompareTypes.end())
    fail(ins, fmt::format("'{}': .{} is not a type of setp", ins.text, name(t)));
  const BoolOp bop = compare_quals(ins, cx, q, t);
  q.finish();
  ins.d.type = t;
  ins.d.type2 = t;
  count(ins, bop == BoolOp::none ? 3 : 4);
  const Program& p = cx.program;
  Operand& dst = ins.ops[0];
  if (dst.kind == Operand::Kind::vec && dst.text == "|") {
    pred(p, ins, dst.elems[0], "the destination", false);
    pred(p, ins, dst.elems[1], "the second destination", false);
  } else {
    if (lanes_of(t) == 2) fail(dst.loc, fmt::format("'{}': a packed comparison writes a pair of predicates (p|q)", ins.text));
    pred(p, ins, dst, "the destination", false);
  }
  value(p, ins, ins.ops[1], t, "operand a");
  value(p, ins, ins.ops[2], t, "operand b");
  if (bop != BoolOp::none) pred(p, ins, ins.ops[3], "operand c", true);
}

// set.cmp{.bool}{.ftz}.dtype.stype d, a, b{, {!}c}: all ones (integer destinations) or 1.0 for
// true, per half for packed sources.
void dec_set(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const auto ts = q.types();
  if (ts.size() != 2) fail(ins, fmt::format("'{}' needs two types (.dtype.stype), found {}", ins.text, ts.size()));
  const PtxType dt = ts[0], st = ts[1];
  if (std::find(kCompareTypes.begin(), kCompareTypes.end(), st) == kCompareTypes.end())
    fail(ins, fmt::format("'{}': .{} is not a source type of set", ins.text, name(st)));
  const bool packed = lanes_of(st) == 2;
  const bool dt_ok = packed ? (dt == PtxType::u32 || dt == PtxType::s32 || dt == st)
                            : (dt == PtxType::u32 || dt == PtxType::s32 || dt == PtxType::f32);
  if (!dt_ok)
    fail(ins, fmt::format("'{}': .{} is not a destination type of set with .{} sources ({})", ins.text, name(dt), name(st),
                          packed ? fmt::format(".u32, .s32 or .{}", name(st)) : std::string(".u32, .s32 or .f32")));
  if (dt == PtxType::f32 && (st == PtxType::f16 || st == PtxType::bf16))
    fail(ins, fmt::format("'{}': set with .{} sources writes .u32 or .s32", ins.text, name(st)));
  const BoolOp bop = compare_quals(ins, cx, q, st);
  q.finish();
  ins.d.type = dt;
  ins.d.type2 = st;
  count(ins, bop == BoolOp::none ? 3 : 4);
  const Program& p = cx.program;
  reg(p, ins, ins.ops[0], dt, "the destination");
  value(p, ins, ins.ops[1], st, "operand a");
  value(p, ins, ins.ops[2], st, "operand b");
  if (bop != BoolOp::none) pred(p, ins, ins.ops[3], "operand c", true);
}

void dec_selp(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const PtxType t = one_type(ins, q,
                             {PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u16, PtxType::u32, PtxType::u64,
                              PtxType::s16, PtxType::s32, PtxType::s64, PtxType::f32, PtxType::f64});  // as mov
  q.finish();
  ins.d.type = t;
  count(ins, 4);
  reg(cx.program, ins, ins.ops[0], t, "the destination");
  value(cx.program, ins, ins.ops[1], t, "operand a");
  value(cx.program, ins, ins.ops[2], t, "operand b");
  pred(cx.program, ins, ins.ops[3], "the selector", true);
}

// slct{.ftz}.dtype.ctype d, a, b, c: a where c >= 0, else b (ctype .s32 or .f32).
void dec_slct(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  ins.d.ftz = q.take("ftz");
  const auto ts = q.types();
  q.finish();
  if (ts.size() != 2) fail(ins, fmt::format("'{}' needs two types (.dtype.ctype), found {}", ins.text, ts.size()));
  const PtxType dt = ts[0], ct = ts[1];
  static constexpr PtxType kD[] = {PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u16, PtxType::u32, PtxType::u64,
                                   PtxType::s16, PtxType::s32, PtxType::s64, PtxType::f32, PtxType::f64};
  if (std::find(std::begin(kD), std::end(kD), dt) == std::end(kD))
    fail(ins, fmt::format("'{}': .{} is not a destination type of slct", ins.text, name(dt)));
  if (ct != PtxType::s32 && ct != PtxType::f32) fail(ins, fmt::format("'{}': the selector type is .s32 or .f32", ins.text));
  if (ins.d.ftz && ct != PtxType::f32) fail(ins, fmt::format("'{}': .ftz applies to an .f32 selector", ins.text));
  ins.d.type = dt;
  ins.d.type2 = ct;
  count(ins, 4);
  reg(cx.program, ins, ins.ops[0], dt, "the destination");
  value(cx.program, ins, ins.ops[1], dt, "operand a");
  value(cx.program, ins, ins.ops[2], dt, "operand b");
  value(cx.program, ins, ins.ops[3], ct, "the selector");
}

bool is_int(PtxType t) {
  return type_class(t) == TypeClass::unsigned_int || type_class(t) == TypeClass::signed_int;
}

// What ptxas 13.0 refuses among the cvt forms the PTX ISA's grammar allows
// (docs/hardware/alu-sm90.md, "Forms ptxas refuses").
void ptxas_cvt_rules(const Instruction& ins, const Decoded& d, PtxType dt, PtxType st, bool two_sources) {
  const auto bad = [&](const std::string& why) { fail(ins, fmt::format("'{}': {}", ins.text, why)); };
  if ((d.relu || d.satfinite) && (d.sat || d.ftz)) bad(".relu and .satfinite take neither .sat nor .ftz");
  if (is_int(dt) && is_int(st) && d.sat) {
    const bool ds = type_class(dt) == TypeClass::signed_int, ss = type_class(st) == TypeClass::signed_int;
    const int dn = bits(dt), sn = bits(st);
    if (ds == ss ? sn <= dn : (!ss && sn < dn)) bad(fmt::format(".sat: .{} holds every .{} value, the conversion cannot overflow", name(dt), name(st)));
  }
  if (d.sat && (dt == PtxType::bf16 || st == PtxType::bf16)) bad(".sat does not apply to conversions from or to .bf16");
  const bool dfl = is_float(dt), sfl = is_float(st);
  if (dfl && sfl && lanes_of(dt) == 1 && lanes_of(st) == 1) {
    // Conversions that cannot round (to the same or a wider type, but bf16 -> f32/f64) take no
    // float rounding; integer roundings need the same type.
    const bool exact = dt == st || (dt == PtxType::f32 && st == PtxType::f16) || (dt == PtxType::f64 && st != PtxType::bf16);
    if (d.int_rnd && dt != st) bad("an integer rounding (.rni ...) needs the same source and destination type");
    if (d.rnd && !d.int_rnd && exact) bad(fmt::format("a conversion from .{} to .{} cannot round: no rounding modifier", name(st), name(dt)));
  }
  if (dfl && is_int(st) && !d.rnd) bad("an integer-to-float conversion needs a rounding modifier (.rn, .rz, .rm, .rp)");
  if ((dt == PtxType::f16 || dt == PtxType::bf16) && (d.relu || d.satfinite) && st != PtxType::f32)
    bad(".relu and .satfinite apply to conversions from .f32");
  if (d.rnd == Rounding::rna && dt != PtxType::tf32) bad(".rna is a rounding of cvt.tf32.f32 only");
  const bool half_dest = dt == PtxType::f16 || dt == PtxType::bf16 || dt == PtxType::f16x2 || dt == PtxType::bf16x2;
  if ((d.relu || d.satfinite) && half_dest && d.rnd && *d.rnd != Rounding::rn && *d.rnd != Rounding::rz)
    bad(".relu and .satfinite take .rn or .rz");
  if (d.relu && d.rnd == Rounding::rna) bad(".relu takes .rn or .rz");
  if (narrow_packed(st) && !d.rnd) bad(fmt::format("conversions from .{} need .rn", name(st)));
  const bool packed = narrow_packed(dt) || narrow_packed(st) || lanes_of(dt) == 2 || lanes_of(st) == 2 || dt == PtxType::tf32;
  if (packed && d.ftz) bad(".ftz does not apply to packed and .tf32 conversions");
  if (two_sources && (dt == PtxType::f16x2 || dt == PtxType::bf16x2) && d.rnd && *d.rnd != Rounding::rn && *d.rnd != Rounding::rz)
    bad(fmt::format("conversions to .{} take .rn or .rz", name(dt)));
}

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
    // The narrow pairs convert to and from .f16x2, except .ue8m0x2, whose partner is .bf16x2.
    const auto partner = [](PtxType narrow) { return narrow == PtxType::ue8m0x2 ? PtxType::bf16x2 : PtxType::f16x2; };
    const bool down_pair = two_sources || (narrow_packed(dt) && st == partner(dt));
    const bool up_pair = narrow_packed(st) && dt == partner(st);
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
  ptxas_cvt_rules(ins, d, dt, st, two_sources);
  const CvtForm form{element_format(dt), element_format(st), d.rnd, d.relu, d.satfinite, two_sources};
  if (auto why = target_shortfall(cvt_min_target(form), cx.target)) bad(*why);
  const Program& p = cx.program;
  const std::size_t n = two_sources ? 3 : 2;
  count(ins, n);
  const PtxType dreg = dt == PtxType::tf32 ? PtxType::b32 : dt;
  // ptxas takes wider registers for integer operands, but not for the 8- and 16-bit ones of a
  // .bf16 conversion (cvt.rn.bf16.u8 of a .b16 or .b32 register is refused).
  const bool with_bf16 = dt == PtxType::bf16 || st == PtxType::bf16;
  const auto check_width = [&](const Operand& op, PtxType t, std::string_view what) {
    if (with_bf16 && is_int(t) && bits(t) < 32 && op.kind == Operand::Kind::reg &&
        bits(p.registers.at(static_cast<std::size_t>(op.reg)).type) != bits(t))
      fail(op.loc, fmt::format("'{}': {} (.{}) of a .bf16 conversion must be a {}-bit register", ins.text, what, name(t), bits(t)));
  };
  reg(p, ins, ins.ops[0], dreg, "the destination", is_int(dt));
  check_width(ins.ops[0], dt, "the destination");
  for (std::size_t i = 1; i < n; ++i) {
    const std::string_view what = n == 3 ? (i == 1 ? "operand a" : "operand b") : "the source";
    value(p, ins, ins.ops[i], st, what, is_int(st));
    check_width(ins.ops[i], st, what);
  }
}

}  // namespace

// The forms column lists each opcode's qualifier axes in the PTX ISA's order, for the form
// enumerator (tools/vectors/alu_forms.hpp): "{a|b|}" picks one of a, b or nothing. It proposes;
// the decoder decides which combinations exist.
#define PTXMMA_INT "u16|u32|u64|s16|s32|s64"
#define PTXMMA_FLOAT "f16|f16x2|bf16|bf16x2|f32|f64"
#define PTXMMA_CMP "{eq|ne|lt|le|gt|ge|lo|ls|hi|hs|equ|neu|ltu|leu|gtu|geu|num|nan}"
#define PTXMMA_CMP_TYPES "b16|b32|b64|" PTXMMA_INT "|" PTXMMA_FLOAT
#define PTXMMA_CVT_TYPES "u8|u16|u32|u64|s8|s16|s32|s64|f16|bf16|f32|f64"
void register_alu(std::vector<OpcodeSpec>& t) {
  const std::string_view rnd_ftz_sat = "{|rn|rz|rm|rp} {|ftz} {|sat} {" PTXMMA_INT "|" PTXMMA_FLOAT "}";
  t.push_back({"add", dec_add, Flow::normal, rnd_ftz_sat});
  t.push_back({"sub", dec_add, Flow::normal, rnd_ftz_sat});
  t.push_back({"mul", dec_mul, Flow::normal, "{|rn|rz|rm|rp} {|hi|lo|wide} {|ftz} {|sat} {" PTXMMA_INT "|" PTXMMA_FLOAT "}"});
  t.push_back({"div", dec_mul, Flow::normal, "{|approx|full|rn|rz|rm|rp} {|ftz} {" PTXMMA_INT "|f32|f64}"});
  t.push_back({"rem", dec_mul, Flow::normal, "{" PTXMMA_INT "}"});
  const std::string_view minmax = "{|ftz} {|NaN} {|xorsign.abs} {|relu} {" PTXMMA_INT "|" PTXMMA_FLOAT "}";
  t.push_back({"min", dec_mul, Flow::normal, minmax});
  t.push_back({"max", dec_mul, Flow::normal, minmax});
  t.push_back({"mad", dec_mad, Flow::normal, "{|rn|rz|rm|rp} {|hi|lo|wide} {|ftz} {|sat} {" PTXMMA_INT "|f32|f64}"});
  t.push_back({"fma", dec_mad, Flow::normal, "{rn|rz|rm|rp} {|ftz} {|sat} {|relu} {" PTXMMA_FLOAT "}"});
  t.push_back({"mul24", dec_mul, Flow::normal, "{hi|lo} {u32|s32}"});
  t.push_back({"mad24", dec_mad, Flow::normal, "{hi|lo} {|sat} {u32|s32}"});
  t.push_back({"sad", dec_mad, Flow::normal, "{" PTXMMA_INT "}"});
  t.push_back({"neg", dec_unary, Flow::normal, "{|ftz} {s16|s32|s64|" PTXMMA_FLOAT "}"});
  t.push_back({"abs", dec_unary, Flow::normal, "{|ftz} {s16|s32|s64|" PTXMMA_FLOAT "}"});
  t.push_back({"copysign", dec_mul, Flow::normal, "{f32|f64}"});
  t.push_back({"rcp", dec_rcp_sqrt, Flow::normal, "{approx|rn|rz|rm|rp} {|ftz} {f32|f64}"});
  t.push_back({"sqrt", dec_rcp_sqrt, Flow::normal, "{approx|rn|rz|rm|rp} {|ftz} {f32|f64}"});
  t.push_back({"testp", dec_testp, Flow::normal, "{finite|infinite|number|notanumber|normal|subnormal} {f32|f64}"});
  t.push_back({"and", dec_logic, Flow::normal, "{pred|b16|b32|b64}"});
  t.push_back({"or", dec_logic, Flow::normal, "{pred|b16|b32|b64}"});
  t.push_back({"xor", dec_logic, Flow::normal, "{pred|b16|b32|b64}"});
  t.push_back({"not", dec_logic, Flow::normal, "{pred|b16|b32|b64}"});
  t.push_back({"cnot", dec_logic, Flow::normal, "{b16|b32|b64}"});
  t.push_back({"shl", dec_shift, Flow::normal, "{b16|b32|b64}"});
  t.push_back({"shr", dec_shift, Flow::normal, "{b16|b32|b64|" PTXMMA_INT "}"});
  t.push_back({"bfe", dec_bfe, Flow::normal, "{u32|u64|s32|s64}"});
  t.push_back({"bfi", dec_bfi, Flow::normal, "{b32|b64}"});
  t.push_back({"prmt", dec_prmt, Flow::normal, "b32 {|f4e|b4e|rc8|ecl|ecr|rc16}"});
  t.push_back({"lop3", dec_lop3, Flow::normal, "b32"});
  t.push_back({"popc", dec_bitcount, Flow::normal, "{b32|b64}"});
  t.push_back({"clz", dec_bitcount, Flow::normal, "{b32|b64}"});
  t.push_back({"brev", dec_bitcount, Flow::normal, "{b32|b64}"});
  t.push_back({"bfind", dec_bfind, Flow::normal, "{|shiftamt} {u32|u64|s32|s64}"});
  t.push_back({"shf", dec_shf, Flow::normal, "{l|r} {clamp|wrap} b32"});
  t.push_back({"bmsk", dec_bmsk_szext, Flow::normal, "{clamp|wrap} b32"});
  t.push_back({"szext", dec_bmsk_szext, Flow::normal, "{clamp|wrap} {u32|s32}"});
  t.push_back({"dp4a", dec_dot, Flow::normal, "{u32|s32} {u32|s32}"});
  t.push_back({"dp2a", dec_dot, Flow::normal, "{lo|hi} {u32|s32} {u32|s32}"});
  t.push_back({"mov", dec_mov, Flow::normal, "{pred|b16|b32|b64|" PTXMMA_INT "|" PTXMMA_FLOAT "}"});
  t.push_back({"cvta", dec_cvta});
  t.push_back({"cvt", dec_cvt, Flow::normal,
               "{|rni|rzi|rmi|rpi|rn|rz|rm|rp|rna} {|ftz} {|sat} {|relu} {|satfinite} {" PTXMMA_CVT_TYPES
               "|f16x2|bf16x2|tf32|e4m3x2|e5m2x2} {" PTXMMA_CVT_TYPES "|f16x2|bf16x2|e4m3x2|e5m2x2}"});
  t.push_back({"setp", dec_setp, Flow::normal, PTXMMA_CMP " {|and|or|xor} {|ftz} {" PTXMMA_CMP_TYPES "}"});
  t.push_back({"set", dec_set, Flow::normal,
               PTXMMA_CMP " {|and|or|xor} {|ftz} {u32|s32|f32|f16x2|bf16x2} {" PTXMMA_CMP_TYPES "}"});
  t.push_back({"selp", dec_selp, Flow::normal, "{b16|b32|b64|" PTXMMA_INT "|" PTXMMA_FLOAT "}"});
  t.push_back({"slct", dec_slct, Flow::normal, "{|ftz} {b16|b32|b64|" PTXMMA_INT "|f32|f64} {s32|f32}"});
}
#undef PTXMMA_INT
#undef PTXMMA_FLOAT
#undef PTXMMA_CMP
#undef PTXMMA_CMP_TYPES
#undef PTXMMA_CVT_TYPES

}  // namespace ptxmma::ptx::decode
