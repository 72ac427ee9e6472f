// Internal to the interpreter: the execution context a semantic function sees, and the tables
// each family file adds its rows to (sim/exec/sem_*.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "isa/ptx_program.hpp"
#include "sim/exec/async_copy.hpp"
#include "sim/exec/interpreter.hpp"
#include "sim/exec/mma.hpp"

namespace ptxmma::exec {

class Exec {
 public:
  Exec(Machine& machine, std::uint32_t path, int warp, int cta_index)
      : m(machine), p(machine.program()), cta(machine.cta(cta_index)), cta_index(cta_index),
        base(warp * Machine::kLanes), path_mask(path) {}

  Machine& m;
  const ptx::Program& p;
  Cta& cta;                              // the warp's CTA: its registers and shared memory
  int cta_index;                         // the c-th CTA run
  int base;                              // the warp's first thread in the CTA's registers; lanes are 0..31
  std::uint32_t path_mask;               // lanes on this path (before the guard): "active" lanes
  std::uint32_t live_mask = 0xffffffffU; // lanes launched and not exited
  const MmaExecutor* mma = nullptr;      // the prepared executor of an mma instruction
  AsyncCopies* copies = nullptr;         // the CTA's cp.async in flight
  bool race_reported = false;            // a shared-memory race of this instruction was reported

  // A shared-memory access of [addr, addr + n) in a lane: reported (once an instruction) when a
  // cp.async in flight writes any of those bytes.
  void shared_access(const ptx::Instruction& ins, int lane, std::uint64_t addr, std::uint64_t n, bool write);

  // The bits of a source operand in a lane: a register (its full width), an immediate (already
  // in the instruction's type), a special register, or a symbol's address.
  [[nodiscard]] std::uint64_t read(const ptx::Operand& op, int lane) const;
  // Writes a register (masked to its width); '_' is ignored.
  void write(const ptx::Operand& op, int lane, std::uint64_t v);
  // Writes a value of type `t` into a register that may be wider: sign-extended for signed
  // integer types, zero-extended otherwise.
  void write_ext(const ptx::Operand& op, int lane, std::uint64_t v, ptx::PtxType t);
  // [base + offset] in a lane.
  [[nodiscard]] std::uint64_t address(const ptx::Operand& op, int lane) const;
  [[nodiscard]] int reg_bits(const ptx::Operand& op) const { return m.reg_bits(op.reg); }
};

template <class F>
void for_lanes(std::uint32_t lanes, F&& f) {
  for (int lane = 0; lane < Machine::kLanes; ++lane)
    if ((lanes >> lane) & 1U) f(lane);
}

std::string lane_list(std::uint32_t mask);  // "0-3, 8"

using SemanticFn = void (*)(Exec& x, const ptx::Instruction& ins, std::uint32_t lanes);

struct SemanticSpec {
  std::string_view opcode;
  SemanticFn fn;
};

void register_integer(std::vector<SemanticSpec>& t);  // sem_integer.cpp: int arithmetic, logic, mov, setp, selp;
                                                       // their float forms call float_arith (sem_float.cpp)
void register_convert(std::vector<SemanticSpec>& t);  // sem_convert.cpp: cvt, cvta
void register_memory(std::vector<SemanticSpec>& t);   // sem_memory.cpp: ld, st, ldmatrix, stmatrix, movmatrix
void register_warp(std::vector<SemanticSpec>& t);     // sem_warp.cpp: mma, wgmma fences, shfl, vote, bar, fences
void register_special(std::vector<SemanticSpec>& t);  // sem_special.cpp: ex2, rsqrt, tanh, lg2 (.approx)

// Float arithmetic of one instruction on one lane (sem_float.cpp), for the shared opcodes.
std::uint64_t float_arith(const ptx::Instruction& ins, std::uint64_t a, std::uint64_t b, std::uint64_t c);
// An add/sub that ptxas fused with a multiply (isa/contraction.hpp): x and y the producer's
// sources, `other` the add's other operand.
std::uint64_t contracted(const ptx::Contraction& f, std::uint64_t x, std::uint64_t y, std::uint64_t other);
// setp and set on float types: the comparison of elements a and b of type t.
bool float_compare(const ptx::Instruction& ins, ptx::PtxType t, std::uint64_t a, std::uint64_t b);
// slct with an .f32 selector c: whether it picks a.
bool slct_select_a(const ptx::Instruction& ins, std::uint64_t c);
// testp of a.
bool float_test(const ptx::Instruction& ins, std::uint64_t a);

}  // namespace ptxmma::exec
