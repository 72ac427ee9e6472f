// One output element of a matrix multiply-accumulate under a rounding model:
// D[i][j] = sum_k A[i][k] * B[k][j] + C[i][j].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/model/model.hpp"
#include "sim/numeric/bit_op.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {

struct DotRequest {
  Type a = Type::f16, b = Type::f16, c = Type::f32, d = Type::f32;
  const std::uint64_t* a_codes = nullptr;  // K element codes of the row of A
  const std::uint64_t* b_codes = nullptr;  // K element codes of the column of B
  int k = 0;
  std::uint64_t c_code = 0;
  Rounding rounding = Rounding::rn;        // f64 .rn/.rz/.rm/.rp
  bool satfinite = false;                  // integer clamp
  BitOp bitop = BitOp::none;
};

struct Term;

// The same element with its operands already decoded (the executor decodes each A and B element
// once per instruction, not once per output element).
struct DotOperands {
  Type a = Type::f16, b = Type::f16, c = Type::f32, d = Type::f32;
  const Term* a_terms = nullptr;  // K decoded elements of the row of A
  const Term* b_terms = nullptr;  // K decoded elements of the column of B
  int k = 0;
  const Term* c_term = nullptr;
  Rounding rounding = Rounding::rn;
  bool satfinite = false;
  BitOp bitop = BitOp::none;
  bool finite_ab = false;  // the caller knows that no A or B element is NaN or Inf (a shortcut)
  // Block-scaled kinds: the decoded scale factors of A's row and B's column, one for each
  // `scale_k` consecutive k (BlockFma::scale_group says how they enter); null when unscaled.
  const Term* a_scales = nullptr;
  const Term* b_scales = nullptr;
  int scale_k = 0;
};

// The steps of one element, recorded only when asked (ptxmma explain).
struct DotTrace {
  std::vector<std::string> lines;
};

std::uint64_t dot(const Model& m, const DotRequest& r, DotTrace* trace = nullptr);
std::uint64_t dot(const Model& m, const DotOperands& r, DotTrace* trace = nullptr);

// One correctly rounded fused multiply-add a*b + c in format t (IEEE rules for zeros and
// infinities; NaNs as the model says).
std::uint64_t fma_step(const Model& m, Type t, std::uint64_t a, std::uint64_t b, std::uint64_t c, Rounding mode);

// x + y rounded once into t (x in t, y in y_type): IEEE addition with the model's NaN.
std::uint64_t ieee_add(const Model& m, Type t, std::uint64_t x, Type y_type, std::uint64_t y, Rounding mode);

}  // namespace ptxmma
