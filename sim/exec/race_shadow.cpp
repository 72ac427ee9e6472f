#include "sim/exec/race_shadow.hpp"

#include <algorithm>

namespace ptxmma {

std::optional<RaceShadow::Hazard> RaceShadow::access(std::uint64_t addr, std::uint64_t n, int warp, int pc, bool write,
                                                     std::uint32_t epoch) {
  if (addr >= writes_.size()) return std::nullopt;
  const std::size_t first = addr, end = static_cast<std::size_t>(std::min<std::uint64_t>(writes_.size(), addr + n));
  if (epoch - base_ >= kEpochs - 1) {
    std::fill(writes_.begin(), writes_.end(), 0U);
    std::fill(reads_.begin(), reads_.end(), 0U);
    base_ = epoch;
    top_ = 0;
    floor_ = 1;
  }
  const std::uint32_t e = epoch - base_ + 1, mine = e << 6 | static_cast<std::uint32_t>(warp), several = e << 6 | kSeveral;
  // Another warp's access in this epoch: same epoch, different tag. The loops have no branch (they
  // vectorise): every shared access of the run goes through them.
  const auto other = [&](std::uint32_t tag) { return static_cast<unsigned>(tag != mine) & static_cast<unsigned>((tag >> 6) == e); };
  top_ = std::max(top_, e);
  std::uint32_t* const w = writes_.data();
  std::uint32_t* const r = reads_.data();
  unsigned bad = 0;
  for (std::size_t a = first; a < end; ++a) bad |= other(w[a]) | (static_cast<unsigned>(write) & other(r[a]));
  std::optional<Hazard> found;
  if (bad)
    for (std::size_t a = first; a < end; ++a)
      if (other(w[a]) || (write && other(r[a]))) {
        const bool wrote = other(w[a]) != 0;
        found = Hazard{a, static_cast<int>((wrote ? w[a] : r[a]) & 63U), wrote ? write_pc_[a] : read_pc_[a], wrote};
        break;
      }
  if (write) {
    std::fill(w + first, w + end, mine);
    std::fill(write_pc_.data() + first, write_pc_.data() + end, pc);
    std::fill(write_fences_.data() + first, write_fences_.data() + end, fences_[static_cast<std::size_t>(warp)]);
  } else {
    for (std::size_t a = first; a < end; ++a) r[a] = (r[a] >> 6) != e || r[a] == mine ? mine : several;
    std::fill(read_pc_.data() + first, read_pc_.data() + end, pc);
  }
  return found;
}

std::optional<RaceShadow::Hazard> RaceShadow::async_read(std::uint64_t addr, std::uint64_t n) const {
  const std::uint64_t end = std::min<std::uint64_t>(writes_.size(), addr + n);
  for (std::uint64_t a = addr; a < end; ++a) {
    const std::uint32_t w = writes_[a];
    if ((w >> 6) >= floor_ && fences_[w & 63U] == write_fences_[a]) return Hazard{a, static_cast<int>(w & 63U), write_pc_[a], true};
  }
  return std::nullopt;
}

void RaceShadow::restart() {
  // The new CTA's epochs count from 0 again: its first tag is top_ + 1.
  base_ = 0U - top_;
  floor_ = top_ + 1;
  fences_.fill(0);
}

}  // namespace ptxmma
