// The PTX interpreter: runs a parsed Program (isa/ptx_program.hpp) on one warp, lane by lane,
// with an active mask.
//
// SIMT model: a reconvergence stack (the classic immediate-post-dominator scheme). Each entry
// holds a PC, a reconvergence PC and a lane mask; the top entry executes. A branch whose lanes
// disagree replaces the top entry's PC by the branch's immediate post-dominator and pushes the
// fall-through and the taken paths, each to run until it reaches that post-dominator, where the
// entry pops and the lanes join again. Post-dominators come from the control-flow graph of the
// program (iterative dataflow, no recursion). ret/exit retire lanes from every entry.
//
// Dispatch: a table of (opcode, semantic function) rows, parallel to the decoder table of
// isa/ptx_opcodes.hpp; each instruction's function is looked up once, before the run. A program
// whose opcode has no semantic function is refused before anything runs.
#pragma once
#include <array>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/ptx_program.hpp"
#include "sim/state/memory.hpp"
#include "sim/state/warp.hpp"

namespace ptxmma {

struct InterpreterOptions {
  std::uint64_t max_steps = 1'000'000;  // instructions per lane before the run is stopped
  std::string arch = "sm_90a";          // rounding models of mma: configs/models/<arch>.yaml
  std::uint64_t shared_bytes = 0;       // shared memory size; 0: the program's static size + dynamic_shared,
                                        // at least Machine::kDefaultShared
  std::uint64_t dynamic_shared = 0;     // bytes for .extern .shared arrays
  std::array<int, 3> ntid = {0, 0, 0};  // block size; 0: .reqntid/.maxntid, else (32, 1, 1)
  int warpid = 0;                       // which warp of the block this one is (%warpid, %tid)
  std::array<int, 3> ctaid = {0, 0, 0};
  std::array<int, 3> nctaid = {1, 1, 1};
  std::ostream* trace = nullptr;        // one line per executed instruction, when set
};

// Where a lane's run ended.
struct RunSummary {
  std::uint64_t warp_instructions = 0;        // instructions issued (any lane active)
  std::array<std::uint64_t, 32> steps{};      // instructions per lane
  std::uint32_t exited = 0;                   // lanes that executed ret/exit (the others fell off the end)
};

class Machine {
 public:
  static constexpr int kLanes = 32;
  // Shared-memory window of generic addresses (cvta.shared / generic ld and st).
  static constexpr std::uint64_t kSharedWindow = 0x00007e0000000000ULL;
  // Shared memory when neither the program nor the options ask for more: 48 KiB, the static
  // limit of a CTA.
  static constexpr std::uint64_t kDefaultShared = 48 * 1024;

  // Sets up the registers (zero), shared memory (zero; .global/.const initializers) and the
  // parameter space; Error if a rounding model or an opcode's semantics are missing.
  Machine(const ptx::Program& program, InterpreterOptions options = {});

  [[nodiscard]] const ptx::Program& program() const { return prog_; }
  [[nodiscard]] const InterpreterOptions& options() const { return opts_; }

  // Registers by index in program().registers; values masked to the declared width.
  [[nodiscard]] std::uint64_t reg(int lane, int r) const { return regs_[static_cast<std::size_t>(r)][static_cast<std::size_t>(lane)]; }
  void set_reg(int lane, int r, std::uint64_t v);
  [[nodiscard]] int reg_bits(int r) const { return widths_[static_cast<std::size_t>(r)]; }

  Memory shared, global, param, constant;

  // Runs to the end. Runtime errors (a step limit, an out-of-range address, an mma with lanes
  // inactive...) are thrown as ptx::PtxError located at the instruction.
  RunSummary run();

  // The register file as a Warp (declared-order named registers; .b8/.b16 as b16, .pred as pred).
  [[nodiscard]] Warp to_warp() const;

  // Special registers of a lane.
  [[nodiscard]] std::uint32_t special(ptx::Special s, int lane) const;

 private:
  const ptx::Program& prog_;
  InterpreterOptions opts_;
  std::vector<std::array<std::uint64_t, kLanes>> regs_;
  std::vector<int> widths_;
  std::array<int, 3> ntid_{};
  struct Prepared;
  std::shared_ptr<const Prepared> prep_;
};

}  // namespace ptxmma
