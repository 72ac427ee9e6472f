#include "sim/state/memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <mutex>

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

Memory Memory::overlay(Memory& base, std::shared_mutex& lock) {
  Memory m = sparse(base.space_);
  m.base_ = std::make_shared<Base>();
  m.base_->mem = &base;
  m.base_->lock = &lock;
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
  if (base_) {
    overlay_write(addr, bytes, n);
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
      it = pages_.try_emplace(a / kPage, std::make_shared<Page>()).first;
    } else if (it->second.use_count() > 1) {
      it->second = std::make_shared<Page>(*it->second);  // an overlay still reads this one
    }
    Page& p = *it->second;
    std::copy(bytes + i, bytes + i + len, p.bytes.begin() + static_cast<std::ptrdiff_t>(off));
    p.valid.set(off, len);
    i += len;
  }
}

// The overlay's pages hold what it wrote (valid: the bytes written). A page the base lacks is a
// page the commit adds: counted against the budget as the base's pages plus those added so far.
void Memory::overlay_write(std::uint64_t addr, const std::uint8_t* bytes, std::size_t n) {
  Base& b = *base_;
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t a = addr + i, off = a % kPage;
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(n - i, kPage - off));
    auto it = pages_.find(a / kPage);
    if (it == pages_.end()) {
      std::size_t base_pages = 0;
      bool in_base = false;
      {
        const std::shared_lock lock(*b.lock);
        base_pages = b.mem->pages_.size();
        in_base = b.mem->pages_.contains(a / kPage);
      }
      if (!in_base) {
        if (base_pages + b.fresh >= budget().memory_pages) {
          b.crossed = true;
          throw Error(fmt::format("{} memory: a store at {:#x} touches a new page: {}", space_, a,
                                  over_budget(base_pages + b.fresh + 1, "pages of 4 KiB", budget().memory_pages,
                                              "--max-memory-pages")));
        }
        ++b.fresh;
      }
      it = pages_.try_emplace(a / kPage, std::make_shared<Page>()).first;
    }
    Page& p = *it->second;
    std::copy(bytes + i, bytes + i + len, p.bytes.begin() + static_cast<std::ptrdiff_t>(off));
    p.valid.set(off, len);
    i += len;
  }
}

const Memory::Page* Memory::seen(std::uint64_t page) const {
  Base& b = *base_;
  auto it = b.seen.find(page);
  if (it == b.seen.end()) {
    std::shared_ptr<const Page> p;
    {
      const std::shared_lock lock(*b.lock);
      if (const auto at = b.mem->pages_.find(page); at != b.mem->pages_.end()) p = at->second;
    }
    it = b.seen.emplace(page, std::move(p)).first;
  }
  return it->second.get();
}

std::size_t Memory::overlay_read(std::uint64_t addr, std::uint8_t* bytes, std::size_t n) const {
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t a = addr + i, off = a % kPage;
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(n - i, kPage - off));
    const auto it = pages_.find(a / kPage);
    const Page* own = it == pages_.end() ? nullptr : it->second.get();
    const Page* base = nullptr;
    for (std::size_t k = 0; k < len; ++k) {
      const Page* from = own;
      if (!own || !own->valid.test(off + k)) {
        if (!base) base = seen(a / kPage);
        if (!base || !base->valid.test(off + k)) return i + k;
        from = base;
      }
      if (bytes) bytes[i + k] = from->bytes[off + k];
    }
    i += len;
  }
  return n;
}

bool Memory::current() const {
  const Base& b = *base_;
  if (b.crossed) return false;
  const auto& base = b.mem->pages_;
  for (const auto& [page, p] : b.seen) {
    const auto it = base.find(page);
    if ((it == base.end() ? nullptr : it->second.get()) != p.get()) return false;
  }
  std::size_t added = 0;
  for (const auto& [page, p] : pages_) added += base.contains(page) ? 0 : 1;
  return base.size() + added <= budget().memory_pages;
}

void Memory::commit() {
  Base& b = *base_;
  const std::unique_lock lock(*b.lock);
  auto& base = b.mem->pages_;
  for (const auto& [page, p] : pages_) {
    auto it = base.find(page);
    if (it == base.end())
      it = base.try_emplace(page, std::make_shared<Page>()).first;
    else if (it->second.use_count() > 1)
      it->second = std::make_shared<Page>(*it->second);  // another overlay still reads this one
    Page& to = *it->second;
    for (std::size_t q = 0; q < kPage / 64; ++q) {
      const std::uint64_t mask = p->valid.words[q];
      if (mask == ~0ULL) {
        std::copy_n(p->bytes.begin() + static_cast<std::ptrdiff_t>(64 * q), 64, to.bytes.begin() + static_cast<std::ptrdiff_t>(64 * q));
      } else {
        for (std::uint64_t m = mask; m != 0; m &= m - 1) {
          const std::size_t k = 64 * q + static_cast<std::size_t>(std::countr_zero(m));
          to.bytes[k] = p->bytes[k];
        }
      }
      to.valid.words[q] |= mask;
    }
  }
}

void Memory::ByteMask::set(std::size_t from, std::size_t n) {
  for (std::size_t i = from, end = from + n; i < end;) {
    const std::size_t bit = i % 64, count = std::min<std::size_t>(64 - bit, end - i);
    words[i / 64] |= (count == 64 ? ~0ULL : ((1ULL << count) - 1)) << bit;
    i += count;
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
  if (base_) return overlay_read(addr, nullptr, n);
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t a = addr + i, off = a % kPage;
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(n - i, kPage - off));
    const auto it = pages_.find(a / kPage);
    if (it == pages_.end()) return i;
    for (std::size_t k = 0; k < len; ++k)
      if (!it->second->valid.test(off + k)) return i + k;
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
  if (base_) {
    if (const std::size_t bad = overlay_read(addr, bytes, n); bad < n)
      throw Error(fmt::format("{} memory: byte {:#x} is not given by the initial state", space_, addr + bad));
    return;
  }
  if (const std::size_t bad = first_undefined(addr, n); bad < n)
    throw Error(fmt::format("{} memory: byte {:#x} is not given by the initial state", space_, addr + bad));
  for (std::size_t i = 0; i < n;) {
    const std::uint64_t a = addr + i, off = a % kPage;
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(n - i, kPage - off));
    const Page& p = *pages_.find(a / kPage)->second;
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
  for (const auto& [page, pp] : pages_)
    for (std::uint64_t i = 0; i < kPage; ++i) {
      const Page& p = *pp;
      if (!p.valid.test(i)) continue;
      const std::uint64_t a = page * kPage + i;
      if (out.empty() || out.back().first + out.back().second.size() != a) out.push_back({a, {}});
      out.back().second.push_back(p.bytes[i]);
    }
  return out;
}

}  // namespace ptxmma
