// An mma's register operands from whole matrices, for test vectors and Python: values through the
// variant's RegisterCodec (FP6/FP4 given as their format codes, placed in their containers), the
// scale matrices of a block-scaled variant into the scale-data words selectors {0, 0} read
// (configs/mma/block_scale.yaml), and a sparse A given as its logical M x K matrix compressed into
// the stored elements and the metadata words selector 0 reads (every family's sparse A: wgmma's too).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "sim/catalog/matrix_variant.hpp"

namespace ptxmma {

// A matrix value as the registers hold it, and back: the element's register bits (tf32 its b32),
// except FP6/FP4, which are their format's code.
std::uint64_t value_to_register(const MatrixVariant& v, Operand o, std::uint64_t value);
std::uint64_t value_from_register(const MatrixVariant& v, Operand o, std::uint64_t bits);

// The register words of operand o from its matrix (codec rows x cols, row-major), and back.
std::vector<std::uint32_t> operand_words(const MatrixVariant& v, Operand o, std::span<const std::uint64_t> values);
std::vector<std::uint64_t> operand_values(const MatrixVariant& v, Operand o, std::span<const std::uint32_t> words);

// Block-scaled: scale_a (M x V) and scale_b (V x N) scale codes in the 32 lanes' scale-a-data /
// scale-b-data words, where selectors {0, 0} read them. Error naming the matrix for a code that
// is not a byte.
struct ScaleWords {
  std::vector<std::uint32_t> a, b;
};
ScaleWords scale_words(const MatrixVariant& v, std::span<const std::uint64_t> scale_a, std::span<const std::uint64_t> scale_b);

// Sparse A, for every family: the logical M x K compressed as selector 0 reads it, warp by warp
// (a warp's rows, all M for mma and 16 for each of wgmma's four warps, into its own 32 threads'
// metadata words): M x K/2 stored values and 32 metadata words per warp. Error naming the row and
// columns where a chunk has too many nonzeros.
SparseMetadata::Compressed compress_sparse_a(const MatrixVariant& v, std::span<const std::uint64_t> logical);
// An mma's compressed A as its register words and the 32 metadata words.
struct SparseA {
  std::vector<std::uint32_t> a, meta;
};
SparseA sparse_a_words(const MatrixVariant& v, std::span<const std::uint64_t> logical);
// The way back: the logical M x K A of the stored values (M x K/2) under the metadata words and
// selector `sel`, each at the column its warp's metadata names, zeros elsewhere; `columns` (if
// given) gets those columns, M x K/2. Error for undefined metadata.
std::vector<std::uint64_t> expand_sparse_a(const MatrixVariant& v, std::span<const std::uint64_t> stored,
                                           std::span<const std::uint32_t> meta, int sel,
                                           std::vector<int>* columns = nullptr);

}  // namespace ptxmma
