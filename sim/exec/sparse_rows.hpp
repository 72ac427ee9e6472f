// A sparse mma / wgmma as the hardware computes it (docs/hardware/mma-sp-sm90.md): for each row
// of D, a dense dot of the row's K/2 stored A elements with the B rows its metadata selects, on a
// tile kernel of one row and K/2 columns. B's other rows are never read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/model/tile.hpp"

namespace ptxmma {

// a: m x k/2 stored codes; b: n x k codes (column j of B at b[j * k]); c, d: m x n.
// columns(row, cols) fills the logical K of the row's k/2 stored elements; cols (k/2) and b_row
// (n * k/2) are the caller's scratch space.
template <class Columns>
void run_sparse_rows(TileKernel& kernel, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c,
                     std::uint64_t* d, int m, int n, int k, Columns&& columns, std::vector<int>& cols,
                     std::vector<std::uint64_t>& b_row) {
  const auto half = static_cast<std::size_t>(k / 2), un = static_cast<std::size_t>(n);
  for (int row = 0; row < m; ++row) {
    columns(row, cols.data());
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t s = 0; s < half; ++s)
        b_row[j * half + s] = b[j * static_cast<std::size_t>(k) + static_cast<std::size_t>(cols[s])];
    const auto r = static_cast<std::size_t>(row);
    kernel.run(a + r * half, b_row.data(), c + r * un, d + r * un);
  }
}

}  // namespace ptxmma
