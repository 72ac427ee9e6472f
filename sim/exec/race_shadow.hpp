// racecheck's record of one CTA's shared memory: for each byte, the last warp that wrote it and
// the warps that read it, each with the synchronisation epoch of the access. The epoch counts the
// CTA's synchronisations (barrier completions, mbarrier phases, cluster barrier phases); an
// access of a byte that another warp wrote (or, for a write, read) in the same epoch has no
// synchronisation between the two: a hazard. Atomics are not recorded. A coarse epoch can only
// miss hazards (any synchronisation orders every warp), never invent one.
//
// The async proxy (bulk copies reading shared memory) sees a generic-proxy write only after the
// writing thread's fence.proxy.async: each byte also keeps how many such fences its writer's warp
// had executed when it wrote; a bulk copy reading a byte whose writer has executed none since
// is a hazard, whatever synchronisation came between (PTX ISA, "Proxies"; docs/kernel-checks.md).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace ptxmma {

class RaceShadow {
 public:
  static constexpr int kSeveral = 63;  // more than one warp read the byte in the epoch
  explicit RaceShadow(std::uint64_t bytes)
      : writes_(bytes), reads_(bytes), write_pc_(bytes), read_pc_(bytes), write_fences_(bytes) {}

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
  // Warp `warp` executed fence.proxy.async (for shared memory).
  void fence_proxy_async(int warp) { ++fences_[static_cast<std::size_t>(warp)]; }
  // Forgets every access, for another CTA, without clearing the arrays: its tags start above
  // every tag recorded so far, which therefore match no epoch of it.
  void restart();
  [[nodiscard]] std::uint64_t size() const { return writes_.size(); }
  // The async proxy reads [addr, addr + n): the first byte whose last write (generic proxy) its
  // warp has not fenced since, as a hazard with that write.
  [[nodiscard]] std::optional<Hazard> async_read(std::uint64_t addr, std::uint64_t n) const;

 private:
  // A byte's last write and its reads as a tag: (epoch - base_ + 1) << 6 | warp (at most 32 warps a
  // CTA; kSeveral for reads by several); 0: none. Tags make the common case (no hazard) a compare a
  // byte. They hold 26 bits of epoch: when the epoch outgrows them, every tag is forgotten and
  // base_ moves to the epoch, which loses nothing (a synchronisation orders all that came before).
  static constexpr std::uint32_t kEpochs = std::uint32_t{1} << 26;
  std::uint32_t base_ = 0;
  std::uint32_t top_ = 0;    // the largest epoch tag recorded (epoch - base_ + 1)
  std::uint32_t floor_ = 1;  // the first epoch tag of this CTA: tags below it are forgotten
  std::vector<std::uint32_t> writes_, reads_;
  std::vector<std::int32_t> write_pc_, read_pc_;
  std::vector<std::uint32_t> write_fences_;  // the writer warp's fences_ when it wrote the byte
  std::array<std::uint32_t, 64> fences_{};   // fence.proxy.async executed, by warp
};

}  // namespace ptxmma
