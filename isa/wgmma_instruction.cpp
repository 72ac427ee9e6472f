#include "isa/instruction_text.hpp"
#include "isa/wgmma_instruction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <set>

#include "sim/catalog/mma_catalog.hpp"  // parse_shape, shape_name
#include "sim/error.hpp"
#include "sim/util/target.hpp"

namespace ptxmma {

namespace {

// "8..256 in steps of 8" or "8, 16, 24, 32, 48, ..." for a sorted list of N.
std::string n_text(std::vector<int> ns) {
  std::sort(ns.begin(), ns.end());
  ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
  bool stepped = ns.size() > 2;
  for (std::size_t i = 2; i < ns.size(); ++i) stepped = stepped && ns[i] - ns[i - 1] == ns[1] - ns[0];
  if (stepped) return fmt::format("N = {}..{} in steps of {}", ns.front(), ns.back(), ns[1] - ns[0]);
  std::string out = "N = ";
  for (std::size_t i = 0; i < ns.size(); ++i) out += (i ? ", " : "") + std::to_string(ns[i]);
  return out;
}

}  // namespace

// ---- syntax ----------------------------------------------------------------------------------------

WgmmaInstruction parse_wgmma_syntax(std::string_view raw) {
  WgmmaInstruction ins;
  const std::string_view text = trim(raw);
  ins.text = std::string(text);
  const auto fail = [&](const std::string& what) -> void { throw Error(fmt::format("{}: {}", text, what)); };
  if (text.empty()) throw Error("empty wgmma instruction");
  for (char c : text)
    if (std::isspace(static_cast<unsigned char>(c)))
      fail("expected the instruction without operands (no spaces), e.g. wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16");
  std::vector<std::string_view> tok = split(text, '.');
  if (tok[0] != "wgmma") fail("not a wgmma instruction (expected wgmma.mma_async.sync.aligned...)");
  if (tok.size() > 1 && (tok[1] == "fence" || tok[1] == "commit_group" || tok[1] == "wait_group"))
    fail(fmt::format("wgmma.{} is a synchronisation instruction, not a matrix multiply (expected wgmma.mma_async)", tok[1]));
  if (tok.size() < 2 || tok[1] != "mma_async") fail("expected wgmma.mma_async.sync.aligned");
  if (tok.size() > 2 && tok[2] == "sp") {
    ins.sparse = true;
    tok.erase(tok.begin() + 2);
  }
  if (tok.size() < 4 || tok[2] != "sync" || tok[3] != "aligned")
    fail(ins.sparse ? "expected wgmma.mma_async.sp.sync.aligned" : "expected wgmma.mma_async.sync.aligned");

  enum Phase { before_types, in_types, after_types } phase = before_types;
  bool have_shape = false;
  std::vector<Type> types;
  for (std::size_t k = 4; k < tok.size(); ++k) {
    const std::string_view t = tok[k];
    if (t.empty()) fail(k + 1 == tok.size() ? "trailing '.'" : "empty qualifier (two dots in a row)");
    if (const auto ty = parse_type(t)) {
      if (phase == after_types)
        fail(fmt::format("unexpected type '.{}' after the types (.dtype.atype.btype come together)", t));
      if (!have_shape) fail(fmt::format("the shape (e.g. .m64n8k16) must come before the types; found '.{}' first", t));
      phase = in_types;
      types.push_back(*ty);
      continue;
    }
    if (phase == in_types) phase = after_types;
    if (const auto shape = parse_shape(t)) {
      if (have_shape) fail(fmt::format("two shapes: .{} and .{}", shape_name(ins.shape), t));
      if (phase != before_types) fail(fmt::format("the shape '.{}' must come before the types", t));
      ins.shape = *shape;
      have_shape = true;
      continue;
    }
    if (t == "satfinite") {
      if (ins.satfinite) fail("'.satfinite' given twice");
      if (phase == after_types && k + 1 != tok.size()) fail("'.satfinite' goes after the shape or last");
      ins.satfinite = true;
      continue;
    }
    if (t == "and" || t == "xor") {
      if (phase != after_types) fail(fmt::format("'.{}.popc' must come after the types (...s32.b1.b1.{}.popc)", t, t));
      if (ins.bitop != BitOp::none) fail("two bit operations");
      if (k + 1 >= tok.size() || tok[k + 1] != "popc") fail(fmt::format("'.{}' must be followed by '.popc'", t));
      ins.bitop = t == "and" ? BitOp::and_popc : BitOp::xor_popc;
      ++k;
      continue;
    }
    if (t == "popc") fail("'.popc' must follow '.and'");
    if (t == "row" || t == "col")
      fail(fmt::format("'.{}': wgmma takes no layout qualifiers (A and B are K-major unless imm-trans-a/b say otherwise)", t));
    if (t == "rn" || t == "rz" || t == "rm" || t == "rp") fail(fmt::format("'.{}': wgmma takes no rounding modifier", t));
    fail(fmt::format("unknown qualifier '.{}'", t));
  }
  if (!have_shape) fail("missing the shape (e.g. .m64n8k16)");
  if (types.size() == 4)
    fail("expected 3 types (.dtype.atype.btype), found 4: wgmma has no .ctype (the accumulator D is also C)");
  if (types.size() != 3) fail(fmt::format("expected 3 types (.dtype.atype.btype), found {}", types.size()));
  ins.d = types[0], ins.a = types[1], ins.b = types[2];
  return ins;
}

// ---- legality --------------------------------------------------------------------------------------

const WgmmaVariant& check_wgmma(const WgmmaInstruction& ins, std::string_view target, const WgmmaCatalog& catalog) {
  const auto fail = [&](const std::string& what) -> void { throw Error(fmt::format("{}: {}", ins.text, what)); };
  try {
    (void)require_target(target);
  } catch (const Error& e) {
    fail(e.what());
  }
  using Set = std::vector<const WgmmaVariant*>;
  const auto narrow = [](const Set& from, const std::function<bool(const WgmmaVariant&)>& keep) {
    Set out;
    for (const WgmmaVariant* v : from)
      if (keep(*v)) out.push_back(v);
    return out;
  };
  const auto collect = [](const Set& from, const std::function<std::string(const WgmmaVariant&)>& what) {
    std::vector<std::string> out;
    for (const WgmmaVariant* v : from) add_unique(out, what(*v));
    return out;
  };
  Set all;  // dense and sparse forms are separate instruction sets
  for (const WgmmaVariant& v : catalog.variants())
    if (v.sparse == ins.sparse) all.push_back(&v);
  const std::string inputs =
      ins.a == ins.b ? fmt::format("{} inputs", name(ins.a)) : fmt::format("{} x {} inputs", name(ins.a), name(ins.b));

  // 1. M
  if (ins.shape.m != 64) fail(fmt::format("wgmma shapes are m64nNkK; .{} has M = {}", shape_name(ins.shape), ins.shape.m));
  // 2. A and B types
  const Set by_a = narrow(all, [&](const WgmmaVariant& v) { return v.a == ins.a; });
  if (by_a.empty())
    fail(fmt::format("wgmma does not take {} {} (A types: {})", name(ins.a), ins.a == ins.b ? "inputs" : "A",
                     all_of(collect(all, [](const WgmmaVariant& v) { return std::string(name(v.a)); }))));
  const Set by_ab = narrow(by_a, [&](const WgmmaVariant& v) { return v.b == ins.b; });
  if (by_ab.empty())
    fail(fmt::format("wgmma does not take {} A with {} B (with {} A, B is {})", name(ins.a), name(ins.b), name(ins.a),
                     one_of(collect(by_a, [](const WgmmaVariant& v) { return std::string(name(v.b)); }))));
  // 3. K
  const Set by_k = narrow(by_ab, [&](const WgmmaVariant& v) { return v.shape.k == ins.shape.k; });
  if (by_k.empty())
    fail(fmt::format("{} need k{} (m64nNk{}); the shape has k{}", inputs, by_ab.front()->shape.k,
                     by_ab.front()->shape.k, ins.shape.k));
  // 4. D type
  const Set by_d = narrow(by_k, [&](const WgmmaVariant& v) { return v.d == ins.d; });
  if (by_d.empty())
    fail(fmt::format("{} need {} D, not {}", inputs,
                     one_of(collect(by_k, [](const WgmmaVariant& v) { return std::string(name(v.d)); })), name(ins.d)));
  // 5. N
  const Set by_n = narrow(by_d, [&](const WgmmaVariant& v) { return v.shape.n == ins.shape.n; });
  if (by_n.empty()) {
    std::vector<int> ns;
    for (const WgmmaVariant* v : by_d) ns.push_back(v->shape.n);
    fail(fmt::format("N = {} is not legal for {} ({})", ins.shape.n, inputs, n_text(ns)));
  }
  // 6. .satfinite
  const Set by_sat = narrow(by_n, [&](const WgmmaVariant& v) { return v.satfinite == ins.satfinite; });
  if (by_sat.empty())
    fail(fmt::format(".satfinite applies only to {} inputs, not {}",
                     all_of(collect(narrow(all, [](const WgmmaVariant& v) { return v.satfinite; }),
                                    [](const WgmmaVariant& v) { return std::string(name(v.a)); })),
                     name(ins.a)));
  // 7. bit operation
  const Set by_bitop = narrow(by_sat, [&](const WgmmaVariant& v) { return v.bitop == ins.bitop; });
  if (by_bitop.empty()) {
    const auto ops = collect(by_sat, [](const WgmmaVariant& v) { return fmt::format(".{}", name(v.bitop)); });
    if (ins.bitop == BitOp::none) fail(fmt::format("{} need {}", inputs, one_of(ops)));
    if (ins.a == Type::b1) fail(fmt::format(".{} is not available for wgmma (b1 takes {} only)", name(ins.bitop), one_of(ops)));
    fail(fmt::format(".{} applies only to b1 inputs", name(ins.bitop)));
  }
  if (by_bitop.size() != 1)
    fail(fmt::format("matches {} catalogue entries (the catalogue has duplicates)", by_bitop.size()));
  const WgmmaVariant& v = *by_bitop.front();
  // 8. target
  if (std::find(v.targets.begin(), v.targets.end(), target) == v.targets.end())
    fail(fmt::format("wgmma needs {}; the target is {}", one_of(v.targets), target));
  return v;
}

WgmmaInstruction parse_wgmma(std::string_view text, std::string_view target, const WgmmaCatalog& catalog) {
  WgmmaInstruction ins = parse_wgmma_syntax(text);
  ins.variant = &check_wgmma(ins, target, catalog);
  return ins;
}

// ---- a statement with operands ---------------------------------------------------------------------

namespace {

bool is_register(std::string_view s) {
  if (s.empty()) return false;
  const auto first = static_cast<unsigned char>(s[0]);
  if (!(s[0] == '%' || s[0] == '_' || s[0] == '$' || std::isalpha(first))) return false;
  if (s[0] == '%' && s.size() == 1) return false;
  return std::all_of(s.begin() + 1, s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  });
}

std::optional<long long> integer(std::string_view s) {
  long long v = 0;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return neg ? -v : v;
}

// Top-level comma-separated operands; braces group a vector.
std::vector<std::string> operands_of(std::string_view s, const std::function<void(const std::string&)>& fail) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '{') ++depth;
    if (c == '}' && --depth < 0) fail("unbalanced '}' in the operands");
    if (c == ',' && depth == 0) {
      out.emplace_back(trim(cur));
      cur.clear();
      continue;
    }
    cur.push_back(c);
  }
  if (depth != 0) fail("unbalanced '{' in the operands");
  if (!trim(cur).empty() || !out.empty()) out.emplace_back(trim(cur));
  return out;
}

std::vector<std::string> vector_of(const std::string& op) {
  std::vector<std::string> out;
  for (std::string_view x : split(std::string_view(op).substr(1, op.size() - 2), ',')) out.emplace_back(trim(x));
  return out;
}

}  // namespace

WgmmaStatement parse_wgmma_statement(std::string_view raw, std::string_view target, const WgmmaCatalog& catalog) {
  const std::string_view text = trim(raw);
  const std::size_t space = text.find_first_of(" \t\n");
  WgmmaStatement st;
  st.ins = parse_wgmma(text.substr(0, space), target, catalog);
  const WgmmaVariant& v = *st.ins.variant;
  const auto fail = [&](const std::string& what) -> void { throw Error(fmt::format("{}: {}", st.ins.text, what)); };
  if (space == std::string_view::npos) fail("missing the operands (d, a, b-desc, scale-d, ...)");
  const std::vector<std::string> ops = operands_of(text.substr(space), fail);
  if (ops.size() < 2) fail(fmt::format("expected the operands {}, found {}", all_of(v.operand_names(ASource::descriptor)), ops.size()));
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].empty()) fail(fmt::format("operand {} is empty", i + 1));
  st.operands.a_source = ops[1].front() == '{' ? ASource::registers : ASource::descriptor;
  const std::vector<std::string> names = v.operand_names(st.operands.a_source);
  if (ops.size() != names.size())
    fail(fmt::format("with A from {} this variant takes {} operands ({}), found {}",
                     st.operands.a_source == ASource::descriptor ? "a descriptor" : "registers", names.size(),
                     all_of(names), ops.size()));
  // d
  if (ops[0].front() != '{' || ops[0].back() != '}')
    fail(fmt::format("operand d must be a vector of {} registers {{...}}, not '{}'", v.d_regs(), ops[0]));
  st.d = vector_of(ops[0]);
  if (static_cast<int>(st.d.size()) != v.d_regs())
    fail(fmt::format("operand d: {} D needs {} registers per thread (N = {}), found {}", name(v.d), v.d_regs(),
                     v.shape.n, st.d.size()));
  std::set<std::string> distinct;
  for (const auto& r : st.d) {
    if (!is_register(r)) fail(fmt::format("operand d: '{}' is not a register", r));
    if (!distinct.insert(r).second) fail(fmt::format("operand d: register {} appears twice", r));
  }
  // a
  if (st.operands.a_source == ASource::registers) {
    if (ops[1].back() != '}') fail(fmt::format("operand a: '{}' is not a vector {{a0, a1, a2, a3}}", ops[1]));
    st.a = vector_of(ops[1]);
    if (static_cast<int>(st.a.size()) != v.a_regs())
      fail(fmt::format("operand a: the register form takes {} registers, found {}", v.a_regs(), st.a.size()));
    for (const auto& r : st.a)
      if (!is_register(r)) fail(fmt::format("operand a: '{}' is not a register", r));
  } else {
    if (!is_register(ops[1])) fail(fmt::format("operand a-desc: '{}' is not a register (a 64-bit descriptor)", ops[1]));
    st.a_desc = ops[1];
  }
  if (!is_register(ops[2])) fail(fmt::format("operand b-desc: '{}' is not a register (a 64-bit descriptor)", ops[2]));
  st.b_desc = ops[2];
  // sp-meta, sp-sel
  std::size_t sd = 3;  // scale-d's position
  if (v.sparse) {
    if (!is_register(ops[3])) fail(fmt::format("operand sp-meta: '{}' is not a register (a .b32 metadata word)", ops[3]));
    st.sp_meta = ops[3];
    const auto sel = integer(ops[4]);
    if (!sel) fail(fmt::format("operand sp-sel: '{}' is not an integer constant", ops[4]));
    if (*sel < 0 || *sel >= v.metadata->selectors)
      fail(fmt::format("operand sp-sel: {} is out of range (0..{})", *sel, v.metadata->selectors - 1));
    st.sp_sel = static_cast<int>(*sel);
    sd = 5;
  }
  // scale-d
  if (const auto c = integer(ops[sd])) {
    if (*c != 0 && *c != 1) fail(fmt::format("operand scale-d: the constant {} is not 0 or 1", *c));
    st.scale_d = *c == 1;
  } else if (is_register(ops[sd])) {
    st.scale_d_predicate = ops[sd];
  } else {
    fail(fmt::format("operand scale-d: '{}' is neither a predicate nor 0 / 1", ops[sd]));
  }
  // immediates
  for (std::size_t i = sd + 1; i < names.size(); ++i) {
    const auto c = integer(ops[i]);
    if (!c) fail(fmt::format("operand {}: '{}' is not an integer constant", names[i], ops[i]));
    const int value = static_cast<int>(std::clamp<long long>(*c, -1000, 1000));
    if (names[i] == "imm-scale-a") st.operands.imm_scale_a = value;
    else if (names[i] == "imm-scale-b") st.operands.imm_scale_b = value;
    else if (names[i] == "imm-trans-a") st.operands.imm_trans_a = value;
    else st.operands.imm_trans_b = value;
  }
  v.check(st.operands);
  return st;
}

}  // namespace ptxmma
