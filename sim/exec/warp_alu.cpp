#include "sim/exec/warp_alu.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "sim/model/simd.hpp"

namespace ptxmma::exec {
namespace {

using Lanes = WarpAlu::Lanes;
using ptx::CmpOp;
using ptx::Operand;
using ptx::PtxType;
using ptx::TypeClass;
using u64 = std::uint64_t;
using i64 = std::int64_t;
constexpr std::size_t kLanes = WarpAlu::kLanes;

u64 mask_of(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }
// v's low w bits, sign-extended (w = 64: v).
inline i64 sext(const WarpAlu& p, u64 v) {
  const int s = 64 - p.width;
  return static_cast<i64>(v << s) >> s;
}

// d = r where the lane executes, else d as it was; r masked to what the register keeps. (The
// masks are copied first: read from the table, the compiler could not tell them from d.)
[[gnu::always_inline]] inline void blend(u64* d, const Lanes& r, u64 keep, std::uint32_t lanes) {
  Lanes m;
  lane_masks(lanes, m);
  for (std::size_t i = 0; i < kLanes; ++i) d[i] = (r[i] & keep & m[i]) | (d[i] & ~m[i]);
}

// One operation on each lane's a, b and c: Op::apply(p, a, b, c) is the lane's result.
template <class Op, int Sources>
void lanes_of_op(const WarpAlu& p, RegisterFile& regs, int base, std::uint32_t lanes) {
  const u64* a = p.source(0, regs, base);
  const u64* b = Sources > 1 ? p.source(1, regs, base) : a;
  const u64* c = Sources > 2 ? p.source(2, regs, base) : a;
  Lanes r;  // all results first: a source may be the destination
  for (std::size_t i = 0; i < kLanes; ++i) r[i] = Op::apply(p, a[i], Sources > 1 ? b[i] : 0, Sources > 2 ? c[i] : 0);
  blend(regs.words(p.dst) + base, r, p.keep, lanes);
}

// Integer operations: as sem_integer.cpp's arith, logic and shift compute them; the result is
// masked to the type's width (keep) when written.
struct Add { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return a + b; } };
struct Sub { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return a - b; } };
// The low bits of a product are those of the signed and of the unsigned one alike.
struct MulLo { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return a * b; } };
struct MadLo { static u64 apply(const WarpAlu&, u64 a, u64 b, u64 c) { return a * b + c; } };
// .wide of a 32-bit type: the whole 64-bit product (+ c).
struct MulWideS { static u64 apply(const WarpAlu& p, u64 a, u64 b, u64) { return static_cast<u64>(sext(p, a) * sext(p, b)); } };
struct MulWideU { static u64 apply(const WarpAlu& p, u64 a, u64 b, u64) { return (a & p.type_mask) * (b & p.type_mask); } };
struct MadWideS { static u64 apply(const WarpAlu& p, u64 a, u64 b, u64 c) { return MulWideS::apply(p, a, b, 0) + c; } };
struct MadWideU { static u64 apply(const WarpAlu& p, u64 a, u64 b, u64 c) { return MulWideU::apply(p, a, b, 0) + c; } };
struct And { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return a & b; } };
struct Or { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return a | b; } };
struct Xor { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return a ^ b; } };
struct Not { static u64 apply(const WarpAlu&, u64 a, u64, u64) { return ~a; } };
struct Neg { static u64 apply(const WarpAlu&, u64 a, u64, u64) { return 0 - a; } };
struct Abs { static u64 apply(const WarpAlu& p, u64 a, u64, u64) { return sext(p, a) < 0 ? 0 - a : a; } };
struct Mov { static u64 apply(const WarpAlu&, u64 a, u64, u64) { return a; } };
// Shift counts are the low 32 bits of b; a count of the width or more shifts everything out.
struct Shl {
  static u64 apply(const WarpAlu& p, u64 a, u64 b, u64) {
    const auto n = static_cast<std::uint32_t>(b);
    return n >= static_cast<std::uint32_t>(p.width) ? 0 : a << (n & 63);
  }
};
struct ShrU {
  static u64 apply(const WarpAlu& p, u64 a, u64 b, u64) {
    const auto n = static_cast<std::uint32_t>(b);
    return n >= static_cast<std::uint32_t>(p.width) ? 0 : (a & p.type_mask) >> (n & 63);
  }
};
struct ShrS {
  static u64 apply(const WarpAlu& p, u64 a, u64 b, u64) {
    const auto n = static_cast<std::uint32_t>(b);
    const i64 s = sext(p, a);
    return static_cast<u64>(n >= static_cast<std::uint32_t>(p.width) ? (s < 0 ? -1 : 0) : s >> (n & 63));
  }
};
template <bool Signed, bool Min>
struct MinMax {
  static u64 apply(const WarpAlu& p, u64 a, u64 b, u64) {
    const bool less = Signed ? sext(p, a) < sext(p, b) : (a & p.type_mask) < (b & p.type_mask);
    return Min == less ? a : b;
  }
};
// cvt between integer types (no .sat): the source (width bits) extended by its signedness, then
// the destination's low width2 bits extended by the destination's (sem_convert.cpp's scalar, then
// write_ext).
template <bool SrcSigned, bool DstSigned>
struct CvtInt {
  static u64 apply(const WarpAlu& p, u64 a, u64, u64) {
    const u64 v = SrcSigned ? static_cast<u64>(sext(p, a)) : a & p.type_mask;
    const int s = 64 - p.width2;
    return DstSigned ? static_cast<u64>(static_cast<i64>(v << s) >> s) : (v << s) >> s;
  }
};
// mov's pack of two elements {a, b} (width: an element's bits), a in the low bits.
struct Pack {
  static u64 apply(const WarpAlu& p, u64 a, u64 b, u64) { return (a & p.type_mask) | ((b & p.type_mask) << p.width); }
};
// mov's unpack into two elements {d, d2}, d from the low bits.
void unpack(const WarpAlu& p, RegisterFile& regs, int base, std::uint32_t lanes) {
  const u64* a = p.source(0, regs, base);
  Lanes lo, hi;
  for (std::size_t i = 0; i < kLanes; ++i) {
    lo[i] = a[i];
    hi[i] = a[i] >> p.width;
  }
  blend(regs.words(p.dst) + base, lo, p.keep, lanes);
  blend(regs.words(p.dst2) + base, hi, p.keep2, lanes);
}
// selp: a where the predicate c (negated for !%p) is set, else b.
struct Selp {
  static u64 apply(const WarpAlu& p, u64 a, u64 b, u64 c) { return (c != 0) != p.negate_c ? a : b; }
};

// f32 .rn add, sub, mul, fma (no .ftz, .sat): the IEEE 754 results the sem_float.cpp path rounds
// from its exact sums, which the host's binary32 operations give in its default rounding (round
// to nearest even, subnormals kept: nothing here changes the MXCSR); a NaN is the GPU's canonical
// 0x7fffffff.
inline float f32(u64 v) { return std::bit_cast<float>(static_cast<std::uint32_t>(v)); }
inline u64 bits_of(float f) { return f != f ? 0x7fffffffULL : std::bit_cast<std::uint32_t>(f); }
struct AddF32 { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return bits_of(f32(a) + f32(b)); } };
struct SubF32 { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return bits_of(f32(a) - f32(b)); } };
struct MulF32 { static u64 apply(const WarpAlu&, u64 a, u64 b, u64) { return bits_of(f32(a) * f32(b)); } };

// fma on the host's FMA unit where it has one (x86-64-v3), else the C library's exact fmaf.
PTXMMA_FMA_MULTIVERSION
void fma_f32(const WarpAlu& p, RegisterFile& regs, int base, std::uint32_t lanes) {
  const u64 *a = p.source(0, regs, base), *b = p.source(1, regs, base), *c = p.source(2, regs, base);
  Lanes r;
  for (std::size_t i = 0; i < kLanes; ++i) r[i] = bits_of(std::fma(f32(a[i]), f32(b[i]), f32(c[i])));
  blend(regs.words(p.dst) + base, r, p.keep, lanes);
}

// setp's comparisons. On an integer type: of the values of a and b (signed or not) in the type's
// width.
// The width is a template argument: 16- and 32-bit comparisons vectorise on narrow integers.
template <int W>
using UnsignedOf = std::conditional_t<W == 16, std::uint16_t, std::conditional_t<W == 32, std::uint32_t, std::uint64_t>>;
template <CmpOp Op, bool Signed, int W>
struct IntCompare {
  static bool test(const WarpAlu&, u64 a, u64 b) {
    using U = UnsignedOf<W>;
    using S = std::make_signed_t<U>;
    const U ua = static_cast<U>(a), ub = static_cast<U>(b);
    const S sa = static_cast<S>(ua), sb = static_cast<S>(ub);
    if constexpr (Op == CmpOp::eq) return ua == ub;
    if constexpr (Op == CmpOp::ne) return ua != ub;
    if constexpr (Op == CmpOp::lt) return Signed ? sa < sb : ua < ub;
    if constexpr (Op == CmpOp::le) return Signed ? sa <= sb : ua <= ub;
    if constexpr (Op == CmpOp::gt) return Signed ? sa > sb : ua > ub;
    return Signed ? sa >= sb : ua >= ub;  // ge
  }
};
// On f32 (no .ftz): the host's ordered comparisons, which are false with a NaN operand and treat
// -0 as +0, as sem_float.cpp's float_compare; the unordered ones (equ ... geu) also true with a
// NaN, num and nan whether neither or either is one.
template <CmpOp Op>
struct F32Compare {
  static bool test(const WarpAlu&, u64 a, u64 b) {
    const float x = f32(a), y = f32(b);
    const bool unordered = x != x || y != y;
    if constexpr (Op == CmpOp::eq) return x == y;
    if constexpr (Op == CmpOp::ne) return !unordered && x != y;
    if constexpr (Op == CmpOp::lt) return x < y;
    if constexpr (Op == CmpOp::le) return x <= y;
    if constexpr (Op == CmpOp::gt) return x > y;
    if constexpr (Op == CmpOp::ge) return x >= y;
    if constexpr (Op == CmpOp::equ) return unordered || x == y;
    if constexpr (Op == CmpOp::neu) return x != y;
    if constexpr (Op == CmpOp::ltu) return unordered || x < y;
    if constexpr (Op == CmpOp::leu) return unordered || x <= y;
    if constexpr (Op == CmpOp::gtu) return unordered || x > y;
    if constexpr (Op == CmpOp::geu) return unordered || x >= y;
    if constexpr (Op == CmpOp::num) return !unordered;
    return unordered;  // nan
  }
};

// setp: the comparison, combined with the predicate c by `Bool` (none: c is not read); the
// second destination, if any, gets the combination of its negation.
template <ptx::BoolOp Bool>
inline u64 combine(bool t, bool c) {
  if constexpr (Bool == ptx::BoolOp::and_) return t && c;
  if constexpr (Bool == ptx::BoolOp::or_) return t || c;
  if constexpr (Bool == ptx::BoolOp::xor_) return t != c;
  return t;
}
template <class Compare, ptx::BoolOp Bool>
void setp(const WarpAlu& p, RegisterFile& regs, int base, std::uint32_t lanes) {
  const u64 *a = p.source(0, regs, base), *b = p.source(1, regs, base);
  const u64* c = Bool != ptx::BoolOp::none ? p.source(2, regs, base) : a;
  Lanes t, f;
  for (std::size_t i = 0; i < kLanes; ++i) {
    const bool x = Compare::test(p, a[i], b[i]);
    const bool cin = Bool != ptx::BoolOp::none && (c[i] != 0) != p.negate_c;
    t[i] = combine<Bool>(x, cin);
    f[i] = combine<Bool>(!x, cin);
  }
  blend(regs.words(p.dst) + base, t, 1, lanes);
  if (p.dst2 >= 0) blend(regs.words(p.dst2) + base, f, 1, lanes);
}

template <class Compare>
WarpAlu::Fn setp_for(ptx::BoolOp b) {
  switch (b) {
    case ptx::BoolOp::none: return setp<Compare, ptx::BoolOp::none>;
    case ptx::BoolOp::and_: return setp<Compare, ptx::BoolOp::and_>;
    case ptx::BoolOp::or_: return setp<Compare, ptx::BoolOp::or_>;
    case ptx::BoolOp::xor_: return setp<Compare, ptx::BoolOp::xor_>;
  }
  return nullptr;
}
template <bool Signed, int W>
WarpAlu::Fn int_setp(CmpOp op, ptx::BoolOp b) {
  switch (op) {
    case CmpOp::eq: return setp_for<IntCompare<CmpOp::eq, false, W>>(b);
    case CmpOp::ne: return setp_for<IntCompare<CmpOp::ne, false, W>>(b);
    case CmpOp::lt: return setp_for<IntCompare<CmpOp::lt, Signed, W>>(b);
    case CmpOp::le: return setp_for<IntCompare<CmpOp::le, Signed, W>>(b);
    case CmpOp::gt: return setp_for<IntCompare<CmpOp::gt, Signed, W>>(b);
    case CmpOp::ge: return setp_for<IntCompare<CmpOp::ge, Signed, W>>(b);
    case CmpOp::lo: return setp_for<IntCompare<CmpOp::lt, false, W>>(b);
    case CmpOp::ls: return setp_for<IntCompare<CmpOp::le, false, W>>(b);
    case CmpOp::hi: return setp_for<IntCompare<CmpOp::gt, false, W>>(b);
    case CmpOp::hs: return setp_for<IntCompare<CmpOp::ge, false, W>>(b);
    default: return nullptr;  // the unordered comparisons are for floating-point types
  }
}
template <bool Signed>
WarpAlu::Fn int_setp(int width, CmpOp op, ptx::BoolOp b) {
  switch (width) {
    case 16: return int_setp<Signed, 16>(op, b);
    case 32: return int_setp<Signed, 32>(op, b);
    case 64: return int_setp<Signed, 64>(op, b);
    default: return nullptr;
  }
}
WarpAlu::Fn f32_setp(CmpOp op, ptx::BoolOp b) {
  switch (op) {
    case CmpOp::eq: return setp_for<F32Compare<CmpOp::eq>>(b);
    case CmpOp::ne: return setp_for<F32Compare<CmpOp::ne>>(b);
    case CmpOp::lt: return setp_for<F32Compare<CmpOp::lt>>(b);
    case CmpOp::le: return setp_for<F32Compare<CmpOp::le>>(b);
    case CmpOp::gt: return setp_for<F32Compare<CmpOp::gt>>(b);
    case CmpOp::ge: return setp_for<F32Compare<CmpOp::ge>>(b);
    case CmpOp::equ: return setp_for<F32Compare<CmpOp::equ>>(b);
    case CmpOp::neu: return setp_for<F32Compare<CmpOp::neu>>(b);
    case CmpOp::ltu: return setp_for<F32Compare<CmpOp::ltu>>(b);
    case CmpOp::leu: return setp_for<F32Compare<CmpOp::leu>>(b);
    case CmpOp::gtu: return setp_for<F32Compare<CmpOp::gtu>>(b);
    case CmpOp::geu: return setp_for<F32Compare<CmpOp::geu>>(b);
    case CmpOp::num: return setp_for<F32Compare<CmpOp::num>>(b);
    case CmpOp::nan: return setp_for<F32Compare<CmpOp::nan>>(b);
    default: return nullptr;  // lo ls hi hs are for integer types
  }
}

bool plain_source(const Operand& op) {
  return (op.kind == Operand::Kind::reg || op.kind == Operand::Kind::imm) && !op.negated;
}

}  // namespace

WarpAlu prepare_warp_alu(const ptx::Instruction& ins, const std::vector<int>& widths) {
  WarpAlu p;
  const ptx::Decoded& d = ins.d;
  const std::string& op = ins.opcode;
  const std::size_t n = ins.ops.size();
  if (n < 2 || d.contraction) return p;
  const PtxType t = d.type;
  const TypeClass tc = ptx::type_class(t);
  const bool integer = tc == TypeClass::signed_int || tc == TypeClass::unsigned_int || tc == TypeClass::bits;
  const bool is_signed = tc == TypeClass::signed_int;
  p.width = t == PtxType::pred ? 1 : ptx::bits(t);
  if (p.width < 1 || p.width > 64) return p;
  p.type_mask = mask_of(p.width);
  // Destinations: one register, or setp's pair.
  const auto pair = [](const Operand& v) {
    return v.kind == Operand::Kind::vec && v.elems.size() == 2 && v.elems[0].kind == Operand::Kind::reg &&
           v.elems[1].kind == Operand::Kind::reg;
  };
  const Operand& dop = ins.ops[0];
  if (dop.kind == Operand::Kind::reg) {
    p.dst = dop.reg;
  } else if ((op == "setp" || op == "mov") && pair(dop)) {
    p.dst = dop.elems[0].reg;
    p.dst2 = dop.elems[1].reg;
  } else {
    return p;
  }
  const u64 dst_mask = mask_of(widths[static_cast<std::size_t>(p.dst)]);
  if (op == "mov" && n == 2 && (p.width == 32 || p.width == 64)) {  // a pack or unpack of two halves
    const int half = p.width / 2;
    if (p.dst2 >= 0 && plain_source(ins.ops[1])) {
      p.src[0] = ins.ops[1].kind == Operand::Kind::reg ? ins.ops[1].reg : -1;
      p.imm[0].fill(ins.ops[1].value);
      p.width = half;
      p.keep = mask_of(half) & dst_mask;
      p.keep2 = mask_of(half) & mask_of(widths[static_cast<std::size_t>(p.dst2)]);
      p.fn = unpack;
      return p;
    }
    if (p.dst2 < 0 && ins.ops[1].kind == Operand::Kind::vec && ins.ops[1].elems.size() == 2 &&
        plain_source(ins.ops[1].elems[0]) && plain_source(ins.ops[1].elems[1])) {
      for (std::size_t k = 0; k < 2; ++k) {
        const Operand& e = ins.ops[1].elems[k];
        p.src[k] = e.kind == Operand::Kind::reg ? e.reg : -1;
        p.imm[k].fill(e.value);
      }
      p.width = half;
      p.type_mask = mask_of(half);
      p.keep = dst_mask;  // the packed word as it is
      p.fn = lanes_of_op<Pack, 2>;
      return p;
    }
  }
  if (p.dst2 >= 0 && op != "setp") return p;
  // Sources: registers and immediates (a predicate c of setp/selp may be negated).
  const bool pred_c = op == "setp" || op == "selp";
  for (std::size_t k = 1; k < n && k <= 3; ++k) {
    const Operand& s = ins.ops[k];
    const bool negatable = pred_c && k == 3;
    if (!plain_source(s) && !(negatable && s.kind == Operand::Kind::reg)) return p;
    p.src[k - 1] = s.kind == Operand::Kind::reg ? s.reg : -1;
    p.imm[k - 1].fill(s.value);
    if (negatable) p.negate_c = s.negated;
  }
  const std::size_t sources = n - 1;
  WarpAlu::Fn fn = nullptr;
  p.keep = p.type_mask & dst_mask;
  const bool plain = !d.sat && !d.relu && !d.ftz && !d.approx;
  if (integer && plain) {
    const auto mode = static_cast<ptx::MulMode>(d.mode);
    if (op == "add" && sources == 2) fn = lanes_of_op<Add, 2>;
    else if (op == "sub" && sources == 2) fn = lanes_of_op<Sub, 2>;
    else if (op == "mul" && sources == 2 && mode == ptx::MulMode::lo) fn = lanes_of_op<MulLo, 2>;
    else if (op == "mad" && sources == 3 && mode == ptx::MulMode::lo) fn = lanes_of_op<MadLo, 3>;
    else if ((op == "mul" || op == "mad") && mode == ptx::MulMode::wide && p.width == 32 && sources == (op == "mul" ? 2U : 3U)) {
      p.keep = dst_mask;  // the 64-bit product
      fn = op == "mul" ? (is_signed ? lanes_of_op<MulWideS, 2> : lanes_of_op<MulWideU, 2>)
                       : (is_signed ? lanes_of_op<MadWideS, 3> : lanes_of_op<MadWideU, 3>);
    }
    else if (op == "min" && sources == 2) fn = is_signed ? lanes_of_op<MinMax<true, true>, 2> : lanes_of_op<MinMax<false, true>, 2>;
    else if (op == "max" && sources == 2) fn = is_signed ? lanes_of_op<MinMax<true, false>, 2> : lanes_of_op<MinMax<false, false>, 2>;
    else if (op == "neg" && sources == 1) fn = lanes_of_op<Neg, 1>;
    else if (op == "abs" && sources == 1) fn = lanes_of_op<Abs, 1>;
    else if (op == "shl" && sources == 2) fn = lanes_of_op<Shl, 2>;
    else if (op == "shr" && sources == 2) fn = is_signed ? lanes_of_op<ShrS, 2> : lanes_of_op<ShrU, 2>;
  }
  if (op == "mov" && sources == 1 && (integer || tc == TypeClass::floating || t == PtxType::pred)) {
    fn = lanes_of_op<Mov, 1>;  // mov.f32 moves bits
  }
  if ((integer || t == PtxType::pred) && sources == (op == "not" ? 1U : 2U)) {  // logic
    if (op == "and") fn = lanes_of_op<And, 2>;
    else if (op == "or") fn = lanes_of_op<Or, 2>;
    else if (op == "xor") fn = lanes_of_op<Xor, 2>;
    else if (op == "not") fn = lanes_of_op<Not, 1>;
  }
  const TypeClass tc2 = ptx::type_class(d.type2);
  if (op == "cvt" && sources == 1 && d.mode == 0 && integer && !d.sat &&
      (tc2 == TypeClass::signed_int || tc2 == TypeClass::unsigned_int || tc2 == TypeClass::bits)) {
    p.width2 = p.width;  // the destination type's
    p.width = ptx::bits(d.type2);
    p.type_mask = mask_of(p.width);
    p.keep = dst_mask;   // already the destination type's bits, extended to the register
    const bool src_signed = tc2 == TypeClass::signed_int;
    fn = src_signed ? (is_signed ? lanes_of_op<CvtInt<true, true>, 1> : lanes_of_op<CvtInt<true, false>, 1>)
                    : (is_signed ? lanes_of_op<CvtInt<false, true>, 1> : lanes_of_op<CvtInt<false, false>, 1>);
  }
  if (op == "selp" && sources == 3) {
    p.keep = dst_mask;  // selp writes a or b as they are
    fn = lanes_of_op<Selp, 3>;
  }
  if (op == "setp" && integer && ptx::lanes_of(t) == 1) {
    const auto bop = static_cast<ptx::BoolOp>(d.mode2);
    if (sources == (bop == ptx::BoolOp::none ? 2U : 3U))
      fn = is_signed ? int_setp<true>(p.width, static_cast<CmpOp>(d.mode), bop)
                     : int_setp<false>(p.width, static_cast<CmpOp>(d.mode), bop);
  }
  if (t == PtxType::f32 && plain && d.rnd.value_or(Rounding::rn) == Rounding::rn && !d.int_rnd) {
    bool regs32 = true;  // binary32 operands in 32-bit registers or immediates
    const std::size_t last = op == "setp" ? 2 : n - 1;  // setp's c is a predicate
    for (std::size_t k = op == "setp" ? 1 : 0; k <= last; ++k)
      if (ins.ops[k].kind == Operand::Kind::reg && widths[static_cast<std::size_t>(ins.ops[k].reg)] != 32) regs32 = false;
    if (regs32) {
      if (op == "add" && sources == 2) fn = lanes_of_op<AddF32, 2>;
      else if (op == "sub" && sources == 2) fn = lanes_of_op<SubF32, 2>;
      else if (op == "mul" && sources == 2) fn = lanes_of_op<MulF32, 2>;
      else if ((op == "fma" || op == "mad") && sources == 3 && d.rnd) fn = fma_f32;
      else if (op == "setp" && sources == (d.mode2 == 0 ? 2U : 3U) && !d.rnd)
        fn = f32_setp(static_cast<CmpOp>(d.mode), static_cast<ptx::BoolOp>(d.mode2));
    }
  }
  p.fn = fn;
  return p;
}

}  // namespace ptxmma::exec
