#include "sim/exec/tcgen05_mma.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "sim/error.hpp"
#include "sim/exec/descriptor.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma {

namespace {

TileSpec make_spec(const InstrDescriptor& id, int k) {
  TileSpec s{id.a, id.b, id.d, id.d, id.m, id.n, k};
  s.satfinite = id.saturate;
  return s;
}

// D * 2^-s for scale-input-d (f32 or f16 D, kinds f16 and tf32). The PTX ISA says D is scaled, not
// how a scaled D that leaves the format's range rounds: such a D is an error rather than a guess.
std::uint64_t scaled(std::uint64_t c, Type d, int s, int lane, int col) {
  const ConvertFlags exact{Rounding::rn};
  const auto f = std::bit_cast<float>(static_cast<std::uint32_t>(d == Type::f32 ? c : convert(d, c, Type::f32, exact)));
  if (!std::isfinite(f) || f == 0) return c;
  const float g = std::ldexp(f, -s);
  const std::uint64_t out = d == Type::f32 ? std::bit_cast<std::uint32_t>(g) : convert(Type::f32, std::bit_cast<std::uint32_t>(g), d, exact);
  const auto back = std::bit_cast<float>(static_cast<std::uint32_t>(d == Type::f32 ? out : convert(d, out, Type::f32, exact)));
  if (std::ldexp(back, s) != f)
    throw Error(fmt::format("scale-input-d {}: D at tensor-memory lane {} column {} ({} {:#x}) times 2^-{} is not "
                            "exact in {}, and the PTX ISA does not say how the scaled D rounds",
                            s, lane, col, name(d), c, s, name(d)));
  return out;
}

// A (M x K) from tensor memory, as D lies (row m in D's lane of row m) with its K elements packed
// along the columns from the address's: element k in column k * bits / 32, from the low bits up
// (16-bit: two a cell; 8-bit and FP6/FP4 containers: four; tf32: one). K-major only.
void read_a_from_tmem(const TensorMemory& tm, std::uint32_t taddr, const InstrDescriptor& id, Container container, int k,
                      std::vector<std::uint64_t>& out, std::int64_t& undefined) {
  if (id.transpose_a)
    throw Error(fmt::format("instruction descriptor {:#010x}: bit 15 (transpose A) is 1; A in tensor memory is K-major",
                            id.raw));
  const int lane0 = TensorMemory::lane_of(taddr), col0 = TensorMemory::column_of(taddr);
  if (lane0 != 0 && !(id.m == 64 && lane0 == 16))
    throw Error(fmt::format("a-tmem {:#010x} names lane {}; A of M = {} starts at lane 0{}", taddr, lane0, id.m,
                            id.m == 64 ? " or 16" : ""));
  const int bits = element_bits(id.a, container);
  const int columns = (k * bits + 31) / 32;
  for (int col = col0; col < col0 + columns; ++col)
    if (col >= TensorMemory::kColumns || !tm.allocated(col))
      throw Error(fmt::format("a-tmem {:#010x}: A's column {} {}", taddr, col,
                              col >= TensorMemory::kColumns ? "is past the 512 columns" : "is not allocated"));
  const std::uint64_t sign = 1ULL << (info(id.a).bits - 1);
  const std::uint32_t field = bits == 32 ? ~0U : (1U << bits) - 1;
  for (int m = 0; m < id.m; ++m) {
    const int lane = lane0 + Tcgen05Mma::d_lane(id.m, m);
    for (int kk = 0; kk < k; ++kk) {
      const int col = col0 + kk * bits / 32;
      if (!tm.defined(lane, col) && undefined < 0) undefined = TensorMemory::address(lane, col);
      const std::uint32_t raw = (tm.get(lane, col) >> (kk * bits % 32)) & field;
      const std::uint64_t v = element_code(id.a, container, raw);
      out[static_cast<std::size_t>(m * k + kk)] = id.negate_a ? v ^ sign : v;
    }
  }
}

}  // namespace

Tcgen05Mma::Tile& Tcgen05Mma::tile(std::uint32_t idesc) {
  for (const auto& t : tiles_)
    if (t->id.raw == idesc) return *t;
  const InstrDescriptor id = InstrDescriptor::decode(idesc, kind_);
  const int k = tcgen05_k(kind_);
  const Model* found = nullptr;
  try {
    found = &models_.select(fmt::format("tcgen05_{}", name(kind_) + 6), id.a, id.d);  // "kind::f16" -> "tcgen05_f16"
  } catch (const Error& e) {
    throw Error(fmt::format("{} (tcgen05.mma's models are sm_100a's: --arch sm_100a)", e.what()));
  }
  const Model& model = *found;
  auto t = std::make_unique<Tile>(Tile{id, TileKernel(model, make_spec(id, k)), {}, {}, {}, {}});
  t->a.resize(static_cast<std::size_t>(id.m * k));
  t->b.resize(static_cast<std::size_t>(id.n * k));
  t->c.resize(static_cast<std::size_t>(id.m * id.n));
  t->d.resize(static_cast<std::size_t>(id.m * id.n));
  tiles_.push_back(std::move(t));
  return *tiles_.back();
}

Tcgen05Mma::Footprint Tcgen05Mma::run(const Memory& shared, TensorMemory& tm, const Inputs& in) {
  Tile& t = tile(in.idesc);
  const InstrDescriptor& id = t.id;
  const int k = tcgen05_k(kind_);
  // kind::f8f6f4 keeps each FP6/FP4 element in a byte of shared memory (docs/tcgen05.md §6.1).
  const Container container = kind_ == Tcgen05Kind::f8f6f4 ? Container::f8f6f4 : Container::packed;
  const int lane0 = TensorMemory::lane_of(in.d_taddr), col0 = TensorMemory::column_of(in.d_taddr);
  if (lane0 != 0 && !(id.m == 64 && lane0 == 16))
    throw Error(fmt::format("d-tmem {:#010x} names lane {}; D of M = {} starts at lane 0{}", in.d_taddr, lane0, id.m,
                            id.m == 64 ? " or 16" : ""));
  for (int col = col0; col < col0 + id.n; ++col)
    if (col >= TensorMemory::kColumns || !tm.allocated(col))
      throw Error(fmt::format("d-tmem {:#010x}: D's column {} (N = {}) {}", in.d_taddr, col, id.n,
                              col >= TensorMemory::kColumns ? "is past the 512 columns" : "is not allocated"));
  // A (M x K) and B (N x K) through their descriptors.
  const auto read = [&](std::uint64_t desc, bool transpose, Type type, int rows, bool negate,
                        std::vector<std::uint64_t>& out, const char* which) {
    const OperandAddressing at(MatrixDescriptor::decode_tcgen05(desc), transpose ? Major::mn : Major::k, type, rows, k,
                               container);
    const int bytes = at.element_bits() / 8;
    const std::uint64_t sign = 1ULL << (info(type).bits - 1);  // of the code (tf32: 19 bits; i8 never negates)
    for (int x = 0; x < rows; ++x)
      for (int kk = 0; kk < k; ++kk) {
        const std::uint64_t addr = at.slot(x, kk).address;
        if (addr + static_cast<std::uint64_t>(bytes) > shared.size())
          throw Error(fmt::format("{}({}, {}) at shared {:#x} is outside shared memory ({} bytes; descriptor {})", which,
                                  x, kk, addr, shared.size(), at.descriptor().text()));
        // tf32 leaves its b32: the low 13 bits are dropped (the kind truncates its operands);
        // FP6/FP4 leave their byte.
        const std::uint64_t v = element_code(type, container, shared.load(addr, bytes));
        out[static_cast<std::size_t>(x * k + kk)] = negate ? v ^ sign : v;
      }
  };
  std::int64_t undefined = -1;
  if (in.a_in_tmem) {
    read_a_from_tmem(tm, in.a_taddr, id, container, k, t.a, undefined);
  } else {
    read(in.desc_a, id.transpose_a, id.a, id.m, id.negate_a, t.a, "A");
  }
  read(in.desc_b, id.transpose_b, id.b, id.n, id.negate_b, t.b, "B");
  const std::uint64_t mask = id.d == Type::f16 ? 0xFFFFU : 0xFFFFFFFFU;
  for (int m = 0; m < id.m; ++m)
    for (int n = 0; n < id.n; ++n) {
      const int lane = lane0 + d_lane(id.m, m), col = col0 + n;
      std::uint64_t c = 0;  // enable-input-d false: D = A*B (+0)
      if (in.accumulate) {
        if (!tm.defined(lane, col) && undefined < 0) undefined = TensorMemory::address(lane, col);
        c = tm.get(lane, col) & mask;
        if (in.scale_d != 0) c = scaled(c, id.d, in.scale_d, lane, col);
      }
      t.c[static_cast<std::size_t>(m * id.n + n)] = c;
    }
  t.kernel.run(t.a.data(), t.b.data(), t.c.data(), t.d.data());
  for (int m = 0; m < id.m; ++m) {
    const int lane = lane0 + d_lane(id.m, m);
    if ((in.disabled[static_cast<std::size_t>(lane / 32)] >> (lane % 32)) & 1U) continue;  // disable-output-lane
    for (int n = 0; n < id.n; ++n)
      tm.set(lane, col0 + n, static_cast<std::uint32_t>(t.d[static_cast<std::size_t>(m * id.n + n)]));
  }
  return {lane0, lane0 + d_lane(id.m, id.m - 1), col0, col0 + id.n - 1, undefined};
}

}  // namespace ptxmma
