// A wgmma's operands as whole matrices, for test vectors, the golden-set conversion and Python:
// A (64 x K; sparse: its logical 64 x K, compressed warp by warp with the metadata selector 0
// reads) and B (K x N) placed in shared memory through their descriptors' addressing
// (sim/exec/descriptor), A in registers through the A codec, the default layout of a swizzle
// mode, and the way back: the matrices a shared-memory image, registers and metadata hold.
// Values are the elements' bits as shared memory and registers hold them (tf32 its 32-bit word,
// b1 one bit).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/catalog/wgmma_family.hpp"
#include "sim/exec/descriptor.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/state/warpgroup.hpp"

namespace ptxmma {

// The descriptor of the tile a compiler lays out for one instruction's operand (rows x K,
// indexed (x, k): x the row of A or the column of B) from `start` (1024-byte aligned):
//   K-major, no swizzle: 8-row x 16-byte core matrices, the K ones side by side (LBO 128), the
//     next 8 rows after them (SBO = bytes of a row / 16 x 128);
//   K-major, 32/64/128B: rows of W bytes (the instruction's K in the first bytes), 8 rows an
//     atom (SBO = 8W), LBO 16 (unused) or, where a row is wider than W (sparse B under 32B),
//     the next W bytes of K after all rows (LBO = rows / 8 x SBO);
//   MN-major (imm-trans 1), no swizzle: 16 bytes of M/N by 8 K rows a core matrix, the M/N ones
//     side by side (SBO 128), the next 8 K rows after them (LBO = rows x bytes / 16 x 128);
//   MN-major, W: W bytes of M/N per K row, 8 K rows an atom (SBO = 8W), the next W bytes of M/N
//     after all K rows (LBO = K x W).
std::uint64_t default_descriptor(const OperandAddressing& shape, Swizzle s, std::uint32_t start);

// A and B of an executor's instruction laid out by default_descriptor (K-major, or MN-major
// under imm-trans): A from shared byte 0 (register A: nothing), B from the first 1024-byte
// boundary after A.
struct WgmmaPlacement {
  std::uint64_t desc_a = 0, desc_b = 0;
};
WgmmaPlacement default_placement(const WgmmaExecutor& x, Swizzle s);

// Shared-memory bytes written element by element: a byte (b1: a bit) takes one value however
// many elements share it. Error naming both elements when two elements of different values share
// a byte, or naming the element when it lies outside `limit` bytes.
class SharedImage {
 public:
  explicit SharedImage(std::uint64_t limit = SharedMemory::kDefaultBytes) : limit_(limit) {}
  // values[x * K + k] of an x-by-K operand (A: x = m; B: x = n), `op` "A" or "B" in messages.
  void place(const OperandAddressing& at, std::span<const std::uint64_t> values, const char* op);
  void write_to(SharedMemory& smem) const;
  [[nodiscard]] std::uint64_t limit() const { return limit_; }

 private:
  struct Owner {
    char op = 0;
    int x = 0, k = 0;
  };
  std::uint64_t limit_;
  std::uint64_t lo_ = 0;
  std::vector<std::uint8_t> bytes_, written_;  // written_: the bits of each byte an element set
  std::vector<Owner> owner_;                   // the first element written to each byte
};

// The x-by-K values an operand's elements hold in shared memory (out[x * K + k]).
std::vector<std::uint64_t> read_shared_operand(const SharedMemory& smem, const OperandAddressing& at);

// A matrix given row-major rows x cols, transposed (B's K x N <-> the addressing's N x K).
std::vector<std::uint64_t> transpose(std::span<const std::uint64_t> m, int rows, int cols);

}  // namespace ptxmma
