// Internal to isa/: the decoder families add their rows to the opcode table.
#pragma once
#include <vector>

#include "isa/ptx_opcodes.hpp"

namespace ptxmma::ptx::decode {

void register_alu(std::vector<OpcodeSpec>& table);      // ptx_decode_alu.cpp
void register_memory(std::vector<OpcodeSpec>& table);   // ptx_decode_mem.cpp
void register_warp(std::vector<OpcodeSpec>& table);     // ptx_decode_warp.cpp: mma, shfl, bar, fences, wgmma, control
void register_special(std::vector<OpcodeSpec>& table);  // ptx_decode_special.cpp: ex2, rsqrt, tanh (lg2, sin, cos refused)
void register_mbarrier(std::vector<OpcodeSpec>& table);  // ptx_decode_mbarrier.cpp
void register_atomic(std::vector<OpcodeSpec>& table);    // ptx_decode_atomic.cpp: atom, red
void register_tcgen05(std::vector<OpcodeSpec>& table);   // ptx_decode_tcgen05.cpp: tensor memory (sm_100a)
void register_tensormap(std::vector<OpcodeSpec>& table); // ptx_decode_tensormap.cpp: tensormap.replace, .cp_fenceproxy

// wmma.load / wmma.store (ptx_decode_mem.cpp), for the wmma row of ptx_decode_warp.cpp.
void dec_wmma_transfer(Instruction& ins, const DecodeContext& cx);

}  // namespace ptxmma::ptx::decode
