// Floating-point add sub mul fma mad min max neg abs and setp on .f16 .f16x2 .bf16 .bf16x2 .f32
// .f64: every result is the exact value rounded once through sim/numeric (fma_step of sim/model:
// an exact product and sum on integer significands, then round_to), never host float arithmetic.
//
// Rules (PTX ISA; the ones no hardware capture has checked are marked):
// * add/sub/mul default to .rn. sub is add with b's sign flipped. mul is fma(a, b, -0) with an
//   exact zero product returned as the signed zero.
// * NaN results of .f32/.f16/.bf16 are the canonical NaN (0x7fffffff, 0x7fff); .f64 keeps the
//   first NaN operand's payload, quietened, and 0xfff8000000000000 for invalid operations
//   (unverified on hardware).
// * .ftz: subnormal inputs and results become zeros of the same sign. .sat clamps to [0, 1]
//   (NaN -> +0). .relu (f16/bf16 fma): negative -> +0, NaN -> canonical NaN.
// * min/max: a NaN operand gives the other one (both NaN, or any NaN with .NaN: the canonical
//   NaN); -0 is below +0.
#include <fmt/format.h>

#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"
#include "sim/model/dot.hpp"
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
  if (op == "neg") return (a ^ sign) & ti.mask();
  if (op == "abs") return a & ~sign & ti.mask();
  if (op == "min" || op == "max") {
    const bool na = is_nan(t, a), nb = is_nan(t, b);
    if (na || nb) {
      if ((na && nb) || d.mode == 1) return t == Type::f64 ? scalar_model().nan_invalid : canonical_nan(t);
      return na ? b : a;
    }
    const bool a_less = key(t, a, true) < key(t, b, true);
    return (op == "min") == a_less ? a : b;
  }
  const Rounding mode = d.rnd.value_or(Rounding::rn);
  const Model& m = scalar_model();
  std::uint64_t r = 0;
  if (op == "add") {
    r = fma_step(m, t, a, one(t), b, mode);
  } else if (op == "sub") {
    r = fma_step(m, t, a, one(t), is_nan(t, b) ? b : b ^ sign, mode);
  } else if (op == "mul") {
    const Fields fa = decode(t, a), fb = decode(t, b);
    const bool zero = (fa.cls == FpClass::zero && (fb.cls != FpClass::infinity && fb.cls != FpClass::nan)) ||
                      (fb.cls == FpClass::zero && (fa.cls != FpClass::infinity && fa.cls != FpClass::nan));
    r = zero ? ((fa.sign != fb.sign) ? sign : 0) : fma_step(m, t, a, b, sign, mode);
  } else if (op == "fma" || op == "mad") {
    r = fma_step(m, t, a, b, c, mode);
  } else if (op == "div") {
    r = divide(t, a, b, mode);
  } else {
    throw Error(fmt::format("'{}' is not a floating-point operation", ins.text));
  }
  if (t != Type::f64 && (r & ~ti.mask()) != 0) return canonical_nan(t);  // the model's f64 invalid NaN
  if (is_nan(t, r)) return t == Type::f64 ? r : canonical_nan(t);
  if (d.ftz) r = flush(t, r);
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

bool float_compare(const Instruction& ins, std::uint64_t a, std::uint64_t b) {
  const Type t = *ptx::element_format(ins.d.type);
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

void register_float(std::vector<SemanticSpec>&) {}  // the shared opcodes are rows of sem_integer.cpp

}  // namespace ptxmma::exec
