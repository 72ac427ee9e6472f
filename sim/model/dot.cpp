#include "sim/model/dot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>

#include "sim/error.hpp"
#include "sim/model/term.hpp"

namespace ptxmma {
namespace {

__extension__ typedef __int128 i128;

std::uint64_t nan_of(const Model& m, Type d) {
  switch (d) {
    case Type::f32: return m.nan_f32;
    case Type::f16: return m.nan_f16;
    default: return info(d).canonical_nan();
  }
}

std::string hexcode(Type t, std::uint64_t code) {
  return fmt::format("0x{:0{}x}", container_of(info(t), code), (info(t).bits + info(t).shift + 3) / 4);
}

// The k that explain names: a sparse row's stored element by its logical column.
int shown_k(const DotTrace& t, int k) {
  return t.logical_k.empty() ? k : t.logical_k[static_cast<std::size_t>(k)];
}

// Which operands decided a special result (docs/numerics.md §2.6), for explain: the NaN operands,
// the 0 x Inf products, the infinities. `ks`: the products taking part; `start`: C or the running sum.
std::string special_cause(const DotTrace& t, const DotOperands& r, const std::vector<int>& ks, const Term* start,
                          Type start_type, const char* start_name) {
  std::vector<std::string> nan, invalid, pos, neg;
  const auto inf_of = [&](const Term& x, const std::string& who) {
    if (x.cls == FpClass::infinity) (x.sign ? neg : pos).push_back(who);
  };
  for (const int k : ks) {
    const Term& a = r.a_terms[k];
    const Term& b = r.b_terms[k];
    const int shown = shown_k(t, k);
    if (a.cls == FpClass::nan) nan.push_back(fmt::format("A[k={}] {}", shown, hexcode(r.a, a.code)));
    if (b.cls == FpClass::nan) nan.push_back(fmt::format("B[k={}] {}", shown, hexcode(r.b, b.code)));
    if (a.cls == FpClass::nan || b.cls == FpClass::nan) continue;
    const bool a_inf = a.cls == FpClass::infinity, b_inf = b.cls == FpClass::infinity;
    if ((a_inf && b.cls == FpClass::zero) || (b_inf && a.cls == FpClass::zero))
      invalid.push_back(fmt::format("k={}", shown));
    else if (a_inf || b_inf)
      (a.sign != b.sign ? neg : pos).push_back(fmt::format("the product at k={}", shown));
  }
  if (start) {
    if (start->cls == FpClass::nan) nan.push_back(fmt::format("{} {}", start_name, hexcode(start_type, start->code)));
    inf_of(*start, start_name);
  }
  const auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
    return out;
  };
  if (!nan.empty()) return fmt::format("NaN, because {} {} NaN", list(nan), nan.size() > 1 ? "are" : "is");
  if (!invalid.empty()) return fmt::format("NaN, because 0 x Inf at {}", list(invalid));
  if (!pos.empty() && !neg.empty()) return fmt::format("NaN, because +Inf ({}) meets -Inf ({})", list(pos), list(neg));
  return fmt::format("{}Inf, from {}", pos.empty() ? "-" : "+", list(pos.empty() ? neg : pos));
}

// Special operands decide the result before any arithmetic (docs/numerics.md §2.6).
struct Specials {
  bool nan = false, pos_inf = false, neg_inf = false;
  void add(const Term& t) {
    if (t.cls == FpClass::nan) nan = true;
    if (t.cls == FpClass::infinity) (t.sign ? neg_inf : pos_inf) = true;
  }
  [[nodiscard]] bool any() const { return nan || pos_inf || neg_inf; }
  [[nodiscard]] std::uint64_t result(const Model& m, Type d) const {
    return nan || (pos_inf && neg_inf) ? nan_of(m, d) : info(d).inf_bits(neg_inf);
  }
};

// A NaN operand, 0 x Inf, and opposite infinities make NaN; otherwise an Inf makes that Inf.
void add_product(Specials& s, const Term& a, const Term& b) {
  if (a.cls == FpClass::nan || b.cls == FpClass::nan) s.nan = true;
  const bool a_inf = a.cls == FpClass::infinity, b_inf = b.cls == FpClass::infinity;
  if (a_inf || b_inf) {
    if ((a_inf && b.cls == FpClass::zero) || (b_inf && a.cls == FpClass::zero)) s.nan = true;
    (a.sign != b.sign ? s.neg_inf : s.pos_inf) = true;
  }
}

Specials product_specials(const DotOperands& r) {
  Specials s;
  for (int k = 0; k < r.k; ++k) add_product(s, r.a_terms[k], r.b_terms[k]);
  return s;
}

int width(u128 x) {
  const auto hi = static_cast<std::uint64_t>(x >> 64);
  return hi ? 64 + std::bit_width(hi) : std::bit_width(static_cast<std::uint64_t>(x));
}

// Rounds v onto the grid of `frac` fraction bits in d's exponent range (BlockFma::Output::frac):
// the result is exact in d, so the rounding into d that follows changes nothing but overflow.
Unrounded narrow(const Unrounded& v, Type d, int frac, Rounding mode) {
  if (v.sig == 0) return v;
  const int lead = v.exp + width(v.sig) - 1;
  const int ulp = std::max(lead, info(d).emin()) - frac;
  if (ulp <= v.exp) return v;
  const int shift = ulp - v.exp;
  const u128 keep = shift >= 128 ? 0 : v.sig >> shift;
  const u128 rem = shift >= 128 ? v.sig : v.sig & ((u128{1} << shift) - 1);
  const bool beyond = shift > 128;  // v is below half an ulp
  const u128 half = beyond ? 0 : u128{1} << (shift - 1);
  bool up = false;
  switch (mode) {
    case Rounding::rz: break;
    case Rounding::rn: up = !beyond && (rem > half || (rem == half && (keep & 1) != 0)); break;
    case Rounding::rna: up = !beyond && rem >= half; break;
    case Rounding::rm: up = v.sign && rem != 0; break;
    case Rounding::rp: up = !v.sign && rem != 0; break;
  }
  return Unrounded{v.sign, ulp, keep + (up ? 1 : 0), false};
}

// One block: the terms are aligned to the largest exponent E, every term keeps its bits down to
// 2^(E-F) (the magnitude is truncated), the integer sum is exact and is rounded once to `d`.
// `roles`, when explain asks (`blk`): what each term is. `kExplain` compiles the recording out of
// the engine's own runs (the block-scaled kinds and every NaN or Inf output run here).
template <bool kExplain>
std::uint64_t block_sum(const Model& m, const Term* terms, int n, Type d, DotTrace::Block* blk,
                        const DotTrace::Term* roles) {
  const BlockFma& p = m.block;
  int e_max = INT_MIN;
  for (int i = 0; i < n; ++i)
    if (terms[i].sig != 0 || p.zeros_set_exponent) e_max = std::max(e_max, terms[i].exp);
  if (e_max == INT_MIN) {
    if constexpr (kExplain) blk->all_zero = true;
    return 0;
  }
  const BlockFma::Output& out = p.output(d);
  if (out.exp_floor) e_max = std::max(e_max, *out.exp_floor);
  const int cut = e_max - p.frac_bits;  // weight of the last kept bit
  i128 sum = 0;
  for (int i = 0; i < n; ++i) {
    const Term& t = terms[i];
    if (t.sig == 0) continue;
    const int shift = t.lsb - cut;
    const auto sig = static_cast<std::uint64_t>(t.sig);  // block inputs are at most 8-bit x 11-bit wide
    std::uint64_t q;
    if (shift >= 0) q = sig << shift;  // at most F + 2 bits
    else q = -shift >= 64 ? 0 : sig >> -shift;
    sum += t.sign ? -static_cast<i128>(q) : static_cast<i128>(q);
    if constexpr (kExplain) {
      DotTrace::Term r = roles[i];
      r.sign = t.sign;
      r.exp = t.exp;
      r.lsb = t.lsb;
      r.sig = t.sig;
      r.kept = q;
      r.dropped = shift >= 0 ? 0 : (-shift >= 64 ? sig : sig & ((1ULL << -shift) - 1));
      blk->terms.push_back(r);
    }
  }
  const bool neg = sum < 0;
  const auto mag = static_cast<u128>(neg ? -sum : sum);
  const Rounding mode = out.round;
  Unrounded v{neg, cut, mag, false};
  if (out.frac) v = narrow(v, d, *out.frac, mode);
  std::uint64_t code = round_to(d, v, ConvertFlags{mode, false, false, true});
  // A block never gives -0: a negative sum that rounds to zero is +0 (docs/hardware/wgmma-sm90.md).
  if (code == info(d).sign_bit()) code = 0;
  if constexpr (kExplain) {
    blk->e_max = e_max;
    blk->cut = cut;
    blk->negative = neg;
    blk->sum = mag;
    blk->round = mode;
    blk->frac = out.frac;
    blk->result = code;
  }
  return code;
}

// The blocks of the K products, starting from `acc` (C, or +0 when C is added last). Special
// values are decided per block, from its products and the running sum: an earlier block that
// overflowed to Inf meets a later block's infinities as the hardware's does.
// `start` is the running sum's decoded form when the caller has it (C).
std::uint64_t run_blocks(const Model& m, const DotOperands& r, Type acc_type, std::uint64_t acc, const Term* start,
                         DotTrace* trace) {
  const BlockFma& p = m.block;
  Term terms[kMaxK + 1];  // one block's products + the running sum
  std::vector<DotTrace::Term> roles(trace ? kMaxK + 1 : 0);  // explain only: no cost otherwise
  for (int b = 0; b < p.blocks; ++b) {
    int n = 0;
    Specials s;
    DotTrace::Block* blk = nullptr;
    if (trace) blk = &trace->blocks.emplace_back();
    for (int k0 = b * p.run; k0 < r.k; k0 += p.run * p.blocks) {  // this block's runs of k
      const int end = std::min(k0 + p.run, r.k);
      for (int k = k0; k < end; ++k) {
        if (!r.finite_ab) add_product(s, r.a_terms[k], r.b_terms[k]);
        if (blk) {
          blk->ks.push_back(k);
          roles[n] = DotTrace::Term{DotTrace::Role::product, shown_k(*trace, k), shown_k(*trace, k)};
        }
        terms[n++] = multiply(r.a_terms[k], r.b_terms[k]);
      }
    }
    const bool is_c = b == 0 && start;
    const Term running = is_c ? *start : make_term(acc_type, acc);
    s.add(running);
    if (blk) {
      blk->start_type = acc_type;
      blk->start = acc;
      blk->start_is_c = is_c;
      roles[n] = DotTrace::Term{is_c ? DotTrace::Role::accumulator : DotTrace::Role::running_sum};
    }
    if (s.any()) {
      acc = s.result(m, r.d);
      if (blk) {
        blk->special = special_cause(*trace, r, blk->ks, &running, acc_type, is_c ? "C" : "the running sum");
        blk->result = acc;
      }
    } else {
      terms[n] = running;
      acc = blk ? block_sum<true>(m, terms, n + 1, r.d, blk, roles.data())
                : block_sum<false>(m, terms, n + 1, r.d, nullptr, nullptr);
    }
    acc_type = r.d;
  }
  return acc;
}

// Block-scaled kinds: one block of the scaled terms and C (docs/numerics.md §4.6). A NaN scale makes
// NaN whatever it multiplies (all-zero products too), as do the usual special operands.
std::uint64_t scaled_block(const Model& m, const DotOperands& r, DotTrace* trace) {
  Specials s = product_specials(r);
  for (int v = 0; v < r.k / r.scale_k; ++v)
    if (r.a_scales[v].cls == FpClass::nan || r.b_scales[v].cls == FpClass::nan) s.nan = true;
  s.add(*r.c_term);
  std::vector<int> all;
  if (trace)
    for (int k = 0; k < r.k; ++k) all.push_back(k);
  if (s.any()) {
    if (trace) {
      std::string scales;
      for (int v = 0; v < r.k / r.scale_k; ++v) {
        if (r.a_scales[v].cls == FpClass::nan) scales += fmt::format("{}scale A of k-block {}", scales.empty() ? "" : ", ", v);
        if (r.b_scales[v].cls == FpClass::nan) scales += fmt::format("{}scale B of k-block {}", scales.empty() ? "" : ", ", v);
      }
      trace->special = scales.empty() ? special_cause(*trace, r, all, r.c_term, r.c, "C")
                                      : fmt::format("NaN, because {} is NaN", scales);
    }
    return s.result(m, r.d);
  }
  Term terms[kMaxK + 1];
  std::vector<DotTrace::Term> roles(trace ? kMaxK + 1 : 0);
  DotTrace::Block* blk = nullptr;
  if (trace) {
    blk = &trace->blocks.emplace_back();
    blk->ks = all;
    blk->start_type = r.c;
    blk->start = r.c_term->code;
    blk->start_is_c = true;
  }
  int n = 0;
  const int group = m.block.scale_group;
  if (group == 0) {  // each product, its exponent raised by both scales'
    for (int k = 0; k < r.k; ++k) {
      if (blk) roles[n] = DotTrace::Term{DotTrace::Role::product, shown_k(*trace, k), shown_k(*trace, k)};
      terms[n++] = multiply(multiply(r.a_terms[k], r.b_terms[k]),
                            multiply(r.a_scales[k / r.scale_k], r.b_scales[k / r.scale_k]));
    }
  } else {  // each group's exact sum times both scales; its exponent, the scales'
    for (int g0 = 0; g0 < r.k; g0 += group) {
      const int end = std::min(g0 + group, r.k);
      int lsb = INT_MAX;
      for (int k = g0; k < end; ++k)
        if (r.a_terms[k].sig != 0 && r.b_terms[k].sig != 0) lsb = std::min(lsb, r.a_terms[k].lsb + r.b_terms[k].lsb);
      i128 sum = 0;
      for (int k = g0; k < end && lsb != INT_MAX; ++k) {
        const Term p = multiply(r.a_terms[k], r.b_terms[k]);
        if (p.sig == 0) continue;
        const int shift = p.lsb - lsb;
        if (shift + width(p.sig) > 120)
          throw Error(fmt::format("model {}: a group sum of {} x {} products does not fit 120 bits", m.name,
                                  name(r.a), name(r.b)));
        const auto q = static_cast<i128>(p.sig << shift);
        sum += p.sign ? -q : q;
      }
      const Term& sa = r.a_scales[g0 / r.scale_k];
      const Term& sb = r.b_scales[g0 / r.scale_k];
      const auto mag = static_cast<u128>(sum < 0 ? -sum : sum);
      const u128 sig = mag * sa.sig * sb.sig;
      if (width(sig) > 48)  // block_sum shifts a term's significand within 64 bits
        throw Error(fmt::format("model {}: a scaled group sum of {} products is wider than 48 bits", m.name, name(r.a)));
      if (blk) roles[n] = DotTrace::Term{DotTrace::Role::group, shown_k(*trace, g0), shown_k(*trace, end - 1)};
      terms[n++] = Term{sig == 0 ? FpClass::zero : FpClass::normal, sum < 0, sa.exp + sb.exp,
                        (lsb == INT_MAX ? 0 : lsb) + sa.lsb + sb.lsb, sig, 0};
    }
  }
  if (blk) roles[n] = DotTrace::Term{DotTrace::Role::accumulator};
  terms[n++] = *r.c_term;
  return blk ? block_sum<true>(m, terms, n, r.d, blk, roles.data()) : block_sum<false>(m, terms, n, r.d, nullptr, nullptr);
}

std::uint64_t block_fma(const Model& m, const DotOperands& r, DotTrace* trace) {
  if (r.a_scales) {
    if (m.block.blocks != 1 || m.block.c_entry != BlockFma::CEntry::first_block)
      throw Error(fmt::format("model {}: a block-scaled kind needs one block with C in it", m.name));
    return scaled_block(m, r, trace);
  }
  const std::uint64_t c_code = r.c_term->code;
  if (m.block.c_entry == BlockFma::CEntry::first_block) return run_blocks(m, r, r.c, c_code, r.c_term, trace);
  const std::uint64_t acc = run_blocks(m, r, r.d, 0, nullptr, trace);
  const std::uint64_t out = ieee_add(m, r.d, acc, r.c, c_code, m.block.final_add_round);
  if (trace) trace->final_add = DotTrace::FinalAdd{acc, out, m.block.final_add_round};
  return out;
}

std::uint64_t fma_chain(const Model& m, const DotOperands& r, DotTrace* trace) {
  std::uint64_t acc = r.c_term->code;
  for (int k = 0; k < r.k; ++k) {
    const std::uint64_t next = fma_step(m, r.d, r.a_terms[k].code, r.b_terms[k].code, acc, r.rounding);
    if (trace) trace->fmas.push_back(DotTrace::Fma{acc, next});
    acc = next;
  }
  return acc;
}

std::int64_t signed_value(const Term& t) {
  const auto v = static_cast<std::int64_t>(t.sig);
  return t.sign ? -v : v;
}

std::uint64_t integer_dot(const DotOperands& r, DotTrace* trace) {
  std::int64_t sum = signed_value(*r.c_term);
  for (int k = 0; k < r.k; ++k) sum += signed_value(r.a_terms[k]) * signed_value(r.b_terms[k]);
  std::int64_t out = sum;
  if (r.satfinite) out = std::clamp<std::int64_t>(sum, INT32_MIN, INT32_MAX);
  if (trace) trace->integer_sum = sum;
  return static_cast<std::uint32_t>(out);
}

std::uint64_t popc_dot(const DotOperands& r, DotTrace* trace) {
  std::uint32_t count = 0;
  for (int k = 0; k < r.k; ++k) {
    const std::uint64_t a = r.a_terms[k].code & 1, b = r.b_terms[k].code & 1;
    count += static_cast<std::uint32_t>(r.bitop == BitOp::and_popc ? (a & b) : (a ^ b));
  }
  if (trace) trace->popc = count;
  return static_cast<std::uint32_t>(r.c_term->code) + count;
}

// Exact products and C, each exactly representable in the tree's format, combined by IEEE
// additions in the model's order; the result is rounded to D.
std::uint64_t add_tree(const Model& m, const DotOperands& r, DotTrace* trace) {
  Specials s = r.finite_ab ? Specials{} : product_specials(r);
  s.add(*r.c_term);
  if (s.any()) {
    if (trace) {
      std::vector<int> all;
      for (int k = 0; k < r.k; ++k) all.push_back(k);
      trace->special = special_cause(*trace, r, all, r.c_term, r.c, "C");
    }
    return s.result(m, r.d);
  }
  const AddTree& t = m.tree;
  const auto leaves = static_cast<long>(std::count_if(t.postfix.begin(), t.postfix.end(), [](int op) { return op >= 0; }));
  if (leaves != r.k)
    throw Error(fmt::format("model {}: addition order '{}' does not add {} products and C", m.name, t.text, r.k));
  std::uint64_t stack[kMaxK + 2];
  int sp = 0;
  for (const int op : t.postfix) {
    if (op == AddTree::kAdd) {
      const std::uint64_t y = stack[--sp], x = stack[--sp];
      stack[sp++] = ieee_add(m, t.format, x, t.format, y, t.round);
      if (trace) trace->adds.push_back(DotTrace::Add{x, y, stack[sp - 1]});
    } else if (op == AddTree::kZero) {
      stack[sp++] = 0;
    } else if (op == AddTree::kC) {
      stack[sp++] = convert(r.c, r.c_term->code, t.format, ConvertFlags{t.round});
    } else {
      if (op >= r.k) throw Error(fmt::format("model {}: addition order '{}' names p{}, but K = {}", m.name, t.text, op, r.k));
      const Term p = multiply(r.a_terms[op], r.b_terms[op]);
      stack[sp++] = round_to(t.format, Unrounded{p.sign, p.lsb, p.sig, false}, ConvertFlags{t.round});
    }
  }
  return convert(t.format, stack[0], r.d, ConvertFlags{t.round});
}

}  // namespace

std::uint64_t dot(const Model& m, const DotRequest& r, DotTrace* trace) {
  if (r.k < 0 || r.k > kMaxK) throw Error(fmt::format("dot product of K = {} (at most {})", r.k, kMaxK));
  Term a[kMaxK], b[kMaxK];
  for (int k = 0; k < r.k; ++k) {
    a[k] = make_term(r.a, r.a_codes[k]);
    b[k] = make_term(r.b, r.b_codes[k]);
  }
  const Term c = make_term(r.c, r.c_code);
  return dot(m, DotOperands{r.a, r.b, r.c, r.d, a, b, r.k, &c, r.rounding, r.satfinite, r.bitop}, trace);
}

namespace {

std::uint64_t run_engine(const Model& m, const DotOperands& r, DotTrace* trace) {
  switch (m.engine) {
    case Engine::block_fma: return block_fma(m, r, trace);
    case Engine::fma_chain: return fma_chain(m, r, trace);
    case Engine::integer: return integer_dot(r, trace);
    case Engine::popc: return popc_dot(r, trace);
    case Engine::add_tree: return add_tree(m, r, trace);
  }
  return 0;
}

}  // namespace

std::uint64_t dot(const Model& m, const DotOperands& r, DotTrace* trace) {
  if (!trace) return run_engine(m, r, trace);
  trace->a = r.a;
  trace->b = r.b;
  trace->c = r.c;
  trace->d = r.d;
  trace->a_codes.clear();
  trace->b_codes.clear();
  for (int k = 0; k < r.k; ++k) {
    trace->a_codes.push_back(r.a_terms[k].code);
    trace->b_codes.push_back(r.b_terms[k].code);
  }
  trace->c_code = r.c_term->code;
  trace->rounding = r.rounding;
  trace->satfinite = r.satfinite;
  trace->bitop = r.bitop;
  trace->result = run_engine(m, r, trace);
  return trace->result;
}

}  // namespace ptxmma
