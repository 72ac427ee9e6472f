// An mbarrier object: the 64-bit word in shared memory that mbarrier.* instructions operate on
// (docs/ptx-interpreter.md, "mbarrier"). The PTX ISA calls the object opaque and gives only its
// contents: the current phase, the arrivals still pending in it, the arrivals each phase expects,
// and the transaction count (tx-count, bytes of asynchronous copies still to complete). The bit
// layout below is ptxmma's own, chosen so that zeroed memory reads as "not initialised":
//
//   bits  0..19  pending arrivals of the current phase (0 .. 2^20 - 1)
//   bits 20..39  expected arrivals of each phase (0 .. 2^20 - 1)
//   bits 40..60  tx-count, 21-bit two's complement (-(2^20 - 1) .. 2^20 - 1)
//   bit  61      0
//   bit  62      1 once mbarrier.init has run (mbarrier.inval clears the word)
//   bit  63      the current phase's parity
//
// The state an arrive returns is the word before the arrive; test_wait compares its bit 63 with
// the object's, pending_count reads its bits 0..19.
//
// A phase completes when its pending arrivals and its tx-count are both zero: the parity flips,
// pending arrivals become the expected count, tx-count zero.
#pragma once
#include <cstdint>
#include <string>

namespace ptxmma {

struct Mbarrier {
  static constexpr std::uint32_t kMaxCount = (1U << 20) - 1;
  static constexpr std::int32_t kMaxTx = (1 << 20) - 1;

  bool valid = false;  // initialised
  bool phase = false;  // parity of the current phase
  std::uint32_t pending = 0;
  std::uint32_t expected = 0;
  std::int32_t tx = 0;

  [[nodiscard]] static Mbarrier decode(std::uint64_t word);
  [[nodiscard]] std::uint64_t encode() const;
  [[nodiscard]] static Mbarrier init(std::uint32_t count);  // Error outside 1 .. 2^20 - 1

  // Each of these throws Error for a use the PTX ISA leaves undefined (an object not
  // initialised, more arrivals than pending, tx-count out of range) and returns whether the
  // current phase completed.
  bool arrive(std::uint32_t count, bool drop, bool no_complete);
  bool expect_tx(std::uint32_t bytes);
  bool complete_tx(std::uint32_t bytes);

  // Whether the phase with parity `parity` has completed (the current phase has the other one).
  [[nodiscard]] bool phase_done(bool parity) const { return phase != parity; }
  // "phase 1, 2 of 4 arrivals pending, tx-count 128": for messages.
  [[nodiscard]] std::string describe() const;

 private:
  void require_valid(const char* op) const;
  bool settle();
};

// Per CTA: counters of what mbarrier operations did, for the scheduler (a warp that waits on an
// incomplete phase yields until a phase completes; a round in which nothing changed is a deadlock).
struct MbarrierActivity {
  std::uint64_t changes = 0;      // operations that changed an object
  std::uint64_t completions = 0;  // phases completed
};

}  // namespace ptxmma
