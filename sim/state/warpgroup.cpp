#include "sim/state/warpgroup.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/error.hpp"

namespace ptxmma {

SharedMemory::SharedMemory(std::size_t bytes) {
  if (bytes == 0 || bytes > kMaxBytes)
    throw Error(fmt::format("shared memory of {} bytes: the size must be 1..{} bytes (an 18-bit shared address)", bytes,
                            kMaxBytes));
  bytes_.assign(bytes, 0);
}

void check_shared(std::size_t size, std::uint64_t address, std::uint64_t width, std::string_view kind,
                  std::string_view what) {
  if (address < size && width <= size - address) return;
  const std::string of = what.empty() ? "" : fmt::format(" ({})", what);
  if (address >= size)
    throw Error(fmt::format("shared memory: a {}-byte {} at {:#x}{} is outside the {}-byte shared memory ({:#x}..{:#x})",
                            width, kind, address, of, size, 0, size - 1));
  throw Error(fmt::format("shared memory: a {}-byte {} at {:#x}{} goes past the end of the {}-byte shared memory "
                          "({:#x}..{:#x})",
                          width, kind, address, of, size, 0, size - 1));
}

void SharedMemory::check(std::uint64_t address, std::uint64_t width, std::string_view kind,
                         std::string_view what) const {
  check_shared(bytes_.size(), address, width, kind, what);
}

std::uint64_t SharedMemory::load(std::uint64_t address, int width, std::string_view what) const {
  if (width != 1 && width != 2 && width != 4 && width != 8)
    throw Error(fmt::format("shared memory: a load of {} bytes (1, 2, 4 or 8)", width));
  check(address, static_cast<std::uint64_t>(width), "read", what);
  std::uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | bytes_[address + static_cast<std::uint64_t>(i)];
  return v;
}

void SharedMemory::store(std::uint64_t address, int width, std::uint64_t value, std::string_view what) {
  if (width != 1 && width != 2 && width != 4 && width != 8)
    throw Error(fmt::format("shared memory: a store of {} bytes (1, 2, 4 or 8)", width));
  check(address, static_cast<std::uint64_t>(width), "write", what);
  for (int i = 0; i < width; ++i) bytes_[address + static_cast<std::uint64_t>(i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

void SharedMemory::write(std::uint64_t address, std::span<const std::uint8_t> data, std::string_view what) {
  if (data.empty()) return;
  check(address, data.size(), "write", what);
  std::copy(data.begin(), data.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(address));
}

void SharedMemory::read(std::uint64_t address, std::span<std::uint8_t> out, std::string_view what) const {
  if (out.empty()) return;
  check(address, out.size(), "read", what);
  std::copy_n(bytes_.begin() + static_cast<std::ptrdiff_t>(address), out.size(), out.begin());
}

void SharedMemory::fill(std::uint8_t value) { std::fill(bytes_.begin(), bytes_.end(), value); }

Warp& Warpgroup::warp(int w) {
  if (w < 0 || w >= kWarps) throw Error(fmt::format("warp {} of a warpgroup (0..3)", w));
  return warps_[static_cast<std::size_t>(w)];
}

const Warp& Warpgroup::warp(int w) const {
  if (w < 0 || w >= kWarps) throw Error(fmt::format("warp {} of a warpgroup (0..3)", w));
  return warps_[static_cast<std::size_t>(w)];
}

void Warpgroup::declare(const std::string& reg, RegKind kind) {
  for (Warp& w : warps_) w.declare(reg, kind);
}

std::uint64_t Warpgroup::get(int thread, const std::string& reg) const {
  if (thread < 0 || thread >= kThreads) throw Error(fmt::format("thread {} of a warpgroup (0..127)", thread));
  return warps_[static_cast<std::size_t>(thread / Warp::kLanes)].get(thread % Warp::kLanes, reg);
}

void Warpgroup::set(int thread, const std::string& reg, std::uint64_t value) {
  if (thread < 0 || thread >= kThreads) throw Error(fmt::format("thread {} of a warpgroup (0..127)", thread));
  warps_[static_cast<std::size_t>(thread / Warp::kLanes)].set(thread % Warp::kLanes, reg, value);
}

bool Warpgroup::all_active() const {
  return std::all_of(warps_.begin(), warps_.end(), [](const Warp& w) { return w.active_mask() == 0xffffffffU; });
}

}  // namespace ptxmma
