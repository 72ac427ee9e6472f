// cp.async in one CTA: every thread's copies from global to shared memory in flight, in groups
// (AsyncGroups: cp.async.commit_group closes a group, cp.async.wait_group N completes all but the
// N most recent, cp.async.wait_all all), and the shared bytes they are still to write.
//
// A copy reads its source when it is issued and writes its destination when it completes, at the
// wait that retires its group: until then the destination holds what it held before, and any
// access to it by any thread of the CTA is a race (reported by the interpreter like
// compute-sanitizer's racecheck would). The PTX ISA leaves a source changed before completion
// undefined, so reading it at issue loses nothing.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/exec/async_groups.hpp"
#include "sim/state/memory.hpp"

namespace ptxmma {

class AsyncCopies {
 public:
  static constexpr std::uint64_t kMaxInFlight = 1 << 20;  // copies of one CTA (each names 4..16 bytes)

  struct Copy {
    int pc = -1;                       // the cp.async (index in Program::code)
    int thread = 0;                    // the issuing thread of the CTA
    std::uint32_t dst = 0;             // shared address
    int size = 0;                      // 4, 8 or 16 bytes
    std::array<std::uint8_t, 16> bytes{};  // the source's bytes, zero past the source size
  };

  // `threads`: of the CTA; `shared_bytes`: the size of its shared memory.
  AsyncCopies(int threads, std::uint64_t shared_bytes) : threads_(static_cast<std::size_t>(threads)), shared_bytes_(shared_bytes) {}

  // Error past kMaxInFlight copies in flight.
  void issue(const Copy& c);
  void commit(int thread) { threads_[static_cast<std::size_t>(thread)].commit(); }
  // Completes the thread's groups but the n most recent: their bytes go to `shared`.
  void wait(int thread, int n, Memory& shared);
  // Completes every copy of the thread, committed or not (cp.async.mbarrier.arrive).
  void complete_all(int thread, Memory& shared);
  // Commits and completes everything of every thread (the end of the CTA); returns the first copy
  // that was still in flight (of the lowest thread), if any.
  std::optional<Copy> drain(Memory& shared);

  [[nodiscard]] bool idle() const { return in_flight_ == 0; }
  // A copy in flight that writes a byte of [addr, addr + n), or null.
  [[nodiscard]] const Copy* target(std::uint64_t addr, std::uint64_t n) const;

 private:
  void complete(const Copy& c, Memory& shared);
  std::vector<AsyncGroups<Copy>> threads_;
  std::uint64_t shared_bytes_;
  std::vector<std::uint32_t> pending_;  // per shared byte: copies in flight that write it (sized on first use)
  std::uint64_t in_flight_ = 0;
};

}  // namespace ptxmma
