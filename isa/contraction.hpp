// ptxas's contraction of a multiply and the add that uses it into one fused multiply-add, which the
// PTX ISA allows for mul/add/sub without a rounding modifier and which changes the bits
// (docs/hardware/contraction-sm90.md). The parser marks each add/sub ptxas fuses; the interpreter
// then computes it as the FFMA/DFMA/HFMA2 the GPU runs.
#pragma once
#include <cstdint>

#include "isa/ptx_program.hpp"

namespace ptxmma::ptx {

struct Contraction {
  enum class Product : std::uint8_t { mul, div_full, div_approx };
  Product product = Product::mul;
  // The producer's sources: the factors of a mul; the dividend and divisor of a division (whose
  // fused factors are the reciprocal and the scaled dividend: sim/numeric/division.hpp).
  Operand x, y;
  int other = 2;                // the add/sub operand that is not the product (1 or 2)
  bool negate_product = false;  // a neg between, or the product subtracted
  bool negate_other = false;    // the other operand subtracted from the product
  Instruction fma;              // the fused operation: fma.rn with the add's .ftz and .sat
};

// Marks every add/sub of `p.code` that ptxas 13.0 contracts (docs/hardware/contraction-sm90.md):
// an operand is the product of a `mul` without a rounding modifier and without .sat, or the
// quotient of `div.full`/`div.approx` .f32 (or the `neg` of either), of the same type and .ftz,
// defined once, in the same basic block, its sources not written in between, and every use of it
// such an add/sub (then each of them is fused); the first operand's product when both are. The add
// or sub has no rounding modifier.
void contract_multiply_adds(Program& p);

}  // namespace ptxmma::ptx
