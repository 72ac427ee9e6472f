#include "sim/state/memory.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/util/budget.hpp"
#include "sim/error.hpp"

namespace ptxmma {

Memory Memory::dense(std::string space, std::uint64_t size) {
  Memory m;
  m.space_ = std::move(space);
  m.dense_ = true;
  m.data_.assign(size, 0);
  return m;
}

Memory Memory::sparse(std::string space) {
  Memory m;
  m.space_ = std::move(space);
  m.dense_ = false;
  return m;
}

namespace {
[[noreturn]] void outside(const std::string& space, std::uint64_t addr, std::size_t n, std::uint64_t size) {
  throw Error(fmt::format("{} memory: {} byte{} at {:#x} {} outside [0, {:#x})", space, n, n == 1 ? "" : "s", addr,
                          n == 1 ? "is" : "are", size));
}
}  // namespace

void Memory::write(std::uint64_t addr, const std::uint8_t* bytes, std::size_t n) {
  if (n == 0) return;
  if (addr + n < addr) throw Error(fmt::format("{} memory: address {:#x} wraps around", space_, addr));
  if (dense_) {
    if (addr > data_.size() || n > data_.size() - addr) outside(space_, addr, n, data_.size());
    std::copy(bytes, bytes + n, data_.begin() + static_cast<std::ptrdiff_t>(addr));
    if (written_.empty()) written_.assign(data_.size(), 0);
    std::fill_n(written_.begin() + static_cast<std::ptrdiff_t>(addr), n, std::uint8_t{1});
    return;
  }
  // Page by page: one lookup for each page the bytes fall in.
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t a = addr + i, off = a % kPage;
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(n - i, kPage - off));
    auto it = pages_.find(a / kPage);
    if (it == pages_.end()) {
      // A page costs about 4.6 KB; sparse stores could otherwise touch a page each.
      if (pages_.size() >= budget().memory_pages)
        throw Error(fmt::format("{} memory: a store at {:#x} touches a new page: {}", space_, a,
                                over_budget(pages_.size() + 1, "pages of 4 KiB", budget().memory_pages,
                                            "--max-memory-pages")));
      it = pages_.try_emplace(a / kPage).first;
    }
    Page& p = it->second;
    std::copy(bytes + i, bytes + i + len, p.bytes.begin() + static_cast<std::ptrdiff_t>(off));
    for (std::size_t k = 0; k < len; ++k) p.valid.set(off + k);
    i += len;
  }
}

void Memory::check_range(std::uint64_t addr, std::uint64_t n) const {
  if (dense_ && (addr + n < addr || addr > data_.size() || n > data_.size() - addr))
    outside(space_, addr, static_cast<std::size_t>(n), data_.size());
}

std::uint64_t Memory::first_unwritten(std::uint64_t addr, std::uint64_t n) const {
  if (!dense_ || addr + n < addr || addr > data_.size() || n > data_.size() - addr) return n;
  if (written_.empty()) return 0;
  const auto from = written_.begin() + static_cast<std::ptrdiff_t>(addr);
  return static_cast<std::uint64_t>(std::find(from, from + static_cast<std::ptrdiff_t>(n), std::uint8_t{0}) - from);
}

bool Memory::defined(std::uint64_t addr, std::size_t n) const {
  if (addr + n < addr) return false;
  if (dense_) return addr <= data_.size() && n <= data_.size() - addr;
  return first_undefined(addr, n) == n;
}

std::size_t Memory::first_undefined(std::uint64_t addr, std::size_t n) const {
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t a = addr + i, off = a % kPage;
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(n - i, kPage - off));
    const auto it = pages_.find(a / kPage);
    if (it == pages_.end()) return i;
    for (std::size_t k = 0; k < len; ++k)
      if (!it->second.valid.test(off + k)) return i + k;
    i += len;
  }
  return n;
}

void Memory::read(std::uint64_t addr, std::uint8_t* bytes, std::size_t n) const {
  if (n == 0) return;
  if (dense_) {
    if (addr + n < addr || addr > data_.size() || n > data_.size() - addr) outside(space_, addr, n, data_.size());
    std::copy(data_.begin() + static_cast<std::ptrdiff_t>(addr), data_.begin() + static_cast<std::ptrdiff_t>(addr + n), bytes);
    return;
  }
  if (const std::size_t bad = first_undefined(addr, n); bad < n)
    throw Error(fmt::format("{} memory: byte {:#x} is not given by the initial state", space_, addr + bad));
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t a = addr + i, off = a % kPage;
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(n - i, kPage - off));
    const Page& p = pages_.find(a / kPage)->second;
    std::copy(p.bytes.begin() + static_cast<std::ptrdiff_t>(off), p.bytes.begin() + static_cast<std::ptrdiff_t>(off + len),
              bytes + i);
    i += len;
  }
}

std::uint64_t Memory::load(std::uint64_t addr, int n) const {
  std::uint8_t b[8] = {};
  read(addr, b, static_cast<std::size_t>(n));
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}

void Memory::store(std::uint64_t addr, int n, std::uint64_t value) {
  std::uint8_t b[8];
  for (int i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(value >> (8 * i));
  write(addr, b, static_cast<std::size_t>(n));
}

std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> Memory::runs() const {
  std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> out;
  for (const auto& [page, p] : pages_)
    for (std::uint64_t i = 0; i < kPage; ++i) {
      if (!p.valid.test(i)) continue;
      const std::uint64_t a = page * kPage + i;
      if (out.empty() || out.back().first + out.back().second.size() != a) out.push_back({a, {}});
      out.back().second.push_back(p.bytes[i]);
    }
  return out;
}

}  // namespace ptxmma
