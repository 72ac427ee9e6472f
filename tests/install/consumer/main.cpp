// One mma.sync through the installed core: the instruction decoded against the catalogue, the H200
// model of configs/models/sm_90a.yaml, A and B all ones and C zero, so every element of D is K.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "isa/mma_instruction.hpp"
#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "sim/model/model.hpp"

int main() try {
  using namespace ptxmma;
  const MmaInstruction ins = parse_mma("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const MatrixVariant& v = *ins.variant;
  const MmaExecutor mma(v, models_for("sm_90a").select(v.family, v.a, v.d), MmaOptions{});
  const auto ones = [&](Operand o) {
    const RegisterCodec codec = v.codec(o);
    return codec.scatter(std::vector<std::uint64_t>(codec.rows() * codec.cols(), 0x3c00));  // f16 1.0
  };
  const std::vector<std::uint32_t> a = ones(Operand::a), b = ones(Operand::b), c(v.codec(Operand::c).words());
  std::vector<std::uint32_t> d(v.codec(Operand::d).words());
  mma.run({a, v.words(Operand::a)}, {b, v.words(Operand::b)}, {c, v.words(Operand::c)}, d);
  int wrong = 0;
  for (const std::uint64_t e : v.codec(Operand::d).gather(d)) wrong += e != 0x41800000;  // f32 16.0
  std::printf("%s: D = A B + C, %d of %d elements not 16\n", ins.text.c_str(), wrong, v.shape.m * v.shape.n);
  return wrong == 0 ? 0 : 1;
} catch (const ptxmma::Error& e) {
  std::fprintf(stderr, "consumer: %s\n", e.what());
  return 1;
}
