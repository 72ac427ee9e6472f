#include "isa/contraction.hpp"

#include <algorithm>

#include "isa/ptx_opcodes.hpp"

namespace ptxmma::ptx {
namespace {

bool is_float(PtxType t) { return type_class(t) == TypeClass::floating; }

// The registers an instruction writes: its first operand's, where that is a register or a vector
// of them. (An instruction whose first operand is read, such as bar.sync's, counts as writing it:
// that only keeps a pair from being fused.)
template <class F>
void for_written(const Instruction& ins, F&& f) {
  if (ins.ops.empty()) return;
  const Operand& o = ins.ops[0];
  if (o.kind == Operand::Kind::reg) f(o.reg);
  if (o.kind == Operand::Kind::vec)
    for (const Operand& e : o.elems)
      if (e.kind == Operand::Kind::reg) f(e.reg);
}

// An add or sub that may take a fused product of type `t` and .ftz `ftz`.
bool consumer(const Instruction& ins, PtxType t, bool ftz) {
  return (ins.opcode == "add" || ins.opcode == "sub") && ins.d.type == t && is_float(t) && !ins.d.rnd &&
         ins.d.ftz == ftz && ins.ops.size() == 3;
}

// A multiply or division whose result ptxas may fuse into a consumer of type `t` and .ftz `ftz`.
bool producer(const Instruction& ins, PtxType t, bool ftz) {
  if (ins.d.type != t || ins.d.ftz != ftz || ins.ops.size() != 3) return false;
  if (ins.opcode == "mul") return is_float(t) && !ins.d.rnd && !ins.d.sat;
  if (ins.opcode == "div") return t == PtxType::f32 && (ins.d.approx || ins.d.mode == 1);  // approx or full
  return false;
}

struct Analysis {
  const Program& p;
  std::vector<int> block;                            // basic block of each instruction
  std::vector<int> writes, def;                      // per register: how many writers, the last
  std::vector<std::vector<std::pair<int, int>>> uses;  // per register: (instruction, operand index or -1)

  explicit Analysis(const Program& prog) : p(prog) {
    const std::size_t n = p.code.size();
    std::vector<bool> starts(n + 1, false);
    starts[0] = true;
    for (const auto& [name, pc] : p.labels)
      if (pc >= 0 && static_cast<std::size_t>(pc) < n) starts[static_cast<std::size_t>(pc)] = true;
    for (std::size_t i = 0; i < n; ++i) {
      const Instruction& ins = p.code[i];
      const bool flow = ins.family >= 0 && opcode_table()[static_cast<std::size_t>(ins.family)].flow != Flow::normal;
      if (flow || ins.opcode == "call") starts[i + 1] = true;
    }
    block.resize(n);
    int b = 0;
    for (std::size_t i = 0; i < n; ++i) block[i] = b += (i > 0 && starts[i]) ? 1 : 0;
    writes.assign(p.registers.size(), 0);
    def.assign(p.registers.size(), -1);
    uses.resize(p.registers.size());
    for (std::size_t i = 0; i < n; ++i) {
      const Instruction& ins = p.code[i];
      for_written(ins, [&](int r) {
        ++writes[static_cast<std::size_t>(r)];
        def[static_cast<std::size_t>(r)] = static_cast<int>(i);
      });
      for (std::size_t k = 0; k < ins.ops.size(); ++k) {
        const Operand& o = ins.ops[k];
        if (k == 0 && (o.kind == Operand::Kind::reg || o.kind == Operand::Kind::vec)) continue;  // written
        if (o.kind == Operand::Kind::reg) uses[static_cast<std::size_t>(o.reg)].emplace_back(static_cast<int>(i), static_cast<int>(k));
        for (const Operand& e : o.elems)
          if (e.kind == Operand::Kind::reg) uses[static_cast<std::size_t>(e.reg)].emplace_back(static_cast<int>(i), -1);
      }
      if (ins.guard >= 0) uses[static_cast<std::size_t>(ins.guard)].emplace_back(static_cast<int>(i), -1);
    }
  }

  // Every use of register r is operand 1 or 2 of a consumer of (t, ftz) later in block b.
  bool only_consumers(int r, int after, int b, PtxType t, bool ftz) const {
    const auto& u = uses[static_cast<std::size_t>(r)];
    return !u.empty() && std::all_of(u.begin(), u.end(), [&](const std::pair<int, int>& use) {
      const Instruction& c = p.code[static_cast<std::size_t>(use.first)];
      return (use.second == 1 || use.second == 2) && use.first > after && block[static_cast<std::size_t>(use.first)] == b &&
             consumer(c, t, ftz);
    });
  }

  // Whether an instruction strictly between `from` and `to` writes one of `ins`'s register sources.
  bool sources_written(const Instruction& ins, int from, int to) const {
    for (int k = from + 1; k < to; ++k) {
      bool hit = false;
      for_written(p.code[static_cast<std::size_t>(k)], [&](int r) {
        for (std::size_t s = 1; s < ins.ops.size(); ++s)
          if (ins.ops[s].kind == Operand::Kind::reg && ins.ops[s].reg == r) hit = true;
      });
      if (hit) return true;
    }
    return false;
  }

  // The contraction of consumer `ci` with the product in its operand `slot`, if ptxas makes one.
  std::shared_ptr<const Contraction> fuse(int ci, int slot) const {
    const Instruction& c = p.code[static_cast<std::size_t>(ci)];
    const Operand& op = c.ops[static_cast<std::size_t>(slot)];
    if (op.kind != Operand::Kind::reg) return nullptr;
    const PtxType t = c.d.type;
    const int b = block[static_cast<std::size_t>(ci)];
    int r = op.reg;
    bool negated = false;
    const auto single_def = [&](int reg) { return writes[static_cast<std::size_t>(reg)] == 1 ? def[static_cast<std::size_t>(reg)] : -1; };
    int di = single_def(r);
    if (di < 0 || block[static_cast<std::size_t>(di)] != b || !only_consumers(r, di, b, t, c.d.ftz)) return nullptr;
    const Instruction* d = &p.code[static_cast<std::size_t>(di)];
    if (d->opcode == "neg" && d->d.type == t && d->ops.size() == 2 && d->ops[1].kind == Operand::Kind::reg) {
      const int inner = single_def(d->ops[1].reg);
      const auto& u = uses[static_cast<std::size_t>(d->ops[1].reg)];
      if (inner < 0 || block[static_cast<std::size_t>(inner)] != b || u.size() != 1 || u[0].first != di) return nullptr;
      negated = true;
      di = inner;
      d = &p.code[static_cast<std::size_t>(di)];
    }
    if (!producer(*d, t, c.d.ftz) || sources_written(*d, di, ci)) return nullptr;
    auto f = std::make_shared<Contraction>();
    f->product = d->opcode == "mul" ? Contraction::Product::mul
                 : d->d.approx     ? Contraction::Product::div_approx
                                   : Contraction::Product::div_full;
    f->x = d->ops[1];
    f->y = d->ops[2];
    f->other = 3 - slot;
    const bool sub = c.opcode == "sub";
    f->negate_product = negated != (sub && slot == 2);
    f->negate_other = sub && slot == 1;
    f->fma.loc = c.loc;
    f->fma.opcode = "fma";
    f->fma.text = "fma.rn (" + c.text + " contracted)";
    f->fma.family = c.family;
    f->fma.d = c.d;
    f->fma.d.rnd = Rounding::rn;
    return f;
  }
};

}  // namespace

void contract_multiply_adds(Program& p) {
  const Analysis a(p);
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    Instruction& c = p.code[i];
    if (!consumer(c, c.d.type, c.d.ftz)) continue;
    for (int slot : {1, 2})
      if ((c.d.contraction = a.fuse(static_cast<int>(i), slot))) break;
  }
}

}  // namespace ptxmma::ptx
