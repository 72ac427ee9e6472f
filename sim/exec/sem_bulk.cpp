// The bulk-copy unit: cp.async.bulk between global and shared memory, cp.reduce.async.bulk, and
// cp.async.bulk.tensor (TMA) in tile mode through a tensor map (sim/exec/tensor_map.hpp), with
// their mbarrier completion and bulk groups (sim/exec/bulk_copy.hpp; docs/ptx-interpreter.md,
// "Bulk copies and TMA").
//
// A tile-mode copy moves a box: floor(box[i] / element stride[i]) elements along dimension i > 0,
// element j at coordinate c[i] + j * element stride[i], and box[0] along dimension 0 (its element
// stride moves nothing). An im2col copy moves pixels (sem_bulk's im2col_rows) of channels. In shared memory the box is dense, dimension 0
// innermost, at the destination, each byte at the address the map's swizzle gives
// (swizzle_address of sim/exec/descriptor: 16-byte chunk bits 4..6 XOR address bits 7..9, on the
// absolute shared address, as wgmma reads it; docs/hardware/tensormap-sm90.md). Elements outside
// the tensor load as zeros (or the map's NaN) and are not stored.
#include <fmt/format.h>

#include "sim/error.hpp"
#include "sim/exec/descriptor.hpp"
#include "sim/exec/mbarrier.hpp"
#include "sim/exec/ptx_semantics.hpp"
#include "sim/exec/tensor_map.hpp"
#include "sim/numeric/fields.hpp"

namespace ptxmma::exec {
namespace {

using ptx::BulkKind;
using ptx::Instruction;
using ptx::Operand;

void aligned16(const char* what, std::uint64_t v) {
  if (v % 16 != 0) throw Error(fmt::format("the {} {:#x} is not a multiple of 16", what, v));
}

// [dst, dst + n) inside the CTA's shared memory.
void in_shared(Exec& x, const char* what, std::uint64_t a, std::uint64_t n) {
  if (a > x.cta.shared.size() || n > x.cta.shared.size() - a)
    throw Error(fmt::format("the {} [{:#x}, {:#x}) is outside the CTA's {} bytes of shared memory", what, a, a + n,
                            x.cta.shared.size()));
}

// The mbarrier's shared offset, 8-byte aligned.
std::uint64_t mbarrier_at(Exec& x, std::uint64_t a) {
  if (a % 8 != 0) throw Error(fmt::format("the mbarrier address {:#x} is not 8-byte aligned", a));
  in_shared(x, "mbarrier", a, 8);
  return a;
}

// A copy into shared memory goes in flight in the bulk-copy unit of each CTA it lands in.
void land_in(Exec& x, const BulkCopies::Load& l, const std::vector<int>& ctas) {
  for (const int c : ctas) {
    BulkCopies* unit = c == x.cta_index ? x.bulk : x.m.units(c).bulk;
    unit->issue(l);
  }
}

// The tensor map of [map, {...}] in a lane: a kernel parameter (or .global/.const variable) by
// name, or a generic address (of param, const or global memory).
TensorMapParams tensor_map(Exec& x, const Operand& op, int lane) {
  const Operand& base = op.elems[0];
  Memory* mem = nullptr;
  std::uint64_t a = 0;
  if (base.kind == Operand::Kind::symbol && x.p.find_param(base.text)) {
    mem = &x.m.param();
    a = x.address(op, lane);
  } else {
    const std::uint64_t g = x.address(op, lane);
    std::tie(mem, a) = resolve(x, ptx::Space::generic, g, lane, 128);
    if (mem == &x.cta.shared) throw Error(fmt::format("the tensor map at {:#x} is in shared memory", g));
  }
  if (a % 64 != 0) throw Error(fmt::format("the tensor map at {:#x} is not 64-byte aligned", a));
  TensorMapBytes b{};
  mem->read(a, b.data(), b.size());
  TensorMapParams p = decode_tensor_map(b);
  // The H100 moved more bytes than the box through interleaved maps, in an order not yet worked
  // out (docs/hardware/tensormap-sm90.md, "Interleaved maps").
  if (p.interleave != 0)
    throw Error(fmt::format("copies through interleaved tensor maps are not supported: the H100 moved more bytes "
                            "than the box holds, in a layout not yet worked out ({})",
                            describe(p)));
  return p;
}

// The box of a tensor copy: each element's global address (or none, outside the tensor) in the
// order of shared memory. A tile box is count[i] elements along dimension i from start; an im2col
// box is rows (pixels) of count[0] channels, each row's coordinates in `rows`.
struct Box {
  TensorMapParams map;
  int esize = 0;
  std::array<std::int64_t, 5> start{};
  std::array<std::uint64_t, 5> count{1, 1, 1, 1, 1};
  std::vector<std::array<std::int64_t, 5>> rows;  // im2col: each pixel's coordinates, its first channel's
  [[nodiscard]] std::uint64_t elements() const {
    return map.im2col ? rows.size() * count[0] : count[0] * count[1] * count[2] * count[3] * count[4];
  }
  // Element k (shared order): its global address, or nullopt outside the tensor.
  [[nodiscard]] std::optional<std::uint64_t> global(std::uint64_t k) const {
    std::array<std::int64_t, 5> c{};
    if (map.im2col) {
      c = rows[k / count[0]];
      c[0] += static_cast<std::int64_t>(k % count[0]);
    } else {
      for (int i = 0; i < map.rank; ++i) {
        const auto u = static_cast<std::size_t>(i);
        c[u] = start[u] + static_cast<std::int64_t>(k % count[u] * (i == 0 ? 1 : map.element_strides[u]));
        k /= count[u];
      }
    }
    std::uint64_t addr = map.address;
    for (int i = 0; i < map.rank; ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (c[u] < 0 || static_cast<std::uint64_t>(c[u]) >= map.dims[u]) return std::nullopt;
      addr += static_cast<std::uint64_t>(c[u]) * (i == 0 ? static_cast<std::uint64_t>(esize) : map.strides[u - 1]);
    }
    return addr;
  }
};

// The pixels an im2col copy reads (docs/hardware/tensormap-sm90.md, "im2col"): from the
// coordinates' pixel, `pixels` of them through the pixel box (dimensions 1 .. rank - 2 from the
// lower corner to the dimension's end plus the upper corner, stepping by the element strides),
// W fastest, then H, D and N; each read at its pixel plus the im2col offsets.
std::vector<std::array<std::int64_t, 5>> im2col_rows(const TensorMapParams& m, const std::array<std::int64_t, 5>& c,
                                                     const std::array<std::int64_t, 3>& offsets) {
  std::vector<std::array<std::int64_t, 5>> rows;
  std::array<std::int64_t, 5> at = c;
  const int spatial = m.rank - 2;
  for (std::uint32_t i = 0; i < m.pixels; ++i) {
    std::array<std::int64_t, 5> r = at;
    for (int k = 0; k < spatial; ++k) r[static_cast<std::size_t>(k + 1)] += offsets[static_cast<std::size_t>(k)];
    rows.push_back(r);
    for (int k = 1; k < m.rank; ++k) {
      const auto u = static_cast<std::size_t>(k);
      at[u] += m.element_strides[u];
      if (k == m.rank - 1) break;  // N: no box
      const std::int64_t hi = static_cast<std::int64_t>(m.dims[u]) - 1 + m.upper[u - 1];
      if (at[u] <= hi) break;
      at[u] = m.lower[u - 1];
    }
  }
  return rows;
}

// The box of [map, {c...}] in a lane; `offsets`: the im2col offsets of an .im2col load, `im2col`
// whether the copy is in the im2col mode.
Box box_of(Exec& x, const Operand& op, int lane, bool im2col, const Operand* offsets) {
  Box b;
  b.map = tensor_map(x, op, lane);
  if (b.map.im2col != im2col)
    throw Error(fmt::format("a copy in the {} mode through an {} map ({})", im2col ? "im2col" : "tile",
                            b.map.im2col ? "im2col" : "tiled", describe(b.map)));
  const Operand& coords = op.elems[1];
  if (static_cast<int>(coords.elems.size()) != b.map.rank)
    throw Error(fmt::format("{} coordinates for a tensor map of rank {} ({})", coords.elems.size(), b.map.rank,
                            describe(b.map)));
  b.esize = element_bytes(b.map.type);
  for (int i = 0; i < b.map.rank; ++i) {
    const auto u = static_cast<std::size_t>(i);
    b.start[u] = static_cast<std::int32_t>(static_cast<std::uint32_t>(x.read(coords.elems[u], lane)));
    // The H100 stopped with an illegal instruction for every tile box that starts below 0, loads
    // and stores alike (docs/hardware/tensormap-sm90.md).
    if (b.start[u] < 0 && !im2col)
      throw Error(fmt::format("coordinate {} of the box is {}: a box starting below 0 stopped the H100 with an "
                              "illegal instruction",
                              i, b.start[u]));
    // Dimension 0's element stride moves nothing: the H100 loaded all of box[0] with an element
    // stride of 2 there (a map changed by tensormap.replace; the driver's byte count divides).
    b.count[u] = im2col ? 1 : i == 0 ? b.map.box[0] : b.map.box[u] / b.map.element_strides[u];
  }
  if (im2col) {
    // What stopped the H100 with an illegal instruction (docs/hardware/tensormap-sm90.md, "im2col").
    const TensorMapParams& m = b.map;
    const std::int64_t c0 = b.start[0], bytes = static_cast<std::int64_t>(b.esize);
    if (c0 < 0 || c0 + m.channels > static_cast<std::int64_t>(m.dims[0]) || c0 * bytes % 16 != 0)
      throw Error(fmt::format("channels {}..{} of dimension 0's {}: past its end or starting off a 16-byte boundary, "
                              "as channels 12..19 of 16 that stopped the H100 with an illegal instruction ({})",
                              c0, c0 + m.channels - 1, m.dims[0], describe(m)));
    for (int k = 1; k + 1 < m.rank; ++k) {
      const auto u = static_cast<std::size_t>(k);
      const std::int64_t lo = m.lower[u - 1], hi = static_cast<std::int64_t>(m.dims[u]) - 1 + m.upper[u - 1];
      if (b.start[u] < lo || b.start[u] > hi)
        throw Error(fmt::format("coordinate {} is {}, outside the pixel box's {}..{}: an im2col load starting outside "
                                "it stopped the H100 with an illegal instruction ({})",
                                k, b.start[u], lo, hi, describe(m)));
    }
    std::array<std::int64_t, 3> off{};
    if (offsets)
      for (std::size_t k = 0; k < offsets->elems.size(); ++k)
        off[k] = static_cast<std::uint16_t>(x.read(offsets->elems[k], lane));
    b.count[0] = b.map.channels;
    b.rows = im2col_rows(b.map, b.start, off);
  }
  return b;
}

// The shared address of byte `off` of the dense box placed at `dst`: under a swizzle each row
// (the box's dimension 0) takes the swizzle's span, however narrow, then the swizzle permutes the
// 16-byte chunks on the absolute address (docs/hardware/tensormap-sm90.md).
std::uint64_t smem_byte(const Box& b, std::uint64_t dst, std::uint64_t off) {
  static constexpr Swizzle kSwizzle[] = {Swizzle::none, Swizzle::b32, Swizzle::b64, Swizzle::b128};
  if (b.map.swizzle == 0) return dst + off;
  const std::uint64_t row = b.count[0] * static_cast<std::uint64_t>(b.esize);
  const auto pitch = static_cast<std::uint64_t>(swizzle_span(b.map.swizzle));
  return swizzle_address(dst + off / row * pitch + off % row, kSwizzle[b.map.swizzle], 0);
}

// The shared bytes a box occupies at `dst` (its rows padded to the swizzle span).
std::uint64_t footprint(const Box& b) {
  const std::uint64_t row = b.count[0] * static_cast<std::uint64_t>(b.esize);
  const std::uint64_t pitch = b.map.swizzle == 0 ? row : static_cast<std::uint64_t>(swizzle_span(b.map.swizzle));
  return b.elements() / b.count[0] * pitch;
}

// The CTAs a copy into shared memory lands in (c-th run) and the offsets of its destination and
// mbarrier there: a .shared::cta address is this CTA's; a .shared::cluster one may be another
// CTA's, whose mbarrier it completes on (the PTX ISA: the same CTA as the destination); with
// .multicast::cluster the same offsets in each CTA of the 16-bit ctaMask, by cluster rank.
struct Destinations {
  std::vector<int> ctas;
  std::uint64_t dst = 0, mbar = 0;
};
Destinations destinations(Exec& x, const Instruction& ins, int lane, std::uint64_t dst, std::uint64_t mbar,
                          const Operand* mask) {
  Destinations d;
  if (ins.d.space != ptx::Space::shared_cluster) {
    d.ctas.push_back(x.cta_index);
    d.dst = dst;
    d.mbar = mbar;
    return d;
  }
  const ClusterAddress to = cluster_address(x, dst, lane), bar = cluster_address(x, mbar, lane);
  d.dst = to.offset;
  d.mbar = bar.offset;
  if (!mask) {
    if (to.cta != bar.cta)
      throw Error(fmt::format("the destination {:#x} is in {} and the mbarrier {:#x} in {}: they must be in one CTA",
                              dst, x.m.cta(to.cta).name(), mbar, x.m.cta(bar.cta).name()));
    d.ctas.push_back(to.cta);
    return d;
  }
  const std::uint64_t bits = x.read(*mask, lane) & 0xffffU;
  if (bits == 0) throw Error("the ctaMask is 0: a multicast copy needs at least one destination CTA");
  for (std::uint64_t r = 0; r < 16; ++r)
    if ((bits >> r) & 1U) {
      if (r >= x.m.cluster_size())
        throw Error(fmt::format("the ctaMask {:#06x} names CTA rank {}, outside the cluster of {} CTAs", bits, r,
                                x.m.cluster_size()));
      d.ctas.push_back(x.m.cluster_cta(x.cta_index, r));
    }
  return d;
}

void issue_load(Exec& x, const Instruction& ins, int lane, int pc) {
  BulkCopies::Load l;
  l.pc = pc;
  l.thread = x.base + lane;
  l.cta = x.cta_index;
  std::uint64_t dst = x.address(ins.ops[0], lane);
  const auto kind = static_cast<BulkKind>(ins.d.mode2);
  const bool multicast = ins.d.mode == 1;
  if (kind == BulkKind::load) {
    const std::uint64_t src = x.address(ins.ops[1], lane), size = x.read(ins.ops[2], lane);
    const Destinations to = destinations(x, ins, lane, dst, x.address(ins.ops[3], lane), multicast ? &ins.ops[4] : nullptr);
    dst = to.dst;
    l.mbar = mbarrier_at(x, to.mbar);
    aligned16("destination", dst);
    aligned16("source", src);
    if (size == 0 || size % 16 != 0) throw Error(fmt::format("a size of {} bytes; a positive multiple of 16", size));
    in_shared(x, "destination", dst, size);
    BulkCopies::Run r{dst, std::vector<std::uint8_t>(size)};
    x.m.global().read(src, r.bytes.data(), r.bytes.size());
    l.runs.push_back(std::move(r));
    l.tx = size;
    land_in(x, l, to.ctas);
    return;
  }
  const Box b = box_of(x, ins.ops[1], lane, ins.d.im2col, ins.d.im2col ? &ins.ops[3] : nullptr);
  const Destinations to = destinations(x, ins, lane, dst, x.address(ins.ops[2], lane), multicast ? &ins.ops[ins.d.im2col ? 4 : 3] : nullptr);
  dst = to.dst;
  l.mbar = mbarrier_at(x, to.mbar);
  if (dst % 128 != 0) throw Error(fmt::format("the destination {:#x} is not 128-byte aligned", dst));
  const std::uint64_t n = b.elements() * static_cast<std::uint64_t>(b.esize);
  in_shared(x, "box's destination", dst, footprint(b));
  // Outside the tensor: zeros, or with the map's NaN fill the 16-bit pattern 0x7ff7 in every
  // element of a floating-point type (a NaN in f16, bf16, f32 and f64 alike; what the H100 wrote).
  const bool nan = b.map.oob_nan && static_cast<int>(b.map.type) >= static_cast<int>(TensorMapType::f16);
  std::vector<std::uint8_t> dense(n, 0);
  if (nan)
    for (std::uint64_t i = 0; i < n; ++i) dense[i] = i % 2 == 0 ? 0xf7 : 0x7f;
  for (std::uint64_t k = 0; k < b.elements(); ++k)
    if (const auto g = b.global(k))
      x.m.global().read(*g, dense.data() + k * static_cast<std::uint64_t>(b.esize), static_cast<std::size_t>(b.esize));
  // The box in shared order, then each 16-byte chunk moved to its place.
  for (std::uint64_t off = 0; off < n; off += 16) {
    const std::uint64_t a = smem_byte(b, dst, off);
    if (l.runs.empty() || l.runs.back().addr + l.runs.back().bytes.size() != a) l.runs.push_back({a, {}});
    l.runs.back().bytes.insert(l.runs.back().bytes.end(), dense.begin() + static_cast<std::ptrdiff_t>(off),
                               dense.begin() + static_cast<std::ptrdiff_t>(off + 16));
  }
  l.tx = n;
  land_in(x, l, to.ctas);
}

// The element type of a tensor reduction: its map's, where the H200 ran the reduction on it
// (docs/hardware/bulk-reduce-sm90.md); the others stopped it with an illegal instruction, or were
// not tried.
ptx::PtxType tensor_reduction_type(ptx::AtomOp op, const TensorMapParams& map) {
  using ptx::AtomOp;
  using ptx::PtxType;
  const bool arith = op == AtomOp::add || op == AtomOp::min || op == AtomOp::max;
  const bool logic = op == AtomOp::and_ || op == AtomOp::or_ || op == AtomOp::xor_;
  std::optional<PtxType> t;
  switch (map.type) {
    case TensorMapType::u32: t = PtxType::u32; break;  // every reduction
    case TensorMapType::s32: if (arith || logic) t = PtxType::s32; break;
    case TensorMapType::u64: if (arith || logic) t = PtxType::u64; break;
    case TensorMapType::s64: if (op == AtomOp::min || op == AtomOp::max) t = PtxType::s64; break;
    case TensorMapType::f32: if (op == AtomOp::add) t = PtxType::f32; break;
    case TensorMapType::f64: if (op == AtomOp::add) t = PtxType::f64; break;
    case TensorMapType::f16: if (arith) t = PtxType::f16; break;
    case TensorMapType::bf16: if (arith) t = PtxType::bf16; break;
    default:
      throw Error(fmt::format("a tensor reduction on {} elements was never run on a GPU ({})", name(map.type),
                              describe(map)));
  }
  if (!t)
    throw Error(fmt::format(".{} of {} elements stopped the H200 with an illegal instruction ({})", ptx::name(op),
                            name(map.type), describe(map)));
  return *t;
}

void issue_store(Exec& x, const Instruction& ins, int lane, int pc) {
  BulkCopies::Store s;
  s.pc = pc;
  s.thread = x.base + lane;
  const auto kind = static_cast<BulkKind>(ins.d.mode2);
  const Memory& shared = x.cta.shared;
  if (kind == BulkKind::store || kind == BulkKind::reduce) {
    const std::uint64_t dst = x.address(ins.ops[0], lane), src = x.address(ins.ops[1], lane);
    const std::uint64_t size = x.read(ins.ops[2], lane);
    aligned16("destination", dst);
    aligned16("source", src);
    if (size == 0 || size % 16 != 0) throw Error(fmt::format("a size of {} bytes; a positive multiple of 16", size));
    in_shared(x, "source", src, size);
    x.shared_access(ins, lane, &x.cta.shared, src, size, false);
    x.async_proxy_read(ins, lane, src, size);
    BulkCopies::Run r{dst, std::vector<std::uint8_t>(size)};
    shared.read(src, r.bytes.data(), r.bytes.size());
    s.runs.push_back(std::move(r));
    if (kind == BulkKind::reduce) {
      s.element = ptx::bits(ins.d.type) / 8;
      s.type = ins.d.type;
    }
  } else {
    if (ins.d.im2col)
      throw Error("an im2col_no_offs store or reduction: every im2col_no_offs store tried stopped the H100 with an "
                  "illegal instruction, from inside the pixel box too (docs/hardware/tensormap-sm90.md)");
    const Box b = box_of(x, ins.ops[0], lane, false, nullptr);
    if (kind == BulkKind::tensor_reduce) {
      s.element = b.esize;
      s.type = tensor_reduction_type(static_cast<ptx::AtomOp>(ins.d.mode), b.map);
    }
    const std::uint64_t src = x.address(ins.ops[1], lane);
    if (src % 128 != 0) throw Error(fmt::format("the source {:#x} is not 128-byte aligned", src));
    in_shared(x, "box's source", src, footprint(b));
    x.shared_access(ins, lane, &x.cta.shared, src, footprint(b), false);
    x.async_proxy_read(ins, lane, src, footprint(b));
    const auto es = static_cast<std::uint64_t>(b.esize);
    for (std::uint64_t k = 0; k < b.elements(); ++k) {
      const auto g = b.global(k);
      if (!g) continue;
      BulkCopies::Run* r = s.runs.empty() ? nullptr : &s.runs.back();
      if (!r || r->addr + r->bytes.size() != *g) r = &s.runs.emplace_back(BulkCopies::Run{*g, {}});
      for (std::uint64_t i = 0; i < es; ++i) r->bytes.push_back(static_cast<std::uint8_t>(shared.load(smem_byte(b, src, k * es + i), 1)));
    }
  }
  x.bulk->issue(std::move(s));
}

}  // namespace

namespace {

// One element of a bulk reduction: the global memory's `old` and the shared memory's `v`. Float
// adds keep subnormals (red.global.add.f32 flushes them); an f64 add with a NaN operand gives
// that NaN as it is, a signalling one too, the shared one's of two (docs/hardware/bulk-reduce-sm90.md).
std::uint64_t bulk_reduce(ptx::AtomOp op, ptx::PtxType t, std::uint64_t old, std::uint64_t v) {
  if (t == ptx::PtxType::f64 && op == ptx::AtomOp::add) {
    if (decode(Type::f64, v).cls == FpClass::nan) return v;
    if (decode(Type::f64, old).cls == FpClass::nan) return old;
  }
  return reduce_operate(op, t, false, old, v, 0);
}

}  // namespace

void write_bulk_store(const ptx::Program& p, Memory& global, const BulkCopies::Store& s) {
  for (const BulkCopies::Run& r : s.runs) {
    if (s.element == 0) {
      global.write(r.addr, r.bytes.data(), r.bytes.size());
      continue;
    }
    const auto op = static_cast<ptx::AtomOp>(p.code[static_cast<std::size_t>(s.pc)].d.mode);
    for (std::size_t i = 0; i < r.bytes.size(); i += static_cast<std::size_t>(s.element)) {
      std::uint64_t v = 0;
      for (int k = s.element - 1; k >= 0; --k) v = (v << 8) | r.bytes[i + static_cast<std::size_t>(k)];
      const std::uint64_t a = r.addr + i;
      global.store(a, s.element, bulk_reduce(op, s.type, global.load(a, s.element), v));
    }
  }
}

void complete_bulk_loads(Exec& x, std::uint64_t mbar) {
  if (x.bulk->idle()) return;
  const std::vector<std::uint64_t> sizes = x.bulk->complete_loads(mbar, x.cta.shared);
  for (const std::uint64_t n : sizes) {
    Mbarrier b = Mbarrier::decode(x.cta.shared.load(mbar, 8));
    const bool completed = b.complete_tx(static_cast<std::uint32_t>(n));
    x.cta.shared.store(mbar, 8, b.encode());
    ++x.mbar->changes;
    if (completed) ++x.mbar->completions;
  }
}

void cp_async_bulk(Exec& x, const Instruction& ins, std::uint32_t lanes) {
  BulkCopies& bulk = *x.bulk;
  const int pc = static_cast<int>(&ins - x.p.code.data());
  switch (ins.d.step) {
    case ptx::AsyncStep::commit: for_lanes(lanes, [&](int lane) { bulk.commit(x.base + lane); }); return;
    case ptx::AsyncStep::wait:
      for_lanes(lanes, [&](int lane) {
        bulk.wait(x.base + lane, ins.d.groups, [&](const BulkCopies::Store& s) { write_bulk_store(x.p, x.m.global(), s); });
      });
      return;
    case ptx::AsyncStep::issue: break;
    default: return;  // prefetches
  }
  const auto kind = static_cast<BulkKind>(ins.d.mode2);
  for_lanes(lanes, [&](int lane) {
    try {
      if (kind == BulkKind::load || kind == BulkKind::tensor_load)
        issue_load(x, ins, lane, pc);
      else
        issue_store(x, ins, lane, pc);
    } catch (const Error& e) {
      throw Error(fmt::format("lane {}: {}", lane, e.what()));
    }
  });
}

}  // namespace ptxmma::exec
