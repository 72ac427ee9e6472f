// ld, st (scalar, .v2, .v4; shared, global, param, const, generic), wmma.load/store and the warp-collective
// matrix moves ldmatrix, stmatrix, movmatrix (.m8n8 .b16, .x1/.x2/.x4, .trans).
//
// ldmatrix .m8n8.b16: matrix i (i < .x count) takes its 8 row addresses from lanes 8i..8i+7;
// each row is 8 consecutive b16 elements (16 bytes, 16-byte aligned). Lane l receives in its
// i-th register the elements (l/4, 2(l%4)) [low half] and (l/4, 2(l%4)+1) [high half] of matrix i,
// or with .trans the elements (2(l%4), l/4) and (2(l%4)+1, l/4). stmatrix is the inverse;
// movmatrix.trans transposes the 8x8 matrix that the warp's registers hold in that layout.
//
// cp.async (sim/exec/async_copy.hpp): the issuing lane reads its source now and the copy writes
// shared memory when a wait completes its group; shared-memory accesses meanwhile are checked
// against the copies in flight (Exec::shared_access).
#include <fmt/format.h>

#include "sim/error.hpp"
#include "sim/exec/ptx_semantics.hpp"

namespace ptxmma::exec {
namespace {

using ptx::Instruction;
using ptx::Operand;
using ptx::PtxType;
using ptx::Space;

std::uint64_t mask_of(int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

void ld(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const int es = ptx::bits(ins.d.type) / 8;
  const int n = ins.d.vec;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t addr = x.address(ins.ops[1], lane);
    check_aligned(lane, addr, static_cast<std::uint64_t>(es * n));
    auto [mem, a] = resolve(x, ins.d.space, addr, lane, static_cast<std::uint64_t>(es * n));
    x.shared_access(ins, lane, mem, a, static_cast<std::uint64_t>(es * n), false);
    std::uint64_t v[8] = {};
    try {
      for (int i = 0; i < n; ++i) v[i] = mem->load(a + static_cast<std::uint64_t>(i * es), es);
    } catch (const Error& e) {
      throw Error(fmt::format("lane {}: {}", lane, e.what()));
    }
    if (n == 1) {
      x.write_ext(ins.ops[0], lane, v[0], ins.d.type);
    } else {
      for (int i = 0; i < n; ++i) x.write_ext(ins.ops[0].elems[static_cast<std::size_t>(i)], lane, v[i], ins.d.type);
    }
  });
}

void st(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  const int es = ptx::bits(ins.d.type) / 8;
  const int n = ins.d.vec;
  const auto bytes = static_cast<std::uint64_t>(es * n);
  // Stores lane `lane`'s value; the first time also checks the access (errors name the lowest lane).
  const auto one = [&](int lane, bool check) {
    const std::uint64_t addr = x.address(ins.ops[0], lane);
    if (check) check_aligned(lane, addr, bytes);
    if (check && ins.d.space == Space::param && addr < ptx::Program::kCallParamBase)
      throw Error(fmt::format("lane {}: st.param to {:#x}, a kernel parameter: they are read-only", lane, addr));
    auto [mem, a] = resolve(x, ins.d.space, addr, lane, bytes);
    if (check) x.shared_access(ins, lane, mem, a, bytes, true);
    try {
      for (int i = 0; i < n; ++i) {
        const Operand& src = n == 1 ? ins.ops[1] : ins.ops[1].elems[static_cast<std::size_t>(i)];
        mem->store(a + static_cast<std::uint64_t>(i * es), es, x.read(src, lane) & mask_of(es * 8));
      }
    } catch (const Error& e) {
      throw Error(fmt::format("lane {}: {}", lane, e.what()));
    }
    return addr;
  };
  bool overlap = false;
  std::uint64_t end = 0;
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t addr = one(lane, true);
    overlap = overlap || (end != 0 && addr < end);
    end = addr + bytes;
  });
  // Lanes storing to the same bytes in one instruction: the H200 keeps the lowest lane's value
  // (docs/hardware/snippets-sm90.md, same_address_stores). Unless the lanes' addresses rise, the
  // lanes store again from the highest down, so the lowest lane's value is the one left.
  if (overlap)
    for (int lane = Machine::kLanes - 1; lane >= 0; --lane)
      if ((lanes >> lane) & 1U) one(lane, false);
}

void whole_warp(const Instruction& ins, std::uint32_t lanes) {
  if (lanes != 0xffffffffU)
    throw Error(fmt::format("{} needs all 32 lanes of the warp; the executing lanes are {}", ins.opcode, lane_list(lanes)));
}

const Operand& frag(const Operand& op, int i) { return op.kind == Operand::Kind::vec ? op.elems[static_cast<std::size_t>(i)] : op; }

// The lane and half of element (r, c) of an 8x8 b16 matrix in the ldmatrix fragment layout.
int lane_of(int r, int c) { return r * 4 + c / 2; }

void ldmatrix(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  whole_warp(ins, lanes);
  const int count = ins.d.vec;
  std::uint16_t mat[4][8][8];
  for (int i = 0; i < count; ++i)
    for (int r = 0; r < 8; ++r) {
      const int src = 8 * i + r;
      const std::uint64_t addr = x.address(ins.ops[1], src);
      if (addr % 16 != 0) throw Error(fmt::format("lane {}: row address {:#x} is not 16-byte aligned", src, addr));
      x.shared_access(ins, src, &x.cta.shared, addr, 16, false);
      try {
        for (int c = 0; c < 8; ++c)
          mat[i][r][c] = static_cast<std::uint16_t>(x.cta.shared.load(addr + static_cast<std::uint64_t>(2 * c), 2));
      } catch (const Error& e) {
        throw Error(fmt::format("lane {}: {}", src, e.what()));
      }
    }
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < count; ++i) {
      const int row = lane / 4, col = 2 * (lane % 4);
      const std::uint32_t lo = ins.d.trans ? mat[i][col][row] : mat[i][row][col];
      const std::uint32_t hi = ins.d.trans ? mat[i][col + 1][row] : mat[i][row][col + 1];
      x.write(frag(ins.ops[0], i), lane, lo | (hi << 16));
    }
}

void stmatrix(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  whole_warp(ins, lanes);
  const int count = ins.d.vec;
  std::uint16_t mat[4][8][8];
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < count; ++i) {
      const auto v = static_cast<std::uint32_t>(x.read(frag(ins.ops[1], i), lane));
      const int row = lane / 4, col = 2 * (lane % 4);
      if (ins.d.trans) {
        mat[i][col][row] = static_cast<std::uint16_t>(v);
        mat[i][col + 1][row] = static_cast<std::uint16_t>(v >> 16);
      } else {
        mat[i][row][col] = static_cast<std::uint16_t>(v);
        mat[i][row][col + 1] = static_cast<std::uint16_t>(v >> 16);
      }
    }
  for (int i = 0; i < count; ++i)
    for (int r = 0; r < 8; ++r) {
      const int src = 8 * i + r;
      const std::uint64_t addr = x.address(ins.ops[0], src);
      if (addr % 16 != 0) throw Error(fmt::format("lane {}: row address {:#x} is not 16-byte aligned", src, addr));
      x.shared_access(ins, src, &x.cta.shared, addr, 16, true);
      try {
        for (int c = 0; c < 8; ++c) x.cta.shared.store(addr + static_cast<std::uint64_t>(2 * c), 2, mat[i][r][c]);
      } catch (const Error& e) {
        throw Error(fmt::format("lane {}: {}", src, e.what()));
      }
    }
}

void movmatrix(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  whole_warp(ins, lanes);
  std::uint16_t mat[8][8];
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      const auto v = static_cast<std::uint32_t>(x.read(ins.ops[1], lane_of(r, c)));
      mat[r][c] = static_cast<std::uint16_t>(c % 2 ? v >> 16 : v);
    }
  for (int lane = 0; lane < 32; ++lane) {
    const int row = lane / 4, col = 2 * (lane % 4);
    x.write(ins.ops[0], lane, static_cast<std::uint32_t>(mat[col][row]) | (static_cast<std::uint32_t>(mat[col + 1][row]) << 16));
  }
}

}  // namespace

std::pair<Memory*, std::uint64_t> resolve(Exec& x, Space s, std::uint64_t addr, int lane, std::uint64_t bytes) {
  Machine& m = x.m;
  Memory& shared = x.cta.shared;
  const std::uint64_t frame = m.frame_bytes();
  const std::uint64_t locals = x.p.local_bytes, params = x.p.call_param_bytes;
  // [offset, offset + bytes) of a thread's frame: its .local variables, then its call parameters.
  const auto in_frame = [&](std::uint64_t offset, std::uint64_t size, const char* what) -> std::pair<Memory*, std::uint64_t> {
    if (offset >= size || bytes > size - offset)
      throw Error(fmt::format("lane {}: {} bytes at {} offset {:#x} are outside the thread's {} bytes", lane, bytes,
                              what, offset, size));
    return {&x.cta.local, static_cast<std::uint64_t>(x.base + lane) * frame + offset};
  };
  // A .shared::cluster address, in this CTA or another of its cluster (sem_cluster.cpp).
  const auto in_cluster = [&](std::uint64_t a) -> std::pair<Memory*, std::uint64_t> {
    const ClusterAddress c = cluster_address(x, a, lane);
    return {&m.cta(c.cta).shared, c.offset};
  };
  switch (s) {
    case Space::shared: return {&shared, addr};
    case Space::shared_cluster: return in_cluster(addr);
    case Space::global: return {&m.global(), addr};
    case Space::param:
      if (addr >= ptx::Program::kCallParamBase)
        return in_frame(addr - ptx::Program::kCallParamBase + locals, locals + params, "call-parameter");
      return {&m.param(), addr};
    case Space::local: return in_frame(addr, locals, "local");
    case Space::constant: return {&m.constant(), addr};
    case Space::generic:
      if (addr >= Machine::kSharedWindow && addr - Machine::kSharedWindow < shared.size())
        return {&shared, addr - Machine::kSharedWindow};
      if (addr >= Machine::kSharedWindow + (1ULL << Machine::kClusterRankShift) &&
          addr - Machine::kSharedWindow < (static_cast<std::uint64_t>(Machine::kMaxCluster) + 1) << Machine::kClusterRankShift)
        return in_cluster(addr - Machine::kSharedWindow);
      if (addr >= Machine::kLocalWindow && addr - Machine::kLocalWindow < frame)
        return in_frame(addr - Machine::kLocalWindow, locals, "local");
      if (addr >= Machine::kParamWindow && addr - Machine::kParamWindow < ptx::Program::kCallParamBase)
        return {&m.param(), addr - Machine::kParamWindow};
      return {&m.global(), addr};
    default: throw Error(fmt::format("memory space .{} is not supported", ptx::name(s)));
  }
}

void check_aligned(int lane, std::uint64_t addr, std::uint64_t bytes) {
  if (addr % bytes != 0)
    throw Error(fmt::format("lane {}: address {:#x} is not aligned to the {}-byte access", lane, addr, bytes));
}

void cp_async(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  if (ins.d.unit == ptx::AsyncUnit::bulk) {
    cp_async_bulk(x, ins, lanes);
    return;
  }
  AsyncCopies& copies = *x.copies;
  switch (ins.d.step) {
    case ptx::AsyncStep::commit: for_lanes(lanes, [&](int lane) { copies.commit(x.base + lane); }); return;
    case ptx::AsyncStep::wait:
      for_lanes(lanes, [&](int lane) { copies.wait(x.base + lane, ins.d.groups, x.cta.shared); });
      return;
    case ptx::AsyncStep::arrive: cp_async_mbarrier_arrive(x, ins, lanes); return;
    case ptx::AsyncStep::wait_all:
      for_lanes(lanes, [&](int lane) {
        copies.commit(x.base + lane);
        copies.wait(x.base + lane, 0, x.cta.shared);
      });
      return;
    default: break;
  }
  const int size = ins.d.vec;
  const int pc = static_cast<int>(&ins - x.p.code.data());
  for_lanes(lanes, [&](int lane) {
    const std::uint64_t dst = x.address(ins.ops[0], lane), src = x.address(ins.ops[1], lane);
    check_aligned(lane, dst, static_cast<std::uint64_t>(size));
    check_aligned(lane, src, static_cast<std::uint64_t>(size));
    std::uint64_t src_size = static_cast<std::uint64_t>(size);
    if (ins.d.mode == 1) src_size = x.read(ins.ops[3], lane);
    if (ins.d.mode == 2) src_size = x.read(ins.ops[3], lane) != 0 ? 0 : src_size;  // ignore-src
    if (src_size > static_cast<std::uint64_t>(size))
      throw Error(fmt::format("lane {}: a source size of {} is more than the copy's {} bytes", lane, src_size, size));
    AsyncCopies::Copy c;
    c.pc = pc;
    c.thread = x.base + lane;
    c.size = size;
    c.dst = static_cast<std::uint32_t>(dst);
    try {
      x.cta.shared.check_range(dst, static_cast<std::uint64_t>(size));
      x.m.global().read(src, c.bytes.data(), static_cast<std::size_t>(src_size));
    } catch (const Error& e) {
      throw Error(fmt::format("lane {}: {}", lane, e.what()));
    }
    copies.issue(c);
  });
}

// wmma.load / wmma.store: one matrix for the warp, at an address and stride all lanes give alike.
// Element (i, j) is at element offset i * stride + j (.row) or j * stride + i (.col); each lane
// moves the elements of its fragment slots (configs/wmma/layouts.yaml), a load filling every
// copy and holder, a store writing each element once, from the holder the product reads. The PTX
// ISA asks the address and every row start to be aligned to the fragment's size; the H200 ran rows
// aligned to 16 bytes only (docs/hardware/wmma-sm90.md), so a shortfall is a warning; an element
// that is not aligned to its own size is an error.
void wmma_transfer(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  whole_warp(ins, lanes);
  const WmmaTransfer& w = *ins.d.wmma;
  const bool load = w.operand != ptxmma::Operand::d;
  const Operand& addr_op = ins.ops[load ? 1 : 0];
  const Operand& regs = ins.ops[load ? 0 : 1];
  const FragmentLayout& f = *w.fragment;
  const std::uint64_t p = x.address(addr_op, 0);
  const std::uint64_t stride = ins.ops.size() == 3 ? x.read(ins.ops[2], 0) & 0xffffffffU
                                                   : static_cast<std::uint64_t>(w.default_stride());
  for (int lane = 1; lane < Machine::kLanes; ++lane) {
    if (x.address(addr_op, lane) != p)
      throw Error(fmt::format("lane {} gives the address {:#x}, lane 0 {:#x}: '{}' takes one matrix address for the warp",
                              lane, x.address(addr_op, lane), p, ins.text));
    if (ins.ops.size() == 3 && (x.read(ins.ops[2], lane) & 0xffffffffU) != stride)
      throw Error(fmt::format("lane {} gives the stride {}, lane 0 {}: '{}' takes one stride for the warp", lane,
                              x.read(ins.ops[2], lane) & 0xffffffffU, stride, ins.text));
  }
  const int lead = w.default_stride();
  if (stride < static_cast<std::uint64_t>(lead))
    throw Error(fmt::format("'{}': the stride {} is less than the {} elements of a {}, which would overlap", ins.text,
                            stride, lead, w.layout == MatrixLayout::row ? "row" : "column"));
  const std::uint64_t stride_bits = stride * static_cast<std::uint64_t>(w.bits);
  const std::uint64_t unit = w.bits < 8 ? 1 : static_cast<std::uint64_t>(w.bits / 8);
  if (p % unit != 0 || stride_bits % 8 != 0 || stride_bits / 8 % unit != 0)
    throw Error(fmt::format("'{}': the address {:#x} with a stride of {} elements puts a {} start off the {}-byte "
                            "alignment of its .{} elements",
                            ins.text, p, stride, w.layout == MatrixLayout::row ? "row" : "column", unit, name(w.type)));
  const auto need = static_cast<std::uint64_t>(w.fragment_bytes());
  if (p % need != 0 || stride_bits / 8 % need != 0)
    x.m.diagnose(ins, fmt::format("'{}': the PTX ISA wants the address ({:#x}) and the stride ({} bytes) to be multiples "
                                  "of the fragment's {} bytes",
                                  ins.text, p, stride_bits / 8, need));
  for (int lane = 0; lane < Machine::kLanes; ++lane)
    for (int r = 0; r < f.regs; ++r) {
      const Operand& reg = regs.elems[static_cast<std::size_t>(r)];
      std::uint64_t word = load ? 0 : x.read(reg, lane);
      for (int e = 0; e < f.elems_per_reg; ++e) {
        if (!load && !f.chosen(lane, r, e)) continue;
        const FragmentCoord& c = f.coord(lane, r, e);
        const std::uint64_t bit = (p * 8) + w.offset(c.row, c.col, stride) * static_cast<std::uint64_t>(w.bits);
        const std::uint64_t bytes = w.bits < 8 ? 1 : static_cast<std::uint64_t>(w.bits / 8);
        auto [mem, a] = resolve(x, ins.d.space, bit / 8, lane, bytes);
        x.shared_access(ins, lane, mem, a, bytes, !load);
        const int shift = w.bits * e;
        try {
          if (w.bits >= 8) {
            if (load) word |= mem->load(a, static_cast<int>(bytes)) << shift;
            else mem->store(a, static_cast<int>(bytes), (word >> shift) & mask_of(w.bits));
          } else {
            const int in_byte = static_cast<int>(bit % 8);
            const std::uint64_t byte = mem->load(a, 1);
            if (load) {
              word |= ((byte >> in_byte) & mask_of(w.bits)) << shift;
            } else {
              const std::uint64_t m = mask_of(w.bits) << in_byte;
              mem->store(a, 1, (byte & ~m) | ((((word >> shift) & mask_of(w.bits)) << in_byte) & m));
            }
          }
        } catch (const Error& ex) {
          throw Error(fmt::format("lane {}: {}", lane, ex.what()));
        }
      }
      if (load) x.write(reg, lane, word);
    }
}
// prefetch, prefetchu: no effect on results.
void prefetch(Exec&, const Instruction&, std::uint32_t) {}

void register_memory(std::vector<SemanticSpec>& t) {
  t.push_back({"cp", cp_async});
  t.push_back({"prefetch", prefetch});
  t.push_back({"prefetchu", prefetch});
  t.push_back({"ld", ld});
  t.push_back({"st", st});
  t.push_back({"ldmatrix", ldmatrix});
  t.push_back({"stmatrix", stmatrix});
  t.push_back({"movmatrix", movmatrix});
}

}  // namespace ptxmma::exec
