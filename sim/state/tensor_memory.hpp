// Tensor memory (Blackwell, sm_100a): a CTA's 128 lanes x 512 columns of 32-bit cells, which
// tcgen05.mma accumulates into and tcgen05.ld / tcgen05.st move to and from registers, and its
// column allocator (tcgen05.alloc / dealloc / relinquish_alloc_permit). An address is
// lane << 16 | column (PTX ISA, "Tensor Memory Addressing"). docs/tcgen05.md §6.
//
// A cell nobody wrote is undefined (the PTX ISA leaves its contents unspecified): reading it is
// not an error, but it is shown as such. The cells are made at the first allocation, so that a
// grid of CTAs that never allocate costs nothing.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxmma {

class TensorMemory {
 public:
  static constexpr int kLanes = 128;
  static constexpr int kColumns = 512;
  static constexpr int kMinColumns = 32;  // the allocation unit

  struct Allocation {
    int column = 0;  // first column
    int columns = 0;
    int tag = -1;    // who allocated it (the interpreter: the instruction's index)
  };

  static std::uint32_t address(int lane, int column) {
    return (static_cast<std::uint32_t>(lane) << 16) | static_cast<std::uint32_t>(column);
  }
  static int lane_of(std::uint32_t taddr) { return static_cast<int>(taddr >> 16); }
  static int column_of(std::uint32_t taddr) { return static_cast<int>(taddr & 0xFFFFU); }

  // Why `columns` is not a legal allocation size (a power of two in 32..512), or nullopt.
  static std::optional<std::string> bad_size(std::uint64_t columns);
  // The first column of `columns` free columns at a multiple of `columns`, now allocated; nullopt
  // when none is free (the allocating warp waits). The size must be legal.
  std::optional<int> allocate(int columns, int tag);
  // Frees the allocation that starts at `column` with `columns` columns: Error when there is none.
  void deallocate(int column, int columns);
  // Whether column `column` lies in an allocation.
  [[nodiscard]] bool allocated(int column) const;
  [[nodiscard]] const std::vector<Allocation>& allocations() const { return allocs_; }
  // Allocations freed so far (a waiting allocation may succeed after one).
  [[nodiscard]] std::uint64_t frees() const { return frees_; }

  // relinquish_alloc_permit: the CTA may allocate no more.
  void relinquish() { permit_ = false; }
  [[nodiscard]] bool permit() const { return permit_; }

  // Cells. Indices must be in range (the callers check addresses against allocations first).
  [[nodiscard]] std::uint32_t get(int lane, int column) const { return cells_[index(lane, column)]; }
  [[nodiscard]] bool defined(int lane, int column) const {
    const std::size_t i = index(lane, column);
    return !defined_.empty() && ((defined_[i / 64] >> (i % 64)) & 1U) != 0;
  }
  void set(int lane, int column, std::uint32_t v) {
    const std::size_t i = index(lane, column);
    cells_[i] = v;
    defined_[i / 64] |= 1ULL << (i % 64);
  }
  // Whether any cell exists (an allocation was ever made).
  [[nodiscard]] bool used() const { return !cells_.empty(); }

 private:
  static std::size_t index(int lane, int column) {
    return static_cast<std::size_t>(lane) * kColumns + static_cast<std::size_t>(column);
  }
  std::vector<std::uint32_t> cells_;     // kLanes * kColumns once used
  std::vector<std::uint64_t> defined_;   // a bit per cell
  std::vector<Allocation> allocs_;       // in column order
  std::uint64_t frees_ = 0;
  bool permit_ = true;
};

}  // namespace ptxmma
