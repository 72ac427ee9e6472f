// wgmma matrix descriptors (docs/wgmma-catalogue.md §3): the 64-bit value that tells
// where an A or B operand lies in shared memory, and the shared address of every element.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/numeric/packing.hpp"
#include "sim/numeric/type.hpp"

namespace ptxmma {

// Bits 63:62 of the descriptor.
enum class Swizzle : std::uint8_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };
std::string_view name(Swizzle s);        // "none", "128B", "64B", "32B"
int swizzle_bytes(Swizzle s);            // 0, 128, 64, 32: the width W of a swizzled row
std::optional<Swizzle> parse_swizzle(std::string_view s);  // "none", "128B"/"128", ...

// The fields of a descriptor (§3.1):
//   13:0  start address >> 4     29:16  leading-dimension byte offset (LBO) >> 4
//   45:32 stride-dimension byte offset (SBO) >> 4     51:49 base offset     63:62 swizzle
//   15:14, 31:30, 48:46, 61:52 reserved (must be 0)
struct MatrixDescriptor {
  std::uint64_t raw = 0;
  std::uint32_t start = 0;  // bytes: (raw & 0x3fff) << 4
  std::uint32_t lbo = 0;    // bytes
  std::uint32_t sbo = 0;    // bytes
  int base_offset = 0;      // 0..7
  Swizzle swizzle = Swizzle::none;

  // Throws Error "matrix descriptor 0x...: reserved bits 48:46 are 0b010 (must be 0)" for any
  // non-zero reserved field.
  static MatrixDescriptor decode(std::uint64_t raw);
  // The sm_100 tcgen05 shared-memory descriptor (PTX ISA §9.7.16.4.1, docs/tcgen05.md §6): the
  // same start, LBO, SBO and base offset; bits 48:46 fixed 0b001; bit 52 the LBO mode (1:
  // sm_103a's absolute LBO, refused); bits 63:61 the swizzle, 0 none, 2 128B, 4 64B, 6 32B (1,
  // 128B with 32-byte atoms, is not simulated; 3, 5, 7 are undefined); 15:14, 31:30, 60:53
  // reserved. Errors name the field.
  static MatrixDescriptor decode_tcgen05(std::uint64_t raw);
  // The descriptor of these fields; Error when an address or offset is not a multiple of 16, is
  // not below 256 KiB (18 bits), or the base offset is outside 0..7.
  static std::uint64_t encode(std::uint32_t start, std::uint32_t lbo, std::uint32_t sbo, int base_offset,
                              Swizzle swizzle);
  // "start 0x400, LBO 128, SBO 256, base offset 0, swizzle none"
  [[nodiscard]] std::string text() const;
};

// The swizzle on the absolute shared address (§3.4, docs/hardware/sm90-paths.md §2): for W = 32/64/128
// (mask 1/3/7), address bits [6:4] are XORed with ((address >> 7) - base_offset) & mask.
std::uint64_t swizzle_address(std::uint64_t linear, Swizzle s, int base_offset);

// K-major: the K index is contiguous (imm-trans 0). MN-major: the M (A) or N (B) index is (imm-trans 1).
enum class Major : std::uint8_t { k, mn };
constexpr std::string_view name(Major m) { return m == Major::k ? "K-major" : "MN-major"; }

// One element of an operand in shared memory: its byte, and for b1 the bit inside that byte
// (element k of a row in byte k/8, bit k%8).
struct SmemSlot {
  std::uint64_t address = 0;
  int bit = 0;
};

// The addressing of one A (64 x K) or B (N x K, indexed (n, k)) operand through a descriptor.
// Element (x, k): x is the row of A (m) or the column of B (n).
//   K-major, none:  lin = S + (x>>3)*SBO + (kb/16)*LBO + (x&7)*16 + kb%16         kb = byte of k in the row
//   K-major, W:     lin = S + (x>>3)*SBO + (x&7)*W + (kb/W)*LBO + kb%W    (kb/W > 0 only for sparse B)
//   MN-major, none: lin = S + (xb/16)*SBO + (k>>3)*LBO + (k&7)*16 + xb%16         xb = x * element bytes
//   MN-major, W:    lin = S + (xb/W)*LBO + (k>>3)*SBO + (k&7)*W + xb%W
// then the swizzle of swizzle_address() on the absolute address.
class OperandAddressing {
 public:
  // Error when the combination cannot be addressed (b1 MN-major, f64). `c`: how FP6/FP4 elements
  // sit in memory (kind::f8f6f4: a byte each).
  OperandAddressing(const MatrixDescriptor& d, Major major, Type t, int rows, int k, Container c = Container::packed);

  [[nodiscard]] std::uint64_t linear(int x, int k) const;  // before the swizzle
  [[nodiscard]] SmemSlot slot(int x, int k) const;
  [[nodiscard]] int element_bits() const { return bits_; }  // 1 (b1), 8, 16 or 32 (tf32)
  [[nodiscard]] int rows() const { return rows_; }
  [[nodiscard]] int k() const { return k_; }
  [[nodiscard]] Major major() const { return major_; }
  [[nodiscard]] const MatrixDescriptor& descriptor() const { return d_; }

  struct Element {
    int x = 0, k = 0;
    int bit = 0;  // b1: the bit of the byte; else 0
    int byte = 0;  // which byte of the element the address is (0 = lowest)
  };
  // The reverse map: the elements that hold the byte at `address` (several for b1; empty if none).
  [[nodiscard]] std::vector<Element> elements_at(std::uint64_t address) const;
  // Lowest and highest byte address the operand reads.
  [[nodiscard]] std::pair<std::uint64_t, std::uint64_t> footprint() const;
  // The address formula with this descriptor's numbers, e.g.
  // "start 0x400 + (x>>3)*256 + (kb/16)*128 + (x&7)*16 + kb%16, no swizzle" (x = m of A / n of B).
  [[nodiscard]] std::string formula() const;
  // When two elements share bits, a sentence naming the first pair; nullopt when none do.
  [[nodiscard]] std::optional<std::string> overlap() const;

 private:
  MatrixDescriptor d_;
  Major major_;
  int bits_;
  int rows_, k_;
};

}  // namespace ptxmma
