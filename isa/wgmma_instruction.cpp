#include "isa/wgmma_instruction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <set>

#include "isa/instruction_text.hpp"
#include "isa/matrix_legality.hpp"
#include "sim/error.hpp"

namespace ptxmma {

namespace {

constexpr InstructionForm kForm = {"wgmma", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
                                   "a wgmma instruction (expected wgmma.mma_async.sync.aligned...)"};

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
  std::vector<std::string_view> tok = instruction_tokens(raw, ins.text, kForm);
  const Fail fail = fail_with(ins.text);
  if (tok.size() > 1 && (tok[1] == "fence" || tok[1] == "commit_group" || tok[1] == "wait_group"))
    fail(fmt::format("wgmma.{} is a synchronisation instruction, not a matrix multiply (expected wgmma.mma_async)", tok[1]));
  if (tok.size() < 2 || tok[1] != "mma_async") fail("expected wgmma.mma_async.sync.aligned");
  if (tok.size() > 2 && tok[2] == "sp") {
    ins.sparse = Sparsity::sp;
    tok.erase(tok.begin() + 2);
  }
  if (tok.size() < 4 || tok[2] != "sync" || tok[3] != "aligned")
    fail(ins.sparse == Sparsity::sp ? "expected wgmma.mma_async.sp.sync.aligned" : "expected wgmma.mma_async.sync.aligned");

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
    if (take_shape(t, ins.shape, have_shape, phase != before_types, fail)) continue;
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
  ins.c = ins.d;  // the accumulator is C and D
  return ins;
}

// ---- legality --------------------------------------------------------------------------------------

const MatrixVariant& check_wgmma(const WgmmaInstruction& ins, std::string_view target, const MatrixCatalog& catalog) {
  return check_matrix(ins, target, catalog, [&](const Candidates& all, const Fail& fail) {
    using V = MatrixVariant;
    const std::string inputs = inputs_text(ins);
    // 1. M
    if (ins.shape.m != 64) fail(fmt::format("wgmma shapes are m64nNkK; .{} has M = {}", shape_name(ins.shape), ins.shape.m));
    // 2. A and B types
    const Candidates by_ab = by_input_types(all, ins, "wgmma", fail);
    // 3. K
    const Candidates by_k = by_ab.narrow([&](const V& v) { return v.shape.k == ins.shape.k; });
    if (by_k.empty())
      fail(fmt::format("{} need k{} (m64nNk{}); the shape has k{}", inputs, by_ab.front().shape.k,
                       by_ab.front().shape.k, ins.shape.k));
    // 4. D type
    const Candidates by_d = by_k.narrow([&](const V& v) { return v.d == ins.d; });
    if (by_d.empty())
      fail(fmt::format("{} need {} D, not {}", inputs,
                       one_of(by_k.collect([](const V& v) { return std::string(name(v.d)); })), name(ins.d)));
    // 5. N
    const Candidates by_n = by_d.narrow([&](const V& v) { return v.shape.n == ins.shape.n; });
    if (by_n.empty()) {
      std::vector<int> ns;
      for (const V* v : by_d) ns.push_back(v->shape.n);
      fail(fmt::format("N = {} is not legal for {} ({})", ins.shape.n, inputs, n_text(ns)));
    }
    // 6. .satfinite
    const Candidates by_sat = by_satfinite(by_n, all, ins, fail);
    // 7. bit operation
    const Candidates by_bitop = by_sat.narrow([&](const V& v) { return v.bitop == ins.bitop; });
    if (by_bitop.empty()) {
      const auto ops = by_sat.collect([](const V& v) { return fmt::format(".{}", name(v.bitop)); });
      if (ins.bitop == BitOp::none) fail(fmt::format("{} need {}", inputs, one_of(ops)));
      if (ins.a == Type::b1) fail(fmt::format(".{} is not available for wgmma (b1 takes {} only)", name(ins.bitop), one_of(ops)));
      fail(fmt::format(".{} applies only to b1 inputs", name(ins.bitop)));
    }
    return by_bitop;
  });
}

WgmmaInstruction parse_wgmma(std::string_view text, std::string_view target, const MatrixCatalog& catalog) {
  try {
    WgmmaInstruction ins = parse_wgmma_syntax(text);
    ins.variant = &check_wgmma(ins, target, catalog);
    return ins;
  } catch (const Error& e) {
    rethrow_suggesting(e, text, catalog);
  }
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

WgmmaStatement parse_wgmma_statement(std::string_view raw, std::string_view target, const MatrixCatalog& catalog) {
  const std::string_view text = trim(raw);
  const std::size_t space = text.find_first_of(" \t\n");
  WgmmaStatement st;
  st.ins = parse_wgmma(text.substr(0, space), target, catalog);
  const MatrixVariant& v = *st.ins.variant;
  const auto fail = [&](const std::string& what) -> void { throw Error(fmt::format("{}: {}", st.ins.text, what)); };
  if (space == std::string_view::npos) fail("missing the operands (d, a, b-desc, scale-d, ...)");
  const std::vector<std::string> ops = operands_of(text.substr(space), fail);
  if (ops.size() < 2) fail(fmt::format("expected the operands {}, found {}", all_of(wgmma_operand_names(v, ASource::descriptor)), ops.size()));
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].empty()) fail(fmt::format("operand {} is empty", i + 1));
  st.operands.a_source = ops[1].front() == '{' ? ASource::registers : ASource::descriptor;
  const std::vector<std::string> names = wgmma_operand_names(v, st.operands.a_source);
  if (ops.size() != names.size())
    fail(fmt::format("with A from {} this variant takes {} operands ({}), found {}",
                     st.operands.a_source == ASource::descriptor ? "a descriptor" : "registers", names.size(),
                     all_of(names), ops.size()));
  // d
  if (ops[0].front() != '{' || ops[0].back() != '}')
    fail(fmt::format("operand d must be a vector of {} registers {{...}}, not '{}'", v.regs(Operand::d), ops[0]));
  st.d = vector_of(ops[0]);
  if (static_cast<int>(st.d.size()) != v.regs(Operand::d))
    fail(fmt::format("operand d: {} D needs {} registers per thread (N = {}), found {}", name(v.d), v.regs(Operand::d),
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
    if (static_cast<int>(st.a.size()) != v.regs(Operand::a))
      fail(fmt::format("operand a: the register form takes {} registers, found {}", v.regs(Operand::a), st.a.size()));
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
  if (v.is_sparse()) {
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
  check_wgmma_operands(v, st.operands);
  return st;
}

}  // namespace ptxmma
