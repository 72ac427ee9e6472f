// Internal to the interpreter: the execution context a semantic function sees, and the tables
// each family file adds its rows to (sim/exec/sem_*.cpp).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/ptx_program.hpp"
#include "sim/exec/async_copy.hpp"
#include "sim/exec/bulk_copy.hpp"
#include "sim/exec/mbarrier.hpp"
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
  BulkCopies* bulk = nullptr;            // the CTA's bulk copies in flight
  bool race_reported = false;            // a shared-memory race of this instruction was reported
  MbarrierActivity* mbar = nullptr;      // the CTA's mbarrier counters
  Tcgen05InFlight* umma = nullptr;       // the CTA's tcgen05.mma in flight
  bool park = false;                     // set by a wait whose phase is incomplete: the warp yields
  std::uint64_t park_addr = 0;           // the shared offset of that mbarrier
  bool park_alloc = false;               // set with park by a tcgen05.alloc that finds no free columns
  int pc = -1;                           // the instruction's index in Program::code

  RaceShadow* race = nullptr;            // racecheck's record of the CTA's shared memory (several warps)
  std::uint32_t epoch = 0;               // the CTA's synchronisation epoch (Machine::sync_epoch)

  // The kernel checks of an access of [addr, addr + n) of `mem` in a lane (docs/kernel-checks.md),
  // each reported once an instruction: when `mem` is the shared memory of a CTA of the cluster
  // (this one or another), a cp.async or a bulk copy in flight that writes any of those bytes;
  // initcheck: a read (an atomic reads too) of shared or local bytes nobody wrote; racecheck: an
  // access of this CTA's shared memory that another warp wrote (or, for a write, read) with no
  // synchronisation since (atomics are not recorded).
  void shared_access(const ptx::Instruction& ins, int lane, const Memory* mem, std::uint64_t addr, std::uint64_t n,
                     bool write, bool atomic = false);
  bool copies_in_flight(const ptx::Instruction& ins, int lane, const Memory* mem, std::uint64_t addr, std::uint64_t n,
                        bool write);
  // racecheck of the async proxy's read of this CTA's shared [addr, addr + n) (a bulk copy's
  // source): a byte written through the generic proxy with no fence.proxy.async since.
  void async_proxy_read(const ptx::Instruction& ins, int lane, std::uint64_t addr, std::uint64_t n);

  // The bits of a source operand in a lane: a register (its full width), an immediate (already
  // in the instruction's type), a special register, or a symbol's address.
  // Registers and immediates inline: every instruction reads and writes its operands lane by lane.
  [[nodiscard]] std::uint64_t read(const ptx::Operand& op, int lane) const {
    if (op.kind == ptx::Operand::Kind::reg) return cta.regs.get(base + lane, op.reg);
    if (op.kind == ptx::Operand::Kind::imm) return op.value;
    return read_other(op, lane);
  }
  // Writes a register (masked to its width); '_' is ignored.
  void write(const ptx::Operand& op, int lane, std::uint64_t v) {
    if (op.kind == ptx::Operand::Kind::reg)
      cta.regs.set(base + lane, op.reg, v);
    else
      write_other(op);
  }
  // Writes a value of type `t` into a register that may be wider: sign-extended for signed
  // integer types, zero-extended otherwise.
  void write_ext(const ptx::Operand& op, int lane, std::uint64_t v, ptx::PtxType t);
  // [base + offset] in a lane.
  [[nodiscard]] std::uint64_t address(const ptx::Operand& op, int lane) const;
  [[nodiscard]] int reg_bits(const ptx::Operand& op) const { return m.reg_bits(op.reg); }

 private:
  [[nodiscard]] std::uint64_t read_other(const ptx::Operand& op, int lane) const;  // special, symbol
  void write_other(const ptx::Operand& op) const;                                  // '_', or an Error
};

template <class F>
void for_lanes(std::uint32_t lanes, F&& f) {
  for (int lane = 0; lane < Machine::kLanes; ++lane)
    if ((lanes >> lane) & 1U) f(lane);
}

std::string lane_list(std::uint32_t mask);  // "0-3, 8"

// The memory of an access of `bytes` at an address in state space `s` by a lane, and the address
// within it: .local and call parameters (param addresses from Program::kCallParamBase) are the
// lane's frame in the CTA's local memory; a generic address in the shared window is the CTA's
// shared memory, in the local window the lane's .local variables, any other one global memory
// (sem_memory.cpp).
std::pair<Memory*, std::uint64_t> resolve(Exec& x, ptx::Space s, std::uint64_t addr, int lane, std::uint64_t bytes);
// Error "lane L: address A is not aligned to the N-byte access".
void check_aligned(int lane, std::uint64_t addr, std::uint64_t bytes);

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
void register_mbarrier(std::vector<SemanticSpec>& t); // sem_mbarrier.cpp: mbarrier.*
void register_atomic(std::vector<SemanticSpec>& t);   // sem_atomic.cpp: atom, red
void register_cluster(std::vector<SemanticSpec>& t);  // sem_cluster.cpp: mapa, getctarank
void register_tcgen05(std::vector<SemanticSpec>& t);  // sem_tcgen05.cpp: tensor memory (sm_100a)
void register_tensormap(std::vector<SemanticSpec>& t); // sem_tensormap.cpp: tensormap.replace, .cp_fenceproxy

// A .shared::cluster address (Machine::kClusterRankShift) in a lane: the CTA (c-th run) whose
// shared memory it is, and the offset in it; Error for a rank outside the cluster or a CTA that
// has exited (sem_cluster.cpp).
struct ClusterAddress {
  int cta;
  std::uint64_t offset;
};
ClusterAddress cluster_address(Exec& x, std::uint64_t addr, int lane);
// barrier.cluster.arrive / wait (sem_cluster.cpp), for bar's semantic function (sem_warp.cpp).
void cluster_barrier(Exec& x, const ptx::Instruction& ins, std::uint32_t lanes);
// wmma.load / wmma.store (sem_memory.cpp), for the wmma row of sem_warp.cpp.
void wmma_transfer(Exec& x, const ptx::Instruction& ins, std::uint32_t lanes);
// One arrive-on (count 1) by `lane` on the mbarrier at `op` in `space` (.shared, .shared::cluster
// or generic; another CTA's of the cluster too): tcgen05.commit (sem_mbarrier.cpp). Returns the
// mbarrier's CTA (c-th run), offset and the parity of its phase before the arrive.
struct MbarrierRef {
  int cta = 0;
  std::uint64_t at = 0;
  bool parity = false;
};
MbarrierRef mbarrier_arrive_one(Exec& x, ptx::Space space, const ptx::Operand& op, int lane);
// cp.async.mbarrier.arrive (sem_mbarrier.cpp), for cp's semantic function (sem_memory.cpp).
void cp_async_mbarrier_arrive(Exec& x, const ptx::Instruction& ins, std::uint32_t lanes);

// bar.red (sem_warp.cpp): the reduction (.popc count, .and, .or of the predicate c) over the
// lanes of the warps that meet at the barrier, written to every one's destination.
struct BarrierArrival {
  int warp;                        // the w-th warp run
  const ptx::Instruction& ins;     // its bar.red
  std::uint32_t lanes;             // its lanes that take part (path and guard)
};
void bar_reduce(Machine& m, int cta, std::span<const BarrierArrival> warps);

// Calls (sem_call.cpp). A function declared but not defined runs as one of these, if CUDA
// provides it: vprintf (device printf) or __assertfail (assert).
enum class Builtin : std::uint8_t { none, vprintf, assertfail };
Builtin builtin_named(std::string_view name);
// A located error if the declaration of b's function does not have its parameters.
void check_builtin(const ptx::Program& p, const ptx::Instruction& call, Builtin b);
void run_builtin(Exec& x, const ptx::Instruction& call, std::uint32_t lanes, Builtin b);
// Copies, in each lane, the call site's argument variables into the callee's parameters
// (`params`: Program::call_params indices), and the callee's return parameters back.
void copy_params(Exec& x, const ptx::Operand& args, const std::vector<int>& params, std::uint32_t lanes);
void copy_returns(Exec& x, const ptx::Operand& rets, const std::vector<int>& returns, std::uint32_t lanes);

// The operation `op` on elements of type t, the old value and b (c: cas's new value): integers
// wrap, floating-point adds round to nearest even (`ftz`: subnormal inputs and results flushed),
// min/max of f16 and bf16 as min/max.t (sem_atomic.cpp).
std::uint64_t reduce_operate(ptx::AtomOp op, ptx::PtxType t, bool ftz, std::uint64_t old, std::uint64_t b,
                             std::uint64_t c);
// atom/red's operation (its AtomOp in d.mode, type in d.type) on the old value and b (c: cas's
// new value); `global`: on global memory (f32 adds flush there).
std::uint64_t atomic_operate(const ptx::Instruction& ins, bool global, std::uint64_t old, std::uint64_t b,
                             std::uint64_t c);
// The bulk-copy unit (sem_bulk.cpp): cp.async.bulk*, cp.reduce.async.bulk, for cp's semantic
// function; write_bulk_store writes a completed copy to global memory (the end of a CTA too).
void cp_async_bulk(Exec& x, const ptx::Instruction& ins, std::uint32_t lanes);
void write_bulk_store(const ptx::Program& p, Memory& global, const BulkCopies::Store& s);
// Completes the bulk copies into shared memory in flight on the mbarrier at shared offset `mbar`
// (their bytes land, then complete_tx of their sizes); an mbarrier wait that needs them calls it.
void complete_bulk_loads(Exec& x, std::uint64_t mbar);

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
