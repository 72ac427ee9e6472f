#include "sim/exec/async_copy.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"

namespace ptxmma {

void AsyncCopies::issue(const Copy& c) {
  if (in_flight_ >= kMaxInFlight)
    throw Error(fmt::format("more than {} cp.async in flight in the CTA; cp.async.wait_group or wait_all completes them",
                            kMaxInFlight));
  if (pending_.empty()) pending_.assign(static_cast<std::size_t>(shared_bytes_), 0);
  for (int i = 0; i < c.size; ++i) ++pending_[c.dst + static_cast<std::uint32_t>(i)];
  ++in_flight_;
  threads_[static_cast<std::size_t>(c.thread)].issue(c);
}

void AsyncCopies::complete(const Copy& c, Memory& shared) {
  shared.write(c.dst, c.bytes.data(), static_cast<std::size_t>(c.size));
  for (int i = 0; i < c.size; ++i) --pending_[c.dst + static_cast<std::uint32_t>(i)];
  --in_flight_;
}

void AsyncCopies::wait(int thread, int n, Memory& shared) {
  threads_[static_cast<std::size_t>(thread)].wait(n, [&](const Copy& c) { complete(c, shared); });
}

void AsyncCopies::complete_all(int thread, Memory& shared) {
  threads_[static_cast<std::size_t>(thread)].complete_all([&](const Copy& c) { complete(c, shared); });
}

std::optional<AsyncCopies::Copy> AsyncCopies::drain(Memory& shared) {
  std::optional<Copy> first;
  for (auto& t : threads_) {
    t.commit();
    t.wait(0, [&](const Copy& c) {
      if (!first) first = c;
      complete(c, shared);
    });
  }
  return first;
}

const AsyncCopies::Copy* AsyncCopies::target(std::uint64_t addr, std::uint64_t n) const {
  if (in_flight_ == 0) return nullptr;
  bool hit = false;
  for (std::uint64_t a = addr; a < addr + n && a < pending_.size(); ++a) hit = hit || pending_[a] != 0;
  if (!hit) return nullptr;
  const Copy* found = nullptr;  // which copy: the cold path of a diagnostic
  for (const auto& t : threads_)
    t.for_each([&](const Copy& c) {
      if (!found && c.dst < addr + n && addr < c.dst + static_cast<std::uint64_t>(c.size)) found = &c;
    });
  return found;
}

}  // namespace ptxmma
