// Executes one warpgroup-level wgmma.mma_async: reads A (through a matrix descriptor from shared
// memory, or from the threads' registers through the A layout) and B (through its descriptor),
// applies imm-scale and imm-trans, runs the model's TileKernel over the 64 x N tile (sparse: row
// by row, on the columns of B the metadata selects) with C (or +0 when scale-d is false) and scatters D through the accumulator layout.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/catalog/wgmma_family.hpp"
#include "sim/exec/descriptor.hpp"
#include "sim/model/dot.hpp"
#include "sim/model/model.hpp"
#include "sim/model/tile.hpp"
#include "sim/state/warpgroup.hpp"

namespace ptxmma {

// The inputs of one execution. Words are thread-major: words[thread * per_thread + register].
struct WgmmaInputs {
  std::span<const std::uint8_t> shared;  // the CTA's shared memory from address 0 (SharedMemory::bytes())
  std::uint64_t desc_a = 0;             // A from a descriptor
  std::span<const std::uint32_t> a;     // A from registers: 128 threads x 4 words
  std::uint64_t desc_b = 0;
  bool scale_d = true;                  // false: D = A*B, C is not read
  std::span<const std::uint32_t> c;     // 128 threads x d_regs words (the accumulator before)
  std::span<const std::uint32_t> meta;  // wgmma.mma_async.sp: every thread's sp-meta word
  int selector = 0;                     // wgmma.mma_async.sp: sp-sel
};

class WgmmaExecutor {
 public:
  // Error when the operands are illegal for the variant (MatrixVariant::check).
  WgmmaExecutor(const MatrixVariant& v, const Model& m, WgmmaOperands o);

  // d: 128 threads x d_regs words. Errors: a bad descriptor, an element outside shared memory
  // (naming the operand, element and descriptor), wrong word counts, undefined sparse metadata.
  // Runs the model's tile kernel on scratch space of its own: one executor per thread. A sparse
  // variant is, per row of D, a dense dot of the row's K/2 stored A elements with the B rows its
  // warp's metadata selects (as mma.sp on an H100, docs/hardware/mma-sp-sm90.md).
  void run(const WgmmaInputs& in, std::span<std::uint32_t> d) const;
  // One output element with its steps (explain).
  std::uint64_t explain(const WgmmaInputs& in, int row, int col, DotTrace& trace) const;

  // A and B as element codes after imm-scale: a[m * K + k] (64 x K; sparse: 64 x K/2 stored),
  // b[n * K + k] (N x K).
  struct Operands {
    std::vector<std::uint64_t> a, b;
  };
  [[nodiscard]] Operands fetch(const WgmmaInputs& in) const;
  // How A (rows = 64) and B (rows = N) are addressed through descriptors (with imm-trans).
  [[nodiscard]] OperandAddressing a_addressing(std::uint64_t desc) const;
  [[nodiscard]] OperandAddressing b_addressing(std::uint64_t desc) const;

  [[nodiscard]] const MatrixVariant& variant() const { return v_; }
  [[nodiscard]] const WgmmaOperands& operands() const { return o_; }
  [[nodiscard]] const Model& model() const { return m_; }

 private:
  // The shared-memory bytes of every element of an operand under one descriptor, kept for the
  // next execution with the same descriptor.
  struct Addresses {
    std::optional<std::uint64_t> desc;
    std::vector<std::uint64_t> address;  // x * K + k
    std::vector<std::uint8_t> bit;       // b1: the bit in the byte
    std::uint64_t lo = 0, hi = 0;        // footprint [lo, hi)
  };
  void fetch_into(const WgmmaInputs& in, Operands& ops) const;
  void read_operand(std::span<const std::uint8_t> smem, std::uint64_t desc, bool is_a, Addresses& at,
                    std::vector<std::uint64_t>& out) const;
  DotRequest request(const Operands& ops, const WgmmaInputs& in, int row, int col, std::uint64_t* b_row) const;
  // Sparse: the logical K of each stored element of `row` (K/2 of them), from its warp's metadata.
  void sparse_columns(const WgmmaInputs& in, int row, int* cols) const;
  const MatrixVariant& v_;
  const Model& m_;
  WgmmaOperands o_;
  std::vector<std::uint32_t> d_word_, d_shift_;  // D element (row * N + col): its word and bit offset
  mutable TileKernel kernel_;
  mutable Operands ops_;
  mutable Addresses a_at_, b_at_;
  mutable std::vector<std::uint64_t> c_codes_, d_codes_;
  mutable std::vector<int> columns_;  // sparse: the logical K of each stored A element, row by row
};

// The registers a wgmma instruction names.
struct WgmmaRegisters {
  std::vector<std::string> d;  // accumulators (.b32 / .f32 registers), N/2 or N/4 of them
  std::vector<std::string> a;  // register form: 4 .b32 registers
  std::string a_desc;          // descriptor form: a .b64 register
  std::string b_desc;          // a .b64 register
  std::string scale_d;         // a predicate register; empty: scale_d_value
  bool scale_d_value = true;
  std::string sp_meta;         // wgmma.mma_async.sp: a .b32 register
  int sp_sel = 0;
};

// Executes on a warpgroup's named registers and shared memory. Errors: threads inactive,
// wrong register counts or kinds, descriptors or scale-d that differ between threads.
void execute_wgmma(Warpgroup& wg, const WgmmaExecutor& x, const WgmmaRegisters& regs);

}  // namespace ptxmma
