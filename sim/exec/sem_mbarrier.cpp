// mbarrier.*: the object in shared memory (sim/exec/mbarrier.hpp for its encoding), operated on
// lane by lane in lane order, each lane's operation atomic; arrivals and transaction counts may
// reach an mbarrier of another CTA of the cluster (.shared::cluster). A test_wait/try_wait that finds its
// phase incomplete in any lane makes the warp yield (Exec::park): the Machine runs the other warps
// and resumes it when a phase completes, or when nothing else can run (a deadlock when it then
// waits again and nothing has changed).
#include <fmt/format.h>

#include "sim/error.hpp"
#include "sim/exec/mbarrier.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {
namespace {

using ptx::Instruction;
using ptx::MbarrierOp;
namespace flag = ptx::mbarrier_flag;

// The object in a lane: the CTA (c-th run) whose shared memory holds it and its offset there,
// 8-byte aligned. A .shared::cluster address, or a generic one in the cluster's part of the
// shared window, may be another CTA's of the cluster (arrivals and transaction counts only).
struct Object {
  int cta;
  std::uint64_t at;
};
// `remote`: the operation may reach another CTA's (an arrival or a transaction count).
Object object_in(Exec& x, ptx::Space space, bool remote, const ptx::Operand& op, int lane) {
  std::uint64_t a = x.address(op, lane);
  Object o{x.cta_index, a};
  if (space == ptx::Space::generic) {
    constexpr std::uint64_t kWindow = (static_cast<std::uint64_t>(Machine::kMaxCluster) + 1) << Machine::kClusterRankShift;
    if (a < Machine::kSharedWindow || a - Machine::kSharedWindow >= kWindow)
      throw Error(fmt::format("lane {}: the generic address {:#x} is not in shared memory (an mbarrier lives there)",
                              lane, a));
    a -= Machine::kSharedWindow;
  }
  if (space != ptx::Space::shared) {
    const ClusterAddress c = cluster_address(x, a, lane);
    o = {c.cta, c.offset};
  }
  if (o.cta != x.cta_index && !remote)
    throw Error(fmt::format("lane {}: the mbarrier at {:#x} is in {}: only arrivals and transaction counts reach "
                            "another CTA's mbarrier",
                            lane, x.address(op, lane), x.m.cta(o.cta).name()));
  if (o.at % 8 != 0) throw Error(fmt::format("lane {}: the mbarrier address {:#x} is not 8-byte aligned", lane, o.at));
  try {
    x.m.cta(o.cta).shared.check_range(o.at, 8);
  } catch (const Error& e) {
    throw Error(fmt::format("lane {}: {}", lane, e.what()));
  }
  return o;
}

Object object_at(Exec& x, const Instruction& ins, const ptx::Operand& op, int lane) {
  const auto k = static_cast<MbarrierOp>(ins.d.mode);
  return object_in(x, ins.d.space, k == MbarrierOp::arrive || k == MbarrierOp::expect_tx || k == MbarrierOp::complete_tx,
                   op, lane);
}

void sem_mbarrier(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const auto op = static_cast<MbarrierOp>(ins.d.mode);
  const int flags = ins.d.mode2;
  if (op == MbarrierOp::pending_count) {
    for_lanes(lanes, [&](int lane) { x.write(ins.ops[0], lane, Mbarrier::decode(x.read(ins.ops[1], lane)).pending); });
    return;
  }
  const int at = op == MbarrierOp::arrive || op == MbarrierOp::test_wait || op == MbarrierOp::try_wait ? 1 : 0;
  for_lanes(lanes, [&](int lane) {
    const Object o = object_at(x, ins, ins.ops[static_cast<std::size_t>(at)], lane);
    const std::uint64_t a = o.at;
    Memory& shared = x.m.cta(o.cta).shared;
    MbarrierActivity& act = o.cta == x.cta_index ? *x.mbar : *x.m.units(o.cta).mbar;
    const std::uint64_t word = shared.load(a, 8);
    Mbarrier b = Mbarrier::decode(word);
    bool completed = false;
    try {
      switch (op) {
        case MbarrierOp::init: b = Mbarrier::init(static_cast<std::uint32_t>(x.read(ins.ops[1], lane))); break;
        case MbarrierOp::inval: b = Mbarrier{}; break;
        case MbarrierOp::expect_tx: completed = b.expect_tx(static_cast<std::uint32_t>(x.read(ins.ops[1], lane))); break;
        case MbarrierOp::complete_tx:
          completed = b.complete_tx(static_cast<std::uint32_t>(x.read(ins.ops[1], lane)));
          break;
        case MbarrierOp::arrive: {
          std::uint32_t count = 1;
          if (flags & flag::expect_tx)
            completed = b.expect_tx(static_cast<std::uint32_t>(x.read(ins.ops[2], lane)));
          else if (flags & flag::has_count)
            count = static_cast<std::uint32_t>(x.read(ins.ops[2], lane));
          completed = b.arrive(count, (flags & flag::drop) != 0, (flags & flag::no_complete) != 0) || completed;
          x.write(ins.ops[0], lane, word);  // the state: the object before the arrive
          break;
        }
        case MbarrierOp::test_wait:
        case MbarrierOp::try_wait: {
          if (!b.valid)
            throw Error(fmt::format("mbarrier.{} on an mbarrier that is not initialised (undefined in the PTX ISA)",
                                    op == MbarrierOp::test_wait ? "test_wait" : "try_wait"));
          const std::uint64_t v = x.read(ins.ops[2], lane);
          const bool parity = (flags & flag::parity) ? (v & 1U) != 0 : Mbarrier::decode(v).phase;
          bool done = b.phase_done(parity);
          if (!done && x.bulk && !x.bulk->idle()) {  // the bulk copies this wait needs complete now
            complete_bulk_loads(x, a);
            b = Mbarrier::decode(shared.load(a, 8));
            done = b.phase_done(parity);
          }
          x.write(ins.ops[0], lane, done ? 1 : 0);
          if (!done && !x.park) {
            x.park = true;
            x.park_addr = a;
          }
          return;
        }
        case MbarrierOp::pending_count: break;
      }
    } catch (const Error& e) {
      throw Error(fmt::format("lane {}: the mbarrier at shared {:#x}{}: {}", lane, a,
                              o.cta == x.cta_index ? "" : " of " + x.m.cta(o.cta).name(), e.what()));
    }
    shared.store(a, 8, b.encode());
    ++act.changes;
    if (completed) ++act.completions;
  });
}

}  // namespace

// cp.async.mbarrier.arrive{.noinc}: the thread's cp.async so far complete now (their bytes land
// in shared memory), then the arrive-on: without .noinc the pending count was raised by one
// first, so the net change is none; with .noinc the arrive counts against the init count.
void cp_async_mbarrier_arrive(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  Memory& shared = x.cta.shared;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t a = object_at(x, ins, ins.ops[0], lane).at;
    x.copies->complete_all(x.base + lane, shared);
    Mbarrier b = Mbarrier::decode(shared.load(a, 8));
    bool completed = false;
    try {
      if (ins.d.mode == 1)
        completed = b.arrive(1, false, false);
      else if (!b.valid)
        b.arrive(1, false, false);  // the error of an object not initialised
    } catch (const Error& e) {
      throw Error(fmt::format("lane {}: the mbarrier at shared {:#x}: {}", lane, a, e.what()));
    }
    shared.store(a, 8, b.encode());
    ++x.mbar->changes;
    if (completed) ++x.mbar->completions;
  });
}

MbarrierRef mbarrier_arrive_one(Exec& x, ptx::Space space, const ptx::Operand& op, int lane) {
  const Object o = object_in(x, space, true, op, lane);
  Memory& shared = x.m.cta(o.cta).shared;
  MbarrierActivity& act = o.cta == x.cta_index ? *x.mbar : *x.m.units(o.cta).mbar;
  Mbarrier b = Mbarrier::decode(shared.load(o.at, 8));
  const MbarrierRef ref{o.cta, o.at, b.phase};
  bool completed = false;
  try {
    completed = b.arrive(1, false, false);
  } catch (const Error& e) {
    throw Error(fmt::format("lane {}: the mbarrier at shared {:#x}{}: {}", lane, o.at,
                            o.cta == x.cta_index ? "" : " of " + x.m.cta(o.cta).name(), e.what()));
  }
  shared.store(o.at, 8, b.encode());
  ++act.changes;
  if (completed) ++act.completions;
  return ref;
}

void register_mbarrier(std::vector<SemanticSpec>& t) { t.push_back({"mbarrier", sem_mbarrier}); }

}  // namespace ptxmma::exec
