// racecheck's record of one CTA's shared memory: for each byte, the last warp that wrote it and
// the warps that read it, each with the synchronisation epoch of the access. The epoch counts the
// CTA's synchronisations (barrier completions, mbarrier phases, cluster barrier phases); an
// access of a byte that another warp wrote (or, for a write, read) in the same epoch has no
// synchronisation between the two: a hazard. Atomics are not recorded. A coarse epoch can only
// miss hazards (any synchronisation orders every warp), never invent one.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace ptxmma {

class RaceShadow {
 public:
  static constexpr int kSeveral = 63;  // more than one warp read the byte in the epoch
  explicit RaceShadow(std::uint64_t bytes) : writes_(bytes), reads_(bytes), write_pc_(bytes), read_pc_(bytes) {}

  struct Hazard {
    std::uint64_t addr;  // the first byte in conflict
    int warp;            // the other warp (kSeveral: several warps read it)
    int pc;              // its (last) access
    bool wrote;          // the other access was a write
  };
  // Records warp `warp`'s access of [addr, addr + n) at instruction pc in `epoch`; the first
  // hazard with another warp's access, if any. Bytes outside the memory are ignored (the access
  // itself reports them).
  std::optional<Hazard> access(std::uint64_t addr, std::uint64_t n, int warp, int pc, bool write, std::uint32_t epoch);

 private:
  // A byte's last write and its reads as a tag: (epoch - base_ + 1) << 6 | warp (at most 32 warps a
  // CTA; kSeveral for reads by several); 0: none. Tags make the common case (no hazard) a compare a
  // byte. They hold 26 bits of epoch: when the epoch outgrows them, every tag is forgotten and
  // base_ moves to the epoch, which loses nothing (a synchronisation orders all that came before).
  static constexpr std::uint32_t kEpochs = std::uint32_t{1} << 26;
  std::uint32_t base_ = 0;
  std::vector<std::uint32_t> writes_, reads_;
  std::vector<std::int32_t> write_pc_, read_pc_;
};

}  // namespace ptxmma
