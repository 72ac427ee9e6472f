#include "sim/layout/expr.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "sim/error.hpp"

namespace ptxmma {
namespace {

constexpr std::array<std::string_view, 3> kVars = {"lane", "g", "t"};

std::int64_t eval(std::string_view text, std::int64_t lane = 0) {
  const std::array<std::int64_t, 3> v = {lane, lane >> 2, lane & 3};
  return Expr::compile(text, kVars).eval(v);
}

std::string compile_error(std::string_view text) {
  try {
    (void)Expr::compile(text, kVars);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string eval_error(std::string_view text) {
  try {
    (void)eval(text, 5);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Expr, PrecedenceAndAssociativityFollowC) {
  EXPECT_EQ(eval("1 + 2*3"), 7);
  EXPECT_EQ(eval("(1 + 2)*3"), 9);
  EXPECT_EQ(eval("10 - 3 - 2"), 5);
  EXPECT_EQ(eval("64 / 4 / 2"), 8);
  EXPECT_EQ(eval("7 / 2"), 3);
  EXPECT_EQ(eval("-7 / 2"), -3);
  EXPECT_EQ(eval("-7 % 3"), -1);
  EXPECT_EQ(eval("1 << 4 | 1"), 17);
  EXPECT_EQ(eval("1 + 1 << 2"), 8);
  EXPECT_EQ(eval("3 & 5 ^ 6"), 7);
  EXPECT_EQ(eval("6 ^ 3 | 8"), 13);
  EXPECT_EQ(eval("~0"), -1);
  EXPECT_EQ(eval("!0 + !7"), 1);
  EXPECT_EQ(eval("-(-3)"), 3);
  EXPECT_EQ(eval("+4"), 4);
  EXPECT_EQ(eval("1 < 2 == 1"), 1);
  EXPECT_EQ(eval("2 >= 3"), 0);
  EXPECT_EQ(eval("3 != 3"), 0);
  EXPECT_EQ(eval("0x10 + 0b11 + 010"), 29);  // no octal: 010 is ten
  EXPECT_EQ(eval("-8 >> 1"), -4);
}

TEST(Expr, ConditionalsAndShortCircuit) {
  EXPECT_EQ(eval("1 ? 10 : 20"), 10);
  EXPECT_EQ(eval("0 ? 10 : 20"), 20);
  EXPECT_EQ(eval("0 ? 1 : 0 ? 2 : 3"), 3);  // right-associative
  EXPECT_EQ(eval("1 ? 0 ? 4 : 5 : 6"), 5);
  EXPECT_EQ(eval("2 + (1 ? 3 : 4) * 2"), 8);
  EXPECT_EQ(eval("0 && 1/0"), 0);          // the right side is not evaluated
  EXPECT_EQ(eval("2 || 1/0"), 1);
  EXPECT_EQ(eval("3 && 4"), 1);
  EXPECT_EQ(eval("0 || 0"), 0);
  EXPECT_EQ(eval("1 ? 5 : 1/0"), 5);
  EXPECT_EQ(eval("0 ? 1/0 : 6"), 6);
  EXPECT_EQ(eval("1 && 0 || 1 && 2"), 1);
}

TEST(Expr, VariablesAreBoundAtCompileTime) {
  const Expr x = Expr::compile("g + 8*((lane >> 4) & 1) + t*100", kVars);
  EXPECT_TRUE(x.uses(0));
  EXPECT_TRUE(x.uses(1));
  EXPECT_TRUE(x.uses(2));
  EXPECT_FALSE(Expr::compile("g + 1", kVars).uses(2));
  for (int lane = 0; lane < 32; ++lane) {
    const std::array<std::int64_t, 3> v = {lane, lane >> 2, lane & 3};
    EXPECT_EQ(x.eval(v), (lane >> 2) + 8 * ((lane >> 4) & 1) + (lane & 3) * 100);
  }
  EXPECT_EQ(x.text(), "g + 8*((lane >> 4) & 1) + t*100");
}

TEST(Expr, CompileErrorsNameTheExpressionAndColumn) {
  EXPECT_EQ(compile_error("g + 8*("),
            "expression \"g + 8*(\": column 8: expected a number, a variable or '(', found the end");
  EXPECT_EQ(compile_error("(g + 1"),
            "expression \"(g + 1\": column 7: expected ')' to close the '(' at column 1, found the end");
  EXPECT_EQ(compile_error("g + x"), "expression \"g + x\": column 5: unknown variable 'x' (known: lane, g, t)");
  EXPECT_EQ(compile_error("g $ 2"), "expression \"g $ 2\": column 3: unexpected character '$'");
  EXPECT_EQ(compile_error("g 2"), "expression \"g 2\": column 3: expected an operator, found '2'");
  EXPECT_EQ(compile_error("g ? 1"), "expression \"g ? 1\": column 6: expected ':' of the '?' at column 3, found the end");
  EXPECT_EQ(compile_error("   "), "expression \"   \": column 1: empty expression");
  EXPECT_EQ(compile_error("1 + )"), "expression \"1 + )\": column 5: expected a number, a variable or '(', found ')'");
  EXPECT_EQ(compile_error("12ab"), "expression \"12ab\": column 1: malformed number '12ab'");
  EXPECT_EQ(compile_error("99999999999999999999"),
            "expression \"99999999999999999999\": column 1: number '99999999999999999999' is too large");
  EXPECT_EQ(compile_error("g = 1"), "expression \"g = 1\": column 3: unexpected character '='");
}

TEST(Expr, EvaluationErrorsNameTheExpression) {
  EXPECT_EQ(eval_error("1 / (g - g)"), "expression \"1 / (g - g)\": division by zero");
  EXPECT_EQ(eval_error("t % 0"), "expression \"t % 0\": division by zero");
  EXPECT_EQ(eval_error("1 << (lane * 20)"), "expression \"1 << (lane * 20)\": shift count 100 is outside 0..63");
  EXPECT_EQ(eval_error("1 >> -1"), "expression \"1 >> -1\": shift count -1 is outside 0..63");
}

TEST(Expr, DeepNestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "(1 + ";
  deep += "1";
  for (int i = 0; i < 40; ++i) deep += ")";
  EXPECT_EQ(eval(deep), 41);
  std::string right = "1";
  for (int i = 0; i < 100; ++i) right = "1 + (" + right + ")";
  EXPECT_NE(compile_error(right).find("too deeply nested"), std::string::npos);
}

}  // namespace
}  // namespace ptxmma
