#include "sim/exec/interpreter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <memory>
#include <map>
#include <set>
#include <ostream>
#include <thread>

#include "isa/ptx_opcodes.hpp"
#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"
#include "sim/exec/warp_alu.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/exec/wgmma_async.hpp"
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

std::uint64_t Exec::read_other(const ptx::Operand& op, int lane) const {
  switch (op.kind) {
    case ptx::Operand::Kind::special: return m.special(op.special, base + lane, cta_index);
    case ptx::Operand::Kind::symbol: return op.value;
    default: throw Error(fmt::format("operand '{}' has no value", op.text));
  }
}

void Exec::write_other(const ptx::Operand& op) const {
  if (op.kind != ptx::Operand::Kind::sink) throw Error(fmt::format("operand '{}' is not a register", op.text));
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

void Exec::shared_access(const ptx::Instruction& ins, int lane, const Memory* mem, std::uint64_t addr, std::uint64_t n,
                         bool write, bool atomic) {
  // A race with a copy in flight is the finding; the bytes' other checks would only repeat it.
  if (race_reported || copies_in_flight(ins, lane, mem, addr, n, write)) return;
  const bool local = mem == &cta.local;
  if ((!write || atomic) && (local || mem->is_dense()) && !m.reported(KernelCheck::initcheck, ins))
    if (const std::uint64_t i = mem->first_unwritten(addr, n); i < n && (local || m.shared_owner(cta_index, mem) >= 0))
      m.report(KernelCheck::initcheck, ins,
               fmt::format("{} lane {} reads {} memory {:#x}..{:#x}, and byte {:#x} was never written (an uninitialised "
                           "read; this machine reads 0)",
                           m.warp_name(cta_index, base / Machine::kLanes), lane, mem->space(), addr, addr + n - 1, addr + i));
  if (race && !atomic && mem == &cta.shared && !m.reported(KernelCheck::racecheck, ins))
    if (const auto h = race->access(addr, n, base / Machine::kLanes, static_cast<int>(&ins - p.code.data()), write, epoch))
      m.report(KernelCheck::racecheck, ins,
               fmt::format("{} lane {} {} shared byte {:#x}, which {} {} at line {} with no barrier between them (a "
                           "{}-after-{} hazard)",
                           m.warp_name(cta_index, base / Machine::kLanes), lane, write ? "writes" : "reads", h->addr,
                           h->warp == RaceShadow::kSeveral ? std::string("several warps") : m.warp_name(cta_index, h->warp),
                           h->wrote ? "wrote" : "read", p.code[static_cast<std::size_t>(h->pc)].loc.line,
                           write ? "write" : "read", h->wrote ? "write" : "read"));
}

void Exec::async_proxy_read(const ptx::Instruction& ins, int lane, std::uint64_t addr, std::uint64_t n) {
  if (!race || race_reported || m.reported(KernelCheck::racecheck, ins)) return;
  if (const auto h = race->async_read(addr, n))
    m.report(KernelCheck::racecheck, ins,
             fmt::format("{} lane {} copies shared byte {:#x} through the async proxy, which {} wrote at line {} "
                         "through the generic proxy with no fence.proxy.async since (a read-after-write hazard "
                         "between proxies)",
                         m.warp_name(cta_index, base / Machine::kLanes), lane, h->addr, m.warp_name(cta_index, h->warp),
                         p.code[static_cast<std::size_t>(h->pc)].loc.line));
}

// The race of an access with a cp.async or bulk copy in flight: reported, true.
bool Exec::copies_in_flight(const ptx::Instruction& ins, int lane, const Memory* mem, std::uint64_t addr, std::uint64_t n,
                            bool write) {
  // The CTA whose shared memory it is (this one, or another of the cluster) and its copies in flight.
  int owner = cta_index;
  const AsyncCopies* cps = copies;
  const BulkCopies* blk = bulk;
  if (mem != &cta.shared) {
    owner = m.shared_owner(cta_index, mem);
    if (owner < 0) return false;  // not shared memory
    const Machine::Units u = m.units(owner);
    cps = u.copies;
    blk = u.bulk;
  }
  // Who accesses, and whose memory: formatted only for a report (this runs on every access).
  const auto who = [&] { return m.warp_name(cta_index, base / Machine::kLanes); };
  const auto where = [&] { return owner == cta_index ? std::string() : fmt::format(" of {}", m.cta(owner).name()); };
  if (blk && !blk->idle())
    if (const BulkCopies::Load* l = blk->target(addr, n)) {
      race_reported = true;
      m.report(KernelCheck::racecheck, ins, fmt::format("{} lane {} {} shared bytes {:#x}..{:#x}{} while the bulk copy at line {} ({} lane {}) "
                                  "is still copying into {:#x}..{:#x}: no wait on its mbarrier (shared {:#x}) has seen "
                                  "its phase complete (a data race)",
                                  who(), lane, write ? "writes" : "reads", addr, addr + n - 1, where(),
                                  p.code[static_cast<std::size_t>(l->pc)].loc.line,
                                  m.warp_name(l->cta, l->thread / Machine::kLanes), l->thread % Machine::kLanes,
                                  l->first(), l->end() - 1, l->mbar));
      return true;
    }
  if (!cps || cps->idle()) return false;
  const AsyncCopies::Copy* c = cps->target(addr, n);
  if (!c) return false;
  race_reported = true;
  m.report(KernelCheck::racecheck, ins, fmt::format("{} lane {} {} shared bytes {:#x}..{:#x}{} while the cp.async at line {} ({} lane {}) is "
                              "still copying into {:#x}..{:#x}: its group has not been waited for (a data race; "
                              "cp.async.wait_group or wait_all, then a barrier when another thread reads it)",
                              who(), lane, write ? "writes" : "reads", addr, addr + n - 1, where(),
                              p.code[static_cast<std::size_t>(c->pc)].loc.line,
                              m.warp_name(owner, c->thread / Machine::kLanes), c->thread % Machine::kLanes, c->dst,
                              c->dst + static_cast<std::uint32_t>(c->size) - 1));
  return true;
}

std::uint64_t Exec::address(const ptx::Operand& op, int lane) const {
  std::uint64_t base = 0;
  if (!op.elems.empty()) base = read(op.elems[0], lane);
  return base + op.value;
}

void register_all(std::vector<SemanticSpec>& t) {
  register_integer(t);
  register_convert(t);
  register_memory(t);
  register_warp(t);
  register_special(t);
  register_mbarrier(t);
  register_tensormap(t);
  register_atomic(t);
  register_cluster(t);
  register_tcgen05(t);
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
  // Falling off the end of the kernel's or a function's code leaves it: no edge into the next one.
  std::vector<char> last(static_cast<std::size_t>(n) + 1, 0);
  if (p.entry_end > 0) last[static_cast<std::size_t>(p.entry_end - 1)] = 1;
  for (const ptx::Function& f : p.functions)
    if (f.defined && f.end > f.begin) last[static_cast<std::size_t>(f.end - 1)] = 1;
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
    for (int& x : s) x = x == i + 1 && last[static_cast<std::size_t>(i)] ? exit : std::min(x, exit);
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

// racecheck's shadows of the CTAs that ended on this thread, for the next ones (RaceShadow::restart):
// clearing a new one's arrays, 20 bytes a byte of shared memory, was 4% of a matmul's run.
thread_local std::vector<RaceShadow> spare_races;

ptx::PtxError located(const ptx::Program& p, const Instruction& ins, const std::string& what) {
  return ptx::PtxError({ptx::Diagnostic{p.file, ins.loc, what}});
}

}  // namespace

namespace {

// "columns 0-255, 256-383" or "none".
std::string tmem_allocations(const TensorMemory& tm) {
  std::string s;
  for (const TensorMemory::Allocation& a : tm.allocations())
    s += fmt::format("{}columns {}-{}", s.empty() ? "" : ", ", a.column, a.column + a.columns - 1);
  return s.empty() ? "none" : s;
}

}  // namespace

struct Machine::Prepared {
  std::vector<exec::SemanticFn> fns;
  std::vector<exec::WarpAlu> alu;  // the ALU forms that run a warp in one loop (fn null: the others)
  std::vector<ptx::Flow> flows;
  std::vector<ptx::Collective> collective;  // what a warp waits for there (Decoded::collective)
  std::vector<std::vector<int>> regs_used;  // every register an instruction names (wgmma hazards)
  std::vector<int> ipdom;
  std::vector<std::unique_ptr<MmaExecutor>> mma;
  std::vector<std::unique_ptr<WgmmaExecutor>> wgmma;
  std::vector<exec::Builtin> builtin;  // a call of a function declared, not defined: what runs instead
};

namespace {

std::vector<int> registers_named(const Instruction& ins) {
  std::vector<int> out;
  const auto add = [&](const ptx::Operand& op, auto&& self) -> void {
    if (op.kind == ptx::Operand::Kind::reg) out.push_back(op.reg);
    for (const auto& e : op.elems) self(e, self);
  };
  for (const auto& op : ins.ops) add(op, add);
  if (ins.guard >= 0) out.push_back(ins.guard);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

Machine::Machine(const ptx::Program& program, InterpreterOptions options) : prog_(program), opts_(std::move(options)) {
  Dim3& ntid = grid_.shape.ntid;
  for (int k = 0; k < 3; ++k) {
    ntid[static_cast<std::size_t>(k)] = opts_.ntid[static_cast<std::size_t>(k)] > 0 ? opts_.ntid[static_cast<std::size_t>(k)]
                                        : prog_.reqntid[k] > 0                      ? prog_.reqntid[k]
                                        : k == 0                                    ? 32
                                                                                    : 1;
  }
  block_threads_ = grid_.shape.cta_threads();
  if (block_threads_ > 1024)
    throw Error(fmt::format("a block of {}x{}x{} = {} threads is more than 1024", ntid[0], ntid[1], ntid[2],
                            block_threads_));
  grid_.shape.nctaid = opts_.nctaid;
  // CUDA's limits: x < 2^31, y and z < 2^16.
  if (opts_.nctaid[0] < 1 || opts_.nctaid[1] < 1 || opts_.nctaid[2] < 1 || opts_.nctaid[1] > 65535 ||
      opts_.nctaid[2] > 65535)
    throw GridError(fmt::format("a grid of {}x{}x{} CTAs: each dimension is at least 1, y and z at most 65535",
                            opts_.nctaid[0], opts_.nctaid[1], opts_.nctaid[2]));
  // Clusters: the kernel's .reqnctapercluster unless the launch names one (they must agree), at
  // most 8 CTAs (16 with the non-portable attribute) and .maxclusterrank, tiling the grid.
  Dim3 cl = opts_.cluster;
  const Dim3 req = {prog_.reqnctapercluster[0], prog_.reqnctapercluster[1], prog_.reqnctapercluster[2]};
  if (req[0] > 0) {
    if (opts_.explicit_cluster && cl != req)
      throw GridError(fmt::format("a cluster of {}x{}x{} CTAs, but the kernel declares .reqnctapercluster {}, {}, {}",
                                  cl[0], cl[1], cl[2], req[0], req[1], req[2]),
                      true);
    cl = req;
  }
  grid_.shape.cluster = cl;
  const int cluster_ctas = cl[0] * cl[1] * cl[2];
  const int most = opts_.non_portable_cluster ? kMaxCluster : kPortableCluster;
  if (cl[0] < 1 || cl[1] < 1 || cl[2] < 1 || cl[0] > kMaxCluster || cl[1] > kMaxCluster || cl[2] > kMaxCluster ||
      cluster_ctas > most || opts_.nctaid[0] % cl[0] != 0 || opts_.nctaid[1] % cl[1] != 0 ||
      opts_.nctaid[2] % cl[2] != 0)
    throw GridError(fmt::format("a cluster of {}x{}x{} CTAs: it must have 1 to {} CTAs{} and divide the grid of "
                                "{}x{}x{} in each dimension",
                                cl[0], cl[1], cl[2], most,
                                opts_.non_portable_cluster ? "" : " (16 with the non-portable cluster size)",
                                opts_.nctaid[0], opts_.nctaid[1], opts_.nctaid[2]),
                    true);
  if (prog_.maxclusterrank > 0 && cluster_ctas > prog_.maxclusterrank)
    throw GridError(fmt::format("a cluster of {}x{}x{} = {} CTAs, but the kernel declares .maxclusterrank {}", cl[0],
                                cl[1], cl[2], cluster_ctas, prog_.maxclusterrank),
                    true);
  // The CTAs that run: the selected ranges, in rank order, each once.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = opts_.ctas;
  if (ranges.empty()) ranges.push_back({0, grid_.shape.ctas() - 1});
  std::sort(ranges.begin(), ranges.end());
  std::uint64_t count = 0, next = 0;
  for (const auto& [lo, hi] : ranges) {
    if (lo > hi || hi >= grid_.shape.ctas())
      throw GridError(fmt::format("{} not in the grid of {}x{}x{} = {} CTAs (ranks 0-{})",
                              lo == hi ? fmt::format("CTA {} is", lo) : fmt::format("CTAs {}-{} are", lo, hi),
                              opts_.nctaid[0], opts_.nctaid[1], opts_.nctaid[2], grid_.shape.ctas(),
                              grid_.shape.ctas() - 1));
    const std::uint64_t from = std::max(lo, next);
    if (hi >= from) count += hi - from + 1;
    next = std::max(next, hi + 1);
  }
  const int block_warps = static_cast<int>((block_threads_ + 31) / 32);
  if (opts_.warpid >= 0) {
    if (opts_.warpid >= block_warps)
      throw Error(fmt::format("warp {} is outside a block of {} threads", opts_.warpid, block_threads_));
    first_warp_ = opts_.warpid;
    warps_ = 1;
  } else {
    warps_ = block_warps;
  }
  for (const auto& r : prog_.registers) widths_.push_back(ptx::bits(r.type));
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
  if (count > budget().shared_bytes / shared_size)
    throw GridError(over_budget(count > ~0ULL / shared_size ? ~0ULL : count * shared_size,
                            fmt::format("bytes of shared memory ({} CTAs x {} bytes)", count, shared_size),
                            budget().shared_bytes, "--max-shared-bytes"));
  // Every thread of every CTA keeps every register (8 bytes each): bounded before the allocation,
  // located at the declaration that crosses the budget.
  // Products saturate: a raised shared-memory budget lets `count` approach 2^62.
  const auto times = [](std::uint64_t x, std::uint64_t y) { return y != 0 && x > ~0ULL / y ? ~0ULL : x * y; };
  const std::uint64_t grid_threads = times(count, static_cast<std::uint64_t>(threads()));
  const std::uint64_t words = times(prog_.registers.size(), grid_threads);
  if (words > budget().register_words) {
    const std::size_t crossing = static_cast<std::size_t>(budget().register_words / grid_threads);
    throw ptx::PtxError({ptx::Diagnostic{
        prog_.file, prog_.registers[std::min(crossing, prog_.registers.size() - 1)].loc,
        over_budget(words,
                    count > 1 ? fmt::format("register words ({} registers x {} threads x {} CTAs)",
                                            prog_.registers.size(), threads(), count)
                              : fmt::format("register words ({} registers x {} threads)", prog_.registers.size(), threads()),
                    budget().register_words, "--max-register-words")}});
  }
  frame_bytes_ = (prog_.local_bytes + prog_.call_param_bytes + 15) / 16 * 16;
  ctas_.reserve(static_cast<std::size_t>(count));
  next = 0;
  for (const auto& [lo, hi] : ranges)
    for (std::uint64_t rank = std::max(lo, next); rank <= hi; ++rank) {
      Cta& c = ctas_.emplace_back();
      c.id = grid_.shape.ctaid(rank);
      c.rank = rank;
      c.shared = Memory::dense("shared", 0);
      next = rank + 1;
    }
  held_.assign(ctas_.size(), Held::initial);
  initial_.shared = Memory::dense("shared", shared_size);
  initial_.regs = RegisterFile(widths_, threads());
  // The clusters in the linear order of %clusterid, each CTA by %cluster_ctarank; the CTAs that run
  // are whole clusters (they reach each other's shared memory and wait for each other).
  {
    const GridShape& g = grid_.shape;
    const Dim3 ncl = {g.nctaid[0] / cl[0], g.nctaid[1] / cl[1], g.nctaid[2] / cl[2]};
    cluster_of_.assign(ctas_.size(), -1);
    const auto index_of = [&](std::uint64_t rank) {
      const auto it = std::lower_bound(ctas_.begin(), ctas_.end(), rank, [](const Cta& c, std::uint64_t r) { return c.rank < r; });
      return it != ctas_.end() && it->rank == rank ? static_cast<int>(it - ctas_.begin()) : -1;
    };
    // Clusters with a selected CTA, found from the selected CTAs (a grid may have many more).
    std::vector<std::uint64_t> ids;
    for (const Cta& c : ctas_) {
      const std::uint64_t id = static_cast<std::uint64_t>(c.id[0] / cl[0]) +
                               static_cast<std::uint64_t>(ncl[0]) *
                                   (static_cast<std::uint64_t>(c.id[1] / cl[1]) +
                                    static_cast<std::uint64_t>(ncl[1]) * static_cast<std::uint64_t>(c.id[2] / cl[2]));
      ids.push_back(id);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (const std::uint64_t id : ids) {
      const auto nx = static_cast<std::uint64_t>(ncl[0]), ny = static_cast<std::uint64_t>(ncl[1]);
      const Dim3 cid = {static_cast<int>(id % nx), static_cast<int>(id / nx % ny), static_cast<int>(id / nx / ny)};
      ClusterRun& run = clusters_.emplace_back();
      for (int z = 0; z < cl[2]; ++z)
        for (int y = 0; y < cl[1]; ++y)
          for (int x = 0; x < cl[0]; ++x) {
            const Dim3 ctaid = {cid[0] * cl[0] + x, cid[1] * cl[1] + y, cid[2] * cl[2] + z};
            const int c = index_of(g.rank(ctaid));
            if (c < 0)
              throw GridError(fmt::format("CTA ({}, {}, {}) of cluster ({}, {}, {}) does not run: the CTAs that run must "
                                          "be whole clusters of {}x{}x{}",
                                          ctaid[0], ctaid[1], ctaid[2], cid[0], cid[1], cid[2], cl[0], cl[1], cl[2]));
            cluster_of_[static_cast<std::size_t>(c)] = static_cast<int>(clusters_.size() - 1);
            run.ctas.push_back(c);
          }
    }
  }
  std::uint64_t param_size = 0;
  for (const auto& v : prog_.params) param_size = std::max(param_size, v.address + v.size);
  grid_.param = Memory::dense("param", param_size);
  for (const auto& v : prog_.variables) {
    if (v.space == ptx::Space::global) grid_.global.write(v.address, v.init.data(), v.init.size());
    if (v.space == ptx::Space::constant) grid_.constant.write(v.address, v.init.data(), v.init.size());
    if (v.space == ptx::Space::global && v.init.empty()) {
      const std::vector<std::uint8_t> zero(v.size, 0);
      grid_.global.write(v.address, zero.data(), zero.size());
    }
  }

  // The semantic function of every instruction, the post-dominators, the mma and wgmma executors.
  auto prep = std::make_shared<Prepared>();
  std::vector<exec::SemanticSpec> table;
  exec::register_all(table);
  const auto decoders = ptx::opcode_table();
  for (const Instruction& ins : prog_.code) {
    const ptx::OpcodeSpec& spec = decoders[static_cast<std::size_t>(ins.family)];
    prep->flows.push_back(spec.flow);
    // bar.sync among one warp's lanes alone has nothing to wait for.
    prep->collective.push_back(ins.d.collective == ptx::Collective::cta_barrier && warps_ == 1 ? ptx::Collective::none
                                                                                              : ins.d.collective);
    prep->regs_used.push_back(registers_named(ins));
    exec::SemanticFn fn = nullptr;
    for (const auto& s : table)
      if (s.opcode == spec.opcode) fn = s.fn;
    if (!fn && spec.flow == ptx::Flow::normal)
      throw located(prog_, ins, fmt::format("'{}' is decoded but the interpreter cannot execute it", ins.text));
    prep->fns.push_back(fn);
    prep->alu.push_back(spec.flow == ptx::Flow::normal ? exec::prepare_warp_alu(ins, widths_) : exec::WarpAlu{});
    if (ins.d.wgmma && (block_threads_ % 128 != 0 || warps_ % 4 != 0))
      throw located(prog_, ins,
                    fmt::format("'{}' needs whole warpgroups of 128 threads; {}", ins.text,
                                warps_ == 1 && block_warps > 1 ? fmt::format("only warp {} runs", first_warp_)
                                                               : fmt::format("the block has {} threads", block_threads_)));
    add_executors(ins, *prep);
    exec::Builtin b = exec::Builtin::none;
    if (spec.flow == ptx::Flow::call) {
      const ptx::Function& f = prog_.functions[static_cast<std::size_t>(ins.d.mode)];
      if (!f.defined) {
        b = exec::builtin_named(f.name);
        if (b == exec::Builtin::none)
          throw located(prog_, ins,
                        fmt::format("'{}' is declared (line {}) but not defined in the file; of the functions CUDA "
                                    "provides, ptxmma runs vprintf and __assertfail",
                                    f.name, f.loc.line));
        exec::check_builtin(prog_, ins, b);
      }
    }
    prep->builtin.push_back(b);
  }
  prep->ipdom = post_dominators(prog_);
  prep_ = std::move(prep);
}

void Machine::add_executors(const Instruction& ins, Prepared& prep) const {
  const auto model_of = [&](const std::string& family, Type a, Type d) -> const Model& {
    try {
      return models_for(opts_.arch).select(family, a, d);
    } catch (const Error& e) {
      throw located(prog_, ins, fmt::format("'{}': no rounding model on {}: {}", ins.text, opts_.arch, e.what()));
    }
  };
  std::unique_ptr<MmaExecutor> mx;
  if (ins.d.mma) {
    const MatrixVariant& v = *ins.d.mma->variant;
    MmaOptions mo;
    mo.rounding = ins.d.mma->rounding.value_or(Rounding::rn);
    mo.satfinite = v.satfinite;
    mx = std::make_unique<MmaExecutor>(v, model_of(v.family, v.a, v.d), mo);
  }
  prep.mma.push_back(std::move(mx));
  std::unique_ptr<WgmmaExecutor> wx;
  if (ins.d.wgmma) {
    const MatrixVariant& v = *ins.d.wgmma->ins.variant;
    wx = std::make_unique<WgmmaExecutor>(v, model_of(v.family, v.a, v.d), ins.d.wgmma->operands);
  }
  prep.wgmma.push_back(std::move(wx));
}

std::shared_ptr<const Machine::Prepared> Machine::prepared_copy() const {
  auto prep = std::make_shared<Prepared>();
  prep->fns = prep_->fns;
  prep->alu = prep_->alu;
  prep->flows = prep_->flows;
  prep->collective = prep_->collective;
  prep->regs_used = prep_->regs_used;
  prep->ipdom = prep_->ipdom;
  prep->builtin = prep_->builtin;
  for (const Instruction& ins : prog_.code) add_executors(ins, *prep);
  return prep;
}

Machine::Machine(Machine& grid, const InterpreterOptions& options, int cluster, std::shared_ptr<const Prepared> prep,
                 std::shared_mutex& lock)
    : prog_(grid.prog_),
      opts_(options),
      warps_(grid.warps_),
      first_warp_(grid.first_warp_),
      block_threads_(grid.block_threads_),
      widths_(grid.widths_),
      frame_bytes_(grid.frame_bytes_),
      prep_(std::move(prep)) {
  grid_.shape = grid.grid_.shape;
  grid_.constant = grid.grid_.constant;
  grid_.param = grid.grid_.param;
  grid_.global = Memory::overlay(grid.grid_.global, lock);
  ClusterRun& run = clusters_.emplace_back();
  for (const int c : grid.clusters_[static_cast<std::size_t>(cluster)].ctas) {
    run.ctas.push_back(static_cast<int>(ctas_.size()));
    // The grid's CTA is made only where its state was set before the run (else initial_ stands
    // for it); nothing else touches it until this cluster commits.
    const Cta& g = grid.ctas_[static_cast<std::size_t>(c)];
    const Cta& from = grid.held_[static_cast<std::size_t>(c)] == Held::own ? g : grid.initial_;
    Cta& cta = ctas_.emplace_back();
    cta.id = g.id;
    cta.rank = g.rank;
    cta.shared = from.shared;
    cta.regs = from.regs;
  }
  held_.assign(ctas_.size(), Held::own);
  cluster_of_.assign(ctas_.size(), 0);
}

void Machine::make(int c) {
  Held& h = held_[static_cast<std::size_t>(c)];
  Cta& cta = ctas_[static_cast<std::size_t>(c)];
  if (h == Held::freed)
    throw Error(fmt::format("the registers and shared memory of {} were freed when its cluster ended "
                            "(InterpreterOptions::keep_ctas is off)",
                            cta.name()));
  cta.shared = initial_.shared;
  cta.regs = initial_.regs;
  h = Held::own;
}

void Machine::free_cta(int c) {
  Cta& cta = ctas_[static_cast<std::size_t>(c)];
  cta.shared = Memory::dense("shared", 0);
  cta.regs = RegisterFile();
  cta.tmem = TensorMemory();
  held_[static_cast<std::size_t>(c)] = Held::freed;
}

const Cta& Machine::not_own(int c) const {
  if (held_[static_cast<std::size_t>(c)] == Held::initial) return initial_;
  throw Error(fmt::format("the registers and shared memory of {} were freed when its cluster ended "
                          "(InterpreterOptions::keep_ctas is off)",
                          cta(c).name()));
}

std::string Machine::warp_name(int c, int w) const {
  return grid_.shape.ctas() > 1 ? fmt::format("{} warp {}", cta(c).name(), warp_id(w)) : fmt::format("warp {}", warp_id(w));
}

std::string Machine::who(int w) const {
  return warps_ > 1 || grid_.shape.ctas() > 1 ? " in " + warp_name(cur_cta_, w) : "";
}

std::uint32_t Machine::special(ptx::Special s, int thread, int c) const {
  using ptx::Special;
  const int lane = thread % kLanes;
  const int warp = warp_id(thread / kLanes);
  const std::uint32_t linear = static_cast<std::uint32_t>(warp) * 32U + static_cast<std::uint32_t>(lane);
  const Dim3& ntid = grid_.shape.ntid;
  const Dim3& id = cta(c).id;
  const Dim3& nctaid = grid_.shape.nctaid;
  const Dim3& cluster = grid_.shape.cluster;
  const auto nx = static_cast<std::uint32_t>(ntid[0]), ny = static_cast<std::uint32_t>(ntid[1]);
  const std::uint32_t bit = 1U << lane;
  switch (s) {
    case Special::laneid: return static_cast<std::uint32_t>(lane);
    case Special::warpid: return static_cast<std::uint32_t>(warp);
    case Special::nwarpid: return static_cast<std::uint32_t>((block_threads_ + 31) / 32);
    case Special::tid_x: return linear % nx;
    case Special::tid_y: return (linear / nx) % ny;
    case Special::tid_z: return linear / (nx * ny);
    case Special::ntid_x: return nx;
    case Special::ntid_y: return ny;
    case Special::ntid_z: return static_cast<std::uint32_t>(ntid[2]);
    case Special::ctaid_x: return static_cast<std::uint32_t>(id[0]);
    case Special::ctaid_y: return static_cast<std::uint32_t>(id[1]);
    case Special::ctaid_z: return static_cast<std::uint32_t>(id[2]);
    case Special::nctaid_x: return static_cast<std::uint32_t>(nctaid[0]);
    case Special::nctaid_y: return static_cast<std::uint32_t>(nctaid[1]);
    case Special::nctaid_z: return static_cast<std::uint32_t>(nctaid[2]);
    case Special::lanemask_eq: return bit;
    case Special::lanemask_lt: return bit - 1;
    case Special::lanemask_le: return bit | (bit - 1);
    case Special::lanemask_gt: return ~(bit | (bit - 1));
    case Special::lanemask_ge: return ~(bit - 1);
    case Special::warpsize: return 32;
    case Special::clusterid_x: return static_cast<std::uint32_t>(id[0] / cluster[0]);
    case Special::clusterid_y: return static_cast<std::uint32_t>(id[1] / cluster[1]);
    case Special::clusterid_z: return static_cast<std::uint32_t>(id[2] / cluster[2]);
    case Special::nclusterid_x: return static_cast<std::uint32_t>(nctaid[0] / cluster[0]);
    case Special::nclusterid_y: return static_cast<std::uint32_t>(nctaid[1] / cluster[1]);
    case Special::nclusterid_z: return static_cast<std::uint32_t>(nctaid[2] / cluster[2]);
    case Special::cluster_ctaid_x: return static_cast<std::uint32_t>(id[0] % cluster[0]);
    case Special::cluster_ctaid_y: return static_cast<std::uint32_t>(id[1] % cluster[1]);
    case Special::cluster_ctaid_z: return static_cast<std::uint32_t>(id[2] % cluster[2]);
    case Special::cluster_nctaid_x: return static_cast<std::uint32_t>(cluster[0]);
    case Special::cluster_nctaid_y: return static_cast<std::uint32_t>(cluster[1]);
    case Special::cluster_nctaid_z: return static_cast<std::uint32_t>(cluster[2]);
    case Special::cluster_ctarank:
      return static_cast<std::uint32_t>(id[0] % cluster[0] +
                                        cluster[0] * (id[1] % cluster[1] + cluster[1] * (id[2] % cluster[2])));
    case Special::cluster_nctarank: return static_cast<std::uint32_t>(cluster[0] * cluster[1] * cluster[2]);
    case Special::is_explicit_cluster: return opts_.explicit_cluster || prog_.explicit_cluster ? 1 : 0;
  }
  return 0;
}

void Machine::diagnose(const Instruction& ins, const std::string& what) {
  if (opts_.strict) throw located(prog_, ins, what + " (an error under --strict)");
  sum_.warnings.push_back(ptx::Diagnostic{prog_.file, ins.loc, what, true});
}

void Machine::report(KernelCheck check, const Instruction& ins, const std::string& what) {
  if (reported(check, ins)) return;
  reported_[static_cast<std::size_t>(&ins - prog_.code.data())] |= static_cast<std::uint8_t>(1U << static_cast<int>(check));
  diagnose(ins, fmt::format("{}: {}", name(check), what));
}

bool Machine::reported(KernelCheck check, const Instruction& ins) const {
  return (reported_[static_cast<std::size_t>(&ins - prog_.code.data())] >> static_cast<int>(check)) & 1U;
}

Tcgen05Mma& Machine::tcgen05_mma(int pc, Tcgen05Kind kind) {
  if (tcgen05_mma_.empty()) tcgen05_mma_.resize(prog_.code.size());
  std::unique_ptr<Tcgen05Mma>& x = tcgen05_mma_[static_cast<std::size_t>(pc)];
  if (!x) x = std::make_unique<Tcgen05Mma>(models_for(opts_.arch), kind);
  return *x;
}

std::uint64_t Machine::park_progress(int c, const WarpRun& r) const {
  return r.park_alloc ? cta(c).tmem.frees() : runs_[static_cast<std::size_t>(c)].mbar.completions;
}

std::uint32_t Machine::sync_epoch(int c) const {
  const CtaRun& cr = runs_[static_cast<std::size_t>(c)];
  return static_cast<std::uint32_t>(cr.barriers + cr.mbar.completions + clusters_[static_cast<std::size_t>(cur_cluster_)].phase);
}

void Machine::start() {
  reset();
  begin_cluster();
}

void Machine::reset() {
  sum_ = RunSummary{};
  reported_.assign(prog_.code.size(), 0);
  sum_.steps.assign(static_cast<std::size_t>(ctas()) * static_cast<std::size_t>(threads()), 0);
  sum_.exited.assign(static_cast<std::size_t>(ctas()) * static_cast<std::size_t>(warps_), 0);
  runs_.assign(static_cast<std::size_t>(ctas()), CtaRun{});
  for (ClusterRun& cl : clusters_) {
    cl.phase = 0;
    cl.resumed = false;
    cl.resumed_changes = 0;
  }
  cur_cluster_ = 0;
  cur_member_ = 0;
  cur_ = 0;
  started_ = true;
  finished_ = false;
}

// The CTAs of the cluster about to run start together.
void Machine::begin_cluster() {
  const ClusterRun& cl = clusters_[static_cast<std::size_t>(cur_cluster_)];
  for (const int c : cl.ctas) {
    cur_cta_ = c;
    begin_cta();
  }
  cur_member_ = 0;
  cur_cta_ = cl.ctas.front();
}

// The control state of the CTA cur_cta_ (made when its cluster starts).
void Machine::begin_cta() {
  const int n = static_cast<int>(prog_.code.size());
  CtaRun& cr = runs_[static_cast<std::size_t>(cur_cta_)];
  Cta& cta = this->cta(cur_cta_);
  cr.copies.emplace(threads(), cta.shared.size());
  cr.bulk.emplace(threads(), cta.shared.size());
  cr.arrived.assign(static_cast<std::size_t>(threads()), 0);
  cr.is = CtaIs::running;
  if (warps_ > 1) {
    if (!spare_races.empty() && spare_races.back().size() == cta.shared.size()) {
      cr.race.emplace(std::move(spare_races.back()));
      spare_races.pop_back();
      cr.race->restart();
    } else {
      cr.race.emplace(cta.shared.size());
    }
  }
  if (frame_bytes_ > 0) cta.local = Memory::dense("local", frame_bytes_ * static_cast<std::uint64_t>(threads()));
  cr.warps.assign(static_cast<std::size_t>(warps_), WarpRun{});
  for (int w = 0; w < warps_; ++w) {
    // Lanes that exist: the block may end inside this warp.
    const std::int64_t t = block_threads_ - 32LL * warp_id(w);
    WarpRun& r = cr.warps[static_cast<std::size_t>(w)];
    r.launch = t >= 32 ? 0xffffffffU : (1U << t) - 1;
    r.tmem_loads.reserve(128);  // a tcgen05.ld's registers at most: the common case allocates no more
    // A Program built without the parser (no functions) runs all its code.
    r.stack.push_back({prog_.entry_begin, n, r.launch, prog_.functions.empty() ? n : prog_.entry_end});
  }
}

RunSummary Machine::run() {
  if (!started_ && opts_.jobs > 1 && !opts_.trace && clusters_.size() > 1) return run_parallel();
  if (!started_) start();
  while (step()) {
  }
  return sum_;
}

// Workers run clusters ahead, each on its own Machine with global memory as an overlay; this
// thread commits them in order. A cluster's run stands when nothing committed since has changed
// a page it read (Memory::current) and no kernel check has reported since it started (reports
// are made once an instruction, so earlier ones change what it reports); else it runs again here,
// where nothing commits meanwhile. Its output, warnings and error come out at its commit, so the
// first error in cluster order is the one thrown, with everything before it.
RunSummary Machine::run_parallel() {
  reset();
  const int n = static_cast<int>(clusters_.size());
  const int jobs = std::min(opts_.jobs, n);
  const int window = 2 * jobs;  // clusters run ahead of the commit, done or running
  struct Result {
    std::unique_ptr<Machine> m;
    std::exception_ptr error;
    std::uint64_t reports = 0;  // the count of commits that added kernel-check reports, when it started
    bool done = false;
  };
  std::shared_mutex global_lock;
  std::mutex mu;  // guards the fields below, and reported_ while workers copy it
  std::condition_variable cv;
  std::vector<Result> results(static_cast<std::size_t>(n));
  int next = 0, committed = 0;
  std::uint64_t reports = 0, reruns = 0;
  std::atomic<bool> stop = false;
  // A cluster's run keeps what it prints for its commit and runs to its end without a trace or
  // progress (the grid's progress callback is this thread's: copied here, not while it runs).
  InterpreterOptions options = opts_;
  options.trace = nullptr;
  options.print = nullptr;
  options.progress = nullptr;
  options.jobs = 1;
  const auto run_cluster = [&](int k, std::shared_ptr<const Prepared> prep, std::vector<std::uint8_t> reported,
                               const std::atomic<bool>* cancel) {
    Result r;
    try {
      r.m.reset(new Machine(*this, options, k, std::move(prep), global_lock));  // a private constructor
      r.m->start();
      r.m->reported_ = std::move(reported);
      while ((!cancel || !cancel->load(std::memory_order_relaxed)) && r.m->step()) {
      }
    } catch (...) {
      r.error = std::current_exception();
    }
    r.done = true;
    return r;
  };
  // Executors of each thread's own: the first worker uses the grid's, this thread makes a set when
  // it first runs a cluster again.
  std::vector<std::shared_ptr<const Prepared>> preps{prep_};
  for (int j = 1; j < jobs; ++j) preps.push_back(prepared_copy());
  std::shared_ptr<const Prepared> again;
  std::vector<std::thread> workers;
  for (int j = 0; j < jobs; ++j)
    workers.emplace_back([&, j] {
      while (true) {
        int k = 0;
        std::vector<std::uint8_t> reported;
        std::uint64_t gen = 0;
        {
          std::unique_lock lock(mu);
          cv.wait(lock, [&] { return stop || next >= n || next < committed + window; });
          if (stop || next >= n) return;
          k = next++;
          reported = reported_;
          gen = reports;
        }
        Result r = run_cluster(k, preps[static_cast<std::size_t>(j)], std::move(reported), &stop);
        r.reports = gen;
        const std::lock_guard lock(mu);
        results[static_cast<std::size_t>(k)] = std::move(r);
        cv.notify_all();
      }
    });
  std::exception_ptr failure;
  try {
    for (int k = 0; k < n; ++k) {
      Result r;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return results[static_cast<std::size_t>(k)].done; });
        r = std::move(results[static_cast<std::size_t>(k)]);
      }
      if (!r.m || r.reports != reports || !r.m->grid_.global.current()) {
        if (!again) again = prepared_copy();
        r = run_cluster(k, again, reported_, nullptr);
        ++reruns;
      }
      if (!r.m) std::rethrow_exception(r.error);
      cur_cluster_ = k;
      const std::vector<std::uint8_t> before = reported_;
      {
        const std::lock_guard lock(mu);
        adopt(*r.m, k);
        if (reported_ != before) ++reports;
        ++committed;
        cv.notify_all();
      }
      if (r.error) std::rethrow_exception(r.error);
      if (opts_.progress) opts_.progress(static_cast<std::uint64_t>(k) + 1, clusters_.size());
    }
  } catch (...) {
    failure = std::current_exception();
  }
  {
    const std::lock_guard lock(mu);
    stop = true;
    cv.notify_all();
  }
  for (std::thread& t : workers) t.join();
  if (failure) std::rethrow_exception(failure);
  cur_cta_ = clusters_.back().ctas.back();
  finished_ = true;
  sum_.reruns = reruns;
  return sum_;
}

void Machine::adopt(Machine& w, int cluster) {
  w.grid_.global.commit();
  sum_.warp_instructions += w.sum_.warp_instructions;
  const auto t = static_cast<std::size_t>(threads()), nw = static_cast<std::size_t>(warps_);
  const std::vector<int>& members = clusters_[static_cast<std::size_t>(cluster)].ctas;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const auto c = static_cast<std::size_t>(members[i]);
    std::copy_n(w.sum_.steps.begin() + static_cast<std::ptrdiff_t>(i * t), t, sum_.steps.begin() + static_cast<std::ptrdiff_t>(c * t));
    std::copy_n(w.sum_.exited.begin() + static_cast<std::ptrdiff_t>(i * nw), nw,
                sum_.exited.begin() + static_cast<std::ptrdiff_t>(c * nw));
    if (opts_.keep_ctas) {
      ctas_[c] = std::move(w.ctas_[i]);
      held_[c] = Held::own;
    } else {
      free_cta(static_cast<int>(c));
    }
    runs_[c].is = w.runs_[i].is;
  }
  sum_.warnings.insert(sum_.warnings.end(), w.sum_.warnings.begin(), w.sum_.warnings.end());
  if (!w.sum_.printed.empty()) print(w.sum_.printed);
  reported_ = std::move(w.reported_);
}

// Clusters run in order, each to its end. In a cluster, the warps of its CTAs run in order (CTA by
// %cluster_ctarank, then warp), each until it finishes or waits at a collective; then the
// collectives whose warps have all arrived complete, and the round starts again from the first.
bool Machine::settle() {
  if (!started_) start();
  while (!finished_) {
    const std::vector<int>& members = clusters_[static_cast<std::size_t>(cur_cluster_)].ctas;
    while (cur_member_ < static_cast<int>(members.size())) {
      cur_cta_ = members[static_cast<std::size_t>(cur_member_)];
      if (runs_[static_cast<std::size_t>(cur_cta_)].is == CtaIs::running) {
        while (cur_ < warps_ && !ready(cur_)) ++cur_;
        if (cur_ < warps_) return true;
      }
      cur_ = 0;
      ++cur_member_;
    }
    cur_member_ = 0;
    cur_ = 0;
    cur_cta_ = members.front();
    complete_collectives();
  }
  return false;
}

bool Machine::step() {
  if (!settle()) return false;
  execute(cur_);
  return true;
}

// Nothing in the cluster can run: complete what has arrived, in each CTA and at the cluster
// barrier; else resume the warps parked at mbarrier waits once; else it is a deadlock.
void Machine::complete_collectives() {
  ClusterRun& cl = clusters_[static_cast<std::size_t>(cur_cluster_)];
  bool moved = false, park_moved = false;
  int parked = 0;
  for (const int c : cl.ctas) {
    if (runs_[static_cast<std::size_t>(c)].is != CtaIs::running) continue;
    cur_cta_ = c;
    const CtaProgress p = complete_cta();
    moved = moved || p.moved;
    parked += p.parked;
    park_moved = park_moved || p.park_moved;
  }
  cur_cta_ = cl.ctas.front();
  if (complete_cluster_barrier()) moved = true;
  bool all_done = true;
  for (const int c : cl.ctas) all_done = all_done && runs_[static_cast<std::size_t>(c)].is == CtaIs::finished;
  if (all_done) {
    // Shared memory is no longer reachable from other CTAs: each CTA's control state goes, and its
    // registers and shared memory unless they are kept.
    for (const int c : cl.ctas) {
      runs_[static_cast<std::size_t>(c)] = CtaRun{};
      runs_[static_cast<std::size_t>(c)].is = CtaIs::finished;
      if (!opts_.keep_ctas) free_cta(c);
    }
    if (opts_.progress) opts_.progress(static_cast<std::uint64_t>(cur_cluster_) + 1, clusters_.size());
    if (++cur_cluster_ == static_cast<int>(clusters_.size())) {
      cur_cluster_ = static_cast<int>(clusters_.size()) - 1;
      cur_cta_ = clusters_.back().ctas.back();
      finished_ = true;
      return;
    }
    begin_cluster();
    return;
  }
  if (moved) {
    cl.resumed = false;
    return;
  }
  // Warps parked at an mbarrier wait go on (the wait need not be in a loop, or the loop may do
  // something else) unless they were resumed before, parked again where they were, and no
  // mbarrier of the cluster has changed since.
  std::uint64_t changes = 0;
  for (const int c : cl.ctas) changes += runs_[static_cast<std::size_t>(c)].mbar.changes + cta(c).tmem.frees();
  if (parked > 0 && !(cl.resumed && cl.resumed_changes == changes && !park_moved)) {
    cl.resumed = true;
    cl.resumed_changes = changes;
    for (const int c : cl.ctas)
      for (WarpRun& r : runs_[static_cast<std::size_t>(c)].warps) {
        r.resume_pc = r.parked ? r.park_pc : -1;
        r.parked = false;
      }
    return;
  }
  deadlock();
}

Machine::CtaProgress Machine::complete_cta() {
  CtaRun& cr = runs_[static_cast<std::size_t>(cur_cta_)];
  std::vector<WarpRun>& ws = cr.warps;
  CtaProgress out;
  int live = 0;
  // The warps waiting at each CTA barrier (bar.sync, bar.red), by barrier number.
  std::map<std::uint64_t, std::vector<int>> at_barrier;
  for (int w = 0; w < warps_; ++w) {
    const WarpRun& r = ws[static_cast<std::size_t>(w)];
    if (r.stack.empty()) continue;
    ++live;
    if (r.parked) {
      if (park_progress(cur_cta_, r) != r.park_completions) out.moved = true;  // a phase completed: it goes on
      ++out.parked;
      out.park_moved = out.park_moved || r.park_pc != r.resume_pc;
      continue;
    }
    if (r.waiting < 0 || r.released ||
        prep_->collective[static_cast<std::size_t>(r.waiting)] != ptx::Collective::cta_barrier)
      continue;
    const Instruction& ins = prog_.code[static_cast<std::size_t>(r.waiting)];
    const int lane = std::countr_zero(r.stack.back().mask);
    at_barrier[exec::Exec(*this, 0, w, cur_cta_).read(ins.ops[ins.d.mode == 3 ? 1 : 0], lane)].push_back(w);
  }
  if (live == 0) {
    finish_cta();
    out.moved = true;
    return out;
  }
  if (out.moved) return out;
  // A barrier completes when its thread count has arrived (warps waiting at it and warps that
  // passed it by bar.arrive, 32 threads each), or without a count when every warp that has not
  // exited has; its waiting warps go on, and a bar.red's reduction is written to their threads.
  for (const auto& [id, waiters] : at_barrier) {
    const std::size_t b = static_cast<std::size_t>(id & 15);
    const Instruction& first = prog_.code[static_cast<std::size_t>(ws[static_cast<std::size_t>(waiters[0])].waiting)];
    const std::size_t count_op = first.d.mode == 3 ? 2 : 1;
    const std::uint32_t arrived = static_cast<std::uint32_t>(waiters.size()) + cr.bar_arrivals[b];
    const bool counted = first.ops.size() == count_op + (first.d.mode == 3 ? 2U : 1U);
    const std::uint64_t threads =
        counted ? exec::Exec(*this, 0, waiters[0], cur_cta_)
                      .read(first.ops[count_op], std::countr_zero(ws[static_cast<std::size_t>(waiters[0])].stack.back().mask))
                : static_cast<std::uint64_t>(live) * kLanes;
    if (static_cast<std::uint64_t>(arrived) * kLanes < threads) continue;
    ++cr.barriers;
    barrier_synccheck(waiters, arrived);
    cr.bar_arrivals[b] = 0;
    bool reduce = false;
    for (const int w : waiters) {
      WarpRun& r = ws[static_cast<std::size_t>(w)];
      r.released = true;
      reduce = reduce || prog_.code[static_cast<std::size_t>(r.waiting)].d.mode == 3;
    }
    if (reduce) {
      std::vector<exec::BarrierArrival> red;
      for (const int w : waiters) {
        const WarpRun& r = ws[static_cast<std::size_t>(w)];
        const Instruction& ins = prog_.code[static_cast<std::size_t>(r.waiting)];
        std::uint32_t lanes = r.stack.back().mask;
        if (ins.guard >= 0)
          for (int lane = 0; lane < kLanes; ++lane)
            if ((reg(w * kLanes + lane, ins.guard, cur_cta_) != 0) == ins.guard_negated) lanes &= ~(1U << lane);
        red.push_back({w, ins, lanes});
      }
      try {
        exec::bar_reduce(*this, cur_cta_, red);
      } catch (const Error& e) {
        throw located(prog_, red.front().ins, e.what());
      }
    }
    out.moved = true;
  }
  for (int g = 0; g + 4 <= warps_; g += 4) {
    bool all = true;
    for (int w = g; w < g + 4; ++w) {
      const WarpRun& r = ws[static_cast<std::size_t>(w)];
      all = all && !r.stack.empty() && r.waiting >= 0 &&
            prep_->collective[static_cast<std::size_t>(r.waiting)] == ptx::Collective::warpgroup;
    }
    if (!all) continue;
    run_wgmma(g);
    out.moved = true;
  }
  return out;
}

// synccheck at a CTA barrier of CTA cur_cta_ that completes with the warps `waiters` waiting at it
// and `arrived` warps in all (bar.arrive's too): a warp that arrives with lanes on another path
// (only .aligned barriers are refused outright, in bar()), thread counts that differ between the
// warps or from the threads that arrive.
void Machine::barrier_synccheck(const std::vector<int>& waiters, std::uint32_t arrived) {
  const CtaRun& cr = runs_[static_cast<std::size_t>(cur_cta_)];
  int first = -1;
  std::uint64_t first_count = 0;
  for (const int w : waiters) {
    const WarpRun& r = cr.warps[static_cast<std::size_t>(w)];
    const Instruction& ins = prog_.code[static_cast<std::size_t>(r.waiting)];
    const std::uint32_t path = r.stack.back().mask, live = r.launch & ~r.exited;
    if (path != live)
      report(KernelCheck::synccheck, ins,
             fmt::format("{} reaches the barrier with lanes {} while its lanes {} are on another path (a divergent "
                         "barrier: this machine completes barriers warp by warp)",
                         warp_name(cur_cta_, w), exec::lane_list(path), exec::lane_list(live & ~path)));
    if (ins.d.mode != 0 || ins.ops.size() != 2) continue;
    const int lane = std::countr_zero(path);
    const std::uint64_t count = exec::Exec(*this, 0, w, cur_cta_).read(ins.ops[1], lane);
    if (first < 0) {
      first = w;
      first_count = count;
      if (count != static_cast<std::uint64_t>(arrived) * kLanes)
        report(KernelCheck::synccheck, ins,
               fmt::format("{} waits at the barrier for {} threads, but {} warps ({} threads) arrive", warp_name(cur_cta_, w),
                           count, arrived, arrived * kLanes));
    } else if (count != first_count) {
      report(KernelCheck::synccheck, ins,
             fmt::format("{} waits at the barrier for {} threads, {} for {}: the warps of one barrier give different "
                         "thread counts", warp_name(cur_cta_, w), count, warp_name(cur_cta_, first), first_count));
    }
  }
}

void Machine::bar_arrive(int c, std::uint32_t id, std::uint32_t threads) {
  CtaRun& cr = runs_[static_cast<std::size_t>(c)];
  const std::size_t b = id & 15;
  // Arrivals alone complete a phase no warp waits in.
  if (++cr.bar_arrivals[b] * kLanes >= threads) cr.bar_arrivals[b] = 0;
}

// The executing lanes of warp w of CTA c at the instruction it waits at (its path, guard true).
namespace {
std::uint32_t guarded(const Machine& m, const Instruction& ins, std::uint32_t path, int w, int c) {
  if (ins.guard < 0) return path;
  std::uint32_t lanes = 0;
  for (int lane = 0; lane < Machine::kLanes; ++lane)
    if (((path >> lane) & 1U) && (m.reg(w * Machine::kLanes + lane, ins.guard, c) != 0) != ins.guard_negated)
      lanes |= 1U << lane;
  return lanes;
}
}  // namespace

// barrier.cluster: the phase completes when every thread of the cluster that has not exited has
// arrived in it (a CTA that has ended counts as exited); a warp waiting at barrier.cluster.wait
// goes on when every executing lane's arrival is in a completed phase. A wait by a thread that has
// not arrived can never complete: an error.
bool Machine::complete_cluster_barrier() {
  ClusterRun& cl = clusters_[static_cast<std::size_t>(cur_cluster_)];
  bool waiting = false;
  for (const int c : cl.ctas)
    for (const WarpRun& r : runs_[static_cast<std::size_t>(c)].warps)
      waiting = waiting || (!r.stack.empty() && r.waiting >= 0 && !r.released &&
                            prep_->collective[static_cast<std::size_t>(r.waiting)] == ptx::Collective::cluster_barrier);
  if (!waiting) return false;
  bool all = true;
  for (const int c : cl.ctas) {
    const CtaRun& cr = runs_[static_cast<std::size_t>(c)];
    if (cr.is != CtaIs::running) continue;
    for (int w = 0; w < warps_ && all; ++w) {
      const WarpRun& r = cr.warps[static_cast<std::size_t>(w)];
      const std::uint32_t live = r.stack.empty() ? 0 : r.launch & ~r.exited;
      for (int lane = 0; lane < kLanes; ++lane)
        if (((live >> lane) & 1U) && cr.arrived[static_cast<std::size_t>(w * kLanes + lane)] != cl.phase + 1) all = false;
    }
  }
  if (all) ++cl.phase;
  bool moved = all;
  for (const int c : cl.ctas) {
    CtaRun& cr = runs_[static_cast<std::size_t>(c)];
    for (int w = 0; w < warps_; ++w) {
      WarpRun& r = cr.warps[static_cast<std::size_t>(w)];
      if (r.stack.empty() || r.waiting < 0 || r.released ||
          prep_->collective[static_cast<std::size_t>(r.waiting)] != ptx::Collective::cluster_barrier)
        continue;
      const Instruction& ins = prog_.code[static_cast<std::size_t>(r.waiting)];
      const std::uint32_t lanes = guarded(*this, ins, r.stack.back().mask, w, c);
      bool done = true;
      for (int lane = 0; lane < kLanes; ++lane) {
        if (!((lanes >> lane) & 1U)) continue;
        const std::uint64_t a = cr.arrived[static_cast<std::size_t>(w * kLanes + lane)];
        if (a == 0)
          throw located(prog_, ins,
                        fmt::format("'{}': {} lane {} waits at the cluster barrier without having arrived "
                                    "(barrier.cluster.arrive first): it would wait forever",
                                    ins.text, warp_name(c, w), lane));
        done = done && a <= cl.phase;
      }
      if (done) {
        r.released = true;
        moved = true;
      }
    }
  }
  return moved;
}

// No warp of the cluster can go on: name each waiting warp and where it waits.
void Machine::deadlock() {
  const ClusterRun& cl = clusters_[static_cast<std::size_t>(cur_cluster_)];
  std::string who;
  const Instruction* first = nullptr;
  bool cluster_wait = false, alloc_wait = false;
  for (const int c : cl.ctas) {
    const CtaRun& cr = runs_[static_cast<std::size_t>(c)];
    if (cr.is != CtaIs::running) continue;
    for (int w = 0; w < warps_; ++w) {
      const WarpRun& r = cr.warps[static_cast<std::size_t>(w)];
      if (r.stack.empty()) continue;
      const Instruction& ins = prog_.code[static_cast<std::size_t>(r.parked ? r.park_pc : r.waiting)];
      if (!first) first = &ins;
      who += fmt::format("{}{} at line {} ({}", who.empty() ? "" : "; ", warp_name(c, w), ins.loc.line, ins.text);
      alloc_wait = alloc_wait || (r.parked && r.park_alloc);
      if (r.parked && r.park_alloc)
        who += fmt::format(", waiting for free tensor-memory columns; allocated: {}", tmem_allocations(cta(c).tmem));
      else if (r.parked)
        who += fmt::format(", waiting on the mbarrier at shared {:#x}: {}", r.park_addr,
                           Mbarrier::decode(cta(c).shared.load(r.park_addr, 8)).describe());
      if (!r.parked && prep_->collective[static_cast<std::size_t>(r.waiting)] == ptx::Collective::cluster_barrier)
        cluster_wait = true;
      who += ")";
    }
  }
  // Threads the cluster barrier's phase still waits for.
  std::string missing;
  if (cluster_wait)
    for (const int c : cl.ctas) {
      const CtaRun& cr = runs_[static_cast<std::size_t>(c)];
      if (cr.is != CtaIs::running) continue;
      for (int w = 0; w < warps_; ++w) {
        const WarpRun& r = cr.warps[static_cast<std::size_t>(w)];
        const std::uint32_t live = r.stack.empty() ? 0 : r.launch & ~r.exited;
        std::uint32_t not_arrived = 0;
        for (int lane = 0; lane < kLanes; ++lane)
          if (((live >> lane) & 1U) && cr.arrived[static_cast<std::size_t>(w * kLanes + lane)] != cl.phase + 1)
            not_arrived |= 1U << lane;
        if (not_arrived)
          missing += fmt::format("{}{} lanes {}", missing.empty() ? "" : ", ", warp_name(c, w), exec::lane_list(not_arrived));
      }
    }
  throw located(prog_, *first,
                fmt::format("deadlock: no warp can go on ({}){}; a barrier needs every live warp of the block or its "
                            "thread count, a wgmma.mma_async the four warps of its warpgroup at the same instruction, an mbarrier "
                            "wait the arrivals and transactions of its phase{}{}",
                            who,
                            missing.empty() ? "" : fmt::format("; the cluster barrier waits for the arrival of {}", missing),
                            cluster_wait ? ", barrier.cluster.wait every live thread of the cluster to arrive" : "",
                            alloc_wait ? ", a tcgen05.alloc a tcgen05.dealloc that frees columns" : ""));
}

// The CTA cur_cta_ has ended: its diagnostics; its shared memory stays until its cluster ends
// (an access to it from another CTA is an error).
void Machine::finish_cta() {
  CtaRun& cr = runs_[static_cast<std::size_t>(cur_cta_)];
  std::vector<WarpRun>& ws = cr.warps;
  for (int w = 0; w < warps_; ++w) {
    sum_.exited[static_cast<std::size_t>(cur_cta_) * static_cast<std::size_t>(warps_) + static_cast<std::size_t>(w)] =
        ws[static_cast<std::size_t>(w)].exited;
    for (const WgmmaAsync::Op* op : ws[static_cast<std::size_t>(w)].async.in_flight()) {
      diagnose(prog_.code[static_cast<std::size_t>(op->pc)],
               fmt::format("{}: this wgmma.mma_async is still in flight when the program ends (no "
                           "wgmma.commit_group and wgmma.wait_group retired it)",
                           warp_name(cur_cta_, w)));
      break;
    }
  }
  if (const auto c = cr.copies->drain(cta(cur_cta_).shared))
    diagnose(prog_.code[static_cast<std::size_t>(c->pc)],
             fmt::format("{} lane {}: this cp.async is still in flight when the program ends (no "
                         "cp.async.wait_group or wait_all completed it; its bytes were written then)",
                         warp_name(cur_cta_, c->thread / kLanes), c->thread % kLanes));
  if (const auto l = cr.bulk->drain(cta(cur_cta_).shared,
                                    [&](const BulkCopies::Store& s) { exec::write_bulk_store(prog_, global(), s); }))
    diagnose(prog_.code[static_cast<std::size_t>(l->pc)],
             fmt::format("{} lane {}: this bulk copy into shared memory is still in flight when the program ends (no "
                         "wait on its mbarrier completed it; its bytes were written then)",
                         warp_name(l->cta, l->thread / kLanes), l->thread % kLanes));
  for (const Tcgen05InFlight::Op& op : cr.umma.ops())
    if (!op.committed) {
      diagnose(prog_.code[static_cast<std::size_t>(op.pc)],
               fmt::format("{} lane {}: this tcgen05.mma is still in flight when the CTA ends (no tcgen05.commit "
                           "tracked its completion)",
                           warp_name(cur_cta_, op.thread / kLanes), op.thread % kLanes));
      break;
    }
  for (const TensorMemory::Allocation& a : cta(cur_cta_).tmem.allocations())
    diagnose(prog_.code[static_cast<std::size_t>(a.tag)],
             fmt::format("{}: tensor-memory columns {}-{} allocated here are not deallocated when the CTA ends "
                         "(tcgen05.dealloc before exit)",
                         cta(cur_cta_).name(), a.column, a.column + a.columns - 1));
  cr.is = CtaIs::finished;
  if (cr.race && spare_races.size() < kMaxCluster) spare_races.push_back(std::move(*cr.race));
  cr.race.reset();
  cta(cur_cta_).local = Memory::dense("local", 0);
}

std::optional<Machine::Position> Machine::next() {
  if (!settle()) return std::nullopt;
  const WarpRun& r = runs_[static_cast<std::size_t>(cur_cta_)].warps[static_cast<std::size_t>(cur_)];
  return Position{cur_cta_, cur_, r.stack.back().pc, r.stack.back().mask};
}

Machine::CtaIs Machine::cta_state(int c) const {
  if (!started_) return CtaIs::not_started;
  if (finished_) return CtaIs::finished;
  return runs_[static_cast<std::size_t>(c)].is;
}

int Machine::cluster_cta(int c, std::uint64_t rank) const {
  const ClusterRun& cl = clusters_[static_cast<std::size_t>(cluster_of_[static_cast<std::size_t>(c)])];
  if (rank >= cl.ctas.size())
    throw Error(fmt::format("CTA rank {} is outside the cluster of {} CTAs (%cluster_ctarank 0-{})", rank,
                            cl.ctas.size(), cl.ctas.size() - 1));
  const int t = cl.ctas[static_cast<std::size_t>(rank)];
  if (started_ && runs_[static_cast<std::size_t>(t)].is == CtaIs::finished)
    throw Error(fmt::format("{} (cluster rank {}) has exited: its shared memory is gone (a barrier.cluster before "
                            "it exits keeps it)",
                            cta(t).name(), rank));
  return t;
}

std::uint32_t Machine::cluster_rank(int c) const { return special(ptx::Special::cluster_ctarank, 0, c); }

std::uint32_t Machine::cluster_size() const {
  const Dim3& cl = grid_.shape.cluster;
  return static_cast<std::uint32_t>(cl[0] * cl[1] * cl[2]);
}

Machine::Units Machine::units(int c) {
  CtaRun& cr = runs_[static_cast<std::size_t>(c)];
  return {cr.copies ? &*cr.copies : nullptr, cr.bulk ? &*cr.bulk : nullptr, &cr.mbar};
}

int Machine::shared_owner(int c, const Memory* mem) const {
  for (const int t : clusters_[static_cast<std::size_t>(cluster_of_[static_cast<std::size_t>(c)])].ctas)
    if (&cta(t).shared == mem) return t;
  return -1;
}

void Machine::cluster_arrive(int c, int thread) {
  const ClusterRun& cl = clusters_[static_cast<std::size_t>(cluster_of_[static_cast<std::size_t>(c)])];
  std::uint64_t& a = runs_[static_cast<std::size_t>(c)].arrived[static_cast<std::size_t>(thread)];
  if (a != 0)
    throw Error(fmt::format("lane {} arrives at the cluster barrier again before its barrier.cluster.wait (phase {}; "
                            "each arrive is followed by a wait)",
                            thread % kLanes, a - 1));
  a = cl.phase + 1;
}

void Machine::cluster_waited(int c, int thread) { runs_[static_cast<std::size_t>(c)].arrived[static_cast<std::size_t>(thread)] = 0; }

Machine::WarpState Machine::warp_state(int w, int c) const {
  WarpState st;
  if (c < 0) c = cur_cta_;
  if (!started_ || finished_ || runs_[static_cast<std::size_t>(c)].warps.empty()) return st;
  const WarpRun& r = runs_[static_cast<std::size_t>(c)].warps[static_cast<std::size_t>(w)];
  st.exited = r.exited;
  st.depth = static_cast<int>(r.frames.size());
  if (r.stack.empty()) return st;
  st.lanes = r.stack.back().mask;
  st.pc = r.stack.back().pc;
  st.is = WarpState::Is::ready;
  if (r.parked) {
    st.is = WarpState::Is::parked;
    st.pc = r.park_pc;
    st.mbarrier = r.park_addr;
  } else if (r.waiting >= 0 && !r.released) {
    st.is = WarpState::Is::waiting;
    st.pc = r.waiting;
  }
  return st;
}

bool Machine::ready(int w) {
  CtaRun& cr = runs_[static_cast<std::size_t>(cur_cta_)];
  WarpRun& ws = cr.warps[static_cast<std::size_t>(w)];
  if (ws.parked) {
    if (park_progress(cur_cta_, ws) == ws.park_completions) return false;
    ws.parked = false;
  }
  const int n = static_cast<int>(prog_.code.size());
  auto& stack = ws.stack;
  while (!stack.empty()) {
    const WarpRun::Entry& top = stack.back();
    if (top.mask == 0 || top.pc == top.rpc || top.pc >= n || top.pc >= top.end) {
      stack.pop_back();
      continue;
    }
    // A call whose callee's entries have all left: its lanes are back in the caller.
    if (!ws.frames.empty() && stack.size() <= ws.frames.back().base) {
      const WarpRun::Frame f = ws.frames.back();
      ws.frames.pop_back();
      return_from(w, f);
      continue;
    }
    // A collective of several warps: wait there until the others arrive.
    if (prep_->collective[static_cast<std::size_t>(top.pc)] != ptx::Collective::none) {
      if (ws.released && ws.waiting == top.pc) return true;
      ws.waiting = top.pc;
      ws.released = false;
      return false;
    }
    return true;
  }
  return false;
}

void Machine::execute(int w) {
  WarpRun& ws = runs_[static_cast<std::size_t>(cur_cta_)].warps[static_cast<std::size_t>(w)];
  const Prepared& prep = *prep_;
  const int base = w * kLanes;
  RegisterFile& regs = ctas_[static_cast<std::size_t>(cur_cta_)].regs;
  const std::size_t step_base = static_cast<std::size_t>(cur_cta_) * static_cast<std::size_t>(threads());
  auto& stack = ws.stack;
  {
    WarpRun::Entry& top = stack.back();
    const int pc = top.pc;
    const Instruction& ins = prog_.code[static_cast<std::size_t>(pc)];
    const std::uint32_t path = top.mask;
    const bool mma_async = prep.collective[static_cast<std::size_t>(pc)] == ptx::Collective::warpgroup;
    if (ws.waiting == pc) {  // the collective has completed: step past it
      ws.waiting = -1;
      ws.released = false;
    }
    // Steps: every lane of the path at once. Once the warp's bound reaches the limit, the lanes
    // are checked: the first lane over it is reported, with the steps of the lanes after it not
    // counted, as a lane-by-lane count stops there.
    ++sum_.warp_instructions;
    {
      std::uint64_t* steps = sum_.steps.data() + step_base + static_cast<std::size_t>(base);
      exec::WarpAlu::Lanes on;
      if (path == 0xffffffffU) {  // the common case: no masks to look up
        on.fill(~0ULL);
        for (int lane = 0; lane < kLanes; ++lane) ++steps[lane];
      } else {
        exec::lane_masks(path, on);
        for (int lane = 0; lane < kLanes; ++lane) steps[lane] += on[static_cast<std::size_t>(lane)] & 1U;
      }
      if (++ws.most_steps > opts_.max_steps) {
        ws.most_steps = *std::max_element(steps, steps + kLanes);
        for (int lane = 0; lane < kLanes; ++lane)
          if (((path >> lane) & 1U) && steps[lane] > opts_.max_steps) {
            for (int later = lane + 1; later < kLanes; ++later) steps[later] -= on[static_cast<std::size_t>(later)] & 1U;
            throw located(prog_, ins,
                          fmt::format("step limit: {}lane {} has executed {} instructions without finishing (an "
                                      "endless loop?); the limit is --max-steps",
                                      warps_ > 1 || grid_.shape.ctas() > 1 ? warp_name(cur_cta_, w) + " " : "", lane,
                                      opts_.max_steps));
          }
      }
    }
    // Guard: the lanes of the path whose predicate (or its negation) is set.
    std::uint32_t lanes = path;
    if (ins.guard >= 0) {
      const std::uint64_t* g = regs.words(ins.guard) + base;
      std::uint32_t set = 0;
#pragma GCC unroll 32
      for (int lane = 0; lane < kLanes; ++lane) set |= (g[lane] != 0 ? 1U : 0U) << lane;
      lanes = path & (ins.guard_negated ? ~set : set);
    }
    if (opts_.trace) {
      const Dim3& id = ctas_[static_cast<std::size_t>(cur_cta_)].id;
      *opts_.trace << fmt::format("{}{}{:>5}  {:08x}  {:<8x}  {}{}\n",
                                  grid_.shape.ctas() > 1 ? fmt::format("c{},{},{} ", id[0], id[1], id[2]) : "",
                                  warps_ > 1 ? fmt::format("w{:<3}", warp_id(w)) : "", ins.loc.line, path, lanes,
                                  prog_.line_text(ins.loc.line),
                                  ins.d.contraction ? "   // one fused multiply-add with its product, as ptxas makes it" : "");
    }
    // wgmma hazards: a register of an in-flight wgmma.mma_async touched by anything but another
    // wgmma.mma_async accumulating into it or reading the same A.
    if (!ws.async.idle() && !mma_async)
      for (const int r : prep.regs_used[static_cast<std::size_t>(pc)])
        if (const auto o = ws.async.owner(r); o.op) {
          diagnose(ins,
                   fmt::format("{}: {} is {} of the wgmma.mma_async at line {}, which is still in flight (use "
                               "wgmma.commit_group and wgmma.wait_group before touching it)",
                               warp_name(cur_cta_, w), prog_.registers[static_cast<std::size_t>(r)].source,
                               o.accumulator ? "an accumulator" : "an A register", line_of(o.op->pc)));
          break;
        }
    // tcgen05.ld hazards: a destination register of a load not yet waited for (tcgen05.wait::ld).
    if (!ws.tmem_loads.empty())
      for (const int r : prep.regs_used[static_cast<std::size_t>(pc)])
        if (std::find(ws.tmem_loads.begin(), ws.tmem_loads.end(), r) != ws.tmem_loads.end()) {
          diagnose(ins, fmt::format("{}: {} is a destination of the tcgen05.ld at line {}, which is still in flight "
                                    "(tcgen05.wait::ld before using it)",
                                    warp_name(cur_cta_, w), prog_.registers[static_cast<std::size_t>(r)].source,
                                    line_of(ws.tmem_load_pc)));
          break;
        }
    const ptx::Flow flow = prep.flows[static_cast<std::size_t>(pc)];
    if (flow == ptx::Flow::branch) {
      const int target = ins.ops[0].target;
      const std::uint32_t taken = lanes, fall = path & ~lanes;
      if (ins.d.mode == 1 && taken != 0 && fall != 0)
        throw located(prog_, ins,
                      fmt::format("'{}': lanes {} branch and lanes {} do not; .uni promises that all go the same way",
                                  ins.text, exec::lane_list(taken), exec::lane_list(fall)));
      if (fall == 0) {
        top.pc = target;
      } else if (taken == 0) {
        top.pc = pc + 1;
      } else {
        const int rpc = prep.ipdom[static_cast<std::size_t>(pc)];
        const int outer_rpc = top.rpc, end = top.end;
        top.pc = rpc;
        if (rpc == outer_rpc) stack.pop_back();
        if (stack.size() + 2 > kMaxStack) throw located(prog_, ins, "the reconvergence stack overflowed");
        stack.push_back({pc + 1, rpc, fall, end});
        stack.push_back({target, rpc, taken, end});
      }
      return;
    }
    if (flow == ptx::Flow::call) {
      stack.back().pc = pc + 1;
      if (lanes != 0) call(w, ins, pc, lanes);
      return;
    }
    if (flow == ptx::Flow::exit) {
      // ret in a function leaves the callee's entries: the lanes wait in the caller until all return.
      const bool in_function = ins.opcode == "ret" && !ws.frames.empty();
      if (!in_function) ws.exited |= lanes;
      for (std::size_t k = in_function ? ws.frames.back().base : 0; k < stack.size(); ++k) stack[k].mask &= ~lanes;
      stack.back().pc = pc + 1;
      return;
    }
    if (const exec::WarpAlu& alu = prep.alu[static_cast<std::size_t>(pc)]; alu.fn) {
      if (lanes != 0) alu.fn(alu, regs, base, lanes);
      stack.back().pc = pc + 1;
      return;
    }
    if (!mma_async) {  // a wgmma.mma_async ran when its warpgroup arrived
      exec::Exec x(*this, path, w, cur_cta_);
      x.live_mask = ws.launch & ~ws.exited;
      x.mma = prep.mma[static_cast<std::size_t>(pc)].get();
      x.pc = pc;
      CtaRun& cr = runs_[static_cast<std::size_t>(cur_cta_)];
      x.copies = &*cr.copies;
      x.bulk = &*cr.bulk;
      x.umma = &cr.umma;
      x.mbar = &cr.mbar;
      if (cr.race) {
        x.race = &*cr.race;
        x.epoch = sync_epoch(cur_cta_);
      }
      try {
        if (lanes != 0 || ins.d.sync) prep.fns[static_cast<std::size_t>(pc)](x, ins, lanes);
      } catch (const ptx::PtxError&) {
        throw;
      } catch (const Error& e) {
        throw located(prog_, ins, fmt::format("'{}'{}: {}", ins.text, who(w), e.what()));
      }
      if (x.park) {
        ws.parked = true;
        ws.park_pc = pc;
        ws.park_addr = x.park_addr;
        ws.park_alloc = x.park_alloc;
        ws.park_completions = park_progress(cur_cta_, ws);
        if (x.park_alloc) return;  // the allocation is tried again when the warp goes on
      }
      if (ins.d.unit == ptx::AsyncUnit::tmem_ld) {
        if (ins.d.step == ptx::AsyncStep::wait_all && lanes != 0) ws.tmem_loads.clear();
        if (ins.d.step == ptx::AsyncStep::issue && lanes != 0) {
          for (const ptx::Operand& e : ins.ops[0].elems) ws.tmem_loads.push_back(e.reg);
          ws.tmem_load_pc = pc;
        }
      }
      if (ins.d.unit == ptx::AsyncUnit::wgmma) {
        if (ins.d.step == ptx::AsyncStep::fence) ws.async.fence();
        if (ins.d.step == ptx::AsyncStep::commit) ws.async.commit();
        if (ins.d.step == ptx::AsyncStep::wait) ws.async.wait(ins.d.groups);
      }
    }
    stack.back().pc = pc + 1;
  }
}

// A call by `lanes` (the whole path: a guard may not split it) of warp w: the arguments are copied
// into the callee's parameters, and the callee's code runs as a new entry above the caller's,
// which waits at the next instruction; or a built-in function runs at once.
void Machine::call(int w, const Instruction& ins, int pc, std::uint32_t lanes) {
  WarpRun& ws = runs_[static_cast<std::size_t>(cur_cta_)].warps[static_cast<std::size_t>(w)];
  const std::uint32_t path = ws.stack.back().mask;
  if (lanes != path)
    throw located(prog_, ins,
                  fmt::format("'{}': lanes {} call and lanes {} of the same path do not (a guard that differs between "
                              "lanes; branch around the call instead)",
                              ins.text, exec::lane_list(lanes), exec::lane_list(path & ~lanes)));
  const ptx::Function& f = prog_.functions[static_cast<std::size_t>(ins.d.mode)];
  exec::Exec x(*this, path, w, cur_cta_);
  if (const exec::Builtin b = prep_->builtin[static_cast<std::size_t>(pc)]; b != exec::Builtin::none) {
    try {
      exec::run_builtin(x, ins, lanes, b);
    } catch (const ptx::PtxError&) {
      throw;
    } catch (const Error& e) {
      throw located(prog_, ins, fmt::format("'{}' ({}){}: {}", ins.text, f.name, who(w), e.what()));
    }
    return;
  }
  for (const WarpRun::Frame& fr : ws.frames)
    if (prog_.code[static_cast<std::size_t>(fr.pc)].d.mode == ins.d.mode)
      throw located(prog_, ins,
                    fmt::format("'{}' calls '{}' while a call of it is in progress (line {}): recursion is not "
                                "supported",
                                ins.text, f.name, line_of(fr.pc)));
  if (ws.frames.size() >= kMaxCallDepth)
    throw located(prog_, ins, fmt::format("calls nested more than {} deep", kMaxCallDepth));
  try {
    exec::copy_params(x, ins.ops[2], f.params, lanes);
  } catch (const Error& e) {
    throw located(prog_, ins, fmt::format("'{}': {}", ins.text, e.what()));
  }
  ws.frames.push_back({ws.stack.size(), pc, lanes});
  ws.stack.push_back({f.begin, f.end, lanes, f.end});
}

// The callee of frame f has returned: its return values go to the caller's return parameters in
// the lanes that called and have not exited.
void Machine::return_from(int w, const WarpRun::Frame& f) {
  const WarpRun& ws = runs_[static_cast<std::size_t>(cur_cta_)].warps[static_cast<std::size_t>(w)];
  const Instruction& ins = prog_.code[static_cast<std::size_t>(f.pc)];
  const std::uint32_t lanes = f.lanes & ~ws.exited;
  if (lanes == 0) return;
  exec::Exec x(*this, lanes, w, cur_cta_);
  exec::copy_returns(x, ins.ops[0], prog_.functions[static_cast<std::size_t>(ins.d.mode)].returns, lanes);
}

void Machine::print(const std::string& text) {
  sum_.printed += text;
  if (opts_.print) *opts_.print << text << std::flush;
}

// One wgmma.mma_async on the warpgroup of warps g..g+3, all waiting at it.
void Machine::run_wgmma(int g) {
  std::vector<WarpRun>& ws = runs_[static_cast<std::size_t>(cur_cta_)].warps;
  const int cc = cur_cta_;
  Memory& shared = cta(cc).shared;
  const int pc = ws[static_cast<std::size_t>(g)].waiting;
  const Instruction& ins = prog_.code[static_cast<std::size_t>(pc)];
  for (int w = g; w < g + 4; ++w) {
    const WarpRun& r = ws[static_cast<std::size_t>(w)];
    const Instruction& other = prog_.code[static_cast<std::size_t>(r.waiting)];
    if (r.waiting != pc)
      throw located(prog_, other,
                    fmt::format("warp {} is at this wgmma.mma_async while warp {} of its warpgroup is at the one on "
                                "line {}: .aligned needs all four warps at the same instruction",
                                warp_id(w), warp_id(g), ins.loc.line));
    if (r.stack.back().mask != r.launch || r.exited)
      throw located(prog_, ins,
                    fmt::format("'{}': warp {} executes it with lanes {} only; wgmma.mma_async.sync.aligned needs all "
                                "128 threads of the warpgroup",
                                ins.text, warp_id(w), exec::lane_list(r.stack.back().mask)));
    if (ins.guard >= 0)
      for (int lane = 0; lane < kLanes; ++lane)
        if ((reg(w * kLanes + lane, ins.guard, cc) != 0) == ins.guard_negated)
          throw located(prog_, ins,
                        fmt::format("'{}': the guard is false in warp {} lane {}; wgmma.mma_async.sync.aligned needs "
                                    "all 128 threads",
                                    ins.text, warp_id(w), lane));
  }
  const WgmmaExecutor& x = *prep_->wgmma[static_cast<std::size_t>(pc)];
  const ptx::Operand& dop = ins.ops[0];
  const ptx::Operand& aop = ins.ops[1];
  const int t0 = g * kLanes;
  // Operands that must be the same in the whole warpgroup: reported, then thread 0's is used.
  const auto uniform = [&](const ptx::Operand& op, const char* what) {
    const std::uint64_t v = reg(t0, op.reg, cc);
    for (int t = 1; t < Warpgroup::kThreads; ++t)
      if (reg(t0 + t, op.reg, cc) != v) {
        diagnose(ins,
                 fmt::format("{} {} differs between threads of the warpgroup (warp {} lane 0: {:#x}, warp {} lane {}: "
                             "{:#x}); warp {} lane 0's value is used",
                             what, op.text, warp_id(g), v, warp_id(g + t / kLanes), t % kLanes, reg(t0 + t, op.reg, cc),
                             warp_id(g)));
        break;
      }
    return v;
  };
  WgmmaInputs in;
  in.shared = shared.bytes();
  std::vector<std::uint32_t> a, c;
  if (aop.kind == ptx::Operand::Kind::vec) {
    for (int t = 0; t < Warpgroup::kThreads; ++t)
      for (const auto& e : aop.elems) a.push_back(static_cast<std::uint32_t>(reg(t0 + t, e.reg, cc)));
    in.a = a;
  } else {
    in.desc_a = uniform(aop, "the A descriptor");
  }
  in.desc_b = uniform(ins.ops[2], "the B descriptor");
  const ptx::WgmmaCall& call = *ins.d.wgmma;
  std::vector<std::uint32_t> meta;
  if (call.ins.variant->is_sparse()) {  // every thread's sp-meta word
    for (int t = 0; t < Warpgroup::kThreads; ++t) meta.push_back(static_cast<std::uint32_t>(reg(t0 + t, ins.ops[3].reg, cc)));
    in.meta = meta;
    in.selector = call.sp_sel;
  }
  const ptx::Operand& sd = ins.ops[static_cast<std::size_t>(call.scale_d)];
  in.scale_d = sd.kind == ptx::Operand::Kind::imm ? sd.value != 0 : uniform(sd, "the scale-d predicate") != 0;
  for (int t = 0; t < Warpgroup::kThreads; ++t)
    for (const auto& e : dop.elems) c.push_back(static_cast<std::uint32_t>(reg(t0 + t, e.reg, cc)));
  in.c = c;
  std::vector<std::uint32_t> d(c.size(), 0);
  try {
    x.run(in, d);
  } catch (const Error& e) {
    throw located(prog_, ins, fmt::format("'{}' (warpgroup of warps {}-{}): {}", ins.text, warp_id(g), warp_id(g + 3),
                                          e.what()));
  }
  const std::size_t nd = dop.elems.size();
  WgmmaAsync::Op op{pc, {}, {}};
  for (const auto& e : dop.elems) op.d.push_back(e.reg);
  if (aop.kind == ptx::Operand::Kind::vec)
    for (const auto& e : aop.elems) op.a.push_back(e.reg);
  for (int w = g; w < g + 4; ++w) {
    WarpRun& r = ws[static_cast<std::size_t>(w)];
    if (!r.async.fenced())
      diagnose(ins, fmt::format("{}: wgmma.mma_async without an earlier wgmma.fence (the PTX ISA requires one "
                                "before the first wgmma.mma_async and after register writes it reads)",
                                warp_name(cc, w)));
    // Registers of in-flight operations used here other than as accumulators of the same kind.
    for (const auto& e : aop.elems)
      if (const auto o = r.async.owner(e.reg); o.op && o.accumulator)
        diagnose(ins, fmt::format("{}: A register {} is an accumulator of the wgmma.mma_async at line {}, which "
                                  "is still in flight",
                                  warp_name(cc, w), e.text, line_of(o.op->pc)));
    r.async.issue(op);
    r.released = true;
  }
  for (int t = 0; t < Warpgroup::kThreads; ++t)
    for (std::size_t k = 0; k < nd; ++k) set_reg(t0 + t, dop.elems[k].reg, d[static_cast<std::size_t>(t) * nd + k], cc);
}

Warp Machine::to_warp(int w, int c) const {
  Warp out;
  for (std::size_t r = 0; r < prog_.registers.size(); ++r) {
    const auto& d = prog_.registers[r];
    const int b = widths_[r];
    const RegKind k = d.type == PtxType::pred ? RegKind::pred : b <= 16 ? RegKind::b16 : b <= 32 ? RegKind::b32 : RegKind::b64;
    out.declare(d.name, k);
    for (int lane = 0; lane < kLanes; ++lane) out.set(lane, d.name, reg(w * kLanes + lane, static_cast<int>(r), c));
  }
  return out;
}

}  // namespace ptxmma
