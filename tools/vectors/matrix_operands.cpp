#include "tools/vectors/matrix_operands.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/error.hpp"

namespace ptxmma {

std::uint64_t value_to_register(const MatrixVariant& v, Operand o, std::uint64_t value) {
  const Type t = v.type(o);
  return in_container(t) ? element_raw(t, v.container, value) : value;
}

std::uint64_t value_from_register(const MatrixVariant& v, Operand o, std::uint64_t bits) {
  const Type t = v.type(o);
  return in_container(t) ? element_code(t, v.container, bits) : bits;
}

std::vector<std::uint32_t> operand_words(const MatrixVariant& v, Operand o, std::span<const std::uint64_t> values) {
  std::vector<std::uint64_t> raws(values.begin(), values.end());
  for (std::uint64_t& x : raws) x = value_to_register(v, o, x);
  return v.codec(o).scatter(raws);
}

std::vector<std::uint64_t> operand_values(const MatrixVariant& v, Operand o, std::span<const std::uint32_t> words) {
  std::vector<std::uint64_t> m = v.codec(o).gather(words);
  for (std::uint64_t& x : m) x = value_from_register(v, o, x);
  return m;
}

ScaleWords scale_words(const MatrixVariant& v, std::span<const std::uint64_t> scale_a, std::span<const std::uint64_t> scale_b) {
  const auto place = [&](const ScaleLayout::Operand& op, std::span<const std::uint64_t> m, int rows, int cols, bool by_row,
                         const char* what) {
    std::vector<std::uint32_t> words(32, 0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const std::uint64_t code = m[static_cast<std::size_t>(r * cols + c)];
        if (code > 0xFF) throw Error(fmt::format("{}[{}][{}] = {:#x} is not a {} code", what, r, c, code, name(*v.stype)));
        const int x = by_row ? r : c, blk = by_row ? c : r;  // x: A's row or B's column; blk: the K-block
        const std::uint8_t at = ScaleLayout::source(op, v.scale_vec, 0, 0, x, blk);
        words[at / 4] |= static_cast<std::uint32_t>(code) << (8 * (at % 4));
      }
    return words;
  };
  return {place(v.scales->a, scale_a, v.shape.m, v.scale_vec, true, "scale_a"),
          place(v.scales->b, scale_b, v.scale_vec, v.shape.n, false, "scale_b")};
}

SparseMetadata::Compressed compress_sparse_a(const MatrixVariant& v, std::span<const std::uint64_t> logical) {
  const int k = v.shape.k, rows = v.metadata->rows, warps = v.shape.m / rows;
  const auto per_warp = static_cast<std::size_t>(rows * k);
  if (warps == 1) return v.metadata->compress(v.pattern, logical, k, 0);
  SparseMetadata::Compressed out{{}, std::vector<std::uint32_t>(static_cast<std::size_t>(32 * warps), 0)};
  out.stored.reserve(logical.size() / 2);
  for (int w = 0; w < warps; ++w) {
    const auto part = v.metadata->compress(v.pattern, logical.subspan(static_cast<std::size_t>(w) * per_warp, per_warp),
                                           k, 0, rows * w);
    out.stored.insert(out.stored.end(), part.stored.begin(), part.stored.end());
    std::copy(part.meta.begin(), part.meta.end(), out.meta.begin() + 32 * w);
  }
  return out;
}

SparseA sparse_a_words(const MatrixVariant& v, std::span<const std::uint64_t> logical) {
  auto sparse = compress_sparse_a(v, logical);
  return {operand_words(v, Operand::a, sparse.stored), std::move(sparse.meta)};
}

std::vector<std::uint64_t> expand_sparse_a(const MatrixVariant& v, std::span<const std::uint64_t> stored,
                                           std::span<const std::uint32_t> meta, int sel, std::vector<int>* columns) {
  const int m = v.shape.m, k = v.shape.k, half = v.a_cols(), rows = v.metadata->rows, warps = m / rows;
  if (stored.size() != static_cast<std::size_t>(m * half) || meta.size() != static_cast<std::size_t>(32 * warps))
    throw Error(fmt::format("{}: a sparse A is {} x {} stored elements with {} metadata words, given {} and {}", v.ptx,
                            m, half, 32 * warps, stored.size(), meta.size()));
  std::vector<std::uint64_t> logical(static_cast<std::size_t>(m * k), 0);
  std::vector<int> cols(static_cast<std::size_t>(half));
  if (columns) columns->clear();
  for (int row = 0; row < m; ++row) {
    const int w = row / rows;  // warp w holds its rows and its own threads' metadata
    try {
      v.metadata->row_columns(v.pattern, v.sparse == Sparsity::ordered, meta.subspan(static_cast<std::size_t>(32 * w), 32),
                              sel, row % rows, cols.data());
    } catch (const Error& e) {
      if (warps == 1) throw;
      throw Error(fmt::format("warp {} of the warpgroup, row {}: {}", w, row, e.what()));
    }
    if (columns) columns->insert(columns->end(), cols.begin(), cols.end());
    for (int s = 0; s < half; ++s)
      logical[static_cast<std::size_t>(row * k + cols[static_cast<std::size_t>(s)])] =
          stored[static_cast<std::size_t>(row * half + s)];
  }
  return logical;
}

}  // namespace ptxmma
