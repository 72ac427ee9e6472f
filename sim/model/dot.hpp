// One output element of a matrix multiply-accumulate under a rounding model:
// D[i][j] = sum_k A[i][k] * B[k][j] + C[i][j].
#pragma once
#include <cstdint>
#include <optional>
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

// The steps of one element, recorded only when asked (ptxmma explain): the operands and what the
// engine did with them, in numbers; tools/vectors/explanation.hpp turns them into text and JSON.
struct DotTrace {
  // The operands as dot() saw them: k counts the products (a sparse row's stored elements).
  Type a = Type::f16, b = Type::f16, c = Type::f32, d = Type::f32;
  std::vector<std::uint64_t> a_codes, b_codes;
  std::uint64_t c_code = 0;
  Rounding rounding = Rounding::rn;  // the instruction's (f64)
  bool satfinite = false;
  BitOp bitop = BitOp::none;
  // Sparse rows: the logical k of each stored element (empty when dense).
  std::vector<int> logical_k;

  // One aligned term of a block (block FMA, docs/numerics.md §2.2): a product, C, the running sum
  // (the previous block's rounded D) or a block-scaled group's exact sum.
  enum class Role : std::uint8_t { product, accumulator, running_sum, group };
  struct Term {
    Role role = Role::product;
    int k = 0, k_last = 0;  // the product (a group: its first and last k)
    bool sign = false;
    int exp = 0;            // the exponent that takes part in the maximum
    int lsb = 0;            // value = (-1)^sign * sig * 2^lsb, exactly
    u128 sig = 0;
    u128 kept = 0;          // units of 2^cut left after the cut
    u128 dropped = 0;       // units of 2^lsb below 2^cut, cut off
  };
  struct Block {
    std::vector<int> ks;                   // the products dealt to it
    Type start_type = Type::f32;           // the running sum it starts from (C in the first block
    std::uint64_t start = 0;               // when C enters there, else +0 or the previous D)
    bool start_is_c = false;
    std::string special;                   // non-empty: the special operands that decided it
    bool all_zero = false;                 // every term zero: +0
    int e_max = 0, cut = 0;                // largest exponent E; last kept bit 2^(E-F)
    bool negative = false;
    u128 sum = 0;                          // the exact sum of the kept terms, units of 2^cut
    Rounding round = Rounding::rz;
    std::optional<int> frac;               // the sum first narrowed to this many fraction bits
    std::uint64_t result = 0;              // rounded to d
    std::vector<Term> terms;
  };
  std::vector<Block> blocks;
  // block FMA with C added last: one IEEE addition.
  struct FinalAdd {
    std::uint64_t sum = 0, result = 0;
    Rounding round = Rounding::rn;
  };
  std::optional<FinalAdd> final_add;
  // fma_chain: one correctly rounded fused multiply-add per k, k increasing.
  struct Fma {
    std::uint64_t acc = 0, result = 0;
  };
  std::vector<Fma> fmas;
  // add_tree: each IEEE addition in the model's order, in the tree's format.
  struct Add {
    std::uint64_t x = 0, y = 0, result = 0;
  };
  std::vector<Add> adds;
  std::string special;                      // add_tree, scaled: special operands decided the result
  // integer: the exact sum; b1: the population count.
  std::optional<std::int64_t> integer_sum;
  std::optional<std::uint32_t> popc;
  // Steps outside the engine, as text: the block scales (before the products), an accumulator
  // narrowed to D (after).
  std::vector<std::string> scales, notes;
  std::uint64_t result = 0;  // the engine's result, in d
};

std::uint64_t dot(const Model& m, const DotRequest& r, DotTrace* trace = nullptr);
std::uint64_t dot(const Model& m, const DotOperands& r, DotTrace* trace = nullptr);

// One correctly rounded fused multiply-add a*b + c in format t (IEEE rules for zeros and
// infinities; NaNs as the model says).
std::uint64_t fma_step(const Model& m, Type t, std::uint64_t a, std::uint64_t b, std::uint64_t c, Rounding mode);

// x + y rounded once into t (x in t, y in y_type): IEEE addition with the model's NaN.
std::uint64_t ieee_add(const Model& m, Type t, std::uint64_t x, Type y_type, std::uint64_t y, Rounding mode);

}  // namespace ptxmma
