#include "tools/vectors/alu_forms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "isa/ptx_opcodes.hpp"
#include "isa/ptx_program.hpp"
#include "sim/error.hpp"

namespace ptxmma {
namespace {

using ptx::Operand;
using ptx::PtxType;

constexpr int kMaxOperands = 6;

// The kinds an operand may take, in the order tried. `pair` is p|q.
enum class Kind { b32, b16, b64, pred, pair, imm };
constexpr Kind kKinds[] = {Kind::b16, Kind::b32, Kind::b64, Kind::pred, Kind::pair, Kind::imm};

std::string_view reg_prefix(Kind k) {
  switch (k) {
    case Kind::b16: return "%h";
    case Kind::b64: return "%rd";
    case Kind::pred:
    case Kind::pair: return "%p";
    default: return "%r";
  }
}

// Registers %h0.. (b16), %r0.. (b32), %rd0.. (b64), %p0.. (pred), one per operand slot (and one
// more predicate for the second of a pair).
ptx::Program register_file() {
  ptx::Program p;
  const std::pair<std::string_view, PtxType> kinds[] = {
      {"%h", PtxType::b16}, {"%r", PtxType::b32}, {"%rd", PtxType::b64}, {"%p", PtxType::pred}};
  for (const auto& [prefix, t] : kinds)
    for (int i = 0; i <= kMaxOperands; ++i) {
      const std::string n = fmt::format("{}{}", prefix, i);
      p.registers.push_back(ptx::RegisterDecl{n, n, t, {}});
    }
  return p;
}

int reg_index(const ptx::Program& p, std::string_view name) { return p.find_register(name); }

// The lookup table of lop3 (the one immediate operand of the covered opcodes): a majority.
constexpr std::string_view kImmediate = "0xe8";

Operand make_operand(const ptx::Program& p, Kind k, int slot) {
  Operand op;
  op.loc = ptx::SourceLoc{1, 10 + slot};
  if (k == Kind::imm) {
    op.kind = Operand::Kind::imm;
    op.text = kImmediate;
    op.value = std::stoull(std::string(kImmediate), nullptr, 16);
    return op;
  }
  const auto reg = [&](int i) {
    Operand r;
    r.kind = Operand::Kind::reg;
    r.loc = op.loc;
    r.text = fmt::format("{}{}", reg_prefix(k), i);
    r.reg = reg_index(p, r.text);
    return r;
  };
  if (k == Kind::pair) {
    op.kind = Operand::Kind::vec;
    op.text = "|";
    op.elems = {reg(slot), reg(kMaxOperands)};
    return op;
  }
  return reg(slot);
}

struct Attempt {
  bool ok = false;
  int at_slot = -1;  // the operand the error points at; -1: the instruction
  ptx::Instruction ins;
};

Attempt try_decode(const ptx::Program& p, const ptx::OpcodeSpec& spec, std::string_view opcode,
                   const std::string& quals, const std::vector<Kind>& kinds, std::string_view target) {
  Attempt a;
  ptx::Instruction& ins = a.ins;
  ins.loc = ptx::SourceLoc{1, 1};
  ins.opcode = std::string(opcode);
  ins.text = ins.opcode + quals;
  for (std::size_t i = 1; i < quals.size();) {
    const std::size_t j = quals.find('.', i);
    ins.quals.push_back(quals.substr(i, j == std::string::npos ? std::string::npos : j - i));
    i = j == std::string::npos ? quals.size() : j + 1;
  }
  for (std::size_t i = 0; i < kinds.size(); ++i) ins.ops.push_back(make_operand(p, kinds[i], static_cast<int>(i)));
  try {
    spec.decode(ins, ptx::DecodeContext{p, target});
    a.ok = true;
  } catch (const ptx::DecodeError& e) {
    a.at_slot = e.loc.col >= 10 ? e.loc.col - 10 : -1;
  }
  return a;
}

// The operands of `quals` for this opcode, or nullopt if the decoder refuses the qualifiers.
std::optional<AluForm> discover(const ptx::Program& p, const ptx::OpcodeSpec& spec, const std::string& quals,
                                std::string_view target) {
  for (int n = 1; n <= kMaxOperands - 1; ++n) {
    std::vector<Kind> kinds(static_cast<std::size_t>(n), Kind::b32);
    Attempt a = try_decode(p, spec, spec.opcode, quals, kinds, target);
    if (!a.ok && a.at_slot < 0) continue;  // the count (or the qualifiers) is wrong
    for (int s = 0; s < n && !a.ok; ++s) {
      if (a.at_slot != s) continue;
      for (const Kind k : kKinds) {
        if (k == Kind::pair && s != 0) continue;
        kinds[static_cast<std::size_t>(s)] = k;
        a = try_decode(p, spec, spec.opcode, quals, kinds, target);
        if (a.ok || a.at_slot != s) break;
      }
      if (!a.ok && a.at_slot <= s) return std::nullopt;
    }
    if (!a.ok) return std::nullopt;
    AluForm f;
    f.text = a.ins.text;
    f.approx = a.ins.d.approx || (spec.opcode == "div" && a.ins.d.mode == 1);
    std::string ops;
    for (std::size_t i = 0; i < a.ins.ops.size(); ++i) {
      const Operand& op = a.ins.ops[i];
      const bool dest = i == 0;
      const auto add = [&](const Operand& r, PtxType decl) {
        // An immediate the decoder reads as a plain integer (lop3's table) has no type: .b32.
        f.slots.push_back(AluSlot{r.text, decl, r.type == PtxType::none ? PtxType::b32 : r.type, dest});
      };
      if (op.kind == Operand::Kind::vec) {
        add(op.elems[0], PtxType::pred);
        add(op.elems[1], PtxType::pred);
        f.slots.back().type = PtxType::pred;
        f.slots[f.slots.size() - 2].type = PtxType::pred;
        ops += fmt::format("{}{}|{}", i ? ", " : "", op.elems[0].text, op.elems[1].text);
        continue;
      }
      const Kind k = kinds[i];
      add(op, k == Kind::imm    ? PtxType::none
              : k == Kind::b16  ? PtxType::b16
              : k == Kind::b64  ? PtxType::b64
              : k == Kind::pred ? PtxType::pred
                                : PtxType::b32);
      ops += fmt::format("{}{}", i ? ", " : "", op.text);
    }
    f.line = fmt::format("{} {};", f.text, ops);
    return f;
  }
  return std::nullopt;
}

}  // namespace

std::vector<AluForm> enumerate_alu_forms(std::string_view target, const std::vector<std::string>& opcodes) {
  const ptx::Program p = register_file();
  std::vector<AluForm> out;
  for (const ptx::OpcodeSpec& spec : ptx::opcode_table()) {
    if (spec.forms.empty()) continue;
    if (!opcodes.empty() && std::find(opcodes.begin(), opcodes.end(), std::string(spec.opcode)) == opcodes.end()) continue;
    for (const std::string& quals : ptx::expand_qualifier_axes(spec.forms))
      if (auto f = discover(p, spec, quals, target)) out.push_back(std::move(*f));
  }
  return out;
}

}  // namespace ptxmma
