// Small integer expressions for layout formulas (configs/mma/layouts.yaml): compiled once to a
// flat stack program, then evaluated per element without re-parsing.
//
// Grammar (C precedence and associativity, 64-bit signed arithmetic):
//   ?:  ||  &&  |  ^  &  == !=  < <= > >=  << >>  + -  * / %  unary - + ~ !  ( )
//   numbers: decimal, 0x hex, 0b binary; variables: [A-Za-z_][A-Za-z0-9_]*, bound at compile time.
// Comparisons and ! && || give 0 or 1; && || and ?: evaluate only the branch they need.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmma {

class Expr {
 public:
  // Compiles `text`; `variables` names the values eval() receives, in that order. Throws
  // ptxmma::Error: `expression "g + 8*(": column 8: expected a number, a variable or '(' ...`.
  static Expr compile(std::string_view text, std::span<const std::string_view> variables);

  // Evaluates with values[k] bound to variables[k]. Throws ptxmma::Error on division by zero or
  // a shift count outside [0, 63], naming the expression.
  [[nodiscard]] std::int64_t eval(std::span<const std::int64_t> values) const;

  [[nodiscard]] const std::string& text() const { return text_; }
  // Whether the expression reads variable number `k` (e.g. to tell a constant from a formula).
  [[nodiscard]] bool uses(int k) const;

  enum class Op : std::uint8_t {
    constant, variable,                       // push
    neg, bit_not, log_not, to_bool,           // unary
    mul, div, mod, add, sub, shl, shr,        // binary
    lt, le, gt, ge, eq, ne, bit_and, bit_xor, bit_or,
    jump, jump_if_zero, jump_if_nonzero,      // jump targets are instruction indices
  };
  struct Instr {
    Op op;
    std::int64_t arg = 0;  // constant value, variable index or jump target
  };

 private:
  std::string text_;
  std::vector<Instr> code_;
  int max_depth_ = 0;
  friend class ExprCompiler;
};

}  // namespace ptxmma
