// Prepared ALU instructions: integer arithmetic and logic, shifts, mov (and its pack and unpack
// of two halves), setp and selp on integer types, cvt between integer types, and the f32 add, sub, mul and fma in .rn, whose operands are registers and immediates.
// Each is prepared once, before the run: its registers resolved to numbers, its immediates
// spread over the 32 lanes, its semantics chosen as one function per operation and type. That
// function runs the 32 lanes of a warp in one loop the compiler vectorises, over the register
// file's words (a warp's 32 words of one register are adjacent: sim/state/register_file.hpp),
// and writes the executing lanes' results by blending them with the words of the others. Bit for
// bit what the semantic functions of sem_integer.cpp and sem_float.cpp compute for those forms;
// every other form, and every instruction with a special register, a vector or a contraction,
// runs through them (docs/ptx-interpreter.md, "Dispatch").
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "isa/ptx_program.hpp"
#include "sim/state/register_file.hpp"

namespace ptxmma::exec {

struct WarpAlu {
  static constexpr int kLanes = 32;
  using Lanes = std::array<std::uint64_t, kLanes>;
  // Runs the lanes set in `lanes` of the warp whose first thread is `base`.
  using Fn = void (*)(const WarpAlu& p, RegisterFile& regs, int base, std::uint32_t lanes);

  Fn fn = nullptr;             // null: the instruction is not one of these forms
  int dst = -1, dst2 = -1;     // registers written; dst2: setp's second predicate (-1: none)
  std::array<int, 3> src{};    // registers read (a, b, c); -1: the immediate in imm
  std::array<Lanes, 3> imm{};  // an immediate source in every lane
  std::uint64_t type_mask = 0; // the low `width` bits
  std::uint64_t keep = 0;      // the bits of a result that are written (the type's and the register's width)
  std::uint64_t keep2 = 0;     // the same for dst2
  int width = 0;               // bits of the instruction's type (cvt: of the source type)
  int width2 = 0;              // cvt: bits of the destination type
  bool negate_c = false;       // setp's and selp's predicate c is !%p

  // Source k's words of the 32 lanes: the register's, or the immediate's.
  [[nodiscard]] const std::uint64_t* source(int k, const RegisterFile& regs, int base) const {
    const int r = src[static_cast<std::size_t>(k)];
    return r >= 0 ? regs.words(r) + base : imm[static_cast<std::size_t>(k)].data();
  }
};

// The prepared form of `ins`, or one with fn null when it runs through the semantic functions.
// `widths`: bits of each register (Program::registers order).
WarpAlu prepare_warp_alu(const ptx::Instruction& ins, const std::vector<int>& widths);

// ~0 for each lane whose bit is set in a byte of a lane mask, else 0.
inline constexpr auto kByteMasks = [] {
  std::array<std::array<std::uint64_t, 8>, 256> t{};
  for (std::size_t b = 0; b < 256; ++b)
    for (std::size_t i = 0; i < 8; ++i) t[b][i] = (b >> i) & 1 ? ~0ULL : 0;
  return t;
}();

// The words of all 32 lanes set to ~0 where `lanes` has the lane's bit, else 0.
inline void lane_masks(std::uint32_t lanes, WarpAlu::Lanes& out) {
  for (std::size_t k = 0; k < 4; ++k) std::memcpy(out.data() + 8 * k, kByteMasks[(lanes >> (8 * k)) & 0xff].data(), 64);
}

}  // namespace ptxmma::exec
