#include "isa/ptx_opcodes.hpp"

#include <vector>

#include "isa/ptx_decode.hpp"

namespace ptxmma::ptx {

std::span<const OpcodeSpec> opcode_table() {
  static const std::vector<OpcodeSpec> table = [] {
    std::vector<OpcodeSpec> t;
    decode::register_alu(t);
    decode::register_memory(t);
    decode::register_warp(t);
    decode::register_special(t);
    decode::register_mbarrier(t);
    decode::register_atomic(t);
    return t;
  }();
  return table;
}

int find_opcode(std::string_view opcode) {
  const auto t = opcode_table();
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i].opcode == opcode) return static_cast<int>(i);
  return -1;
}

}  // namespace ptxmma::ptx
