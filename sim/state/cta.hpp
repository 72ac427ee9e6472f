// One CTA (thread block) of a grid: where it is, its shared memory, tensor memory and the registers of its
// threads (thread = 32 * warp + lane, warps counted from the first one run). Its warps' control
// state (reconvergence stacks, waits, asynchronous operations) is the interpreter's
// (sim/exec/interpreter.hpp), kept beside it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/state/grid.hpp"
#include "sim/state/memory.hpp"
#include "sim/state/register_file.hpp"
#include "sim/state/tensor_memory.hpp"

namespace ptxmma {

struct Cta {
  Dim3 id = {0, 0, 0};     // %ctaid
  std::uint64_t rank = 0;  // linear index in the grid (GridShape::rank)
  Memory shared;
  RegisterFile regs;
  TensorMemory tmem;  // tcgen05 (sm_100a): its cells are made at the first allocation
  // Each thread's .local variables and call parameters (Machine::frame_bytes() a thread), made
  // while the CTA runs.
  Memory local = Memory::dense("local", 0);

  // "CTA (1, 0, 0)", for messages and listings.
  [[nodiscard]] std::string name() const {
    return "CTA (" + std::to_string(id[0]) + ", " + std::to_string(id[1]) + ", " + std::to_string(id[2]) + ")";
  }
};

}  // namespace ptxmma
