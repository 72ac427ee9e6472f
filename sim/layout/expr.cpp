#include "sim/layout/expr.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <limits>

#include "sim/error.hpp"

namespace ptxmma {

namespace {

constexpr int kMaxDepth = 64;

enum class TokKind : std::uint8_t { number, name, op, end };

struct Token {
  TokKind kind = TokKind::end;
  std::string_view text;
  int column = 0;  // 1-based
  std::int64_t value = 0;
};

// Operators, longest first so that "<<" wins over "<".
constexpr std::array<std::string_view, 24> kOperators = {
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%",
    "&",  "|",  "^",  "~",  "!",  "<",  ">",  "?",  ":",  "(", ")"};

struct Binary {
  std::string_view token;
  int power;  // binding power, higher binds tighter
  Expr::Op op;
};
// || and && are handled apart (short-circuit); they sit at power 1 and 2.
constexpr std::array<Binary, 18> kBinary = {{
    {"|", 3, Expr::Op::bit_or},
    {"^", 4, Expr::Op::bit_xor},
    {"&", 5, Expr::Op::bit_and},
    {"==", 6, Expr::Op::eq},
    {"!=", 6, Expr::Op::ne},
    {"<", 7, Expr::Op::lt},
    {"<=", 7, Expr::Op::le},
    {">", 7, Expr::Op::gt},
    {">=", 7, Expr::Op::ge},
    {"<<", 8, Expr::Op::shl},
    {">>", 8, Expr::Op::shr},
    {"+", 9, Expr::Op::add},
    {"-", 9, Expr::Op::sub},
    {"*", 10, Expr::Op::mul},
    {"/", 10, Expr::Op::div},
    {"%", 10, Expr::Op::mod},
    {"||", 1, Expr::Op::jump_if_nonzero},
    {"&&", 2, Expr::Op::jump_if_zero},
}};

const Binary* find_binary(const Token& t) {
  if (t.kind != TokKind::op) return nullptr;
  for (const Binary& b : kBinary)
    if (b.token == t.text) return &b;
  return nullptr;
}

}  // namespace

class ExprCompiler {
 public:
  ExprCompiler(std::string_view text, std::span<const std::string_view> vars) : text_(text), vars_(vars) {
    expr_.text_ = std::string(text);
    tokenize();
  }

  Expr run() {
    if (tokens_.front().kind == TokKind::end) fail(1, "empty expression");
    ternary();
    if (peek().kind != TokKind::end)
      fail(peek().column, fmt::format("expected an operator, found {}", describe(peek())));
    return std::move(expr_);
  }

 private:
  [[noreturn]] void fail(int column, const std::string& what) const {
    throw Error(fmt::format("expression \"{}\": column {}: {}", text_, column, what));
  }

  static std::string describe(const Token& t) {
    return t.kind == TokKind::end ? std::string("the end") : fmt::format("'{}'", t.text);
  }

  void tokenize() {
    std::size_t p = 0;
    while (p < text_.size()) {
      const char c = text_[p];
      const int column = static_cast<int>(p) + 1;
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++p;
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c))) {
        std::size_t q = p;
        while (q < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[q])) || text_[q] == '_')) ++q;
        const std::string_view word = text_.substr(p, q - p);
        int base = 10;
        std::string_view digits = word;
        if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) base = 16, digits.remove_prefix(2);
        else if (word.size() > 2 && word[0] == '0' && (word[1] == 'b' || word[1] == 'B')) base = 2, digits.remove_prefix(2);
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
        if (ec == std::errc::result_out_of_range) fail(column, fmt::format("number '{}' is too large", word));
        if (ec != std::errc() || end != digits.data() + digits.size())
          fail(column, fmt::format("malformed number '{}'", word));
        tokens_.push_back({TokKind::number, word, column, v});
        p = q;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t q = p;
        while (q < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[q])) || text_[q] == '_')) ++q;
        tokens_.push_back({TokKind::name, text_.substr(p, q - p), column, 0});
        p = q;
        continue;
      }
      bool matched = false;
      for (std::string_view op : kOperators)
        if (text_.substr(p, op.size()) == op) {
          tokens_.push_back({TokKind::op, text_.substr(p, op.size()), column, 0});
          p += op.size();
          matched = true;
          break;
        }
      if (!matched) fail(column, fmt::format("unexpected character '{}'", c));
    }
    tokens_.push_back({TokKind::end, {}, static_cast<int>(text_.size()) + 1, 0});
  }

  const Token& peek() const { return tokens_[pos_]; }
  const Token& next() { return tokens_[pos_++]; }
  bool at(std::string_view op) const { return peek().kind == TokKind::op && peek().text == op; }

  // Code emission with stack-depth bookkeeping.
  std::size_t emit(Expr::Op op, std::int64_t arg = 0) {
    expr_.code_.push_back({op, arg});
    switch (op) {
      case Expr::Op::constant:
      case Expr::Op::variable: ++depth_; break;
      case Expr::Op::neg:
      case Expr::Op::bit_not:
      case Expr::Op::log_not:
      case Expr::Op::to_bool:
      case Expr::Op::jump: break;
      default: --depth_; break;  // binary ops and conditional jumps pop one
    }
    if (depth_ > expr_.max_depth_) expr_.max_depth_ = depth_;
    if (depth_ > kMaxDepth) fail(peek().column, "expression too deeply nested");
    return expr_.code_.size() - 1;
  }
  void patch(std::size_t at) { expr_.code_[at].arg = static_cast<std::int64_t>(expr_.code_.size()); }

  // ternary := binary(1) [ '?' ternary ':' ternary ]
  void ternary() {
    binary(1);
    if (!at("?")) return;
    const int qcol = next().column;
    const std::size_t jz = emit(Expr::Op::jump_if_zero);
    const int base = depth_;
    ternary();
    if (!at(":")) fail(peek().column, fmt::format("expected ':' of the '?' at column {}, found {}", qcol, describe(peek())));
    next();
    const std::size_t jmp = emit(Expr::Op::jump);
    patch(jz);
    depth_ = base;
    ternary();
    patch(jmp);
  }

  void binary(int min_power) {
    unary();
    for (;;) {
      const Binary* b = find_binary(peek());
      if (!b || b->power < min_power) return;
      next();
      if (b->op == Expr::Op::jump_if_zero || b->op == Expr::Op::jump_if_nonzero) {
        // a && b:  a; jz F; b; bool; jmp E; F: 0; E:      a || b:  a; jnz T; b; bool; jmp E; T: 1; E:
        const std::size_t j = emit(b->op);
        const int base = depth_;
        binary(b->power + 1);
        emit(Expr::Op::to_bool);
        const std::size_t jmp = emit(Expr::Op::jump);
        patch(j);
        depth_ = base;
        emit(Expr::Op::constant, b->op == Expr::Op::jump_if_nonzero ? 1 : 0);
        patch(jmp);
        continue;
      }
      binary(b->power + 1);  // left-associative
      emit(b->op);
    }
  }

  void unary() {
    const Token& t = peek();
    if (t.kind == TokKind::op) {
      if (t.text == "-" || t.text == "+" || t.text == "~" || t.text == "!") {
        next();
        unary();
        if (t.text == "-") emit(Expr::Op::neg);
        else if (t.text == "~") emit(Expr::Op::bit_not);
        else if (t.text == "!") emit(Expr::Op::log_not);
        return;
      }
      if (t.text == "(") {
        const int col = next().column;
        ternary();
        if (!at(")"))
          fail(peek().column, fmt::format("expected ')' to close the '(' at column {}, found {}", col, describe(peek())));
        next();
        return;
      }
    }
    if (t.kind == TokKind::number) {
      next();
      emit(Expr::Op::constant, t.value);
      return;
    }
    if (t.kind == TokKind::name) {
      next();
      for (std::size_t k = 0; k < vars_.size(); ++k)
        if (vars_[k] == t.text) {
          emit(Expr::Op::variable, static_cast<std::int64_t>(k));
          return;
        }
      std::string known;
      for (std::string_view v : vars_) known += (known.empty() ? "" : ", ") + std::string(v);
      fail(t.column, fmt::format("unknown variable '{}' (known: {})", t.text, known));
    }
    fail(t.column, fmt::format("expected a number, a variable or '(', found {}", describe(t)));
  }

  std::string_view text_;
  std::span<const std::string_view> vars_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  Expr expr_;
};

Expr Expr::compile(std::string_view text, std::span<const std::string_view> variables) {
  return ExprCompiler(text, variables).run();
}

bool Expr::uses(int k) const {
  for (const Instr& in : code_)
    if (in.op == Op::variable && in.arg == k) return true;
  return false;
}

std::int64_t Expr::eval(std::span<const std::int64_t> values) const {
  std::array<std::int64_t, kMaxDepth + 1> st;  // not cleared: every slot is written before it is read
  int sp = 0;  // number of values on the stack
  const auto wrap = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
  const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  std::size_t pc = 0;
  while (pc < code_.size()) {
    const Instr& in = code_[pc++];
    switch (in.op) {
      case Op::constant: st[sp++] = in.arg; continue;
      case Op::variable: st[sp++] = values[static_cast<std::size_t>(in.arg)]; continue;
      case Op::neg: st[sp - 1] = wrap(0 - u(st[sp - 1])); continue;
      case Op::bit_not: st[sp - 1] = ~st[sp - 1]; continue;
      case Op::log_not: st[sp - 1] = st[sp - 1] == 0; continue;
      case Op::to_bool: st[sp - 1] = st[sp - 1] != 0; continue;
      case Op::jump: pc = static_cast<std::size_t>(in.arg); continue;
      case Op::jump_if_zero:
        if (st[--sp] == 0) pc = static_cast<std::size_t>(in.arg);
        continue;
      case Op::jump_if_nonzero:
        if (st[--sp] != 0) pc = static_cast<std::size_t>(in.arg);
        continue;
      default: break;
    }
    const std::int64_t b = st[--sp];
    std::int64_t& a = st[sp - 1];
    switch (in.op) {
      case Op::mul: a = wrap(u(a) * u(b)); break;
      case Op::div:
      case Op::mod:
        if (b == 0) throw Error(fmt::format("expression \"{}\": division by zero", text_));
        if (b == -1) a = in.op == Op::div ? wrap(0 - u(a)) : 0;
        else a = in.op == Op::div ? a / b : a % b;
        break;
      case Op::add: a = wrap(u(a) + u(b)); break;
      case Op::sub: a = wrap(u(a) - u(b)); break;
      case Op::shl:
      case Op::shr:
        if (b < 0 || b > 63)
          throw Error(fmt::format("expression \"{}\": shift count {} is outside 0..63", text_, b));
        a = in.op == Op::shl ? wrap(u(a) << b) : a >> b;
        break;
      case Op::lt: a = a < b; break;
      case Op::le: a = a <= b; break;
      case Op::gt: a = a > b; break;
      case Op::ge: a = a >= b; break;
      case Op::eq: a = a == b; break;
      case Op::ne: a = a != b; break;
      case Op::bit_and: a &= b; break;
      case Op::bit_xor: a ^= b; break;
      case Op::bit_or: a |= b; break;
      default: break;
    }
  }
  return st[0];
}

}  // namespace ptxmma
