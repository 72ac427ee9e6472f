// ex2, rsqrt, tanh, lg2: the approximate special functions as the GPU computes them
// (sim/catalog/special_function.hpp; the decoder admits only the modelled forms).
#include "sim/catalog/special_function.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {
namespace {

SpecialType special_type(ptx::PtxType t) {
  switch (t) {
    case ptx::PtxType::f16: return SpecialType::f16;
    case ptx::PtxType::f16x2: return SpecialType::f16x2;
    case ptx::PtxType::bf16: return SpecialType::bf16;
    case ptx::PtxType::bf16x2: return SpecialType::bf16x2;
    case ptx::PtxType::f64: return SpecialType::f64;
    default: return SpecialType::f32;
  }
}

void sem_special(Exec& x, const ptx::Instruction& ins, std::uint32_t lanes) {
  const SpecialInstruction s{static_cast<SpecialKind>(ins.d.mode), special_type(ins.d.type), ins.d.ftz};
  for_lanes(lanes, [&](int lane) {
    x.write(ins.ops[0], lane, evaluate(s, x.read(ins.ops[1], lane)));
  });
}

}  // namespace

void register_special(std::vector<SemanticSpec>& t) {
  for (const char* op : {"ex2", "rsqrt", "tanh", "lg2", "sin", "cos"}) t.push_back({op, sem_special});
}

}  // namespace ptxmma::exec
