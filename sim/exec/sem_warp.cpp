// Warp-collective and synchronisation instructions: mma and wmma.mma (the MmaExecutor on the
// registers' words), wgmma's fence, commit_group and wait_group (the checks of one warp; the
// Machine tracks the groups and runs wgmma.mma_async on the warpgroup), shfl.sync, vote.sync,
// activemask, bar/barrier (the checks of one warp; the Machine makes the warps wait), fence/membar
// (no-ops: warps run one at a time between barriers), elect.sync, griddepcontrol and nanosleep (no
// effect), trap.
#include <fmt/format.h>

#include <bit>
#include <span>
#include <vector>

#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {
namespace {

using ptx::Instruction;
using ptx::Operand;

void whole_warp(const Instruction& ins, std::uint32_t lanes) {
  if (lanes != 0xffffffffU)
    throw Error(fmt::format("{} needs all 32 lanes of the warp; the executing lanes are {}", ins.opcode, lane_list(lanes)));
}

// Lane-major 32-bit words of the registers `regs` (64-bit ones low word first), as MmaExecutor
// takes them, into `out`: each register's 32 adjacent words of the warp read at once. The decoder
// has checked their number and widths.
void gather_words(const Exec& x, std::span<const Operand> regs, std::vector<std::uint32_t>& out) {
  std::size_t per_lane = 0;
  for (const Operand& e : regs) per_lane += x.m.reg_bits(e.reg) == 64 ? 2 : 1;
  out.resize(32 * per_lane);
  std::size_t at = 0;
  for (const Operand& e : regs) {
    const std::uint64_t* w = x.cta.regs.words(e.reg) + x.base;
    const bool wide = x.m.reg_bits(e.reg) == 64;
    for (std::size_t lane = 0; lane < 32; ++lane) {
      out[lane * per_lane + at] = static_cast<std::uint32_t>(w[lane]);
      if (wide) out[lane * per_lane + at + 1] = static_cast<std::uint32_t>(w[lane] >> 32);
    }
    at += wide ? 2 : 1;
  }
}

void mma(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (!x.mma) throw Error("the mma instruction has no executor");
  whole_warp(ins, lanes);
  // Words straight from the register file, in buffers kept between instructions: an mma is the
  // interpreter's hottest instruction.
  thread_local std::vector<std::uint32_t> a, b, c, d, meta, scale_a, scale_b;
  gather_words(x, ins.ops[1].elems, a);
  gather_words(x, ins.ops[2].elems, b);
  gather_words(x, ins.ops[3].elems, c);
  gather_words(x, ins.ops[0].elems, d);
  const MatrixVariant& v = *ins.d.mma->variant;
  const auto per_lane = [](const std::vector<std::uint32_t>& w) { return static_cast<int>(w.size() / 32); };
  std::size_t at = 4;
  SparseInput e;
  if (v.sparse != Sparsity::dense) {  // the metadata register and the selector (Decoded::mode)
    gather_words(x, std::span(&ins.ops[at], 1), meta);
    e = {meta, ins.d.mode};
    at += 2;
  }
  ScaleInput s;
  if (v.block_scale) {  // the scale-data registers and the constant selectors
    gather_words(x, std::span(&ins.ops[at], 1), scale_a);
    gather_words(x, std::span(&ins.ops[at + 2], 1), scale_b);
    s = {scale_a, scale_b, static_cast<int>(ins.ops[at + 1].elems[0].value), static_cast<int>(ins.ops[at + 1].elems[1].value),
         static_cast<int>(ins.ops[at + 3].elems[0].value), static_cast<int>(ins.ops[at + 3].elems[1].value)};
  }
  x.mma->run({a, per_lane(a)}, {b, per_lane(b)}, {c, per_lane(c)}, d, e, s);
  // D back, register by register (a 32-bit register keeps the low 32 bits of its word).
  const std::size_t dw = d.size() / 32;
  std::size_t first = 0;  // the register's first word in a lane's
  for (const Operand& r : ins.ops[0].elems) {
    std::uint64_t* w = x.cta.regs.words(r.reg) + x.base;
    const int bits = x.m.reg_bits(r.reg);
    for (std::size_t lane = 0; lane < 32; ++lane) {
      const std::uint32_t* l = d.data() + lane * dw + first;
      w[lane] = bits == 64 ? l[0] | (static_cast<std::uint64_t>(l[1]) << 32) : l[0] & ((1ULL << bits) - 1);
    }
    first += bits == 64 ? 2 : 1;
  }
}

// wmma.mma runs as mma does (its variant's fragments, the mma executor); wmma.load and .store
// move fragments (sem_memory.cpp).
void wmma(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (ins.d.wmma)
    wmma_transfer(x, ins, lanes);
  else
    mma(x, ins, lanes);
}

void wgmma(Exec&, const Instruction& ins, std::uint32_t lanes) {
  // fence / commit_group / wait_group: .sync.aligned, so the whole warp executes them; what they
  // order, commit and retire is the Machine's (sim/exec/wgmma_async.hpp).
  whole_warp(ins, lanes);
}

// Checks a member mask against the lanes that execute a .sync instruction.
std::uint32_t members(Exec& x, const Instruction& ins, const Operand& op, std::uint32_t lanes) {
  std::uint32_t mask = 0;
  bool first = true;
  for_lanes(lanes, [&](int lane) {
    const auto m = static_cast<std::uint32_t>(x.read(op, lane));
    if (!first && m != mask)
      throw Error(fmt::format("the member mask differs between lanes ({:#010x} and {:#010x})", mask, m));
    mask = m;
    first = false;
  });
  if (lanes & ~mask)
    throw Error(fmt::format("lanes {} execute {} but are not in its member mask {:#010x}", lane_list(lanes & ~mask),
                            ins.opcode, mask));
  if (mask & ~lanes)
    throw Error(fmt::format("the member mask {:#010x} names lanes {}, which do not execute this {} (divergent or "
                            "exited)",
                            mask, lane_list(mask & ~lanes), ins.opcode));
  return mask;
}

void shfl(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (lanes == 0) return;
  (void)members(x, ins, ins.ops[4], lanes);
  const Operand& dst = ins.ops[0];
  const bool pair = dst.kind == Operand::Kind::vec;
  const auto mode = static_cast<ptx::ShflMode>(ins.d.mode);
  std::uint32_t value[32] = {}, pred[32] = {};
  for_lanes(lanes, [&](int lane) {
    const auto b = static_cast<std::uint32_t>(x.read(ins.ops[2], lane));
    const auto c = static_cast<std::uint32_t>(x.read(ins.ops[3], lane));
    const int bval = static_cast<int>(b & 0x1f);
    const int cval = static_cast<int>(c & 0x1f);
    const int segmask = static_cast<int>((c >> 8) & 0x1f);
    const int max_lane = (lane & segmask) | (cval & ~segmask);
    const int min_lane = lane & segmask;
    int j = lane;
    bool pval = false;
    switch (mode) {
      case ptx::ShflMode::up: j = lane - bval; pval = j >= max_lane; break;
      case ptx::ShflMode::down: j = lane + bval; pval = j <= max_lane; break;
      case ptx::ShflMode::bfly: j = lane ^ bval; pval = j <= max_lane; break;
      case ptx::ShflMode::idx: j = min_lane | (bval & ~segmask); pval = j <= max_lane; break;
    }
    if (!pval) j = lane;
    if (!((lanes >> j) & 1U))
      throw Error(fmt::format("lane {} reads lane {}, which does not execute this shfl.sync (its value is undefined)",
                              lane, j));
    value[lane] = static_cast<std::uint32_t>(x.read(ins.ops[1], j));
    pred[lane] = pval ? 1 : 0;
  });
  for_lanes(lanes, [&](int lane) {
    x.write(pair ? dst.elems[0] : dst, lane, value[lane]);
    if (pair) x.write(dst.elems[1], lane, pred[lane]);
  });
}

void vote(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (lanes == 0) return;
  const std::uint32_t mask = members(x, ins, ins.ops[2], lanes);
  std::uint32_t ballot = 0;
  for_lanes(mask, [&](int lane) {
    if ((x.read(ins.ops[1], lane) != 0) != ins.ops[1].negated) ballot |= 1U << lane;
  });
  const auto mode = static_cast<ptx::VoteMode>(ins.d.mode);
  for_lanes(lanes, [&](int lane) {
    switch (mode) {
      case ptx::VoteMode::all: x.write(ins.ops[0], lane, ballot == mask ? 1 : 0); break;
      case ptx::VoteMode::any: x.write(ins.ops[0], lane, ballot != 0 ? 1 : 0); break;
      case ptx::VoteMode::uni: x.write(ins.ops[0], lane, (ballot == 0 || ballot == mask) ? 1 : 0); break;
      case ptx::VoteMode::ballot: x.write(ins.ops[0], lane, ballot); break;
    }
  });
}

void activemask(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  for_lanes(lanes, [&](int lane) { x.write(ins.ops[0], lane, lanes); });
}

void bar(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (ins.d.mode == 4 || ins.d.mode == 5) {
    cluster_barrier(x, ins, lanes);
    return;
  }
  if (ins.d.mode == 3 && x.m.warps() == 1) {  // one warp: no collective, the reduction is its own
    const BarrierArrival one[] = {{x.base / Machine::kLanes, ins, lanes}};
    bar_reduce(x.m, x.cta_index, one);
  }
  if (ins.d.mode == 2) {  // bar.warp.sync
    if (lanes) (void)members(x, ins, ins.ops[0], lanes);
    return;
  }
  if (ins.ops.size() == 2)
    for_lanes(lanes, [&](int lane) {
      const std::uint64_t n = x.read(ins.ops[1], lane);
      if (n == 0 || n % 32 != 0 || n > 1024)
        throw Error(fmt::format("lane {}: the thread count {} is not a multiple of 32 in 32..1024", lane, n));
    });
  // One warp: a barrier orders nothing more, but an .aligned one must be reached by the whole
  // warp together.
  if (ins.d.aligned && lanes != x.path_mask)
    throw Error(fmt::format("the barrier is .aligned, but only lanes {} of lanes {} execute it (a guard that differs "
                            "between lanes)",
                            lane_list(lanes), lane_list(x.path_mask)));
  if (ins.d.aligned && ins.d.mode == 0 && lanes != x.live_mask)
    throw Error(fmt::format("the barrier is .aligned, but lanes {} are on another path (a divergent barrier)",
                            lane_list(x.live_mask & ~lanes)));
  // bar.arrive: the warp counts towards the barrier's phase (producer warps that signal consumers
  // waiting with bar.sync, as CUTLASS's NamedBarrier::arrive).
  if (ins.d.mode == 1 && lanes && x.m.warps() > 1) {
    const int lane = std::countr_zero(lanes);
    x.m.bar_arrive(x.cta_index, static_cast<std::uint32_t>(x.read(ins.ops[0], lane)),
                   ins.ops.size() == 2 ? static_cast<std::uint32_t>(x.read(ins.ops[1], lane))
                                       : static_cast<std::uint32_t>(x.m.threads()));
  }
}

void nop(Exec&, const Instruction&, std::uint32_t) {}

// fence / membar: the machine is sequentially consistent; racecheck counts the proxy fences.
void fence(Exec& x, const Instruction& ins, std::uint32_t) {
  if (x.race && static_cast<ptx::FenceKind>(ins.d.mode) == ptx::FenceKind::proxy_async_shared)
    x.race->fence_proxy_async(x.base / Machine::kLanes);
}

void trap(Exec&, const Instruction&, std::uint32_t lanes) {
  if (lanes) throw Error(fmt::format("trap executed by lanes {}", lane_list(lanes)));
}

void brkpt(Exec&, const Instruction&, std::uint32_t lanes) {
  if (lanes) throw Error(fmt::format("breakpoint (brkpt) reached by lanes {}", lane_list(lanes)));
}

}  // namespace

void bar_reduce(Machine& m, int cta, std::span<const BarrierArrival> warps) {
  std::uint32_t count = 0;
  bool all = true, any = false;
  int op = -1;
  for (const BarrierArrival& a : warps) {
    if (a.ins.d.mode != 3 || (op >= 0 && a.ins.d.mode2 != op))
      throw Error("bar.red and another barrier instruction, or reductions of different kinds, meet at one barrier");
    op = a.ins.d.mode2;
    const ptx::Operand& c = a.ins.ops.back();
    for_lanes(a.lanes, [&](int lane) {
      const int t = a.warp * Machine::kLanes + lane;
      const bool v = (c.kind == ptx::Operand::Kind::imm ? c.value != 0 : m.reg(t, c.reg, cta) != 0) != c.negated;
      count += v ? 1 : 0;
      all = all && v;
      any = any || v;
    });
  }
  const std::uint64_t result = op == 0 ? count : op == 1 ? all : any;
  for (const BarrierArrival& a : warps)
    for_lanes(a.lanes, [&](int lane) { m.set_reg(a.warp * Machine::kLanes + lane, a.ins.ops[0].reg, result, cta); });
}

// elect.sync: the leader is the lowest lane of the member mask (which must be the executing
// lanes, as for vote); every lane gets its number in d, and p is true in the leader alone.
void elect(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (lanes == 0) return;
  const int leader = std::countr_zero(members(x, ins, ins.ops[1], lanes));
  for_lanes(lanes, [&](int lane) {
    x.write(ins.ops[0].elems[0], lane, static_cast<std::uint64_t>(leader));
    x.write(ins.ops[0].elems[1], lane, lane == leader ? 1 : 0);
  });
}

void register_warp(std::vector<SemanticSpec>& t) {
  t.push_back({"mma", mma});
  t.push_back({"wmma", wmma});
  t.push_back({"wgmma", wgmma});
  t.push_back({"shfl", shfl});
  t.push_back({"vote", vote});
  t.push_back({"activemask", activemask});
  t.push_back({"bar", bar});
  t.push_back({"barrier", bar});
  t.push_back({"fence", fence});
  t.push_back({"membar", fence});
  t.push_back({"trap", trap});
  t.push_back({"brkpt", brkpt});
  t.push_back({"setmaxnreg", nop});
  t.push_back({"elect", elect});
  t.push_back({"griddepcontrol", nop});
  t.push_back({"nanosleep", nop});
}

}  // namespace ptxmma::exec
