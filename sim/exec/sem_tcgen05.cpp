// tcgen05.* on the CTA's tensor memory (sim/state/tensor_memory.hpp; docs/tcgen05.md §6):
// alloc / dealloc / relinquish_alloc_permit, ld / st through the shapes' layouts
// (configs/tcgen05/tmem_copy.yaml), wait::ld / wait::st. Each is .sync.aligned: the whole warp
// executes it, with one address and one column count.
//
// ld and st are asynchronous on the GPU; here they move the data when they execute, and the
// interpreter reports a use of an ld's destination registers before tcgen05.wait::ld
// (interpreter.cpp, AsyncUnit::tmem_ld).
#include <fmt/format.h>

#include "sim/exec/descriptor.hpp"
#include "sim/exec/mbarrier.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {
namespace {

using ptx::Instruction;
using ptx::Operand;
using ptx::Tcgen05Op;

// Whether the warp executes it: all 32 lanes, or none (a guard false in every lane); some is an
// error.
bool whole_warp(const Instruction& ins, std::uint32_t lanes) {
  if (lanes == 0) return false;
  if (lanes != 0xffffffffU)
    throw Error(fmt::format("{} needs all 32 lanes of the warp (.sync.aligned); the executing lanes are {}", ins.opcode,
                            lane_list(lanes)));
  return true;
}

// The value of `op` in lane 0, which every lane must give (.aligned: one address, one count).
std::uint64_t uniform(Exec& x, const Operand& op, const char* what, bool address = false) {
  const auto at = [&](int lane) { return address ? x.address(op, lane) : x.read(op, lane); };
  const std::uint64_t v = at(0);
  for (int lane = 1; lane < Machine::kLanes; ++lane)
    if (at(lane) != v)
      throw Error(fmt::format("{} differs between lanes: {:#x} in lane 0, {:#x} in lane {}; the warp gives one", what,
                              v, at(lane), lane));
  return v;
}

void alloc(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (!whole_warp(ins, lanes)) return;
  TensorMemory& tm = x.cta.tmem;
  const std::uint64_t n = uniform(x, ins.ops[1], "nCols");
  if (const auto bad = TensorMemory::bad_size(n)) throw Error(*bad);
  if (!tm.permit())
    throw Error("this CTA has executed tcgen05.relinquish_alloc_permit: it may allocate no more tensor memory");
  const std::uint64_t dst = uniform(x, ins.ops[0], "the destination address", true);
  const auto [mem, off] = resolve(x, ins.d.space, dst, 0, 4);
  const std::optional<int> col = tm.allocate(static_cast<int>(n), x.pc);
  if (!col) {  // the warp waits until an allocation is freed
    x.park = true;
    x.park_alloc = true;
    return;
  }
  x.shared_access(ins, 0, mem, off, 4, true);
  mem->store(off, 4, TensorMemory::address(0, *col));
}

void dealloc(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (!whole_warp(ins, lanes)) return;
  const auto taddr = static_cast<std::uint32_t>(uniform(x, ins.ops[0], "taddr"));
  const std::uint64_t n = uniform(x, ins.ops[1], "nCols");
  if (TensorMemory::lane_of(taddr) != 0)
    throw Error(fmt::format("taddr {:#010x} names lane {}; an allocation's address (lane 0) is freed", taddr,
                            TensorMemory::lane_of(taddr)));
  if (const auto bad = TensorMemory::bad_size(n)) throw Error(*bad);
  x.cta.tmem.deallocate(TensorMemory::column_of(taddr), static_cast<int>(n));
}

// The first TMEM lane and column of a copy, checked: the lanes within the warp's quarter
// (warp q % 4 of its warpgroup reaches lanes 32(q % 4) .. +31), the columns allocated.
struct Span {
  int lane = 0, column = 0;
};
Span copy_span(Exec& x, const Instruction& ins) {
  const ptx::TmemCopy& c = *ins.d.tmem;
  const Operand& addr = ins.ops[ins.d.mode == static_cast<int>(Tcgen05Op::ld) ? 1 : 0];
  const auto taddr = static_cast<std::uint32_t>(uniform(x, addr, "the tensor-memory address", true));
  const Span s{TensorMemory::lane_of(taddr), TensorMemory::column_of(taddr)};
  const int quarter = x.m.warp_id(x.base / Machine::kLanes) % 4;
  const int rows = c.shape->rows;
  if (s.lane / 32 != quarter || (s.lane + rows - 1) / 32 != quarter)
    throw Error(fmt::format("warp {} (warp {} of its warpgroup) reaches tensor-memory lanes {}-{} only; address "
                            "{:#010x} names lanes {}-{}",
                            x.m.warp_id(x.base / Machine::kLanes), quarter, 32 * quarter, 32 * quarter + 31, taddr,
                            s.lane, s.lane + rows - 1));
  // Half 0's columns, and half 1's from immHalfSplitoff on (a TMEM column offset).
  const int width = c.num * c.shape->repeat * (c.pack ? 2 : 1);
  for (const int from : {0, c.shape->halves ? c.split : 0})
    for (int col = s.column + from; col < s.column + from + width; ++col)
      if (col >= TensorMemory::kColumns || !x.cta.tmem.allocated(col))
        throw Error(fmt::format("address {:#010x}: column {} {}", taddr, col,
                                col >= TensorMemory::kColumns ? "is past the 512 columns of tensor memory"
                                                              : "is not allocated (tcgen05.alloc)"));
  return s;
}

// A load or store of cells a tcgen05.mma in flight writes: before its completion is observed
// (tcgen05.commit, then its mbarrier's phase completes), D is not yet there on the GPU.
void mma_hazard(Exec& x, const Instruction& ins, const Span& s) {
  x.umma->retire([&](int c, std::uint64_t at) { return Mbarrier::decode(x.m.cta(c).shared.load(at, 8)).phase; });
  const ptx::TmemCopy& c = *ins.d.tmem;
  const int width = c.num * c.shape->repeat * (c.pack ? 2 : 1);
  const int last = s.column + width - 1 + (c.shape->halves ? c.split : 0);
  if (const Tcgen05InFlight::Op* op = x.umma->overlapping(s.lane, s.lane + c.shape->rows - 1, s.column, last))
    x.m.diagnose(ins, fmt::format("{}: tensor-memory lanes {}-{}, columns {}-{} are D of the tcgen05.mma at line {}, "
                                  "which is still in flight ({}; then tcgen05.fence::after_thread_sync)",
                                  x.m.warp_name(x.cta_index, x.base / Machine::kLanes), op->lane0, op->lane1, op->col0,
                                  op->col1, x.p.code[static_cast<std::size_t>(op->pc)].loc.line,
                                  op->committed ? "its tcgen05.commit's mbarrier phase has not completed"
                                                : "no tcgen05.commit of its thread yet, nor a wait on that mbarrier"));
}

void copy(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (!whole_warp(ins, lanes)) return;
  const ptx::TmemCopy& c = *ins.d.tmem;
  const Span s = copy_span(x, ins);
  if (!x.umma->idle()) mma_hazard(x, ins, s);
  TensorMemory& tm = x.cta.tmem;
  const bool load = ins.d.mode == static_cast<int>(Tcgen05Op::ld);
  const Operand& regs = ins.ops[load ? 0 : ins.ops.size() - 1];
  bool undefined = false;
  int undefined_lane = 0, undefined_col = 0;
  const auto get = [&](int lane, int col) {
    if (!tm.defined(lane, col) && !undefined) undefined = true, undefined_lane = lane, undefined_col = col;
    return tm.get(lane, col);
  };
  for (int lane = 0; lane < Machine::kLanes; ++lane)
    for (int r = 0; r < c.regs; ++r) {
      const TmemCopyShape::Cell cell = c.shape->at(lane, r);
      const int tl = s.lane + cell.row;
      const int col = s.column + (c.pack ? 2 * cell.col : cell.col) + cell.half * c.split;
      const Operand& reg = regs.elems[static_cast<std::size_t>(r)];
      if (c.pack) {  // two 16-bit halves, the low from `col`, the high from the next column
        if (load) {
          x.write(reg, lane, (get(tl, col) & 0xFFFFU) | ((get(tl, col + 1) & 0xFFFFU) << 16));
        } else {
          const auto v = static_cast<std::uint32_t>(x.read(reg, lane));
          tm.set(tl, col, v & 0xFFFFU);
          tm.set(tl, col + 1, v >> 16);
        }
      } else if (load) {
        x.write(reg, lane, get(tl, col));
      } else {
        tm.set(tl, col, static_cast<std::uint32_t>(x.read(reg, lane)));
      }
    }
  if (undefined && !x.m.reported(KernelCheck::initcheck, ins))  // formatted once: no allocation per load
    x.m.report(KernelCheck::initcheck, ins,
               fmt::format("tensor memory lane {} column {} is read before anything wrote it (a fresh allocation's "
                           "contents are unspecified)",
                           undefined_lane, undefined_col));
}

// Each executing thread issues one MMA (CUTLASS elects one): they run in lane order, now.
void mma(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  Tcgen05Mma& run = x.m.tcgen05_mma(x.pc, static_cast<Tcgen05Kind>(ins.d.mode2));
  for_lanes(lanes, [&](int lane) {
    Tcgen05Mma::Inputs in;
    in.d_taddr = static_cast<std::uint32_t>(x.address(ins.ops[0], lane));
    in.a_in_tmem = ins.ops[1].kind == Operand::Kind::addr;
    if (in.a_in_tmem)
      in.a_taddr = static_cast<std::uint32_t>(x.address(ins.ops[1], lane));
    else
      in.desc_a = x.read(ins.ops[1], lane);
    in.desc_b = x.read(ins.ops[2], lane);
    in.idesc = static_cast<std::uint32_t>(x.read(ins.ops[3], lane));
    const bool masked = ins.ops[4].kind == Operand::Kind::vec;  // disable-output-lane
    const Operand& enable = ins.ops[masked ? 5 : 4];
    in.accumulate = (x.read(enable, lane) != 0) != enable.negated;
    if (masked)
      for (std::size_t w = 0; w < 4; ++w)
        in.disabled[w] = static_cast<std::uint32_t>(x.read(ins.ops[4].elems[w], lane));
    if (ins.ops.size() == (masked ? 7U : 6U)) in.scale_d = static_cast<int>(x.read(ins.ops.back(), lane));
    const Tcgen05Mma::Footprint d = run.run(x.cta.shared, x.cta.tmem, in);
    x.umma->issue({x.pc, x.base + lane, d.lane0, d.lane1, d.col0, d.col1});
    const std::int64_t undefined = d.undefined;
    if (undefined >= 0 && !x.m.reported(KernelCheck::initcheck, ins))
      x.m.report(KernelCheck::initcheck, ins,
                 fmt::format("lane {}: tensor memory lane {} column {} (of A, or of the accumulator) is read before "
                             "anything wrote it (enable-input-d 0 starts D afresh)",
                             lane, undefined >> 16, undefined & 0xFFFF));
  });
}

// TMEM columns [col0, col0 + n) all allocated, or an Error naming the first that is not.
void require_columns(const TensorMemory& tm, std::uint32_t taddr, int n, const char* what) {
  const int col0 = TensorMemory::column_of(taddr);
  for (int col = col0; col < col0 + n; ++col)
    if (col >= TensorMemory::kColumns || !tm.allocated(col))
      throw Error(fmt::format("{} {:#010x}: column {} {}", what, taddr, col,
                              col >= TensorMemory::kColumns ? "is past the 512 columns of tensor memory"
                                                            : "is not allocated (tcgen05.alloc)"));
}

// tcgen05.cp (docs/tcgen05.md §6.2): a matrix of `rows` rows of `words` 32-bit words read from shared
// memory through the sm_100 descriptor as a K-major operand of 32-bit elements (row r, element w:
// the canonical layout of tcgen05.mma's operands), row r into a TMEM lane, word w into column
// (taddr's column + w). Without multicast row r goes to lane (taddr's lane + r); .warpx2::02_13 puts
// rows 0-31 into the lanes of warps 0 and 2 and rows 32-63 into those of warps 1 and 3;
// .warpx2::01_23 rows 0-31 into warps 0 and 1, 32-63 into warps 2 and 3; .warpx4 the 32 rows into
// all four. Each executing thread issues one copy (CUTLASS elects one), now.
void cp(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  using S = ptx::Tcgen05CpShape;
  const auto shape = static_cast<S>(ins.d.mode2);
  const int rows = shape == S::r4x256b                                ? 4
                   : shape == S::r128x256b || shape == S::r128x128b ? 128
                   : shape == S::r32x128b_x4                         ? 32
                                                                     : 64;
  const int words = shape == S::r128x256b || shape == S::r4x256b ? 8 : 4;
  const bool multicast = rows == 64 || rows == 32;
  TensorMemory& tm = x.cta.tmem;
  const Memory& shared = x.cta.shared;
  for_lanes(lanes, [&](int lane) {
    const auto taddr = static_cast<std::uint32_t>(x.address(ins.ops[0], lane));
    const int lane0 = TensorMemory::lane_of(taddr), col0 = TensorMemory::column_of(taddr);
    if ((multicast || rows == 128) ? lane0 != 0 : lane0 + rows > TensorMemory::kLanes)
      throw Error(fmt::format("taddr {:#010x} names lane {}; {}", taddr, lane0,
                              rows == 4 ? "the 4 rows must end by lane 127" : "this shape's rows start at lane 0"));
    require_columns(tm, taddr, words, "taddr");
    const OperandAddressing at(MatrixDescriptor::decode_tcgen05(x.read(ins.ops[1], lane)), Major::k, Type::s32, rows,
                               words);
    for (int r = 0; r < rows; ++r)
      for (int w = 0; w < words; ++w) {
        const std::uint64_t addr = at.slot(r, w).address;
        if (addr + 4 > shared.size())
          throw Error(fmt::format("row {} word {} at shared {:#x} is outside shared memory ({} bytes; descriptor {})", r,
                                  w, addr, shared.size(), at.descriptor().text()));
        const auto v = static_cast<std::uint32_t>(shared.load(addr, 4));
        const int col = col0 + w, in = r % 32, block = r / 32;
        switch (shape) {
          case S::r64x128b_02_13:
            tm.set(32 * block + in, col, v);
            tm.set(32 * (block + 2) + in, col, v);
            break;
          case S::r64x128b_01_23:
            tm.set(32 * (2 * block) + in, col, v);
            tm.set(32 * (2 * block + 1) + in, col, v);
            break;
          case S::r32x128b_x4:
            for (int q = 0; q < 4; ++q) tm.set(32 * q + in, col, v);
            break;
          default: tm.set(lane0 + r, col, v);
        }
      }
  });
}

// tcgen05.shift.down (docs/tcgen05.md §6.2): the 32 bytes (8 columns) from taddr's column move one
// lane down in every lane from taddr's (a multiple of 32) to 126: lane 127's fall off, and
// taddr's lane keeps its own (the PTX ISA does not say what it holds after).
void shift(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  TensorMemory& tm = x.cta.tmem;
  for_lanes(lanes, [&](int lane) {
    const auto taddr = static_cast<std::uint32_t>(x.address(ins.ops[0], lane));
    const int lane0 = TensorMemory::lane_of(taddr), col0 = TensorMemory::column_of(taddr);
    if (lane0 % 32 != 0 || lane0 >= TensorMemory::kLanes)
      throw Error(fmt::format("taddr {:#010x} names lane {}; tcgen05.shift's lane is 0, 32, 64 or 96", taddr, lane0));
    require_columns(tm, taddr, 8, "taddr");
    for (int l = TensorMemory::kLanes - 2; l >= lane0; --l)
      for (int c = col0; c < col0 + 8; ++c)
        if (tm.defined(l, c)) tm.set(l + 1, c, tm.get(l, c));
  });
}

void tcgen05(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  switch (static_cast<Tcgen05Op>(ins.d.mode)) {
    case Tcgen05Op::alloc: alloc(x, ins, lanes); return;
    case Tcgen05Op::dealloc: dealloc(x, ins, lanes); return;
    case Tcgen05Op::relinquish_alloc_permit:
      if (whole_warp(ins, lanes)) x.cta.tmem.relinquish();
      return;
    case Tcgen05Op::ld:
    case Tcgen05Op::st: copy(x, ins, lanes); return;
    case Tcgen05Op::wait_ld:
    case Tcgen05Op::wait_st: (void)whole_warp(ins, lanes); return;  // the interpreter retires the loads
    case Tcgen05Op::mma: mma(x, ins, lanes); return;
    case Tcgen05Op::commit:  // the MMAs ran when issued: their completion arrives now
      for_lanes(lanes, [&](int lane) {
        const MbarrierRef b = mbarrier_arrive_one(x, ins.d.space, ins.ops[0], lane);
        x.umma->commit(x.base + lane, b.cta, b.at, b.parity);
      });
      return;
    case Tcgen05Op::fence: return;
    case Tcgen05Op::cp: cp(x, ins, lanes); return;
    case Tcgen05Op::shift: shift(x, ins, lanes); return;
  }
}

}  // namespace

void register_tcgen05(std::vector<SemanticSpec>& t) { t.push_back({"tcgen05", tcgen05}); }

}  // namespace ptxmma::exec
