// Semantics of integer arithmetic, logic, bit-field, move, setp and selp. Floating-point types
// of the shared opcodes (add.f32, min.f16x2, setp.lt.f32, ...) go to sem_float.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <string_view>
#include <utility>

#include "isa/contraction.hpp"
#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {
namespace {

using ptx::CmpOp;
using ptx::Instruction;
using ptx::MulMode;
using ptx::PtxType;
using ptx::TypeClass;

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128x;

std::uint64_t mask_of(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }
std::int64_t sext(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  v &= mask_of(bits);
  return (v >> (bits - 1)) & 1U ? static_cast<std::int64_t>(v | ~mask_of(bits)) : static_cast<std::int64_t>(v);
}
bool is_float(PtxType t) { return ptx::type_class(t) == TypeClass::floating; }
bool is_signed(PtxType t) { return ptx::type_class(t) == TypeClass::signed_int; }

// The opcodes of arith and logic, named once per instruction rather than compared as strings
// in every lane.
enum class ArithOp : std::uint8_t { add, sub, mul, mad, mul24, mad24, sad, min, max, neg, abs, div, rem, float_only };
constexpr std::pair<std::string_view, ArithOp> kArithOps[] = {
    {"add", ArithOp::add},     {"sub", ArithOp::sub},     {"mul", ArithOp::mul}, {"mad", ArithOp::mad},
    {"mul24", ArithOp::mul24}, {"mad24", ArithOp::mad24}, {"sad", ArithOp::sad}, {"min", ArithOp::min},
    {"max", ArithOp::max},     {"neg", ArithOp::neg},     {"abs", ArithOp::abs}, {"div", ArithOp::div},
    {"rem", ArithOp::rem},     {"fma", ArithOp::float_only}, {"copysign", ArithOp::float_only},
    {"rcp", ArithOp::float_only}, {"sqrt", ArithOp::float_only}};
enum class LogicOp : std::uint8_t { and_, or_, xor_, not_, cnot };
constexpr std::pair<std::string_view, LogicOp> kLogicOps[] = {
    {"and", LogicOp::and_}, {"or", LogicOp::or_}, {"xor", LogicOp::xor_}, {"not", LogicOp::not_}, {"cnot", LogicOp::cnot}};
// The row of `opcode` (registered for these opcodes only, so one always matches).
template <class Op, std::size_t N>
Op named(const std::pair<std::string_view, Op> (&ops)[N], std::string_view opcode) {
  for (const auto& [name, op] : ops)
    if (name == opcode) return op;
  throw Error(fmt::format("no semantics for '{}'", opcode));
}

// add sub mul mad min max neg abs div rem
void arith(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const PtxType t = ins.d.type;
  const ArithOp op = named(kArithOps, ins.opcode);
  const std::size_t nsrc = ins.ops.size() - 1;
  std::uint32_t zero_divisor = 0;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane);
    const std::uint64_t b = nsrc > 1 ? x.read(ins.ops[2], lane) : 0;
    const std::uint64_t c = nsrc > 2 ? x.read(ins.ops[3], lane) : 0;
    if (is_float(t)) {
      if (const auto& f = ins.d.contraction)
        x.write(ins.ops[0], lane, contracted(*f, x.read(f->x, lane), x.read(f->y, lane), f->other == 1 ? a : b));
      else
        x.write(ins.ops[0], lane, float_arith(ins, a, b, c));
      return;
    }
    const int w = ptx::bits(t);
    const bool s = is_signed(t);
    const std::uint64_t m = mask_of(w);
    const i128 sa = sext(a, w), sb = sext(b, w);
    const u128x ua = a & m, ub = b & m;
    const auto wide_product = [&]() -> u128x { return s ? static_cast<u128x>(sa * sb) : ua * ub; };
    std::uint64_t r = 0;
    if (op == ArithOp::add || op == ArithOp::sub) {
      if (ins.d.sat) {  // .s32 only
        const i128 v = op == ArithOp::add ? sa + sb : sa - sb;
        r = static_cast<std::uint64_t>(std::clamp<i128>(v, INT32_MIN, INT32_MAX));
      } else {
        r = op == ArithOp::add ? a + b : a - b;
      }
    } else if (op == ArithOp::mul || op == ArithOp::mad) {
      const auto mode = static_cast<MulMode>(ins.d.mode);
      const u128x p = wide_product();
      if (mode == MulMode::lo) {
        r = static_cast<std::uint64_t>(p) + (op == ArithOp::mad ? c : 0);
      } else if (mode == MulMode::hi) {
        const std::uint64_t hi = static_cast<std::uint64_t>(s ? static_cast<u128x>((sa * sb) >> w) : (p >> w));
        if (op == ArithOp::mad && ins.d.sat) {
          const i128 v = static_cast<i128>(sext(hi, w)) + sext(c, w);
          r = static_cast<std::uint64_t>(std::clamp<i128>(v, INT32_MIN, INT32_MAX));
        } else {
          r = hi + (op == ArithOp::mad ? c : 0);
        }
      } else {  // wide: the destination is twice as wide
        r = static_cast<std::uint64_t>(p) + (op == ArithOp::mad ? c : 0);
        x.write(ins.ops[0], lane, r & mask_of(2 * w));
        return;
      }
    } else if (op == ArithOp::mul24 || op == ArithOp::mad24) {
      // The low 24 bits of each operand (sign-extended for .s32) make a 48-bit product: .lo
      // keeps bits 31..0, .hi bits 47..16.
      const i128 p = s ? static_cast<i128>(sext(a, 24)) * sext(b, 24) : static_cast<i128>((a & 0xffffff) * (b & 0xffffff));
      const bool hi = static_cast<MulMode>(ins.d.mode) == MulMode::hi;
      const std::uint64_t part = static_cast<std::uint64_t>(hi ? p >> 16 : p) & m;
      if (op == ArithOp::mad24 && ins.d.sat) {
        r = static_cast<std::uint64_t>(std::clamp<i128>(static_cast<i128>(sext(part, 32)) + sext(c, 32), INT32_MIN, INT32_MAX));
      } else {
        r = part + (op == ArithOp::mad24 ? c : 0);
      }
    } else if (op == ArithOp::sad) {
      const u128x diff = s ? static_cast<u128x>(sa > sb ? sa - sb : sb - sa) : (ua > ub ? ua - ub : ub - ua);
      r = static_cast<std::uint64_t>(diff) + c;
    } else if (op == ArithOp::min || op == ArithOp::max) {
      const bool less = s ? sa < sb : ua < ub;
      r = (op == ArithOp::min) == less ? a : b;
      if (ins.d.relu && sext(r, w) < 0) r = 0;
    } else if (op == ArithOp::neg) {
      r = 0 - a;
    } else if (op == ArithOp::abs) {
      r = sa < 0 ? 0 - a : a;
    } else if (op == ArithOp::div || op == ArithOp::rem) {
      if ((b & m) == 0) {  // the GPU's quotient and remainder are all ones (docs/hardware/alu-sm90.md)
        zero_divisor |= 1U << lane;
        r = m;
      } else if (s) {
        if (sa == -(static_cast<i128>(1) << (w - 1)) && sb == -1) {
          r = op == ArithOp::div ? a : 0;  // overflow: the quotient wraps
        } else {
          r = static_cast<std::uint64_t>(op == ArithOp::div ? sa / sb : sa % sb);
        }
      } else {
        r = static_cast<std::uint64_t>(op == ArithOp::div ? ua / ub : ua % ub);
      }
    }
    x.write(ins.ops[0], lane, r & m);
  });
  if (zero_divisor != 0)
    x.m.diagnose(ins, fmt::format("'{}': division by zero in lane{} {} (the GPU gives all ones)", ins.text,
                                  std::popcount(zero_divisor) > 1 ? "s" : "", lane_list(zero_divisor)));
}

void logic(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const LogicOp op = named(kLogicOps, ins.opcode);
  const bool p = ins.d.type == PtxType::pred;
  const std::uint64_t m = p ? 1 : mask_of(ptx::bits(ins.d.type));
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane);
    const std::uint64_t b = ins.ops.size() > 2 ? x.read(ins.ops[2], lane) : 0;
    std::uint64_t r = 0;
    if (op == LogicOp::and_) r = a & b;
    else if (op == LogicOp::or_) r = a | b;
    else if (op == LogicOp::xor_) r = a ^ b;
    else if (op == LogicOp::not_) r = ~a;
    else if (op == LogicOp::cnot) r = (a & m) == 0 ? 1 : 0;
    x.write(ins.ops[0], lane, r & m);
  });
}

void shift(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const int w = ptx::bits(ins.d.type);
  const bool left = ins.opcode == "shl";
  const std::uint64_t m = mask_of(w);
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane) & m;
    const auto n = static_cast<std::uint32_t>(x.read(ins.ops[2], lane));
    std::uint64_t r;
    if (left) {
      r = n >= static_cast<std::uint32_t>(w) ? 0 : a << n;
    } else if (is_signed(ins.d.type)) {
      const std::int64_t s = sext(a, w);
      r = static_cast<std::uint64_t>(n >= static_cast<std::uint32_t>(w) ? (s < 0 ? -1 : 0) : s >> n);
    } else {
      r = n >= static_cast<std::uint32_t>(w) ? 0 : a >> n;
    }
    x.write(ins.ops[0], lane, r & m);
  });
}

void bfe(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const int msb = ptx::bits(ins.d.type) - 1;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane);
    // .b32 forms read bits 7..0 of the position and length, .b64 forms all 32 bits (what the GPU does;
    // the PTX ISA says bits 7..0 for both).
    const std::int64_t field_mask = msb == 63 ? 0xffffffffLL : 0xffLL;
    const std::int64_t pos = static_cast<std::int64_t>(x.read(ins.ops[2], lane)) & field_mask;
    const std::int64_t len = static_cast<std::int64_t>(x.read(ins.ops[3], lane)) & field_mask;
    std::uint64_t sbit = 0;
    if (is_signed(ins.d.type) && len != 0) sbit = (a >> std::min<std::int64_t>(pos + len - 1, msb)) & 1U;
    std::uint64_t d = 0;
    for (int i = 0; i <= msb; ++i) {
      const std::uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1U : sbit;
      d |= bit << i;
    }
    x.write(ins.ops[0], lane, d);
  });
}

void bfi(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const int msb = ptx::bits(ins.d.type) - 1;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane);
    std::uint64_t f = x.read(ins.ops[2], lane);
    const std::int64_t field_mask = msb == 63 ? 0xffffffffLL : 0xffLL;  // as bfe
    const std::int64_t pos = static_cast<std::int64_t>(x.read(ins.ops[3], lane)) & field_mask;
    const std::int64_t len = static_cast<std::int64_t>(x.read(ins.ops[4], lane)) & field_mask;
    for (std::int64_t i = 0; i < len && pos + i <= msb; ++i) {
      const std::uint64_t bit = (a >> i) & 1U;
      f = (f & ~(1ULL << (pos + i))) | (bit << (pos + i));
    }
    x.write(ins.ops[0], lane, f);
  });
}

void prmt(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  // Byte selectors per mode and c[1:0], for d.b0 .. d.b3 (PTX prmt table).
  static constexpr int kModes[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
  };
  const auto mode = static_cast<ptx::PrmtMode>(ins.d.mode);
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t src = (x.read(ins.ops[2], lane) << 32) | (x.read(ins.ops[1], lane) & 0xffffffffULL);
    const auto c = static_cast<std::uint32_t>(x.read(ins.ops[3], lane));
    std::uint32_t d = 0;
    for (int i = 0; i < 4; ++i) {
      std::uint32_t byte;
      if (mode == ptx::PrmtMode::none) {
        const std::uint32_t sel = (c >> (4 * i)) & 0xf;
        byte = static_cast<std::uint32_t>(src >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
      } else {
        const int sel = kModes[static_cast<int>(mode) - 1][c & 3][i];
        byte = static_cast<std::uint32_t>(src >> (8 * sel)) & 0xff;
      }
      d |= byte << (8 * i);
    }
    x.write(ins.ops[0], lane, d);
  });
}

void lop3(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const auto lut = static_cast<std::uint32_t>(ins.ops[4].value);
  for_lanes(lanes, [&](int lane) {
    const auto a = static_cast<std::uint32_t>(x.read(ins.ops[1], lane));
    const auto b = static_cast<std::uint32_t>(x.read(ins.ops[2], lane));
    const auto c = static_cast<std::uint32_t>(x.read(ins.ops[3], lane));
    std::uint32_t d = 0;
    for (int i = 0; i < 32; ++i) {
      const std::uint32_t idx = (((a >> i) & 1U) << 2) | (((b >> i) & 1U) << 1) | ((c >> i) & 1U);
      d |= ((lut >> idx) & 1U) << i;
    }
    x.write(ins.ops[0], lane, d);
  });
}

void bitcount(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const int w = ptx::bits(ins.d.type);
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane) & mask_of(w);
    std::uint64_t r;
    if (ins.opcode == "popc") {
      r = static_cast<std::uint64_t>(std::popcount(a));
    } else if (ins.opcode == "clz") {
      r = static_cast<std::uint64_t>(std::countl_zero(a) - (64 - w));
    } else {
      r = 0;
      for (int i = 0; i < w; ++i) r |= ((a >> i) & 1U) << (w - 1 - i);
    }
    x.write(ins.ops[0], lane, r);
  });
}

// The most significant bit that is not a sign bit (all bits for unsigned types), or 0xffffffff.
void bfind(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const int w = ptx::bits(ins.d.type);
  const bool sgn = ptx::type_class(ins.d.type) == ptx::TypeClass::signed_int;
  for_lanes(lanes, [&](int lane) {
    std::uint64_t a = x.read(ins.ops[1], lane) & mask_of(w);
    if (sgn && ((a >> (w - 1)) & 1U)) a = ~a & mask_of(w);
    std::uint64_t r = 0xffffffffU;
    if (a != 0) {
      const int pos = 63 - std::countl_zero(a);
      r = static_cast<std::uint64_t>(ins.d.mode == 1 ? w - 1 - pos : pos);
    }
    x.write(ins.ops[0], lane, r);
  });
}

void shf(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t lo = x.read(ins.ops[1], lane) & 0xffffffffU, hi = x.read(ins.ops[2], lane) & 0xffffffffU;
    const std::uint64_t c = x.read(ins.ops[3], lane) & 0xffffffffU;
    const std::uint64_t n = ins.d.mode2 == 1 ? c & 31U : std::min<std::uint64_t>(c, 32);
    const std::uint64_t both = (hi << 32) | lo;
    const std::uint64_t r = ins.d.mode == 0 ? (both << n) >> 32 : both >> n;
    x.write(ins.ops[0], lane, r & 0xffffffffU);
  });
}

void bmsk(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const bool wrap = ins.d.mode2 == 1;
  for_lanes(lanes, [&](int lane) {
    std::uint64_t a = x.read(ins.ops[1], lane) & 0xffffffffU, b = x.read(ins.ops[2], lane) & 0xffffffffU;
    a = wrap ? a & 31 : std::min<std::uint64_t>(a, 32);
    b = wrap ? b & 31 : std::min<std::uint64_t>(b, 32);
    x.write(ins.ops[0], lane, (((1ULL << b) - 1) << a) & 0xffffffffU);
  });
}

void szext(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const bool wrap = ins.d.mode2 == 1, sgn = is_signed(ins.d.type);
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane) & 0xffffffffU;
    std::uint64_t b = x.read(ins.ops[2], lane) & 0xffffffffU;
    b = wrap ? b & 31 : std::min<std::uint64_t>(b, 32);
    std::uint64_t r = b == 0 ? 0 : sgn ? static_cast<std::uint64_t>(sext(a, static_cast<int>(b))) : a & mask_of(static_cast<int>(b));
    x.write(ins.ops[0], lane, r & 0xffffffffU);
  });
}

// dp4a and dp2a: exact products of the bytes (halves) summed with c, modulo 2^32.
void dot(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const bool sa = is_signed(ins.d.type), sb = is_signed(ins.d.type2);
  const bool two = ins.opcode == "dp2a";
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane), b = x.read(ins.ops[2], lane), c = x.read(ins.ops[3], lane);
    std::int64_t sum = 0;
    for (int i = 0; i < (two ? 2 : 4); ++i) {
      const std::int64_t ea = two ? (sa ? sext(a >> (16 * i), 16) : static_cast<std::int64_t>((a >> (16 * i)) & 0xffff))
                                  : (sa ? sext(a >> (8 * i), 8) : static_cast<std::int64_t>((a >> (8 * i)) & 0xff));
      const int k = two ? 2 * ins.d.mode + i : i;
      const std::int64_t eb = sb ? sext(b >> (8 * k), 8) : static_cast<std::int64_t>((b >> (8 * k)) & 0xff);
      sum += ea * eb;
    }
    x.write(ins.ops[0], lane, (static_cast<std::uint64_t>(sum) + c) & 0xffffffffU);
  });
}

void mov(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const ptx::Operand& d = ins.ops[0];
  const ptx::Operand& s = ins.ops[1];
  const int w = ptx::bits(ins.d.type);
  for_lanes(lanes, [&](int lane) {
    if (d.kind == ptx::Operand::Kind::vec) {  // unpack, element 0 from the low bits
      const std::uint64_t v = x.read(s, lane);
      const int ew = w / static_cast<int>(d.elems.size());
      for (std::size_t i = 0; i < d.elems.size(); ++i) x.write(d.elems[i], lane, (v >> (ew * static_cast<int>(i))) & mask_of(ew));
      return;
    }
    if (s.kind == ptx::Operand::Kind::vec) {  // pack
      const int ew = w / static_cast<int>(s.elems.size());
      std::uint64_t v = 0;
      for (std::size_t i = 0; i < s.elems.size(); ++i)
        v |= (x.read(s.elems[i], lane) & mask_of(ew)) << (ew * static_cast<int>(i));
      x.write(d, lane, v);
      return;
    }
    x.write(d, lane, x.read(s, lane) & mask_of(ins.d.type == PtxType::pred ? 1 : w));
  });
}

bool int_compare(CmpOp c, PtxType t, std::uint64_t a, std::uint64_t b) {
  const int w = ptx::bits(t);
  const std::uint64_t ua = a & mask_of(w), ub = b & mask_of(w);
  const std::int64_t sa = sext(a, w), sb = sext(b, w);
  const bool s = is_signed(t);
  switch (c) {
    case CmpOp::eq: return ua == ub;
    case CmpOp::ne: return ua != ub;
    case CmpOp::lt: return s ? sa < sb : ua < ub;
    case CmpOp::le: return s ? sa <= sb : ua <= ub;
    case CmpOp::gt: return s ? sa > sb : ua > ub;
    case CmpOp::ge: return s ? sa >= sb : ua >= ub;
    case CmpOp::lo: return ua < ub;
    case CmpOp::ls: return ua <= ub;
    case CmpOp::hi: return ua > ub;
    case CmpOp::hs: return ua >= ub;
    default: return false;
  }
}

bool combine(ptx::BoolOp op, bool x, bool c) {
  switch (op) {
    case ptx::BoolOp::none: return x;
    case ptx::BoolOp::and_: return x && c;
    case ptx::BoolOp::or_: return x || c;
    case ptx::BoolOp::xor_: return x != c;
  }
  return x;
}

bool compare(const Instruction& ins, PtxType t, std::uint64_t a, std::uint64_t b);
PtxType half_type(PtxType t);

void setp(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const auto bop = static_cast<ptx::BoolOp>(ins.d.mode2);
  const ptx::Operand& d = ins.ops[0];
  const bool pair = d.kind == ptx::Operand::Kind::vec;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane), b = x.read(ins.ops[2], lane);
    bool cin = false;
    if (bop != ptx::BoolOp::none) cin = (x.read(ins.ops[3], lane) != 0) != ins.ops[3].negated;
    if (ptx::lanes_of(ins.d.type) == 2) {  // p from the low halves, q from the high ones
      const PtxType et = half_type(ins.d.type);
      for (int h = 0; h < 2; ++h)
        x.write(d.elems[static_cast<std::size_t>(h)], lane,
                combine(bop, compare(ins, et, (a >> (16 * h)) & 0xffff, (b >> (16 * h)) & 0xffff), cin) ? 1 : 0);
      return;
    }
    const bool t = compare(ins, ins.d.type, a, b);
    x.write(pair ? d.elems[0] : d, lane, combine(bop, t, cin) ? 1 : 0);
    if (pair) x.write(d.elems[1], lane, combine(bop, !t, cin) ? 1 : 0);
  });
}

// The comparison of setp and set for one element (the halves of packed types one at a time).
bool compare(const Instruction& ins, PtxType t, std::uint64_t a, std::uint64_t b) {
  return is_float(t) ? float_compare(ins, t, a, b) : int_compare(static_cast<CmpOp>(ins.d.mode), t, a, b);
}

PtxType half_type(PtxType t) { return t == PtxType::f16x2 ? PtxType::f16 : t == PtxType::bf16x2 ? PtxType::bf16 : t; }

// set: all ones for true in an integer destination, 1.0 in a float one; packed sources give
// one result per half.
void set(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const auto bop = static_cast<ptx::BoolOp>(ins.d.mode2);
  const PtxType dt = ins.d.type, st = ins.d.type2;
  const bool packed = ptx::lanes_of(st) == 2;
  const PtxType et = half_type(st);
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = x.read(ins.ops[1], lane), b = x.read(ins.ops[2], lane);
    bool cin = false;
    if (bop != ptx::BoolOp::none) cin = (x.read(ins.ops[3], lane) != 0) != ins.ops[3].negated;
    std::uint64_t r = 0;
    if (packed) {
      const std::uint64_t one = dt == PtxType::f16x2 ? 0x3c00 : dt == PtxType::bf16x2 ? 0x3f80 : 0xffff;
      for (int h = 0; h < 2; ++h)
        if (combine(bop, compare(ins, et, (a >> (16 * h)) & 0xffff, (b >> (16 * h)) & 0xffff), cin)) r |= one << (16 * h);
    } else if (combine(bop, compare(ins, st, a, b), cin)) {
      r = dt == PtxType::f32 ? 0x3f800000U : 0xffffffffU;
    }
    x.write(ins.ops[0], lane, r);
  });
}

// slct: a where c >= 0 (an .f32 c: -0 counts as 0, NaN as negative), else b.
void slct(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t c = x.read(ins.ops[3], lane) & 0xffffffffU;
    const bool take_a = ins.d.type2 == PtxType::s32 ? (c >> 31) == 0 : slct_select_a(ins, c);
    x.write(ins.ops[0], lane, x.read(ins.ops[take_a ? 1 : 2], lane));
  });
}

void testp(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  for_lanes(lanes, [&](int lane) { x.write(ins.ops[0], lane, float_test(ins, x.read(ins.ops[1], lane)) ? 1 : 0); });
}

void selp(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  for_lanes(lanes, [&](int lane) {
    const bool p = (x.read(ins.ops[3], lane) != 0) != ins.ops[3].negated;
    x.write(ins.ops[0], lane, x.read(ins.ops[p ? 1 : 2], lane));
  });
}

}  // namespace

void register_integer(std::vector<SemanticSpec>& t) {
  for (const char* op : {"add", "sub", "mul", "mad", "fma", "min", "max", "neg", "abs", "div", "rem", "mul24", "mad24", "sad",
                         "copysign", "rcp", "sqrt"})
    t.push_back({op, arith});
  for (const char* op : {"and", "or", "xor", "not", "cnot"}) t.push_back({op, logic});
  t.push_back({"shl", shift});
  t.push_back({"shr", shift});
  t.push_back({"bfe", bfe});
  t.push_back({"bfi", bfi});
  t.push_back({"prmt", prmt});
  t.push_back({"lop3", lop3});
  for (const char* op : {"popc", "clz", "brev"}) t.push_back({op, bitcount});
  t.push_back({"bfind", bfind});
  t.push_back({"shf", shf});
  t.push_back({"mov", mov});
  t.push_back({"bmsk", bmsk});
  t.push_back({"szext", szext});
  t.push_back({"dp4a", dot});
  t.push_back({"dp2a", dot});
  t.push_back({"setp", setp});
  t.push_back({"selp", selp});
  t.push_back({"set", set});
  t.push_back({"slct", slct});
  t.push_back({"testp", testp});
}

}  // namespace ptxmma::exec
