#include "sim/exec/bulk_copy.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"

namespace ptxmma {

namespace {
void budget(std::uint64_t in_flight, std::uint64_t more) {
  if (in_flight + more > BulkCopies::kMaxInFlightBytes)
    throw Error(fmt::format("more than {} bytes of bulk copies in flight in the CTA (an mbarrier wait or "
                            "cp.async.bulk.wait_group completes them)",
                            BulkCopies::kMaxInFlightBytes));
}
}  // namespace

std::uint64_t BulkCopies::bytes_of(const Store& s) {
  std::uint64_t n = 0;
  for (const Run& r : s.runs) n += r.bytes.size();
  return n;
}

void BulkCopies::issue(Load l) {
  budget(in_flight_, l.tx);
  if (pending_.empty()) pending_.assign(static_cast<std::size_t>(shared_bytes_), 0);
  for (const Run& r : l.runs)
    for (std::size_t i = 0; i < r.bytes.size(); ++i) ++pending_[static_cast<std::size_t>(r.addr) + i];
  in_flight_ += l.tx;
  loads_.push_back(std::move(l));
}

void BulkCopies::issue(Store s) {
  const std::uint64_t n = bytes_of(s);
  budget(in_flight_, n);
  in_flight_ += n;
  const auto t = static_cast<std::size_t>(s.thread);
  stores_[t].issue(std::move(s));
}

void BulkCopies::land(const Load& l, Memory& shared) {
  for (const Run& r : l.runs) {
    shared.write(r.addr, r.bytes.data(), r.bytes.size());
    for (std::size_t i = 0; i < r.bytes.size(); ++i) --pending_[static_cast<std::size_t>(r.addr) + i];
  }
}

std::vector<std::uint64_t> BulkCopies::complete_loads(std::uint64_t mbar, Memory& shared) {
  std::vector<std::uint64_t> done;
  std::size_t keep = 0;
  for (std::size_t i = 0; i < loads_.size(); ++i) {
    if (loads_[i].mbar == mbar) {
      land(loads_[i], shared);
      in_flight_ -= loads_[i].tx;
      done.push_back(loads_[i].tx);
    } else {
      if (keep != i) loads_[keep] = std::move(loads_[i]);
      ++keep;
    }
  }
  loads_.resize(keep);
  return done;
}

const BulkCopies::Load* BulkCopies::target(std::uint64_t addr, std::uint64_t n) const {
  if (loads_.empty()) return nullptr;
  bool hit = false;
  for (std::uint64_t a = addr; a < addr + n && a < pending_.size(); ++a) hit = hit || pending_[a] != 0;
  if (!hit) return nullptr;
  for (const Load& l : loads_)
    for (const Run& r : l.runs)
      if (r.addr < addr + n && addr < r.addr + r.bytes.size()) return &l;
  return nullptr;
}

}  // namespace ptxmma
