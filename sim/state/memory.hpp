// Byte-addressed memory of one state space (shared, global, param, const), little-endian.
// Dense: [0, size), zero-filled (shared memory of one CTA); which bytes were written is kept for
// initcheck (a read of the zero fill is a read of bytes nobody wrote). Sparse: only the bytes
// written are defined; reading any other byte is an Error (global memory given by an initial state).
// Overlay: a sparse memory over another (global memory for one cluster run on a worker thread,
// docs/ptx-interpreter.md "Clusters on several threads"): it keeps the bytes written; a read of
// other bytes sees the base's page as it was when first read, and which pages were read is kept,
// so that the committer can tell whether the run saw what running it in order would have.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

namespace ptxmma {

class Memory {
 public:
  static Memory dense(std::string space, std::uint64_t size);
  static Memory sparse(std::string space);
  // Over the sparse memory `base`, which other threads read under `lock` (shared) while commit()
  // writes it (exclusive). The base must outlive the overlay.
  static Memory overlay(Memory& base, std::shared_mutex& lock);

  // Errors name the space and the address: "shared memory: 4 bytes at 0xc000 are outside [0, 0xc000)".
  void write(std::uint64_t addr, const std::uint8_t* bytes, std::size_t n);
  void read(std::uint64_t addr, std::uint8_t* bytes, std::size_t n) const;
  [[nodiscard]] std::uint64_t load(std::uint64_t addr, int bytes) const;
  void store(std::uint64_t addr, int bytes, std::uint64_t value);
  // Whether every byte of [addr, addr + n) may be read.
  [[nodiscard]] bool defined(std::uint64_t addr, std::size_t n) const;
  // Dense: the index of the first byte of [addr, addr + n) that no write has set; n if none (or
  // outside the memory: the access reports that).
  [[nodiscard]] std::uint64_t first_unwritten(std::uint64_t addr, std::uint64_t n) const;
  // Dense: the error of an access to [addr, addr + n) that does not fit (nothing when it does).
  void check_range(std::uint64_t addr, std::uint64_t n) const;

  [[nodiscard]] const std::string& space() const { return space_; }
  [[nodiscard]] bool is_dense() const { return dense_; }
  [[nodiscard]] std::uint64_t size() const { return data_.size(); }  // dense only
  [[nodiscard]] std::span<const std::uint8_t> bytes() const { return data_; }  // dense: every byte, from 0
  // Sparse: the defined bytes as runs (address, bytes), in address order.
  [[nodiscard]] std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> runs() const;

  // Overlay, on the thread that commits (no commit runs meanwhile): whether every page it read is
  // still the page the base holds (nothing was committed to it since), and the pages it adds to the
  // base stay within the budget as they would have, written after the base's (no store of the run
  // crossed it either).
  [[nodiscard]] bool current() const;
  // Overlay: its bytes written into the base (the lock held exclusively meanwhile).
  void commit();

 private:
  static constexpr std::uint64_t kPage = 4096;
  // Sparse: the index of the first byte of [addr, addr + n) not written yet; n if none.
  [[nodiscard]] std::size_t first_undefined(std::uint64_t addr, std::size_t n) const;
  // Which bytes of a page are defined, 64 to a word (a commit copies whole words' bytes at once).
  struct ByteMask {
    std::array<std::uint64_t, kPage / 64> words{};
    [[nodiscard]] bool test(std::size_t i) const { return ((words[i / 64] >> (i % 64)) & 1U) != 0; }
    void set(std::size_t from, std::size_t n);  // bytes [from, from + n)
  };
  struct Page {
    std::array<std::uint8_t, kPage> bytes{};
    ByteMask valid;
  };
  // Overlay: bytes [addr, addr + n) into `bytes` (when not null), each the one it wrote, else the
  // base's as the page was first read; the index of the first byte neither defines, n if none.
  std::size_t overlay_read(std::uint64_t addr, std::uint8_t* bytes, std::size_t n) const;
  // Overlay: the base's page p as read first (nullptr: the base had none then).
  const Page* seen(std::uint64_t p) const;
  void overlay_write(std::uint64_t addr, const std::uint8_t* bytes, std::size_t n);
  struct Base {
    Memory* mem = nullptr;
    std::shared_mutex* lock = nullptr;
    std::map<std::uint64_t, std::shared_ptr<const Page>> seen;  // pages read: the base's then
    std::size_t fresh = 0;    // pages written that the base lacked
    bool crossed = false;     // a store crossed the page budget
  };
  std::string space_;
  bool dense_ = true;
  std::vector<std::uint8_t> data_;
  std::vector<std::uint8_t> written_;  // dense: 1 for each byte written; empty until the first write
  // Sparse. Shared with overlays that read them: a page shared is copied before it is written.
  std::map<std::uint64_t, std::shared_ptr<Page>> pages_;
  std::shared_ptr<Base> base_;  // overlay only (overlays are not copied)
};

}  // namespace ptxmma
