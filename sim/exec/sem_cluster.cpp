// Clusters (docs/ptx-interpreter.md, "Clusters"): .shared::cluster addresses, mapa, getctarank,
// barrier.cluster.arrive/wait.
//
// A .shared::cluster address below 2^24 is the executing CTA's shared offset (every .shared::cta
// address is one); ((rank + 1) << 24) | offset is that offset in the CTA of %cluster_ctarank
// `rank`. mapa makes the second form, for any rank, its own included. Generic addresses put the
// same value in the shared window (Machine::kSharedWindow). The encoding is ptxmma's own: the
// GPU's differs, and programs only pass these values back to memory instructions.
#include <fmt/format.h>

#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {

ClusterAddress cluster_address(Exec& x, std::uint64_t addr, int lane) {
  const std::uint64_t hi = addr >> Machine::kClusterRankShift;
  const std::uint64_t offset = addr & ((1ULL << Machine::kClusterRankShift) - 1);
  if (hi == 0) return {x.cta_index, addr};
  if (hi > Machine::kMaxCluster)
    throw Error(fmt::format("lane {}: {:#x} is not a .shared::cluster address (one of this CTA's shared memory, or "
                            "one mapa gave)",
                            lane, addr));
  try {
    return {x.m.cluster_cta(x.cta_index, hi - 1), offset};
  } catch (const Error& e) {
    throw Error(fmt::format("lane {}: the .shared::cluster address {:#x}: {}", lane, addr, e.what()));
  }
}

namespace {

using ptx::Instruction;

// The shared offset (in whichever CTA) of a .shared::cluster or, generic, shared-window address.
std::uint64_t shared_offset(Exec& x, const Instruction& ins, std::uint64_t a, int lane) {
  const bool generic = ins.d.space == ptx::Space::generic;
  if (generic) {
    if (a < Machine::kSharedWindow || a - Machine::kSharedWindow >= (static_cast<std::uint64_t>(Machine::kMaxCluster) + 1)
                                                                        << Machine::kClusterRankShift)
      throw Error(fmt::format("lane {}: the generic address {:#x} is not in shared memory", lane, a));
    a -= Machine::kSharedWindow;
  }
  const ClusterAddress c = cluster_address(x, a, lane);
  if (c.offset >= x.m.cta(c.cta).shared.size())
    throw Error(fmt::format("lane {}: {:#x} is outside the {} bytes of shared memory", lane, c.offset,
                            x.m.cta(c.cta).shared.size()));
  return c.offset;
}

// mapa{.shared::cluster}.u32|u64 d, a, b: a's offset in the CTA of rank b.
void mapa(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const bool generic = ins.d.space == ptx::Space::generic;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t offset = shared_offset(x, ins, x.read(ins.ops[1], lane), lane);
    const std::uint64_t rank = x.read(ins.ops[2], lane) & 0xffffffffU;
    if (rank >= x.m.cluster_size())
      throw Error(fmt::format("lane {}: CTA rank {} is outside the cluster of {} CTAs (%cluster_ctarank 0-{})", lane,
                              rank, x.m.cluster_size(), x.m.cluster_size() - 1));
    const std::uint64_t d = ((rank + 1) << Machine::kClusterRankShift) | offset;
    x.write(ins.ops[0], lane, generic ? Machine::kSharedWindow + d : d);
  });
}

// getctarank{.shared::cluster}.u32|u64 d, a: the %cluster_ctarank of the CTA whose shared memory a is.
void getctarank(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  for_lanes(lanes, [&](int lane) {
    std::uint64_t a = x.read(ins.ops[1], lane);
    (void)shared_offset(x, ins, a, lane);
    if (ins.d.space == ptx::Space::generic) a -= Machine::kSharedWindow;
    const std::uint64_t hi = a >> Machine::kClusterRankShift;
    x.write(ins.ops[0], lane, hi == 0 ? x.m.cluster_rank(x.cta_index) : hi - 1);
  });
}

}  // namespace

// barrier.cluster.arrive (d.mode 4): each executing thread arrives in the current phase.
// barrier.cluster.wait (d.mode 5): the Machine runs it once the phase of every executing thread's
// arrival has completed (Collective::cluster_barrier); the arrival is then used.
void cluster_barrier(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (ins.d.aligned && lanes != x.path_mask)
    throw Error(fmt::format("the barrier is .aligned, but only lanes {} of lanes {} execute it (a guard that differs "
                            "between lanes)",
                            lane_list(lanes), lane_list(x.path_mask)));
  if (ins.d.aligned && lanes != x.live_mask)
    throw Error(fmt::format("the barrier is .aligned, but lanes {} are on another path (a divergent barrier)",
                            lane_list(x.live_mask & ~lanes)));
  for_lanes(lanes, [&](int lane) {
    if (ins.d.mode == 4)
      x.m.cluster_arrive(x.cta_index, x.base + lane);
    else
      x.m.cluster_waited(x.cta_index, x.base + lane);
  });
}

void register_cluster(std::vector<SemanticSpec>& t) {
  t.push_back({"mapa", mapa});
  t.push_back({"getctarank", getctarank});
}

}  // namespace ptxmma::exec
