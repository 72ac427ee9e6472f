// The asynchronous side of tcgen05.mma for one CTA: each MMA is in flight from its issue until its
// completion is observed, which the PTX ISA makes the issuing thread's tcgen05.commit (an arrive
// on an mbarrier once the MMAs complete) followed by the completion of that mbarrier's phase.
// Until then a tcgen05.ld or st of D's cells is a hazard the interpreter reports; the MMA itself
// wrote D when it was issued. docs/tcgen05.md §6.1.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ptxmma {

class Tcgen05InFlight {
 public:
  struct Op {
    int pc = -1;      // the tcgen05.mma
    int thread = 0;   // its issuing thread in the CTA
    int lane0 = 0, lane1 = 0, col0 = 0, col1 = 0;  // D's tensor-memory lanes and columns (inclusive)
    bool committed = false;
    int mbar_cta = -1;            // committed: the mbarrier's CTA (c-th run) and shared offset,
    std::uint64_t mbar_at = 0;    // and the parity of the phase whose completion completes it
    bool parity = false;
  };

  void issue(const Op& op) { ops_.push_back(op); }
  // tcgen05.commit by `thread`: its MMAs not yet committed complete with the phase `parity` of
  // the mbarrier at (cta, at).
  void commit(int thread, int cta, std::uint64_t at, bool parity) {
    for (Op& op : ops_)
      if (op.thread == thread && !op.committed) op = Op{op.pc, op.thread, op.lane0, op.lane1, op.col0, op.col1, true, cta, at, parity};
  }
  // Retires the committed MMAs whose phase has completed: `phase_of(cta, at)` is the parity of
  // that mbarrier's current phase.
  template <class F>
  void retire(F&& phase_of) {
    std::erase_if(ops_, [&](const Op& op) { return op.committed && phase_of(op.mbar_cta, op.mbar_at) != op.parity; });
  }
  // The first MMA in flight whose D meets lanes [lane0, lane1] x columns [col0, col1]; null if none.
  [[nodiscard]] const Op* overlapping(int lane0, int lane1, int col0, int col1) const {
    for (const Op& op : ops_)
      if (op.lane0 <= lane1 && lane0 <= op.lane1 && op.col0 <= col1 && col0 <= op.col1) return &op;
    return nullptr;
  }
  [[nodiscard]] bool idle() const { return ops_.empty(); }
  [[nodiscard]] const std::vector<Op>& ops() const { return ops_; }

 private:
  std::vector<Op> ops_;
};

}  // namespace ptxmma
