#include "tests/model/exact_model.hpp"

#include <algorithm>
#include <climits>
#include <optional>
#include <vector>

#include "sim/numeric/exact.hpp"

namespace ptxmma::testing {
namespace {

int floor_log2(const Rational& x) {  // x > 0; the bit lengths give e within one
  int e = static_cast<int>(msb(numerator(x))) - static_cast<int>(msb(denominator(x)));
  while (pow2(e) > x) --e;
  while (pow2(e + 1) <= x) ++e;
  return e;
}

// e = max(floor(log2|x|), emin) of docs/numerics.md §2.2, for a nonzero finite value of type t.
int exponent_of(Type t, const Rational& x) { return std::max(floor_log2(abs(x)), info(t).emin()); }

Rational trunc_to(const Rational& x, const Rational& unit) {
  const Rational q = x / unit;
  const BigInt n = numerator(q) / denominator(q);  // C++ division truncates toward zero
  return Rational(n) * unit;
}

// x rounded to a multiple of `unit` in `mode` (the narrowed block sums of BlockFma::Output::frac).
Rational to_grid(const Rational& x, const Rational& unit, Rounding mode) {
  const Rational down = trunc_to(x, unit);  // toward zero
  const Rational rest = abs(x - down), half = unit / 2;
  const Rational away = down + (x < 0 ? -unit : unit);
  bool up = false;
  switch (mode) {
    case Rounding::rz: break;
    case Rounding::rn: {
      const Rational q = abs(down) / unit;  // an integer
      up = rest > half || (rest == half && numerator(q) % 2 != 0);
      break;
    }
    case Rounding::rna: up = rest >= half; break;
    case Rounding::rm: up = x < 0 && rest != 0; break;
    case Rounding::rp: up = x > 0 && rest != 0; break;
  }
  return up ? away : down;
}

std::uint64_t nan_of(const Model& m, Type d) {
  return d == Type::f32 ? m.nan_f32 : d == Type::f16 ? m.nan_f16 : info(d).canonical_nan();
}

std::uint64_t round_value(Type d, const Rational& v, ConvertFlags f) {
  return round_exact(d, ExactValue{v == 0 ? FpClass::zero : FpClass::normal, v < 0, v}, f);
}

std::uint64_t block_model(const Model& m, const DotRequest& r) {
  const BlockFma& p = m.block;
  const bool c_first = p.c_entry == BlockFma::CEntry::first_block;
  Type acc_type = c_first ? r.c : r.d;
  std::uint64_t acc = c_first ? r.c_code : 0;
  for (int b = 0; b < p.blocks; ++b) {
    const ExactValue running = exact_value(acc_type, acc);
    // Specials of this block: its products and the running sum.
    bool nan = running.cls == FpClass::nan, pos = false, neg = false;
    if (running.cls == FpClass::infinity) (running.negative ? neg : pos) = true;
    // Terms: (value, alignment exponent); zeros only count toward the exponent if the model says.
    std::vector<std::pair<Rational, int>> terms;
    int zero_exp = INT_MIN;
    for (int k = 0; k < r.k; ++k) {
      if ((k / p.run) % p.blocks != b) continue;
      const ExactValue a = exact_value(r.a, r.a_codes[k]), bb = exact_value(r.b, r.b_codes[k]);
      const bool a_special = a.cls == FpClass::nan || a.cls == FpClass::infinity;
      const bool b_special = bb.cls == FpClass::nan || bb.cls == FpClass::infinity;
      if (a.cls == FpClass::nan || bb.cls == FpClass::nan) nan = true;
      if (a.cls == FpClass::infinity || bb.cls == FpClass::infinity) {
        if (a.cls == FpClass::zero || bb.cls == FpClass::zero) nan = true;
        ((a.negative != bb.negative) ? neg : pos) = true;
      }
      if (a_special || b_special) continue;
      if (a.value == 0 || bb.value == 0) {
        if (p.zeros_set_exponent) zero_exp = std::max(zero_exp, info(r.a).emin() + info(r.b).emin());
        continue;
      }
      terms.emplace_back(a.value * bb.value, exponent_of(r.a, a.value) + exponent_of(r.b, bb.value));
    }
    if (nan || (pos && neg)) {
      acc = nan_of(m, r.d);
    } else if (pos || neg) {
      acc = info(r.d).inf_bits(neg);
    } else {
      if (running.value != 0) terms.emplace_back(running.value, exponent_of(acc_type, running.value));
      else if (p.zeros_set_exponent) zero_exp = std::max(zero_exp, info(acc_type).emin());
      if (terms.empty()) {
        acc = 0;
      } else {
        int e = zero_exp;
        for (const auto& t : terms) e = std::max(e, t.second);
        const BlockFma::Output& out = p.output(r.d);
        if (out.exp_floor) e = std::max(e, *out.exp_floor);
        const Rational unit = pow2(e - p.frac_bits);
        Rational sum = 0;
        for (const auto& t : terms) sum += trunc_to(t.first, unit);
        const Rounding mode = out.round;
        if (sum == 0) {
          acc = 0;
        } else {
          // A block never gives -0: a sum that rounds to zero is +0.
          const Rational v = out.frac ? to_grid(sum, pow2(exponent_of(r.d, sum) - *out.frac), mode) : sum;
          acc = v == 0 ? 0 : round_value(r.d, v, ConvertFlags{mode, false, false, true});
          if (acc == info(r.d).sign_bit()) acc = 0;
        }
      }
    }
    acc_type = r.d;
  }
  if (c_first) return acc;
  // C added last: IEEE addition, model NaN.
  const ExactValue x = exact_value(r.d, acc), c = exact_value(r.c, r.c_code);
  if (x.cls == FpClass::nan || c.cls == FpClass::nan) return nan_of(m, r.d);
  if (x.cls == FpClass::infinity && c.cls == FpClass::infinity && x.negative != c.negative) return nan_of(m, r.d);
  if (x.cls == FpClass::infinity) return acc;
  if (c.cls == FpClass::infinity) return info(r.d).inf_bits(c.negative);
  const Rational sum = x.value + c.value;
  const ConvertFlags f{p.final_add_round};
  if (sum != 0) return round_value(r.d, sum, f);
  const bool both_zero = x.cls == FpClass::zero && c.cls == FpClass::zero;
  const bool negative = both_zero && x.negative == c.negative ? x.negative : p.final_add_round == Rounding::rm;
  return negative ? info(r.d).sign_bit() : 0;
}

std::uint64_t fma_model(const Model& m, const DotRequest& r) {
  const Type t = r.d;
  const TypeInfo& ti = info(t);
  std::uint64_t acc = r.c_code;
  for (int k = 0; k < r.k; ++k) {
    const std::uint64_t codes[3] = {r.a_codes[k], r.b_codes[k], acc};
    const ExactValue a = exact_value(t, codes[0]), b = exact_value(t, codes[1]), c = exact_value(t, acc);
    std::optional<std::uint64_t> next;
    for (const char op : m.nan_priority) {
      const int i = op - 'a';
      if (!next && exact_value(t, codes[i]).cls == FpClass::nan) next = codes[i] | (1ULL << (ti.man_bits - 1));
    }
    const bool p_inf = a.cls == FpClass::infinity || b.cls == FpClass::infinity;
    const bool p_zero = a.cls == FpClass::zero || b.cls == FpClass::zero;
    const bool p_neg = a.negative != b.negative;
    if (!next && p_inf && (p_zero || (c.cls == FpClass::infinity && c.negative != p_neg))) next = m.nan_invalid;
    if (!next && p_inf) next = ti.inf_bits(p_neg);
    if (!next && c.cls == FpClass::infinity) next = acc;
    if (!next) {
      const Rational v = a.value * b.value + c.value;
      if (v != 0) {
        next = round_value(t, v, ConvertFlags{r.rounding});
      } else {
        const bool prod_zero = p_zero, exact_zeros = prod_zero && c.cls == FpClass::zero;
        const bool neg = exact_zeros && p_neg == c.negative ? p_neg : r.rounding == Rounding::rm;
        next = neg ? ti.sign_bit() : 0;
      }
    }
    acc = *next;
  }
  return acc;
}

std::uint64_t wrap32(const BigInt& s) {
  const BigInt m = BigInt(1) << 32;
  BigInt w = s % m;
  if (w < 0) w += m;
  return static_cast<std::uint64_t>(w);
}

// The products and C combined in the model's order, each addition rounded by the rational rule.
std::uint64_t tree_model(const Model& m, const DotRequest& r) {
  const AddTree& t = m.tree;
  bool nan = false, pos = false, neg = false;
  const ExactValue c = exact_value(r.c, r.c_code);
  if (c.cls == FpClass::nan) nan = true;
  if (c.cls == FpClass::infinity) (c.negative ? neg : pos) = true;
  for (int k = 0; k < r.k; ++k) {
    const ExactValue a = exact_value(r.a, r.a_codes[k]), b = exact_value(r.b, r.b_codes[k]);
    if (a.cls == FpClass::nan || b.cls == FpClass::nan) nan = true;
    if (a.cls == FpClass::infinity || b.cls == FpClass::infinity) {
      if (a.cls == FpClass::zero || b.cls == FpClass::zero) nan = true;
      ((a.negative != b.negative) ? neg : pos) = true;
    }
  }
  if (nan || (pos && neg)) return nan_of(m, r.d);
  if (pos || neg) return info(r.d).inf_bits(neg);
  std::vector<ExactValue> stack;
  for (const int op : t.postfix) {
    if (op == AddTree::kC) {
      stack.push_back(c);
    } else if (op == AddTree::kZero) {
      stack.push_back({FpClass::zero, false, 0});
    } else if (op >= 0) {
      const ExactValue a = exact_value(r.a, r.a_codes[op]), b = exact_value(r.b, r.b_codes[op]);
      const Rational v = a.value * b.value;
      stack.push_back({v == 0 ? FpClass::zero : FpClass::normal, a.negative != b.negative, v});
    } else {
      const ExactValue y = stack.back();
      stack.pop_back();
      const ExactValue x = stack.back();
      stack.pop_back();
      const Rational v = x.value + y.value;
      bool negative = v < 0;
      if (v == 0) negative = x.cls == FpClass::zero && y.cls == FpClass::zero && x.negative == y.negative
                                 ? x.negative
                                 : t.round == Rounding::rm;
      const std::uint64_t code = round_exact(t.format, {v == 0 ? FpClass::zero : FpClass::normal, negative, v},
                                             ConvertFlags{t.round});
      stack.push_back(exact_value(t.format, code));
    }
  }
  return round_exact(r.d, stack.back(), ConvertFlags{t.round});
}

}  // namespace

std::uint64_t exact_dot(const Model& m, const DotRequest& r) {
  switch (m.engine) {
    case Engine::block_fma: return block_model(m, r);
    case Engine::fma_chain: return fma_model(m, r);
    case Engine::add_tree: return tree_model(m, r);
    case Engine::integer: {
      BigInt s = integer_value(r.c, r.c_code);
      for (int k = 0; k < r.k; ++k) s += BigInt(integer_value(r.a, r.a_codes[k])) * integer_value(r.b, r.b_codes[k]);
      if (r.satfinite) s = std::clamp(s, BigInt(INT32_MIN), BigInt(INT32_MAX));
      return wrap32(s);
    }
    case Engine::popc: {
      BigInt s = integer_value(Type::s32, r.c_code);
      for (int k = 0; k < r.k; ++k)
        s += r.bitop == BitOp::and_popc ? (r.a_codes[k] & r.b_codes[k] & 1) : ((r.a_codes[k] ^ r.b_codes[k]) & 1);
      return wrap32(s);
    }
  }
  return 0;
}

}  // namespace ptxmma::testing
