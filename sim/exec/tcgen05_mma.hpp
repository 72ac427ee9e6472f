// Executes tcgen05.mma .cta_group::1 .kind::f16 / tf32 / f8f6f4 / i8 (docs/tcgen05.md §6): A and B from
// shared memory through sm_100 matrix descriptors (MatrixDescriptor::decode_tcgen05, the canonical
// layouts wgmma uses), M, N, types, negation and majorness from the instruction descriptor
// (InstrDescriptor), the accumulator D in tensor memory, the products through the model of
// configs/models/<arch>.yaml for the kind (tcgen05_f16, _tf32, _f8f6f4: published only; _i8 assumed).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/exec/instr_descriptor.hpp"
#include "sim/model/model.hpp"
#include "sim/model/tile.hpp"
#include "sim/state/memory.hpp"
#include "sim/state/tensor_memory.hpp"

namespace ptxmma {

class Tcgen05Mma {
 public:
  Tcgen05Mma(const ModelSet& models, Tcgen05Kind kind) : models_(models), kind_(kind) {}

  struct Inputs {
    std::uint32_t d_taddr = 0;
    std::uint64_t desc_a = 0, desc_b = 0;
    bool a_in_tmem = false;  // A from tensor memory at a_taddr ([a-tmem]) rather than through desc_a
    std::uint32_t a_taddr = 0;
    std::uint32_t idesc = 0;
    bool accumulate = true;  // enable-input-d: D = A*B + D; false: D = A*B
    // disable-output-lane: bit l % 32 of word l / 32 set leaves TMEM lane l of D unwritten.
    std::array<std::uint32_t, 4> disabled{};
    int scale_d = 0;  // scale-input-d: D = A*B + D * 2^-scale_d (an exact scaling of D, assumed)
  };
  // What one MMA wrote: D's lanes and columns (inclusive), and the first cell of D it read
  // before anything wrote it (lane << 16 | column), or -1.
  struct Footprint {
    int lane0 = 0, lane1 = 0, col0 = 0, col1 = 0;
    std::int64_t undefined = -1;
  };
  // One MMA on the CTA's shared and tensor memory. Errors: a bad descriptor, D's lanes or columns
  // outside tensor memory or not allocated, an operand outside shared memory, a D that
  // scale-input-d cannot scale exactly.
  Footprint run(const Memory& shared, TensorMemory& tm, const Inputs& in);

  // D's row m: its TMEM lane relative to the address (M = 128: m; M = 64: the first 16 lanes of
  // each warp's quarter, PTX ISA "Layout F").
  static int d_lane(int m_rows, int m) { return m_rows == 128 ? m : m % 16 + 32 * (m / 16); }

 private:
  // The tile of one instruction descriptor: its kernel and operand scratch, kept for the next
  // MMA with the same descriptor (the first one allocates).
  struct Tile {
    InstrDescriptor id;
    TileKernel kernel;
    std::vector<std::uint64_t> a, b, c, d;
  };
  Tile& tile(std::uint32_t idesc);
  const ModelSet& models_;
  Tcgen05Kind kind_;
  std::vector<std::unique_ptr<Tile>> tiles_;
};

}  // namespace ptxmma
