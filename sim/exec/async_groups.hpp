// An asynchronous unit's operations of one thread (or one warp): issued now, completed later, in
// groups. issue() adds an operation to the open group; commit() closes it (an empty group counts);
// wait(n, done) completes, oldest first, every operation of the closed groups but the n most
// recent, calling done(op) on each. Operations issued after the last commit belong to no closed
// group and stay pending through any wait. wgmma.commit_group/wait_group (sim/exec/wgmma_async.hpp)
// and cp.async.commit_group/wait_group (sim/exec/async_copy.hpp) are both this.
//
// No allocation once the vector has grown to the most operations in flight at a time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptxmma {

template <class Op>
class AsyncGroups {
 public:
  void issue(Op op) { ops_.push_back({std::move(op), open_}); }
  void commit() { ++open_; }
  template <class Done>
  void wait(int n, Done&& done) {
    const std::uint64_t keep = static_cast<std::uint64_t>(n < 0 ? 0 : n);
    const std::uint64_t before = open_ > keep ? open_ - keep : 0;  // groups numbered below complete
    std::size_t k = 0;
    for (; k < ops_.size() && ops_[k].group < before; ++k) done(ops_[k].op);
    ops_.erase(ops_.begin(), ops_.begin() + static_cast<std::ptrdiff_t>(k));
  }

  // Completes every pending operation, committed or not (the group numbers stay as they are).
  template <class Done>
  void complete_all(Done&& done) {
    for (const Entry& e : ops_) done(e.op);
    ops_.clear();
  }

  [[nodiscard]] bool idle() const { return ops_.empty(); }
  [[nodiscard]] std::size_t pending() const { return ops_.size(); }
  // The pending operations, oldest first.
  template <class F>
  void for_each(F&& f) const {
    for (const Entry& e : ops_) f(e.op);
  }

 private:
  struct Entry {
    Op op;
    std::uint64_t group;  // the group it was issued into (open_ at the time)
  };
  std::vector<Entry> ops_;  // in issue order, so in group order
  std::uint64_t open_ = 0;  // number of the open group; closed groups are 0 .. open_ - 1
};

}  // namespace ptxmma
