// The bulk-copy unit of one CTA (cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.tensor):
// copies into its shared memory in flight until the mbarrier they complete on is waited for (any
// CTA of the cluster may issue them: .shared::cluster destinations, multicast), and copies to
// global memory in flight in each of its threads' bulk groups.
//
// A copy reads its source when it is issued (the PTX ISA leaves a source changed before
// completion undefined). A copy into shared memory completes at the first mbarrier wait that
// needs it: a test_wait/try_wait on its mbarrier whose phase is not complete completes every copy
// in flight on that mbarrier, in issue order (its bytes land, then complete_tx of its size on the
// mbarrier), before testing again; what is still in flight when the CTA ends completes then. So
// results never depend on timing, and an access to a destination byte before then is a race the
// interpreter reports (as for cp.async). A copy to global memory completes when its thread's
// cp.async.bulk.wait_group(.read) retires its group, or when the CTA ends.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "isa/ptx_types.hpp"
#include "sim/exec/async_groups.hpp"
#include "sim/state/memory.hpp"

namespace ptxmma {

class BulkCopies {
 public:
  static constexpr std::uint64_t kMaxInFlightBytes = 1ULL << 26;  // of one CTA's copies

  struct Run {  // bytes for memory at an address
    std::uint64_t addr = 0;
    std::vector<std::uint8_t> bytes;
  };
  struct Load {
    int pc = -1;                     // the instruction (index in Program::code)
    int thread = 0;                  // issuing thread of its CTA
    int cta = 0;                     // the issuing CTA (c-th run): this one or another of the cluster
    std::vector<Run> runs;           // shared offsets and what lands there (a swizzled box may leave gaps)
    std::uint64_t tx = 0;            // the bytes it completes on its mbarrier
    std::uint64_t mbar = 0;          // shared offset of the mbarrier it completes on
    [[nodiscard]] std::uint64_t first() const { return runs.front().addr; }
    [[nodiscard]] std::uint64_t end() const { return runs.back().addr + runs.back().bytes.size(); }
  };
  // A copy to global memory: its runs written as they are, or, for a reduction, combined with
  // what global memory holds by `reduce(old, value)` element by element (`element` bytes each).
  struct Store {
    int pc = -1;
    int thread = 0;
    std::vector<Run> runs;
    int element = 0;  // 0: a plain copy; else a reduction's element bytes
    ptx::PtxType type = ptx::PtxType::b32;  // a reduction's element type
  };

  BulkCopies(int threads, std::uint64_t shared_bytes)
      : stores_(static_cast<std::size_t>(threads)), shared_bytes_(shared_bytes) {}

  // Error past kMaxInFlightBytes in flight.
  void issue(Load l);
  void issue(Store s);
  void commit(int thread) { stores_[static_cast<std::size_t>(thread)].commit(); }

  // The loads in flight on the mbarrier at `mbar`, in issue order: their bytes go to `shared`;
  // returns their transaction bytes per load (for complete_tx), in the same order.
  std::vector<std::uint64_t> complete_loads(std::uint64_t mbar, Memory& shared);
  // Completes the thread's bulk groups but the n most recent: `write(store)` each, oldest first.
  template <class Write>
  void wait(int thread, int n, Write&& write) {
    stores_[static_cast<std::size_t>(thread)].wait(n, [&](const Store& s) {
      in_flight_ -= bytes_of(s);
      write(s);
    });
  }
  // At the end of the CTA: every load (their bytes land; the first one is returned, for a
  // warning), then every store of every thread, in thread order.
  template <class Write>
  std::optional<Load> drain(Memory& shared, Write&& write) {
    std::optional<Load> first;
    if (!loads_.empty()) first = loads_.front();
    for (const Load& l : loads_) land(l, shared);
    loads_.clear();
    for (auto& t : stores_) {
      t.commit();
      t.wait(0, [&](const Store& s) { write(s); });
    }
    in_flight_ = 0;
    return first;
  }

  [[nodiscard]] bool idle() const { return loads_.empty(); }
  // A load in flight that writes a byte of [addr, addr + n), or null.
  [[nodiscard]] const Load* target(std::uint64_t addr, std::uint64_t n) const;

 private:
  static std::uint64_t bytes_of(const Store& s);
  void land(const Load& l, Memory& shared);
  std::vector<Load> loads_;  // in issue order
  std::vector<AsyncGroups<Store>> stores_;
  std::uint64_t shared_bytes_;
  std::vector<std::uint32_t> pending_;  // per shared byte: loads in flight that write it (sized on first use)
  std::uint64_t in_flight_ = 0;
};

}  // namespace ptxmma
