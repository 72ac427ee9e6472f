#include "sim/state/tensor_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "sim/error.hpp"

namespace ptxmma {

std::optional<std::string> TensorMemory::bad_size(std::uint64_t columns) {
  if (columns >= kMinColumns && columns <= kColumns && std::has_single_bit(columns)) return std::nullopt;
  return fmt::format("{} columns: an allocation is a power of two from {} to {} columns", columns, kMinColumns,
                     kColumns);
}

std::optional<int> TensorMemory::allocate(int columns, int tag) {
  // The PTX ISA does not say where an allocation is placed; the lowest free range at a multiple of
  // its size is what a buddy allocator gives, and keeps every allocation aligned to its size.
  for (int c = 0; c + columns <= kColumns; c += columns) {
    const bool clash = std::ranges::any_of(allocs_, [&](const Allocation& a) {
      return a.column < c + columns && c < a.column + a.columns;
    });
    if (clash) continue;
    if (cells_.empty()) {
      cells_.assign(static_cast<std::size_t>(kLanes) * kColumns, 0);
      defined_.assign(static_cast<std::size_t>(kLanes) * kColumns / 64, 0);
    }
    const auto at = std::ranges::find_if(allocs_, [&](const Allocation& a) { return a.column > c; });
    allocs_.insert(at, Allocation{c, columns, tag});
    // A fresh allocation's cells are unspecified, whatever an earlier one left there.
    for (int lane = 0; lane < kLanes; ++lane)
      for (int col = c; col < c + columns; ++col) {
        const std::size_t i = index(lane, col);
        defined_[i / 64] &= ~(1ULL << (i % 64));
      }
    return c;
  }
  return std::nullopt;
}

void TensorMemory::deallocate(int column, int columns) {
  const auto it = std::ranges::find_if(allocs_, [&](const Allocation& a) { return a.column == column; });
  if (it == allocs_.end() || it->columns != columns) {
    std::string held;
    for (const Allocation& a : allocs_)
      held += fmt::format("{}columns {}-{}", held.empty() ? "" : ", ", a.column, a.column + a.columns - 1);
    throw Error(fmt::format("columns {}-{} are not an allocation of this CTA's tensor memory (allocated: {})", column,
                            column + columns - 1, held.empty() ? "none" : held));
  }
  allocs_.erase(it);
  ++frees_;
}

bool TensorMemory::allocated(int column) const {
  return std::ranges::any_of(allocs_, [&](const Allocation& a) { return column >= a.column && column < a.column + a.columns; });
}

}  // namespace ptxmma
