// Decoders of the approximate special functions ex2, rsqrt, tanh, lg2, sin and cos (the forms
// ptxmma models bit-exactly: sim/catalog/special_function.hpp).
// rcp, sqrt and div are decoded with the arithmetic (ptx_decode_alu.cpp).
#include <fmt/format.h>

#include "isa/ptx_decode.hpp"
#include "sim/catalog/special_function.hpp"

namespace ptxmma::ptx::decode {
namespace {

void dec_special(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  Decoded& d = ins.d;
  d.approx = q.take("approx");
  d.ftz = q.take("ftz");
  const auto ts = q.types();
  if (ts.size() != 1) fail(ins, fmt::format("'{}' needs exactly one type, found {}", ins.text, ts.size()));
  q.finish();
  d.type = ts[0];
  if (!d.approx) fail(ins, fmt::format("'{}' needs .approx (the only form of {})", ins.text, ins.opcode));
  const std::string form = ins.opcode + ".approx" + (d.ftz ? ".ftz." : ".") + std::string(name(d.type));
  const auto s = parse_special_instruction(form);
  if (!s) {
    std::string known;
    for (const auto& n : special_instruction_names()) known += (known.empty() ? "" : ", ") + n;
    fail(ins, fmt::format("'{}' is not modelled bit-exactly (docs/hardware/special-functions-sm90.md; modelled: {})",
                          ins.text, known));
  }
  d.mode = static_cast<int>(s->kind);
  count(ins, 2);
  reg(cx.program, ins, ins.ops[0], d.type, "the destination");
  value(cx.program, ins, ins.ops[1], d.type, "the source");
}

}  // namespace

void register_special(std::vector<OpcodeSpec>& t) {
  for (const char* op : {"ex2", "rsqrt", "tanh", "lg2", "sin", "cos"}) t.push_back({op, dec_special});
}

}  // namespace ptxmma::ptx::decode
