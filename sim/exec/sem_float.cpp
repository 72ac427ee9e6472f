// Floating-point add sub mul fma mad div rcp sqrt min max neg abs copysign, setp/set comparisons,
// slct's selector and testp on .f16 .f16x2 .bf16 .bf16x2 .f32 .f64: every result is the exact
// value rounded once through sim/numeric (fma_step of sim/model: an exact product and sum on
// integer significands, then round_to; integer division and square root of the significands for
// div, rcp, sqrt), never host float arithmetic.
//
// add/sub/mul default to .rn; sub is add with b's sign flipped; mul is fma(a, b, -0) with an exact
// zero product returned as the signed zero. Where the PTX ISA leaves the bits open, they are an
// H200's (docs/hardware/alu-sm90.md): NaN results (canonical for .f32/.f16/.bf16; .f64 passes an
// operand's NaN on, quietened, and gives 0xfff8000000000000 for invalid operations), .sat of a NaN
// (+0), .ftz (subnormal inputs flushed; results flushed when tiny after rounding), .xorsign.abs
// with a NaN, testp.normal of zero. min/max: a NaN operand gives the other one; -0 is below +0.
#include <fmt/format.h>

#include "isa/contraction.hpp"
#include "sim/catalog/special_function.hpp"
#include "sim/catalog/special_tables.hpp"
#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"
#include "sim/model/dot.hpp"
#include "sim/numeric/division.hpp"
#include "sim/numeric/fields.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma::exec {
namespace {

using ptx::CmpOp;
using ptx::Instruction;
using ptx::PtxType;

const Model& scalar_model() {
  static const Model m = [] {
    Model x;
    x.name = "scalar";
    x.engine = Engine::fma_chain;
    x.nan_priority = "abc";
    x.nan_invalid = 0xfff8000000000000ULL;
    return x;
  }();
  return m;
}

std::uint64_t canonical_nan(Type t) {
  switch (t) {
    case Type::f32: return 0x7fffffffULL;
    case Type::f16:
    case Type::bf16: return 0x7fffULL;
    default: return 0;
  }
}

bool is_nan(Type t, std::uint64_t v) { return decode(t, v).cls == FpClass::nan; }

constexpr std::uint64_t kQuiet64 = 1ULL << 51;
bool is_signalling(Type t, std::uint64_t v) { return is_nan(t, v) && !(v & (1ULL << (info(t).man_bits - 1))); }

// The NaN of an arithmetic instruction with NaN operands (docs/hardware/alu-sm90.md): .f64 gives
// a signalling NaN before a quiet one, and among those of one kind b's before c's before a's,
// quietened, sign and payload kept; the other types their canonical NaN.
std::uint64_t nan_of(Type t, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0, int n = 1) {
  if (t != Type::f64) return canonical_nan(t);
  const std::uint64_t order[3] = {b, c, a};
  const int first = n == 1 ? 2 : 0;  // a unary operation's only operand is a
  for (int i = first; i < 3; ++i)
    if ((i != 1 || n == 3) && is_signalling(t, order[i])) return order[i] | kQuiet64;
  for (int i = first; i < 3; ++i)
    if ((i != 1 || n == 3) && is_nan(t, order[i])) return order[i];
  return 0xfff8000000000000ULL;
}
// The NaN of an invalid operation (0 * inf, inf - inf, sqrt(-1)): .f64 0xfff8000000000000.
std::uint64_t invalid_nan(Type t) { return t == Type::f64 ? 0xfff8000000000000ULL : canonical_nan(t); }
bool is_subnormal(Type t, std::uint64_t v) { return decode(t, v).cls == FpClass::subnormal; }

std::uint64_t flush(Type t, std::uint64_t v) {
  return is_subnormal(t, v) ? v & info(t).sign_bit() : v;
}

std::uint64_t one(Type t) {
  const TypeInfo& ti = info(t);
  return static_cast<std::uint64_t>(ti.bias) << ti.man_bits;
}

// Ordering key of a non-NaN code: a larger key is a larger value; -0 sits just below +0 when
// `signed_zero`, else the zeros are equal.
std::int64_t key(Type t, std::uint64_t v, bool signed_zero) {
  const TypeInfo& ti = info(t);
  const auto mag = static_cast<std::int64_t>(v & ~ti.sign_bit() & ti.mask());
  if (!(v & ti.sign_bit())) return mag;
  return signed_zero ? -mag - 1 : -mag;
}

// One element of a float instruction.
// IEEE division, correctly rounded: the quotient of the significands with enough bits for the
// rounding, the remainder as the sticky bit. NaNs as the other operations: f32 canonical, f64 the
// first NaN operand quietened; 0/0 and inf/inf are invalid.
std::uint64_t divide(Type t, std::uint64_t a, std::uint64_t b, Rounding mode) {
  const TypeInfo& ti = info(t);
  const Fields fa = decode(t, a), fb = decode(t, b);
  const std::uint64_t sign = (fa.sign != fb.sign) ? ti.sign_bit() : 0;
  const std::uint64_t quiet = 1ULL << (ti.man_bits - 1);
  if (fa.cls == FpClass::nan || fb.cls == FpClass::nan)
    return t == Type::f64 ? (fa.cls == FpClass::nan ? a : b) | quiet : canonical_nan(t);
  const bool za = fa.cls == FpClass::zero, zb = fb.cls == FpClass::zero;
  const bool ia = fa.cls == FpClass::infinity, ib = fb.cls == FpClass::infinity;
  if ((za && zb) || (ia && ib)) return t == Type::f64 ? scalar_model().nan_invalid : canonical_nan(t);
  const std::uint64_t inf = ti.mask() & ~ti.sign_bit() & ~(quiet * 2 - 1);
  if (ia || zb) return sign | inf;
  if (za || ib) return sign;
  const auto bitlen = [](std::uint64_t v) { return 64 - __builtin_clzll(v); };
  const int shift = std::max(0, ti.man_bits + 3 + bitlen(fb.significand) - bitlen(fa.significand));
  const u128 num = static_cast<u128>(fa.significand) << shift;
  const u128 q = num / fb.significand, rem = num % fb.significand;
  return round_to(t, Unrounded{sign != 0, fa.exponent - fb.exponent - shift, q, rem != 0}, ConvertFlags{mode});
}

// floor(sqrt(v)) and whether it is inexact, bit by bit.
std::pair<u128, bool> integer_sqrt(u128 v) {
  u128 root = 0, rem = v;
  u128 bit = u128{1} << 126;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (rem >= root + bit) {
      rem -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return {root, rem != 0};
}

// IEEE square root, correctly rounded: the integer root of the significand scaled to an even
// exponent with enough bits for the rounding, the remainder as the sticky bit.
std::uint64_t square_root(Type t, std::uint64_t a, Rounding mode) {
  const TypeInfo& ti = info(t);
  const Fields f = decode(t, a);
  if (f.cls == FpClass::nan) return nan_of(t, a);
  if (f.cls == FpClass::zero) return a;
  if (f.sign) return invalid_nan(t);
  if (f.cls == FpClass::infinity) return a;
  int e = f.exponent - ti.man_bits;
  u128 sig = f.significand;
  const int lead = 128 - static_cast<int>(__builtin_clzll(static_cast<std::uint64_t>(sig))) - 64;
  int shift = 2 * (ti.man_bits + 4) - lead;
  if (shift < 0) shift = 0;
  if ((e - shift) % 2 != 0) ++shift;
  sig <<= shift;
  e -= shift;
  const auto [root, inexact] = integer_sqrt(sig);
  return round_to(t, Unrounded{false, e / 2, root, inexact}, ConvertFlags{mode});
}

// add sub mul fma mad div sqrt rcp, rounded once in `mode` (NaN operands of .f64 handled before).
std::uint64_t rounded(const Instruction& ins, Type t, std::uint64_t a, std::uint64_t b, std::uint64_t c, Rounding mode) {
  const std::string& op = ins.opcode;
  const std::uint64_t sign = info(t).sign_bit();
  const Model& m = scalar_model();
  if (op == "add") return fma_step(m, t, a, one(t), b, mode);
  if (op == "sub") return fma_step(m, t, a, one(t), is_nan(t, b) ? b : b ^ sign, mode);
  if (op == "mul") {
    const Fields fa = decode(t, a), fb = decode(t, b);
    const bool zero = (fa.cls == FpClass::zero && (fb.cls != FpClass::infinity && fb.cls != FpClass::nan)) ||
                      (fb.cls == FpClass::zero && (fa.cls != FpClass::infinity && fa.cls != FpClass::nan));
    return zero ? ((fa.sign != fb.sign) ? sign : 0) : fma_step(m, t, a, b, sign, mode);
  }
  if (op == "fma" || op == "mad") return fma_step(m, t, a, b, c, mode);
  if (op == "div") return divide(t, a, b, mode);
  if (op == "sqrt") return square_root(t, a, mode);
  if (op == "rcp") return divide(t, one(t), a, mode);
  throw Error(fmt::format("'{}' is not a floating-point operation", ins.text));
}

// 2x, exactly, for a zero or a normal value below the largest binade (.ftz operands).
std::uint64_t doubled(Type t, std::uint64_t x) {
  const TypeInfo& ti = info(t);
  const std::uint64_t exp_field = (x & ti.mask() & ~ti.sign_bit()) >> ti.man_bits;
  return exp_field == 0 ? x : x + (std::uint64_t{1} << ti.man_bits);
}

// Whether a result that rounded to the smallest normal is tiny after rounding: whether the exact
// result, rounded to the format's precision with an unbounded exponent, is below the smallest
// normal. That rounding is the bounded one of twice the result, one binade up, where every value
// is normal: the operation is rerun on operands scaled to double it. An operand in the largest
// binade cannot give a result near the smallest normal, so the doubling never overflows there.
bool tiny_after_rounding(const Instruction& ins, Type t, std::uint64_t a, std::uint64_t b, std::uint64_t c,
                         Rounding mode) {
  const std::string& op = ins.opcode;
  const TypeInfo& ti = info(t);
  const auto smaller = [&](std::uint64_t x, std::uint64_t y) { return (x & ~ti.sign_bit()) < (y & ~ti.sign_bit()); };
  std::uint64_t r2;
  if (op == "add" || op == "sub") r2 = rounded(ins, t, doubled(t, a), doubled(t, b), c, mode);
  else if (op == "mul") r2 = smaller(a, b) ? rounded(ins, t, doubled(t, a), b, c, mode) : rounded(ins, t, a, doubled(t, b), c, mode);
  else if (op == "fma" || op == "mad")
    r2 = smaller(a, b) ? rounded(ins, t, doubled(t, a), b, doubled(t, c), mode)
                       : rounded(ins, t, a, doubled(t, b), doubled(t, c), mode);
  else if (op == "div") r2 = rounded(ins, t, doubled(t, a), b, c, mode);
  else if (op == "rcp") r2 = rounded(ins, t, a - (std::uint64_t{1} << ti.man_bits), b, c, mode);  // 1 / (a / 2)
  else return false;  // sqrt: never near the smallest normal
  return (r2 & ~ti.sign_bit()) < (std::uint64_t{2} << ti.man_bits);
}

std::uint64_t element(const Instruction& ins, Type t, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const std::string& op = ins.opcode;
  const ptx::Decoded& d = ins.d;
  const TypeInfo& ti = info(t);
  const std::uint64_t sign = ti.sign_bit();
  if (d.ftz) {
    a = flush(t, a);
    b = flush(t, b);
    c = flush(t, c);
  }
  // neg and abs of a NaN: the canonical NaN, or for .f64 the NaN quietened with its sign.
  if ((op == "neg" || op == "abs") && is_nan(t, a)) return t == Type::f64 ? a | kQuiet64 : canonical_nan(t);
  if (op == "neg") return (a ^ sign) & ti.mask();
  if (op == "abs") return a & ~sign & ti.mask();
  if (op == "copysign") return (b & ~sign) | (a & sign);  // d = b with a's sign
  // rcp/sqrt.approx, div.approx and div.full: the GPU's tables and the code ptxas puts around them
  // (docs/hardware/special-functions-sm90.md). The flush above is idempotent with the models' own.
  if (d.approx || (op == "div" && d.mode == 1)) {
    const SpecialKind k = op == "rcp" ? SpecialKind::rcp : op == "sqrt" ? SpecialKind::sqrt
                        : d.approx    ? SpecialKind::div_approx : SpecialKind::div_full;
    return evaluate({k, t == Type::f64 ? SpecialType::f64 : SpecialType::f32, d.ftz}, a, b);
  }
  if (op == "min" || op == "max") {
    const bool na = is_nan(t, a), nb = is_nan(t, b);
    if (na || nb) {
      if ((na && nb) || d.mode == 1) return t == Type::f64 ? b | kQuiet64 : canonical_nan(t);  // .f64: b
      // .xorsign.abs: the other operand's magnitude, with the xor of both signs.
      if (d.mode2 == 1) return ((na ? b : a) & ~sign) | ((a ^ b) & sign);
      return na ? b : a;
    }
    if (d.mode2 == 1) {  // .xorsign.abs: the magnitudes compared, the sign the xor of theirs
      const std::uint64_t s = (a ^ b) & sign;
      a &= ~sign;
      b &= ~sign;
      const bool a_less = key(t, a, true) < key(t, b, true);
      return ((op == "min") == a_less ? a : b) | s;
    }
    const bool a_less = key(t, a, true) < key(t, b, true);
    return (op == "min") == a_less ? a : b;
  }
  const Rounding mode = d.rnd.value_or(Rounding::rn);
  const int arity = op == "fma" || op == "mad" ? 3 : op == "sqrt" || op == "rcp" ? 1 : 2;
  if (t == Type::f64 && (is_nan(t, a) || (arity > 1 && is_nan(t, b)) || (arity == 3 && is_nan(t, c)))) {
    // div.f64 is a sequence of instructions, which passes a's NaN on before b's.
    if (op == "div") return (is_nan(t, a) ? a : b) | kQuiet64;
    return nan_of(t, a, b, c, arity);
  }
  std::uint64_t r = rounded(ins, t, a, b, c, mode);
  if (t != Type::f64 && (r & ~ti.mask()) != 0) r = canonical_nan(t);  // the model's f64 invalid NaN
  if (is_nan(t, r)) return d.sat ? 0 : t == Type::f64 ? r : canonical_nan(t);  // .sat: NaN -> +0
  // .ftz flushes a result that is tiny after rounding (IEEE 754's definition): mul.ftz.f32 of
  // 0x3f7fffff and 0x00800000 (2^-126 (1 - 2^-24), a 24-bit value below 2^-126) is +0, but of
  // 0x3f000001 and 0x00fffffe (2^-126 (1 - 2^-46), which rounds to 2^-126 at 24 bits) is 0x00800000
  // (docs/hardware/alu-sm90.md).
  if (d.ftz && (decode(t, r).cls == FpClass::subnormal ||
                ((r & ~sign) == (1ULL << ti.man_bits) && tiny_after_rounding(ins, t, a, b, c, mode))))
    r &= sign;
  if (d.relu && (r & sign)) r = 0;
  if (d.sat) {
    if (r & sign) return 0;
    if (key(t, r, false) > key(t, one(t), false)) return one(t);
  }
  return r;
}

}  // namespace

std::uint64_t float_arith(const Instruction& ins, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const PtxType pt = ins.d.type;
  const Type t = *ptx::element_format(pt);
  if (ptx::lanes_of(pt) == 1) return element(ins, t, a, b, c);
  std::uint32_t out = 0;
  for (int i = 0; i < 2; ++i) {
    const auto e = [&](std::uint64_t v) { return static_cast<std::uint64_t>(get_element(static_cast<std::uint32_t>(v), 16, i)); };
    out = set_element(out, 16, i, static_cast<std::uint32_t>(element(ins, t, e(a), e(b), e(c))));
  }
  return out;
}

std::uint64_t contracted(const ptx::Contraction& f, std::uint64_t x, std::uint64_t y, std::uint64_t other) {
  const PtxType pt = f.fma.d.type;
  const Type t = *ptx::element_format(pt);
  const std::uint64_t sign = ptx::lanes_of(pt) == 2 ? 0x80008000ULL : info(t).sign_bit();
  if (f.product != ptx::Contraction::Product::mul) {  // the division's FMUL, fused (.f32 only)
    const SpecialTable& rcp = special_table(SpecialTableId::rcp);
    const auto a = static_cast<std::uint32_t>(x), b = static_cast<std::uint32_t>(y);
    const DivisionFactors d = f.product == ptx::Contraction::Product::div_full ? div_full_factors(rcp, a, b, f.fma.d.ftz)
                                                                               : div_approx_factors(rcp, a, b, f.fma.d.ftz);
    x = d.reciprocal;
    y = d.dividend;
  }
  // FFMA's operand negations: a NaN keeps its payload (the canonical NaN comes out for these types).
  if (f.negate_product) x ^= sign;
  if (f.negate_other) other ^= sign;
  return float_arith(f.fma, x, y, other);
}

bool float_compare(const Instruction& ins, PtxType pt, std::uint64_t a, std::uint64_t b) {
  const Type t = *ptx::element_format(pt);
  if (ins.d.ftz) {
    a = flush(t, a);
    b = flush(t, b);
  }
  const bool unordered = is_nan(t, a) || is_nan(t, b);
  const auto c = static_cast<CmpOp>(ins.d.mode);
  if (c == CmpOp::num) return !unordered;
  if (c == CmpOp::nan) return unordered;
  const bool u = c >= CmpOp::equ;
  if (unordered) return u;
  const std::int64_t ka = key(t, a, false), kb = key(t, b, false);
  switch (c) {
    case CmpOp::eq:
    case CmpOp::equ: return ka == kb;
    case CmpOp::ne:
    case CmpOp::neu: return ka != kb;
    case CmpOp::lt:
    case CmpOp::ltu: return ka < kb;
    case CmpOp::le:
    case CmpOp::leu: return ka <= kb;
    case CmpOp::gt:
    case CmpOp::gtu: return ka > kb;
    case CmpOp::ge:
    case CmpOp::geu: return ka >= kb;
    default: return false;
  }
}

bool slct_select_a(const Instruction& ins, std::uint64_t c) {
  if (ins.d.ftz) c = flush(Type::f32, c);
  if (is_nan(Type::f32, c)) return false;
  return !(c & 0x80000000U) || (c & 0x7fffffffU) == 0;
}

bool float_test(const Instruction& ins, std::uint64_t a) {
  const Type t = *ptx::element_format(ins.d.type);
  const FpClass c = decode(t, a).cls;
  switch (ins.d.mode) {
    case 0: return c != FpClass::infinity && c != FpClass::nan;  // finite
    case 1: return c == FpClass::infinity;
    case 2: return c != FpClass::nan;                            // number
    case 3: return c == FpClass::nan;                            // notanumber
    // .normal: the GPU counts the zeros as normal (testp.normal.f32 of 0 is true).
    case 4: return c == FpClass::normal || c == FpClass::zero;
    default: return c == FpClass::subnormal;
  }
}

}  // namespace ptxmma::exec
