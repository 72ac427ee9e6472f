#include "tools/vectors/explanation.hpp"

#include <fmt/format.h>

#include <bit>

#include "sim/numeric/exact.hpp"
#include "sim/numeric/fields.hpp"

namespace ptxmma {
namespace {

using nlohmann::json;

std::string hex_of(Type t, std::uint64_t code) {
  const TypeInfo& ti = info(t);
  return fmt::format("0x{:0{}x}", container_of(ti, code), (ti.bits + ti.shift + 3) / 4);
}

BigInt big(u128 x) {
  BigInt v = static_cast<std::uint64_t>(x >> 64);
  v <<= 64;
  v += static_cast<std::uint64_t>(x);
  return v;
}

// {"value": (-1)^sign * sig * 2^e as an exact decimal}: an exact number without an encoding.
json exact(bool sign, u128 sig, int e) {
  const Rational v = Rational(big(sig)) * pow2(e);
  return {{"value", exact_decimal(sign ? Rational(-v) : v)}};
}

int width(u128 x) {
  const auto hi = static_cast<std::uint64_t>(x >> 64);
  return hi ? 64 + std::bit_width(hi) : std::bit_width(static_cast<std::uint64_t>(x));
}

std::string engine_name(Engine e) {
  switch (e) {
    case Engine::block_fma: return "block_fma";
    case Engine::fma_chain: return "fma_chain";
    case Engine::integer: return "integer";
    case Engine::popc: return "popc";
    case Engine::add_tree: return "add_tree";
  }
  return "";
}

std::string mode_rule(Rounding r) {
  switch (r) {
    case Rounding::rn: return "round to nearest, ties to even (rn)";
    case Rounding::rna: return "round to nearest, ties away from zero (rna)";
    case Rounding::rz: return "truncate: round toward zero (rz)";
    case Rounding::rm: return "round down, toward -Inf (rm)";
    case Rounding::rp: return "round up, toward +Inf (rp)";
  }
  return "";
}

// What a result beyond the format's largest finite value gives: a tensor-core block sum gives Inf
// whatever the direction (docs/numerics.md §2.2, step 6; round_to's overflow_to_inf), an IEEE
// operation what IEEE 754 says for its direction.
std::string overflow_rule(Rounding r, bool tensor_core) {
  if (tensor_core) return "overflow gives +-Inf whatever the direction (the tensor-core rule)";
  switch (r) {
    case Rounding::rn:
    case Rounding::rna: return "overflow gives +-Inf";
    case Rounding::rz: return "overflow saturates to +-the largest finite value";
    case Rounding::rm: return "overflow gives -Inf below, the largest finite value above";
    case Rounding::rp: return "overflow gives +Inf above, minus the largest finite value below";
  }
  return "";
}

json rounding_json(Rounding r, bool tensor_core) {
  return {{"mode", std::string(name(r))}, {"rule", mode_rule(r)}, {"overflow", overflow_rule(r, tensor_core)}};
}

int shown_k(const DotTrace& t, int k) {
  return t.logical_k.empty() ? k : t.logical_k[static_cast<std::size_t>(k)];
}

// The exact product of A and B at k as text: NaN and infinities as IEEE multiplies them.
std::string product_text(const DotTrace& t, std::size_t k) {
  if (t.bitop != BitOp::none) {
    const std::uint64_t a = t.a_codes[k] & 1, b = t.b_codes[k] & 1;
    return std::to_string(t.bitop == BitOp::and_popc ? (a & b) : (a ^ b));
  }
  const ExactValue a = exact_value(t.a, t.a_codes[k]), b = exact_value(t.b, t.b_codes[k]);
  const bool neg = a.negative != b.negative;
  const bool a_inf = a.cls == FpClass::infinity, b_inf = b.cls == FpClass::infinity;
  if (a.cls == FpClass::nan || b.cls == FpClass::nan || (a_inf && b.cls == FpClass::zero) ||
      (b_inf && a.cls == FpClass::zero))
    return "NaN";
  if (a_inf || b_inf) return neg ? "-Inf" : "+Inf";
  if (a.cls == FpClass::zero || b.cls == FpClass::zero) return neg && info(t.a).is_float ? "-0" : "0";
  return exact_decimal(a.value * b.value);
}

const char* role_name(DotTrace::Role r) {
  switch (r) {
    case DotTrace::Role::product: return "product";
    case DotTrace::Role::accumulator: return "accumulator";
    case DotTrace::Role::running_sum: return "running_sum";
    case DotTrace::Role::group: return "group";
  }
  return "";
}

json block_json(const Model& m, const DotTrace& t, const DotTrace::Block& b) {
  json ks = json::array();
  for (const int k : b.ks) ks.push_back(shown_k(t, k));
  json start = value_json(b.start_type, b.start);
  start["type"] = std::string(name(b.start_type));
  start["what"] = b.start_is_c ? "C" : m.block.c_entry == BlockFma::CEntry::final_add && &b == &t.blocks.front()
                                           ? "+0"
                                           : "running_sum";
  json j = {{"k", ks}, {"start", start}, {"result", value_json(t.d, b.result)}};
  j["special"] = b.special.empty() ? json(nullptr) : json(b.special);
  if (!b.special.empty()) return j;
  if (b.all_zero) {
    j["all_zero"] = true;
    return j;
  }
  j["largest_exponent"] = b.e_max;
  j["kept_down_to"] = b.cut;  // the weight 2^cut of the last bit kept
  json terms = json::array();
  for (const DotTrace::Term& x : b.terms) {
    json e = {{"role", role_name(x.role)},
              {"value", exact(x.sign, x.sig, x.lsb)},
              {"exponent", x.exp},
              {"alignment_shift", b.e_max - x.exp},
              {"kept", exact(x.sign, x.kept, b.cut)},
              {"dropped", exact(x.sign, x.dropped, x.lsb)},
              {"dropped_bits", x.dropped == 0 ? 0 : std::min(b.cut - x.lsb, width(x.sig))}};
    if (x.role == DotTrace::Role::product || x.role == DotTrace::Role::group) e["k"] = x.k;
    if (x.role == DotTrace::Role::group) e["k_last"] = x.k_last;
    terms.push_back(std::move(e));
  }
  j["terms"] = std::move(terms);
  j["sum"] = exact(b.negative, b.sum, b.cut);
  j["rounding"] = rounding_json(b.round, true);
  j["fraction_bits"] = b.frac ? json(*b.frac) : json(nullptr);
  j["overflow"] = info(t.d).is_float && decode(t.d, b.result).cls == FpClass::infinity;
  return j;
}

// The rounding that makes the result, by engine.
json final_rounding(const Model& m, const DotTrace& t) {
  switch (m.engine) {
    case Engine::block_fma:
      if (t.final_add) return rounding_json(t.final_add->round, false);
      return rounding_json(m.block.output(t.d).round, true);
    case Engine::fma_chain: return rounding_json(t.rounding, false);
    case Engine::add_tree: return rounding_json(m.tree.round, false);
    case Engine::integer:
      return {{"mode", nullptr},
              {"rule", "none: integer products and their sum are exact"},
              {"overflow", t.satfinite ? "a sum beyond s32 is clamped to -2^31 .. 2^31 - 1 (satfinite)"
                                       : "a sum beyond s32 wraps modulo 2^32"}};
    case Engine::popc:
      return {{"mode", nullptr}, {"rule", "none: the count is exact"}, {"overflow", "C + popc wraps modulo 2^32"}};
  }
  return nullptr;
}

std::string ranges(const json& ks) {
  std::string out;
  for (std::size_t i = 0; i < ks.size();) {
    std::size_t j = i;
    while (j + 1 < ks.size() && ks[j + 1].get<int>() == ks[j].get<int>() + 1) ++j;
    out += (out.empty() ? "" : ", ") + (i == j ? fmt::format("{}", ks[i].get<int>())
                                               : fmt::format("{}-{}", ks[i].get<int>(), ks[j].get<int>()));
    i = j + 1;
  }
  return out;
}


std::string rule_text(const json& r) {
  return fmt::format("{}; {}", r["rule"].get<std::string>(), r["overflow"].get<std::string>());
}

// The step of a chain of FMAs where a NaN first appears, and why: a NaN operand (the model's
// priority picks which propagates) or an invalid operation. Null when the result is no NaN.
json chain_nan(const Model& m, const DotTrace& t) {
  for (std::size_t k = 0; k < t.fmas.size(); ++k) {
    if (decode(t.d, t.fmas[k].result).cls != FpClass::nan) continue;
    std::string nans;
    const auto add = [&](Type ty, std::uint64_t code, const std::string& who) {
      if (decode(ty, code).cls == FpClass::nan) nans += fmt::format("{}{} {}", nans.empty() ? "" : ", ", who, hex_of(ty, code));
    };
    const int shown = shown_k(t, static_cast<int>(k));
    add(t.a, t.a_codes[k], fmt::format("A[k={}]", shown));
    add(t.b, t.b_codes[k], fmt::format("B[k={}]", shown));
    add(t.d, t.fmas[k].acc, k == 0 ? "C" : "the running sum");
    if (nans.empty())
      return fmt::format("NaN at k={}, because 0 x Inf or Inf - Inf is invalid (the model's NaN)", shown);
    return fmt::format("NaN at k={}, because {} is NaN (the first NaN in the order '{}' of a, b, c propagates, quietened)",
                       shown, nans, m.nan_priority);
  }
  return nullptr;
}

}  // namespace

json value_json(Type t, std::uint64_t code) { return {{"hex", hex_of(t, code)}, {"value", exact_text(t, code)}}; }

std::string value_line(const json& v) {
  return fmt::format("{} = {}", v["hex"].get<std::string>(), v["value"].get<std::string>());
}

json explanation_json(const Model& m, const DotTrace& t) {
  json j;
  j["engine"] = engine_name(m.engine);
  j["types"] = {{"A", name(t.a)}, {"B", name(t.b)}, {"C", name(t.c)}, {"D", name(t.d)}};
  if (m.engine == Engine::block_fma)
    j["block"] = {{"blocks", m.block.blocks},
                  {"run", m.block.run},
                  {"frac_bits", m.block.frac_bits},
                  {"c_entry", m.block.c_entry == BlockFma::CEntry::first_block ? "first_block" : "final_add"}};
  if (m.engine == Engine::add_tree) j["order"] = m.tree.text;
  json terms = json::array();
  for (std::size_t k = 0; k < t.a_codes.size(); ++k)
    terms.push_back({{"k", shown_k(t, static_cast<int>(k))},
                     {"a", value_json(t.a, t.a_codes[k])},
                     {"b", value_json(t.b, t.b_codes[k])},
                     {"product", {{"value", product_text(t, k)}}}});
  j["terms"] = std::move(terms);
  j["accumulator"] = value_json(t.c, t.c_code);
  j["scales"] = t.scales;
  json blocks = json::array();
  for (const DotTrace::Block& b : t.blocks) blocks.push_back(block_json(m, t, b));
  j["blocks"] = std::move(blocks);
  if (t.final_add)
    j["final_add"] = {{"sum", value_json(t.d, t.final_add->sum)},
                      {"c", value_json(t.c, t.c_code)},
                      {"result", value_json(t.d, t.final_add->result)},
                      {"rounding", rounding_json(t.final_add->round, false)}};
  json fmas = json::array();
  for (std::size_t k = 0; k < t.fmas.size(); ++k)
    fmas.push_back({{"k", shown_k(t, static_cast<int>(k))},
                    {"acc", value_json(t.d, t.fmas[k].acc)},
                    {"result", value_json(t.d, t.fmas[k].result)}});
  j["fmas"] = std::move(fmas);
  if (m.engine == Engine::fma_chain) j["nan_priority"] = m.nan_priority;
  json adds = json::array();
  for (const DotTrace::Add& a : t.adds)
    adds.push_back({{"x", value_json(m.tree.format, a.x)},
                    {"y", value_json(m.tree.format, a.y)},
                    {"result", value_json(m.tree.format, a.result)}});
  j["additions"] = std::move(adds);
  j["integer_sum"] = t.integer_sum ? json(*t.integer_sum) : json(nullptr);
  j["popc"] = t.popc ? json(*t.popc) : json(nullptr);
  j["special"] = t.special.empty() ? json(nullptr) : json(t.special);
  if (m.engine == Engine::fma_chain) j["special"] = chain_nan(m, t);
  j["rounding"] = final_rounding(m, t);
  j["notes"] = t.notes;
  j["result"] = value_json(t.d, t.result);
  return j;
}

std::vector<std::string> explanation_lines(const json& e) {
  std::vector<std::string> out;
  const json& types = e["types"];
  const std::string engine = e["engine"];
  const std::string d = types["D"];
  out.push_back(fmt::format("D = sum over k of A[k] x B[k] + C; A {}, B {}, C {}, D {}", types["A"].get<std::string>(),
                            types["B"].get<std::string>(), types["C"].get<std::string>(), d));
  if (engine == "block_fma") {
    const json& p = e["block"];
    const int blocks = p["blocks"];
    out.push_back(fmt::format(
        "block FMA: {}; a block's terms are aligned to their largest exponent E and cut below 2^(E-{}); {}",
        blocks == 1 ? std::string("one block") : fmt::format("{} blocks, each rounded to D and carried into the next", blocks),
        p["frac_bits"].get<int>(),
        p["c_entry"] == "first_block" ? "C is a term of the first block" : "C is added to the last block's D"));
  } else if (engine == "fma_chain") {
    out.push_back("a chain of fused multiply-adds fma(A[k], B[k], running sum), k increasing, each rounded once");
  } else if (engine == "add_tree") {
    out.push_back("exact products added by IEEE additions in the order " + e["order"].get<std::string>());
  }
  out.push_back("terms (k: A x B = exact product):");
  for (const json& x : e["terms"])
    out.push_back(fmt::format("  k {}: {} x {} = {}", x["k"].get<int>(), value_line(x["a"]), value_line(x["b"]),
                              x["product"]["value"].get<std::string>()));
  out.push_back("C, the accumulator: " + value_line(e["accumulator"]));
  for (const json& s : e["scales"]) out.push_back(s.get<std::string>());
  const std::size_t n = e["blocks"].size();
  for (std::size_t i = 0; i < n; ++i) {
    const json& b = e["blocks"][i];
    const json& start = b["start"];
    const std::string what = start["what"];
    out.push_back(fmt::format("{} (k {}), starting from {}:", n == 1 ? std::string("the block") : fmt::format("block {} of {}", i + 1, n),
                              ranges(b["k"]),
                              what == "C" ? "C" : what == "+0" ? "+0 (C comes last)" : "the running sum " + value_line(start)));
    if (!b["special"].is_null()) {
      out.push_back(fmt::format("  {}: {}", b["special"].get<std::string>(), value_line(b["result"])));
      continue;
    }
    if (b.contains("all_zero")) {
      out.push_back("  every term is zero: +0");
      continue;
    }
    const int cut = b["kept_down_to"];
    out.push_back(fmt::format("  E = {}: every term keeps its bits down to 2^{}", b["largest_exponent"].get<int>(), cut));
    for (const json& x : b["terms"]) {
      const std::string role = x["role"];
      const std::string who = role == "product"     ? fmt::format("k {}", x["k"].get<int>())
                              : role == "group"     ? fmt::format("k {}-{} (group sum)", x["k"].get<int>(), x["k_last"].get<int>())
                              : role == "accumulator" ? std::string("C")
                                                      : std::string("running sum");
      const int shift = x["alignment_shift"];
      const int lost = x["dropped_bits"];
      out.push_back(fmt::format("  {}: {}, exponent {}, {}: {}", who, x["value"]["value"].get<std::string>(), x["exponent"].get<int>(),
                                shift == 0 ? std::string("at E") : fmt::format("{} below E", shift),
                                lost == 0 ? std::string("kept whole")
                                          : fmt::format("keeps {}, drops {} ({} bit{})", x["kept"]["value"].get<std::string>(),
                                                        x["dropped"]["value"].get<std::string>(), lost, lost == 1 ? "" : "s")));
    }
    out.push_back("  exact sum of the kept terms: " + b["sum"]["value"].get<std::string>());
    out.push_back(fmt::format("  rounded into {}{} by {}: {}", d,
                              b["fraction_bits"].is_null() ? std::string()
                                                           : fmt::format(" ({} fraction bits)", b["fraction_bits"].get<int>()),
                              b["rounding"]["rule"].get<std::string>(), value_line(b["result"])));
    if (b["overflow"]) out.push_back("  the sum is beyond " + d + "'s largest finite value: " + b["rounding"]["overflow"].get<std::string>());
  }
  if (e.contains("final_add")) {
    const json& f = e["final_add"];
    out.push_back(fmt::format("C added last by one IEEE addition, {}: {} + {} = {}", f["rounding"]["rule"].get<std::string>(),
                              value_line(f["sum"]), value_line(f["c"]), value_line(f["result"])));
  }
  const json& terms = e["terms"];
  for (std::size_t i = 0; i < e["fmas"].size(); ++i) {
    const json& f = e["fmas"][i];
    out.push_back(fmt::format("k {}: fma({}, {}, {}) = {}", f["k"].get<int>(), terms[i]["a"]["hex"].get<std::string>(),
                              terms[i]["b"]["hex"].get<std::string>(), f["acc"]["hex"].get<std::string>(),
                              value_line(f["result"])));
  }
  for (const json& a : e["additions"])
    out.push_back(fmt::format("{} + {} = {}", value_line(a["x"]), value_line(a["y"]), value_line(a["result"])));
  if (!e["integer_sum"].is_null()) out.push_back(fmt::format("exact sum of the products and C: {}", e["integer_sum"].get<std::int64_t>()));
  if (!e["popc"].is_null()) out.push_back(fmt::format("popc = {}; D = C + popc", e["popc"].get<std::uint32_t>()));
  if (!e["special"].is_null()) out.push_back(e["special"].get<std::string>());
  out.push_back("rounding: " + rule_text(e["rounding"]));
  for (const json& s : e["notes"]) out.push_back(s.get<std::string>());
  return out;
}

}  // namespace ptxmma
