#include "sim/exec/mbarrier.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"

namespace ptxmma {

namespace {
constexpr std::uint64_t kField = (1ULL << 20) - 1;
constexpr std::uint64_t kTxField = (1ULL << 21) - 1;
constexpr std::uint64_t kValidBit = 1ULL << 62;
constexpr std::uint64_t kPhaseBit = 1ULL << 63;
}  // namespace

Mbarrier Mbarrier::decode(std::uint64_t w) {
  Mbarrier b;
  b.valid = (w & kValidBit) != 0;
  b.phase = (w & kPhaseBit) != 0;
  b.pending = static_cast<std::uint32_t>(w & kField);
  b.expected = static_cast<std::uint32_t>((w >> 20) & kField);
  const auto tx = static_cast<std::uint32_t>((w >> 40) & kTxField);
  b.tx = (tx & (1U << 20)) ? static_cast<std::int32_t>(tx) - (1 << 21) : static_cast<std::int32_t>(tx);
  return b;
}

std::uint64_t Mbarrier::encode() const {
  return (valid ? kValidBit : 0) | (phase ? kPhaseBit : 0) | (static_cast<std::uint64_t>(pending) & kField) |
         ((static_cast<std::uint64_t>(expected) & kField) << 20) |
         ((static_cast<std::uint64_t>(static_cast<std::uint32_t>(tx)) & kTxField) << 40);
}

Mbarrier Mbarrier::init(std::uint32_t count) {
  if (count < 1 || count > kMaxCount)
    throw Error(fmt::format("mbarrier.init with a count of {}; the expected arrivals are 1 .. 2^20 - 1", count));
  Mbarrier b;
  b.valid = true;
  b.pending = b.expected = count;
  return b;
}

void Mbarrier::require_valid(const char* op) const {
  if (!valid)
    throw Error(fmt::format("{} on an mbarrier that is not initialised (no mbarrier.init, or mbarrier.inval since; "
                            "undefined in the PTX ISA)",
                            op));
}

bool Mbarrier::settle() {
  if (pending != 0 || tx != 0) return false;
  phase = !phase;
  pending = expected;
  tx = 0;
  return true;
}

bool Mbarrier::arrive(std::uint32_t count, bool drop, bool no_complete) {
  require_valid(drop ? "mbarrier.arrive_drop" : "mbarrier.arrive");
  if (count < 1 || count > kMaxCount)
    throw Error(fmt::format("an arrive with a count of {}; the count is 1 .. 2^20 - 1", count));
  if (count > pending)
    throw Error(fmt::format("an arrive with a count of {} on an mbarrier with {} arrival{} pending ({}): the pending "
                            "count would go below zero (undefined in the PTX ISA)",
                            count, pending, pending == 1 ? "" : "s", describe()));
  if (drop && count > expected)
    throw Error(fmt::format("mbarrier.arrive_drop with a count of {} on an mbarrier that expects {} arrivals a phase",
                            count, expected));
  pending -= count;
  if (drop) expected -= count;
  if (no_complete && pending == 0 && tx == 0)
    throw Error(fmt::format("a .noComplete arrive completes the phase ({}); undefined in the PTX ISA", describe()));
  return settle();
}

bool Mbarrier::expect_tx(std::uint32_t bytes) {
  require_valid("mbarrier.expect_tx");
  if (bytes > static_cast<std::uint32_t>(kMaxTx))
    throw Error(fmt::format("expect-tx of {} bytes; the count is 0 .. 2^20 - 1", bytes));
  const std::int64_t t = static_cast<std::int64_t>(tx) + bytes;
  if (t > kMaxTx)
    throw Error(fmt::format("expect-tx of {} bytes takes the tx-count to {}, past 2^20 - 1 (undefined in the PTX ISA; "
                            "{})",
                            bytes, t, describe()));
  tx = static_cast<std::int32_t>(t);
  return settle();
}

bool Mbarrier::complete_tx(std::uint32_t bytes) {
  require_valid("mbarrier.complete_tx");
  if (bytes > static_cast<std::uint32_t>(kMaxTx))
    throw Error(fmt::format("complete-tx of {} bytes; the count is 0 .. 2^20 - 1", bytes));
  const std::int64_t t = static_cast<std::int64_t>(tx) - bytes;
  if (t < -kMaxTx)
    throw Error(fmt::format("complete-tx of {} bytes takes the tx-count to {}, below -(2^20 - 1) (undefined in the "
                            "PTX ISA; {})",
                            bytes, t, describe()));
  tx = static_cast<std::int32_t>(t);
  return settle();
}

std::string Mbarrier::describe() const {
  if (!valid) return "not initialised";
  return fmt::format("phase parity {}, {} of {} arrivals pending, tx-count {}", phase ? 1 : 0, pending, expected, tx);
}

}  // namespace ptxmma
