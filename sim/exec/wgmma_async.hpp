// The asynchronous side of wgmma for one warp: which wgmma.mma_async operations are in flight
// (issued, committed into groups by wgmma.commit_group, retired by wgmma.wait_group N: an
// AsyncGroups), and which registers they own until then. The PTX ISA makes any access to the
// accumulators or to the A registers of an in-flight wgmma.mma_async undefined, except by a later
// wgmma.mma_async that accumulates into the same registers or reads the same A; the interpreter
// reports the others.
#pragma once
#include <vector>

#include "sim/exec/async_groups.hpp"

namespace ptxmma {

class WgmmaAsync {
 public:
  struct Op {
    int pc = -1;            // the wgmma.mma_async (index in Program::code)
    std::vector<int> d, a;  // register indices: accumulators, A (register form)
  };

  void fence() { fenced_ = true; }
  [[nodiscard]] bool fenced() const { return fenced_; }
  void issue(Op op) { groups_.issue(std::move(op)); }
  // Every operation issued since the last commit becomes one group (possibly empty).
  void commit() { groups_.commit(); }
  // Retires the groups older than the `n` most recent; uncommitted operations stay in flight.
  // (D was written when the operation ran: retiring only ends its hazards.)
  void wait(int n) {
    groups_.wait(n, [](const Op&) {});
  }

  [[nodiscard]] bool idle() const { return groups_.idle(); }
  // The in-flight operation that owns register `r` as an accumulator or an A register; null if none.
  struct Owner {
    const Op* op = nullptr;
    bool accumulator = false;
  };
  [[nodiscard]] Owner owner(int r) const;
  // Every operation still in flight, oldest first.
  [[nodiscard]] std::vector<const Op*> in_flight() const;

 private:
  bool fenced_ = false;
  AsyncGroups<Op> groups_;
};

}  // namespace ptxmma
