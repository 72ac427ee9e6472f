// Helpers shared by the family decoders: qualifier bookkeeping, operand checks, immediates.
#include <fmt/format.h>

#include <charconv>

#include "isa/ptx_opcodes.hpp"
#include "sim/numeric/exact.hpp"

namespace ptxmma::ptx::decode {

void fail(SourceLoc at, const std::string& what) { throw DecodeError{at, what}; }
void fail(const Instruction& ins, const std::string& what) { throw DecodeError{ins.loc, what}; }

Quals::Quals(const Instruction& ins) : ins_(ins), used_(ins.quals.size(), false) {}

bool Quals::take(std::string_view q) {
  bool found = false;
  for (std::size_t i = 0; i < ins_.quals.size(); ++i)
    if (!used_[i] && ins_.quals[i] == q) {
      if (found) fail(ins_, fmt::format("'.{}' given twice in '{}'", q, ins_.text));
      used_[i] = true;
      found = true;
    }
  return found;
}

std::string_view Quals::take_one(std::initializer_list<std::string_view> options, std::string_view what) {
  std::string_view got;
  for (std::size_t i = 0; i < ins_.quals.size(); ++i) {
    if (used_[i]) continue;
    for (const std::string_view o : options)
      if (ins_.quals[i] == o) {
        if (!got.empty())
          fail(ins_, fmt::format("two {} qualifiers in '{}': .{} and .{}", what, ins_.text, got, o));
        got = o;
        used_[i] = true;
      }
  }
  return got;
}

std::vector<PtxType> Quals::types() {
  std::vector<PtxType> out;
  for (std::size_t i = 0; i < ins_.quals.size(); ++i)
    if (!used_[i])
      if (const auto t = parse_ptx_type(ins_.quals[i])) {
        out.push_back(*t);
        used_[i] = true;
      }
  return out;
}

void Quals::finish() const {
  for (std::size_t i = 0; i < ins_.quals.size(); ++i)
    if (!used_[i]) fail(ins_, fmt::format("unexpected qualifier '.{}' in '{}'", ins_.quals[i], ins_.text));
}

void count(const Instruction& ins, std::size_t n) { count(ins, n, n); }

void count(const Instruction& ins, std::size_t lo, std::size_t hi) {
  const std::size_t n = ins.ops.size();
  if (n >= lo && n <= hi) return;
  const std::string want = lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi);
  fail(ins, fmt::format("'{}' takes {} operand{}, found {}", ins.text, want, hi == 1 ? "" : "s", n));
}

namespace {

std::string_view kind_name(Operand::Kind k) {
  switch (k) {
    case Operand::Kind::reg: return "a register";
    case Operand::Kind::imm: return "an immediate";
    case Operand::Kind::special: return "a special register";
    case Operand::Kind::vec: return "a vector";
    case Operand::Kind::addr: return "an address";
    case Operand::Kind::label: return "a label";
    case Operand::Kind::symbol: return "a symbol";
    case Operand::Kind::sink: return "'_'";
  }
  return "?";
}

void check_reg_type(const Program& p, const Instruction& ins, const Operand& op, PtxType t, std::string_view what,
                    bool wider) {
  const RegisterDecl& r = p.registers.at(static_cast<std::size_t>(op.reg));
  if (compatible(t, r.type, wider)) return;
  fail(op.loc, fmt::format("type mismatch: {} of '{}' is {}, declared .{}; the instruction needs {} .{} register", what,
                           ins.text, r.source, name(r.type), wider ? "at least a" : "a", name(t)));
}

}  // namespace

void reg(const Program& p, const Instruction& ins, Operand& op, PtxType t, std::string_view what, bool wider) {
  if (op.kind != Operand::Kind::reg)
    fail(op.loc, fmt::format("{} of '{}' must be a register, not {} ('{}')", what, ins.text, kind_name(op.kind), op.text));
  if (op.negated) fail(op.loc, fmt::format("'!' applies only to predicate operands ({} of '{}')", what, ins.text));
  check_reg_type(p, ins, op, t, what, wider);
  op.type = t;
}

void value(const Program& p, const Instruction& ins, Operand& op, PtxType t, std::string_view what, bool wider) {
  op.type = t;
  switch (op.kind) {
    case Operand::Kind::reg: reg(p, ins, op, t, what, wider); return;
    case Operand::Kind::imm: coerce_imm(ins, op, t, what); return;
    case Operand::Kind::special:
      if (op.special == Special::is_explicit_cluster) {
        if (t != PtxType::pred)
          fail(op.loc, fmt::format("{} of '{}': special register {} is .pred", what, ins.text, op.text));
        return;
      }
      if (type_class(t) == TypeClass::floating || type_class(t) == TypeClass::pred)
        fail(op.loc, fmt::format("{} of '{}': special register {} is .u32", what, ins.text, op.text));
      return;
    case Operand::Kind::symbol:
      if (bits(t) < 32 || type_class(t) == TypeClass::floating)
        fail(op.loc, fmt::format("{} of '{}': the address of '{}' needs a 32- or 64-bit integer type", what, ins.text,
                                 op.text));
      return;
    default:
      fail(op.loc, fmt::format("{} of '{}' must be a register or an immediate, not {} ('{}')", what, ins.text,
                               kind_name(op.kind), op.text));
  }
}

void pred(const Program& p, const Instruction& ins, Operand& op, std::string_view what, bool negation_ok) {
  op.type = PtxType::pred;
  // An integer immediate is a predicate constant: 0 false, anything else true (`mov.pred %p, -1`,
  // as compilers write it).
  if (op.kind == Operand::Kind::imm && !op.imm_float) {
    op.value = op.value != 0 ? 1 : 0;
    return;
  }
  if (op.kind == Operand::Kind::special && op.special == Special::is_explicit_cluster && !op.negated) return;
  if (op.kind != Operand::Kind::reg)
    fail(op.loc, fmt::format("{} of '{}' must be a predicate register, not {} ('{}')", what, ins.text,
                             kind_name(op.kind), op.text));
  if (op.negated && !negation_ok) fail(op.loc, fmt::format("{} of '{}' cannot be negated", what, ins.text));
  const RegisterDecl& r = p.registers.at(static_cast<std::size_t>(op.reg));
  if (r.type != PtxType::pred)
    fail(op.loc, fmt::format("type mismatch: {} of '{}' is {}, declared .{}; the instruction needs a .pred register",
                             what, ins.text, r.source, name(r.type)));
}

std::int64_t integer(const Instruction& ins, const Operand& op, std::string_view what) {
  if (op.kind != Operand::Kind::imm || op.imm_float)
    fail(op.loc, fmt::format("{} of '{}' must be an integer constant, not '{}'", what, ins.text, op.text));
  return static_cast<std::int64_t>(op.value);
}

namespace {

// The text of a float literal without a leading '-': 0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX or decimal.
std::uint64_t float_literal_bits(const Instruction& ins, const Operand& op, Type dst, std::string_view what) {
  std::string_view t = op.text;
  const bool neg = !t.empty() && t.front() == '-';
  if (neg) t.remove_prefix(1);
  std::uint64_t code = 0;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F' || t[1] == 'd' || t[1] == 'D')) {
    const bool f = t[1] == 'f' || t[1] == 'F';
    std::uint64_t bits = 0;
    const auto [ptr, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), bits, 16);
    if (ec != std::errc() || ptr != t.data() + t.size() || t.size() != (f ? 10U : 18U))
      fail(op.loc, fmt::format("malformed floating-point constant '{}' (0f + 8 hex digits, 0d + 16)", op.text));
    const Type src = f ? Type::f32 : Type::f64;
    if (neg) bits ^= info(src).sign_bit();
    code = src == dst ? bits : convert(src, bits, dst, ConvertFlags{Rounding::rn});
  } else {
    auto x = parse_decimal(std::string(t));
    if (!x) fail(op.loc, fmt::format("malformed number '{}'", op.text));
    if (neg) x->negative = !x->negative, x->value = -x->value;
    code = round_exact(dst, *x, ConvertFlags{Rounding::rn});
  }
  (void)ins;
  (void)what;
  return code;
}

}  // namespace

void coerce_imm(const Instruction& ins, Operand& op, PtxType t, std::string_view what) {
  if (op.kind != Operand::Kind::imm) return;
  const TypeClass c = type_class(t);
  const int w = bits(t);
  if (c == TypeClass::floating && lanes_of(t) == 1) {
    const Type ft = *element_format(t);
    if (op.imm_float) {
      op.value = float_literal_bits(ins, op, ft, what);
    } else {
      // An integer constant in a floating-point instruction is its value, rounded .rn.
      const bool neg = static_cast<std::int64_t>(op.value) < 0 && op.text.starts_with("-");
      const std::uint64_t mag = neg ? 0 - op.value : op.value;
      op.value = round_to(ft, Unrounded{neg, 0, mag, false}, ConvertFlags{Rounding::rn});
    }
    op.imm_float = true;
    return;
  }
  if (c == TypeClass::pred) {
    if (op.imm_float || op.value > 1) fail(op.loc, fmt::format("{} of '{}' must be 0 or 1", what, ins.text));
    return;
  }
  if (op.imm_float) {
    // Bit-size types take 0f/0d constants as their bits (mov.b32 %r1, 0f3F800000).
    const std::string_view tx = op.text;
    const bool hexf = tx.size() > 2 && tx[0] == '0' && (tx[1] == 'f' || tx[1] == 'F');
    const bool hexd = tx.size() > 2 && tx[0] == '0' && (tx[1] == 'd' || tx[1] == 'D');
    if (c == TypeClass::bits && ((hexf && w == 32) || (hexd && w == 64))) {
      op.value = float_literal_bits(ins, op, hexf ? Type::f32 : Type::f64, what);
      op.imm_float = false;
      return;
    }
    fail(op.loc, fmt::format("{} of '{}': floating-point constant '{}' where .{} is expected", what, ins.text, op.text,
                             name(t)));
  }
  if (w >= 64 || w == 0) return;
  const std::uint64_t mask = (1ULL << w) - 1;
  const auto sv = static_cast<std::int64_t>(op.value);
  const bool fits = op.value <= mask || (sv < 0 && sv >= -(static_cast<std::int64_t>(1) << (w - 1)));
  if (!fits) fail(op.loc, fmt::format("{} of '{}': constant {} does not fit in .{}", what, ins.text, op.text, name(t)));
  op.value &= mask;
}

}  // namespace ptxmma::ptx::decode
