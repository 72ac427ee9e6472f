#include "sim/exec/race_shadow.hpp"

#include <algorithm>

namespace ptxmma {

std::optional<RaceShadow::Hazard> RaceShadow::access(std::uint64_t addr, std::uint64_t n, int warp, int pc, bool write,
                                                     std::uint32_t epoch) {
  if (addr >= writes_.size()) return std::nullopt;
  const std::uint64_t end = std::min<std::uint64_t>(writes_.size(), addr + n);
  const std::uint32_t e = epoch + 1, mine = e << 6 | static_cast<std::uint32_t>(warp), several = e << 6 | kSeveral;
  // Another warp's access in this epoch: same epoch, different tag.
  const auto other = [&](std::uint32_t tag) { return tag != mine && (tag >> 6) == e; };
  std::optional<Hazard> found;
  for (std::uint64_t a = addr; a < end; ++a) {
    const std::uint32_t w = writes_[a], r = reads_[a];
    if (other(w) || (write && other(r))) {
      const bool wrote = other(w);
      found = Hazard{a, static_cast<int>((wrote ? w : r) & 63U), wrote ? write_pc_[a] : read_pc_[a], wrote};
      break;
    }
  }
  if (write) {
    std::fill(writes_.begin() + static_cast<std::ptrdiff_t>(addr), writes_.begin() + static_cast<std::ptrdiff_t>(end), mine);
    std::fill(write_pc_.begin() + static_cast<std::ptrdiff_t>(addr), write_pc_.begin() + static_cast<std::ptrdiff_t>(end), pc);
  } else {
    for (std::uint64_t a = addr; a < end; ++a) {
      const std::uint32_t r = reads_[a];
      reads_[a] = (r >> 6) != e || r == mine ? mine : several;
      read_pc_[a] = pc;
    }
  }
  return found;
}

}  // namespace ptxmma
