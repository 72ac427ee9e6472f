#include "sim/exec/interpreter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <ostream>

#include "isa/ptx_opcodes.hpp"
#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"
#include "sim/model/model.hpp"

namespace ptxmma {

using ptx::Instruction;
using ptx::PtxType;

namespace exec {

std::string lane_list(std::uint32_t mask) {
  std::string out;
  int lane = 0;
  while (lane < 32) {
    if (!((mask >> lane) & 1U)) {
      ++lane;
      continue;
    }
    int end = lane;
    while (end + 1 < 32 && ((mask >> (end + 1)) & 1U)) ++end;
    out += (out.empty() ? "" : ", ") + (end == lane ? std::to_string(lane) : fmt::format("{}-{}", lane, end));
    lane = end + 1;
  }
  return out.empty() ? "none" : out;
}

std::uint64_t Exec::read(const ptx::Operand& op, int lane) const {
  switch (op.kind) {
    case ptx::Operand::Kind::reg: return m.reg(lane, op.reg);
    case ptx::Operand::Kind::imm: return op.value;
    case ptx::Operand::Kind::special: return m.special(op.special, lane);
    case ptx::Operand::Kind::symbol: return op.value;
    default: throw Error(fmt::format("operand '{}' has no value", op.text));
  }
}

void Exec::write(const ptx::Operand& op, int lane, std::uint64_t v) {
  if (op.kind == ptx::Operand::Kind::sink) return;
  if (op.kind != ptx::Operand::Kind::reg) throw Error(fmt::format("operand '{}' is not a register", op.text));
  m.set_reg(lane, op.reg, v);
}

void Exec::write_ext(const ptx::Operand& op, int lane, std::uint64_t v, PtxType t) {
  if (op.kind == ptx::Operand::Kind::sink) return;
  const int tb = ptx::bits(t);
  if (tb < 64) {
    v &= (1ULL << tb) - 1;
    if (ptx::type_class(t) == ptx::TypeClass::signed_int && ((v >> (tb - 1)) & 1U)) v |= ~0ULL << tb;
  }
  write(op, lane, v);
}

std::uint64_t Exec::address(const ptx::Operand& op, int lane) const {
  std::uint64_t base = 0;
  if (!op.elems.empty()) base = read(op.elems[0], lane);
  return base + op.value;
}

void register_all(std::vector<SemanticSpec>& t) {
  register_integer(t);
  register_float(t);
  register_convert(t);
  register_memory(t);
  register_warp(t);
}

}  // namespace exec

namespace {

constexpr std::size_t kMaxStack = 1 << 16;

// Immediate post-dominators of every instruction (index n is the exit node), by the iterative
// algorithm of Cooper, Harvey and Kennedy on the reversed control-flow graph.
std::vector<int> post_dominators(const ptx::Program& p) {
  const int n = static_cast<int>(p.code.size());
  const int exit = n;
  std::vector<std::vector<int>> succ(static_cast<std::size_t>(n) + 1), pred(static_cast<std::size_t>(n) + 1);
  const auto table = ptx::opcode_table();
  for (int i = 0; i < n; ++i) {
    const Instruction& ins = p.code[static_cast<std::size_t>(i)];
    const ptx::Flow flow = table[static_cast<std::size_t>(ins.family)].flow;
    auto& s = succ[static_cast<std::size_t>(i)];
    if (flow == ptx::Flow::branch) {
      s.push_back(ins.ops[0].target);
      if (ins.guard >= 0) s.push_back(i + 1);
    } else if (flow == ptx::Flow::exit) {
      s.push_back(exit);
      if (ins.guard >= 0) s.push_back(i + 1);
    } else {
      s.push_back(i + 1);
    }
    for (int& x : s) x = std::min(x, exit);
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    for (const int x : s) pred[static_cast<std::size_t>(x)].push_back(i);
  }
  // Postorder of the reversed graph from the exit node (explicit stack).
  std::vector<int> order, number(static_cast<std::size_t>(n) + 1, -1);
  std::vector<char> seen(static_cast<std::size_t>(n) + 1, 0);
  std::vector<std::pair<int, std::size_t>> stack{{exit, 0}};
  seen[static_cast<std::size_t>(exit)] = 1;
  while (!stack.empty()) {
    auto& [node, k] = stack.back();
    const auto& ps = pred[static_cast<std::size_t>(node)];
    if (k < ps.size()) {
      const int x = ps[k++];
      if (!seen[static_cast<std::size_t>(x)]) {
        seen[static_cast<std::size_t>(x)] = 1;
        stack.push_back({x, 0});
      }
      continue;
    }
    number[static_cast<std::size_t>(node)] = static_cast<int>(order.size());
    order.push_back(node);
    stack.pop_back();
  }
  std::vector<int> ipdom(static_cast<std::size_t>(n) + 1, -1);
  ipdom[static_cast<std::size_t>(exit)] = exit;
  const auto intersect = [&](int a, int b) {
    while (a != b) {
      while (number[static_cast<std::size_t>(a)] < number[static_cast<std::size_t>(b)]) a = ipdom[static_cast<std::size_t>(a)];
      while (number[static_cast<std::size_t>(b)] < number[static_cast<std::size_t>(a)]) b = ipdom[static_cast<std::size_t>(b)];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const int b = *it;
      if (b == exit) continue;
      int best = -1;
      for (const int s : succ[static_cast<std::size_t>(b)]) {
        if (ipdom[static_cast<std::size_t>(s)] < 0) continue;
        best = best < 0 ? s : intersect(s, best);
      }
      if (best >= 0 && ipdom[static_cast<std::size_t>(b)] != best) {
        ipdom[static_cast<std::size_t>(b)] = best;
        changed = true;
      }
    }
  }
  // Instructions that cannot reach the exit (endless loops) reconverge only at the exit.
  for (int& d : ipdom)
    if (d < 0) d = exit;
  return ipdom;
}

ptx::PtxError located(const ptx::Program& p, const Instruction& ins, const std::string& what) {
  return ptx::PtxError({ptx::Diagnostic{p.file, ins.loc, what}});
}

}  // namespace

struct Machine::Prepared {
  std::vector<exec::SemanticFn> fns;
  std::vector<ptx::Flow> flows;
  std::vector<int> ipdom;
  std::vector<std::unique_ptr<MmaExecutor>> mma;
};

Machine::Machine(const ptx::Program& program, InterpreterOptions options) : prog_(program), opts_(std::move(options)) {
  regs_.assign(prog_.registers.size(), {});
  for (const auto& r : prog_.registers) widths_.push_back(ptx::bits(r.type));
  for (int k = 0; k < 3; ++k) {
    ntid_[static_cast<std::size_t>(k)] = opts_.ntid[static_cast<std::size_t>(k)] > 0 ? opts_.ntid[static_cast<std::size_t>(k)]
                                         : prog_.reqntid[k] > 0                      ? prog_.reqntid[k]
                                         : k == 0                                    ? 32
                                                                                     : 1;
  }
  // Memories.
  std::uint64_t shared_size = prog_.shared_static_bytes + opts_.dynamic_shared;
  for (const auto& v : prog_.variables)
    if (v.space == ptx::Space::shared && v.external)
      shared_size = std::max(shared_size, v.address + opts_.dynamic_shared);
  shared_size = std::max<std::uint64_t>(shared_size, kDefaultShared);
  if (opts_.shared_bytes > 0) {
    if (opts_.shared_bytes < prog_.shared_static_bytes)
      throw Error(fmt::format("shared memory of {} bytes is smaller than the program's static .shared ({} bytes)",
                              opts_.shared_bytes, prog_.shared_static_bytes));
    shared_size = opts_.shared_bytes;
  }
  if (shared_size > (256ULL << 10)) throw Error(fmt::format("shared memory of {} bytes is more than 256 KiB", shared_size));
  shared = Memory::dense("shared", shared_size);
  global = Memory::sparse("global");
  constant = Memory::sparse("const");
  std::uint64_t param_size = 0;
  for (const auto& v : prog_.params) param_size = std::max(param_size, v.address + v.size);
  param = Memory::dense("param", param_size);
  for (const auto& v : prog_.variables) {
    if (v.space == ptx::Space::global) global.write(v.address, v.init.data(), v.init.size());
    if (v.space == ptx::Space::constant) constant.write(v.address, v.init.data(), v.init.size());
    if (v.space == ptx::Space::global && v.init.empty()) {
      const std::vector<std::uint8_t> zero(v.size, 0);
      global.write(v.address, zero.data(), zero.size());
    }
  }

  // The semantic function of every instruction, the post-dominators, the mma executors.
  auto prep = std::make_shared<Prepared>();
  std::vector<exec::SemanticSpec> table;
  exec::register_all(table);
  const auto decoders = ptx::opcode_table();
  const ModelSet* models = nullptr;
  for (const Instruction& ins : prog_.code) {
    const ptx::OpcodeSpec& spec = decoders[static_cast<std::size_t>(ins.family)];
    prep->flows.push_back(spec.flow);
    exec::SemanticFn fn = nullptr;
    for (const auto& s : table)
      if (s.opcode == spec.opcode) fn = s.fn;
    if (!fn && spec.flow == ptx::Flow::normal)
      throw located(prog_, ins, fmt::format("'{}' is decoded but the interpreter cannot execute it", ins.text));
    prep->fns.push_back(fn);
    std::unique_ptr<MmaExecutor> mx;
    if (ins.d.mma) {
      try {
        if (!models) models = &models_for(opts_.arch);
        const MmaVariant& v = *ins.d.mma->variant;
        const Model& model = models->select(v.family, v.a, v.d);
        MmaOptions mo;
        mo.rounding = ins.d.mma->rounding.value_or(Rounding::rn);
        mo.satfinite = v.satfinite;
        mx = std::make_unique<MmaExecutor>(v, model, mo);
      } catch (const ptx::PtxError&) {
        throw;
      } catch (const Error& e) {
        throw located(prog_, ins, fmt::format("'{}': no rounding model on {}: {}", ins.text, opts_.arch, e.what()));
      }
    }
    prep->mma.push_back(std::move(mx));
  }
  prep->ipdom = post_dominators(prog_);
  prep_ = std::move(prep);
}

void Machine::set_reg(int lane, int r, std::uint64_t v) {
  const int w = widths_[static_cast<std::size_t>(r)];
  regs_[static_cast<std::size_t>(r)][static_cast<std::size_t>(lane)] = w >= 64 ? v : v & ((1ULL << w) - 1);
}

std::uint32_t Machine::special(ptx::Special s, int lane) const {
  using ptx::Special;
  const std::uint32_t linear = static_cast<std::uint32_t>(opts_.warpid) * 32U + static_cast<std::uint32_t>(lane);
  const auto nx = static_cast<std::uint32_t>(ntid_[0]), ny = static_cast<std::uint32_t>(ntid_[1]);
  const std::uint32_t bit = 1U << lane;
  switch (s) {
    case Special::laneid: return static_cast<std::uint32_t>(lane);
    case Special::warpid: return static_cast<std::uint32_t>(opts_.warpid);
    case Special::nwarpid: return static_cast<std::uint32_t>((ntid_[0] * ntid_[1] * ntid_[2] + 31) / 32);
    case Special::tid_x: return linear % nx;
    case Special::tid_y: return (linear / nx) % ny;
    case Special::tid_z: return linear / (nx * ny);
    case Special::ntid_x: return nx;
    case Special::ntid_y: return ny;
    case Special::ntid_z: return static_cast<std::uint32_t>(ntid_[2]);
    case Special::ctaid_x: return static_cast<std::uint32_t>(opts_.ctaid[0]);
    case Special::ctaid_y: return static_cast<std::uint32_t>(opts_.ctaid[1]);
    case Special::ctaid_z: return static_cast<std::uint32_t>(opts_.ctaid[2]);
    case Special::nctaid_x: return static_cast<std::uint32_t>(opts_.nctaid[0]);
    case Special::nctaid_y: return static_cast<std::uint32_t>(opts_.nctaid[1]);
    case Special::nctaid_z: return static_cast<std::uint32_t>(opts_.nctaid[2]);
    case Special::lanemask_eq: return bit;
    case Special::lanemask_lt: return bit - 1;
    case Special::lanemask_le: return bit | (bit - 1);
    case Special::lanemask_gt: return ~(bit | (bit - 1));
    case Special::lanemask_ge: return ~(bit - 1);
    case Special::warpsize: return 32;
  }
  return 0;
}

RunSummary Machine::run() {
  const Prepared& prep = *prep_;
  const int n = static_cast<int>(prog_.code.size());
  RunSummary sum;
  struct Entry {
    int pc, rpc;
    std::uint32_t mask;
  };
  // Lanes that exist: the block may be smaller than this warp.
  const std::int64_t threads = static_cast<std::int64_t>(ntid_[0]) * ntid_[1] * ntid_[2] - 32LL * opts_.warpid;
  if (threads <= 0) throw Error(fmt::format("warp {} is outside a block of {} threads", opts_.warpid, threads + 32LL * opts_.warpid));
  const std::uint32_t launch = threads >= 32 ? 0xffffffffU : (1U << threads) - 1;
  std::vector<Entry> stack{{0, n, launch}};
  while (!stack.empty()) {
    Entry& top = stack.back();
    if (top.mask == 0 || top.pc == top.rpc || top.pc >= n) {
      stack.pop_back();
      continue;
    }
    const int pc = top.pc;
    const Instruction& ins = prog_.code[static_cast<std::size_t>(pc)];
    const std::uint32_t path = top.mask;
    // Steps.
    ++sum.warp_instructions;
    for (int lane = 0; lane < kLanes; ++lane)
      if ((path >> lane) & 1U)
        if (++sum.steps[static_cast<std::size_t>(lane)] > opts_.max_steps)
          throw located(prog_, ins,
                        fmt::format("step limit: lane {} has executed {} instructions without finishing (an endless "
                                    "loop?); the limit is --max-steps",
                                    lane, opts_.max_steps));
    // Guard.
    std::uint32_t lanes = path;
    if (ins.guard >= 0) {
      lanes = 0;
      for (int lane = 0; lane < kLanes; ++lane)
        if ((path >> lane) & 1U)
          if ((reg(lane, ins.guard) != 0) != ins.guard_negated) lanes |= 1U << lane;
    }
    if (opts_.trace)
      *opts_.trace << fmt::format("{:>5}  {:08x}  {:<8x}  {}\n", ins.loc.line, path, lanes,
                                  std::string_view(ins.source_line).substr(ins.source_line.find_first_not_of(" \t") == std::string::npos ? 0 : ins.source_line.find_first_not_of(" \t")));
    const ptx::Flow flow = prep.flows[static_cast<std::size_t>(pc)];
    if (flow == ptx::Flow::branch) {
      const int target = ins.ops[0].target;
      const std::uint32_t taken = lanes, fall = path & ~lanes;
      if (fall == 0) {
        top.pc = target;
      } else if (taken == 0) {
        top.pc = pc + 1;
      } else {
        const int rpc = prep.ipdom[static_cast<std::size_t>(pc)];
        const int outer_rpc = top.rpc;
        top.pc = rpc;
        if (rpc == outer_rpc) stack.pop_back();
        if (stack.size() + 2 > kMaxStack) throw located(prog_, ins, "the reconvergence stack overflowed");
        stack.push_back({pc + 1, rpc, fall});
        stack.push_back({target, rpc, taken});
      }
      continue;
    }
    if (flow == ptx::Flow::exit) {
      sum.exited |= lanes;
      for (Entry& e : stack) e.mask &= ~lanes;
      stack.back().pc = pc + 1;
      continue;
    }
    exec::Exec x(*this, path);
    x.live_mask = launch & ~sum.exited;
    x.mma = prep.mma[static_cast<std::size_t>(pc)].get();
    try {
      if (lanes != 0 || ins.d.sync) prep.fns[static_cast<std::size_t>(pc)](x, ins, lanes);
    } catch (const ptx::PtxError&) {
      throw;
    } catch (const Error& e) {
      throw located(prog_, ins, fmt::format("'{}': {}", ins.text, e.what()));
    }
    stack.back().pc = pc + 1;
  }
  return sum;
}

Warp Machine::to_warp() const {
  Warp w;
  for (std::size_t r = 0; r < prog_.registers.size(); ++r) {
    const auto& d = prog_.registers[r];
    const int b = widths_[r];
    const RegKind k = d.type == PtxType::pred ? RegKind::pred : b <= 16 ? RegKind::b16 : b <= 32 ? RegKind::b32 : RegKind::b64;
    w.declare(d.name, k);
    for (int lane = 0; lane < kLanes; ++lane) w.set(lane, d.name, regs_[r][static_cast<std::size_t>(lane)]);
  }
  return w;
}

}  // namespace ptxmma
