// atom and red: read, operate, write one location, lane by lane in lane order (each lane's
// operation is atomic: warps run one at a time, CTAs one after another in rank order, so the
// order of side effects between threads that race is the documented one, docs/ptx-interpreter.md).
// atom returns the old value; red returns nothing.
//
// Floating-point adds round to nearest even through float_arith (sem_float.cpp), as add.rn does:
// .f32 on global memory flushes subnormal inputs and results to sign-preserving zero (.ftz), on
// shared memory it keeps them; .f64 and the .noftz half types keep them
// (docs/hardware/atomics-sm90.md).
#include <fmt/format.h>

#include <array>

#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {
namespace {

using ptx::AtomOp;
using ptx::Instruction;
using ptx::PtxType;

// add.rn of type t, with or without .ftz: the instruction float_arith takes.
const Instruction& float_add(PtxType t, bool ftz) {
  static const auto table = [] {
    constexpr std::array<PtxType, 6> kTypes = {PtxType::f32, PtxType::f64, PtxType::f16,
                                               PtxType::f16x2, PtxType::bf16, PtxType::bf16x2};
    std::array<Instruction, 12> out;
    for (std::size_t i = 0; i < out.size(); ++i) {
      Instruction& ins = out[i];
      ins.opcode = "add";
      ins.text = "add.rn";
      ins.d.type = kTypes[i / 2];
      ins.d.rnd = Rounding::rn;
      ins.d.ftz = i % 2 == 1;
    }
    return out;
  }();
  const std::size_t k = t == PtxType::f32 ? 0 : t == PtxType::f64 ? 1 : t == PtxType::f16 ? 2
                      : t == PtxType::f16x2 ? 3 : t == PtxType::bf16 ? 4 : 5;
  return table[2 * k + (ftz ? 1 : 0)];
}

// min or max of type t (a half type's NaN and signed-zero rules as min/max.t have them).
const Instruction& float_min_max(AtomOp op, PtxType t) {
  static const auto table = [] {
    std::array<Instruction, 4> out;
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i].opcode = i % 2 == 0 ? "min" : "max";
      out[i].text = out[i].opcode;
      out[i].d.type = i / 2 == 0 ? PtxType::f16 : PtxType::bf16;
    }
    return out;
  }();
  return table[(t == PtxType::f16 ? 0 : 2) + (op == AtomOp::max ? 1 : 0)];
}

}  // namespace

std::uint64_t reduce_operate(AtomOp op, PtxType t, bool ftz, std::uint64_t old, std::uint64_t b, std::uint64_t c) {
  const int bits = ptx::bits(t);
  const std::uint64_t mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
  const bool is_signed = t == PtxType::s32 || t == PtxType::s64;
  const bool is_float = ptx::type_class(t) == ptx::TypeClass::floating;
  const auto sx = [&](std::uint64_t v) {
    return bits >= 64 ? static_cast<std::int64_t>(v)
                      : static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits);
  };
  switch (op) {
    case AtomOp::add:
      if (is_float) return float_arith(float_add(t, ftz), old, b, 0);
      return (old + b) & mask;
    case AtomOp::min:
      if (is_float) return float_arith(float_min_max(op, t), old, b, 0);
      return is_signed ? (sx(old) <= sx(b) ? old : b) : (old <= b ? old : b);
    case AtomOp::max:
      if (is_float) return float_arith(float_min_max(op, t), old, b, 0);
      return is_signed ? (sx(old) >= sx(b) ? old : b) : (old >= b ? old : b);
    case AtomOp::inc: return old >= b ? 0 : old + 1;
    case AtomOp::dec: return old == 0 || old > b ? b : old - 1;
    case AtomOp::and_: return old & b;
    case AtomOp::or_: return old | b;
    case AtomOp::xor_: return old ^ b;
    case AtomOp::exch: return b;
    case AtomOp::cas: return old == b ? c : old;
  }
  return old;
}

std::uint64_t atomic_operate(const Instruction& ins, bool global, std::uint64_t old, std::uint64_t b, std::uint64_t c) {
  const PtxType t = ins.d.type;
  return reduce_operate(static_cast<AtomOp>(ins.d.mode), t, t == PtxType::f32 && global, old, b, c);
}

namespace {

void atom(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const bool red = ins.d.mode2 == 1;
  const int bytes = ptx::bits(ins.d.type) / 8;
  const std::size_t at = red ? 0 : 1;
  const bool cas = static_cast<AtomOp>(ins.d.mode) == AtomOp::cas;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t addr = x.address(ins.ops[at], lane);
    check_aligned(lane, addr, static_cast<std::uint64_t>(bytes));
    auto [mem, a] = resolve(x, ins.d.space, addr, lane, static_cast<std::uint64_t>(bytes));
    const bool global = mem == &x.m.global();
    x.shared_access(ins, lane, mem, a, static_cast<std::uint64_t>(bytes), true, true);
    const std::uint64_t b = x.read(ins.ops[at + 1], lane);
    const std::uint64_t c = cas ? x.read(ins.ops[at + 2], lane) : 0;
    try {
      const std::uint64_t old = mem->load(a, bytes);
      mem->store(a, bytes, atomic_operate(ins, global, old, b, c));
      if (!red) x.write(ins.ops[0], lane, old);
    } catch (const Error& e) {
      throw Error(fmt::format("lane {}: {}", lane, e.what()));
    }
  });
}

}  // namespace

void register_atomic(std::vector<SemanticSpec>& t) {
  t.push_back({"atom", atom});
  t.push_back({"red", atom});
}

}  // namespace ptxmma::exec
