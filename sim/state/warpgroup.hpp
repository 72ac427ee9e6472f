// A simulated warpgroup: 4 warps (128 threads, thread = 32*warp + lane) with their named registers,
// and the byte-addressed shared memory they share (the CTA's shared window, address 0 upward).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/state/warp.hpp"

namespace ptxmma {

// Shared memory: `size` bytes at addresses 0 .. size-1, little-endian, zero when created. Every
// access is bounds-checked; an access outside throws Error naming the access, e.g.
// "shared memory: a 2-byte read at 0x38fff (A element (63, 15)) goes past the end of the
// 233472-byte shared memory (0x0..0x38fff)".
class SharedMemory {
 public:
  static constexpr std::size_t kDefaultBytes = 228 * 1024;  // H100/H200: 228 KiB per SM
  static constexpr std::size_t kMaxBytes = 256 * 1024;      // what an 18-bit shared address reaches

  explicit SharedMemory(std::size_t bytes = kDefaultBytes);

  [[nodiscard]] std::size_t size() const { return bytes_.size(); }
  [[nodiscard]] std::span<const std::uint8_t> bytes() const { return bytes_; }

  // Unsigned little-endian value of `width` bytes (1, 2, 4 or 8) at `address`. `what` (may be
  // empty) names the access in the error message.
  [[nodiscard]] std::uint64_t load(std::uint64_t address, int width, std::string_view what = {}) const;
  void store(std::uint64_t address, int width, std::uint64_t value, std::string_view what = {});

  [[nodiscard]] std::uint8_t byte(std::uint64_t address) const { return static_cast<std::uint8_t>(load(address, 1)); }

  // Copies bytes in or out (e.g. a golden case's shared-memory image).
  void write(std::uint64_t address, std::span<const std::uint8_t> data, std::string_view what = {});
  void read(std::uint64_t address, std::span<std::uint8_t> out, std::string_view what = {}) const;
  void fill(std::uint8_t value = 0);

  // Throws the bounds error for an access of `width` bytes at `address` if it does not fit.
  void check(std::uint64_t address, std::uint64_t width, std::string_view kind, std::string_view what) const;

 private:
  std::vector<std::uint8_t> bytes_;
};

// SharedMemory::check's error for an access of `width` bytes at `address` of `size` bytes of shared
// memory, when it does not fit (nothing when it does).
void check_shared(std::size_t size, std::uint64_t address, std::uint64_t width, std::string_view kind,
                  std::string_view what);

class Warpgroup {
 public:
  static constexpr int kWarps = 4;
  static constexpr int kThreads = kWarps * Warp::kLanes;  // 128

  explicit Warpgroup(std::size_t shared_bytes = SharedMemory::kDefaultBytes) : shared_(shared_bytes) {}

  [[nodiscard]] Warp& warp(int w);
  [[nodiscard]] const Warp& warp(int w) const;

  // Declares a register in every thread of the 4 warps (value 0).
  void declare(const std::string& reg, RegKind kind);
  [[nodiscard]] bool declared(const std::string& reg) const { return warps_[0].declared(reg); }
  [[nodiscard]] RegKind kind(const std::string& reg) const { return warps_[0].kind(reg); }
  // By warpgroup thread 0..127 (Error outside).
  [[nodiscard]] std::uint64_t get(int thread, const std::string& reg) const;
  void set(int thread, const std::string& reg, std::uint64_t value);

  // Whether all 128 threads are active (warpgroup instructions with .aligned need them all).
  [[nodiscard]] bool all_active() const;

  [[nodiscard]] SharedMemory& shared() { return shared_; }
  [[nodiscard]] const SharedMemory& shared() const { return shared_; }

 private:
  std::array<Warp, kWarps> warps_{};
  SharedMemory shared_;
};

}  // namespace ptxmma
