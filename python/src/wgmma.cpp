// Warpgroup-level wgmma: from whole matrices (A 64 x K and B K x N placed in shared memory in the
// default layout of a swizzle, K-major or MN-major under imm-trans, or A in registers; a sparse A
// compressed with its metadata: tools/vectors/wgmma_operands, as test vectors do), or from a
// shared-memory image with the caller's descriptors (A optionally from registers). C and D are
// 64 x N matrices of codes.
#include <fmt/format.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "isa/wgmma_instruction.hpp"
#include "python/src/bindings.hpp"
#include "sim/error.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/numeric/packing.hpp"
#include "tools/vectors/matrix_operands.hpp"
#include "tools/vectors/wgmma_operands.hpp"

namespace ptxmma::py {
namespace {

struct PreparedWgmma {
  const MatrixVariant* v;
  const Model* model;
  WgmmaExecutor exec;
};

const PreparedWgmma& prepare(const std::string& instr, const std::string& arch, const WgmmaOperands& o) {
  static std::map<std::tuple<std::string, std::string, int, int, int, int, int>, std::unique_ptr<PreparedWgmma>> cache;
  const auto key = std::make_tuple(instr, arch, static_cast<int>(o.a_source), o.imm_scale_a, o.imm_scale_b,
                                   o.imm_trans_a, o.imm_trans_b);
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  const WgmmaInstruction ins = parse_wgmma(instr, arch);
  const MatrixVariant& v = *ins.variant;
  const Model& model = models_for(arch).select(v.family, v.a, v.d);
  if (cache.size() >= 256) cache.clear();
  auto p = std::make_unique<PreparedWgmma>(PreparedWgmma{&v, &model, WgmmaExecutor(v, model, o)});
  return *cache.emplace(key, std::move(p)).first->second;
}

// C (64 x N codes, or none: zeros) to the accumulator words, 128 threads x d_regs.
std::vector<std::uint32_t> accumulator_words(const MatrixVariant& v, const std::optional<In<std::uint64_t>>& c) {
  const RegisterCodec cd = v.codec(Operand::d);
  std::vector<std::uint32_t> words(cd.words(), 0);
  if (!c) return words;
  const int n = cd.cols();
  if (c->size() != static_cast<std::size_t>(64 * n))
    throw Error(fmt::format("C: expected a 64x{} matrix of {}, got {} elements", n, name(v.d), c->size()));
  for (int r = 0; r < 64; ++r)
    for (int col = 0; col < n; ++col) {
      const std::uint64_t x = c->data()[static_cast<std::size_t>(r * n + col)];
      if (x >> cd.bits()) throw Error(fmt::format("C[{}][{}] = {:#x} is not a {} code", r, col, x, name(v.d)));
      cd.set_raw(words, r, col, x);
    }
  return words;
}

Array<std::uint64_t> d_matrix(const MatrixVariant& v, std::span<const std::uint32_t> words) {
  const RegisterCodec cd = v.codec(Operand::d);
  return to_numpy(cd.gather(words), {64, static_cast<std::size_t>(cd.cols())});
}

Array<std::uint64_t> execute(const PreparedWgmma& p, const WgmmaInputs& in) {
  std::vector<std::uint32_t> d(static_cast<std::size_t>(p.v->ld->lanes * p.v->regs(Operand::d)), 0);
  p.exec.run(in, d);
  return d_matrix(*p.v, d);
}

Array<std::uint64_t> wgmma_matrices(const std::string& instr, const std::string& arch, const In<std::uint64_t>& a,
                                    const In<std::uint64_t>& b, const std::optional<In<std::uint64_t>>& c, bool scale_d,
                                    int scale_a, int scale_b, int trans_a, int trans_b, const std::string& swizzle,
                                    bool a_in_registers) {
  WgmmaOperands o;
  o.a_source = a_in_registers ? ASource::registers : ASource::descriptor;
  o.imm_scale_a = scale_a;
  o.imm_scale_b = scale_b;
  o.imm_trans_a = trans_a;
  o.imm_trans_b = trans_b;
  const std::optional<Swizzle> sw = parse_swizzle(swizzle);
  if (!sw) throw Error(fmt::format("swizzle: '{}' is not none, 32B, 64B or 128B", swizzle));
  const PreparedWgmma& p = prepare(instr, arch, o);
  const MatrixVariant& v = *p.v;
  const int n = v.shape.n, k = v.shape.k;
  if (a.size() != static_cast<std::size_t>(64 * k))
    throw Error(fmt::format("A: expected a 64x{} matrix of {}, got {} elements", k, name(v.a), a.size()));
  if (b.size() != static_cast<std::size_t>(k * n))
    throw Error(fmt::format("B: expected a {}x{} matrix of {}, got {} elements", k, n, name(v.b), b.size()));
  WgmmaInputs in;
  std::vector<std::uint64_t> a_codes(a.data(), a.data() + a.size());
  std::vector<std::uint32_t> meta, a_words;
  if (v.is_sparse()) {
    SparseMetadata::Compressed sa = compress_sparse_a(v, a_codes);
    a_codes = std::move(sa.stored);
    meta = std::move(sa.meta);
    in.meta = meta;
  }
  const WgmmaPlacement pl = default_placement(p.exec, *sw);
  SharedImage image;
  if (a_in_registers) {
    const RegisterCodec ca = v.codec(Operand::a);
    for (std::size_t i = 0; i < a_codes.size(); ++i)
      if (a_codes[i] >> ca.bits())
        throw Error(fmt::format("A element {} = {:#x} is not a {} code", i, a_codes[i], name(v.a)));
    a_words = ca.scatter(a_codes);
    in.a = a_words;
  } else {
    image.place(p.exec.a_addressing(pl.desc_a), a_codes, "A");
  }
  image.place(p.exec.b_addressing(pl.desc_b), transpose({b.data(), b.size()}, k, n), "B");
  SharedMemory smem;
  image.write_to(smem);
  in.shared = smem.bytes();
  in.desc_a = pl.desc_a;
  in.desc_b = pl.desc_b;
  const std::vector<std::uint32_t> cw = accumulator_words(v, c);
  in.scale_d = scale_d;
  in.c = cw;
  return execute(p, in);
}

Array<std::uint64_t> wgmma_shared(const std::string& instr, const std::string& arch, const In<std::uint8_t>& image,
                                  std::uint64_t base, std::uint64_t desc_a, const std::optional<In<std::uint32_t>>& a_regs,
                                  std::uint64_t desc_b, const std::optional<In<std::uint64_t>>& c, bool scale_d,
                                  int scale_a, int scale_b, int trans_a, int trans_b,
                                  const std::optional<In<std::uint32_t>>& sp_meta, int sp_sel) {
  WgmmaOperands o;
  o.a_source = a_regs ? ASource::registers : ASource::descriptor;
  o.imm_scale_a = scale_a;
  o.imm_scale_b = scale_b;
  o.imm_trans_a = trans_a;
  o.imm_trans_b = trans_b;
  const PreparedWgmma& p = prepare(instr, arch, o);
  const MatrixVariant& v = *p.v;
  if (base + image.size() > SharedMemory::kMaxBytes)
    throw Error(fmt::format("smem: {} bytes at {:#x} go past the {} bytes an 18-bit shared address reaches",
                            image.size(), base, SharedMemory::kMaxBytes));
  SharedMemory smem(std::max<std::size_t>(SharedMemory::kDefaultBytes, base + image.size()));
  smem.write(base, std::span<const std::uint8_t>(image.data(), image.size()), "the image");
  WgmmaInputs in;
  in.shared = smem.bytes();
  in.desc_a = desc_a;
  in.desc_b = desc_b;
  if (a_regs) {
    if (!v.la) throw Error(fmt::format("{}: A cannot come from registers", v.ptx));
    const std::size_t want = static_cast<std::size_t>(v.la->lanes * v.regs(Operand::a));
    if (a_regs->size() != want)
      throw Error(fmt::format("a_regs: expected {} threads x {} registers, got {} words", v.la->lanes, v.regs(Operand::a),
                              a_regs->size()));
    in.a = std::span<const std::uint32_t>(a_regs->data(), a_regs->size());
  }
  if (sp_meta && !v.is_sparse()) throw Error(fmt::format("{} is not sparse: it takes no sp_meta", v.ptx));
  if (!sp_meta && v.is_sparse())
    throw Error(fmt::format("{} is sparse: give sp_meta (the 128 threads' sp-meta words) and sp_sel", v.ptx));
  if (sp_meta) {
    in.meta = std::span<const std::uint32_t>(sp_meta->data(), sp_meta->size());
    in.selector = sp_sel;
  }
  const std::vector<std::uint32_t> cw = accumulator_words(v, c);
  in.scale_d = scale_d;
  in.c = cw;
  return execute(p, in);
}

// The shared byte (and b1 bit) of every element of A (64 x K) or B (K x N) under a descriptor.
std::tuple<Array<std::uint64_t>, Array<std::uint8_t>> wgmma_addresses(const std::string& instr, const std::string& arch,
                                                                     const std::string& operand, std::uint64_t desc,
                                                                     int trans) {
  const Operand op = operand_arg(operand);
  if (op != Operand::a && op != Operand::b)
    throw Error(fmt::format("operand {}: only A and B lie in shared memory", operand));
  WgmmaOperands o;
  (op == Operand::a ? o.imm_trans_a : o.imm_trans_b) = trans;
  const PreparedWgmma& p = prepare(instr, arch, o);
  const OperandAddressing at = op == Operand::a ? p.exec.a_addressing(desc) : p.exec.b_addressing(desc);
  const int rows = at.rows(), k = at.k();
  const std::size_t r = static_cast<std::size_t>(op == Operand::a ? rows : k), c = static_cast<std::size_t>(op == Operand::a ? k : rows);
  std::vector<std::uint64_t> addr(r * c);
  std::vector<std::uint8_t> bit(r * c);
  for (int x = 0; x < rows; ++x)
    for (int kk = 0; kk < k; ++kk) {
      const SmemSlot s = at.slot(x, kk);
      const std::size_t i = op == Operand::a ? static_cast<std::size_t>(x) * c + static_cast<std::size_t>(kk)
                                             : static_cast<std::size_t>(kk) * c + static_cast<std::size_t>(x);
      addr[i] = s.address;
      bit[i] = static_cast<std::uint8_t>(s.bit);
    }
  return {to_numpy(std::move(addr), {r, c}), to_numpy(std::move(bit), {r, c})};
}

nb::dict wgmma_info(const std::string& instr, const std::string& arch) {
  const PreparedWgmma& p = prepare(instr, arch, WgmmaOperands{});
  const MatrixVariant& v = *p.v;
  nb::dict out;
  out["instruction"] = v.ptx;
  out["shape"] = nb::make_tuple(v.shape.m, v.shape.n, v.shape.k);
  out["types"] = nb::make_tuple(std::string(name(v.a)), std::string(name(v.b)), std::string(name(v.d)));
  out["family"] = v.family;
  out["model"] = p.model->name;
  out["a_regs"] = v.regs(Operand::a);
  out["d_regs"] = v.regs(Operand::d);
  out["imm_scale"] = v.imm_scale;
  out["trans_a"] = v.trans_a;
  out["trans_b"] = v.trans_b;
  return out;
}

nb::dict wgmma_layout(const std::string& instr, const std::string& arch) {
  const MatrixVariant& v = *prepare(instr, arch, WgmmaOperands{}).v;
  nb::dict out;
  if (v.la) out["A"] = layout_maps(*v.la);
  out["C"] = layout_maps(*v.ld);
  out["D"] = layout_maps(*v.ld);
  return out;
}

}  // namespace

void bind_wgmma(nb::module_& m) {
  m.def("wgmma_info", &wgmma_info, nb::arg("instr"), nb::arg("arch"));
  m.def("wgmma_layout", &wgmma_layout, nb::arg("instr"), nb::arg("arch"));
  m.def("wgmma_matrices", &wgmma_matrices, nb::arg("instr"), nb::arg("arch"), nb::arg("a"), nb::arg("b"),
        nb::arg("c").none(), nb::arg("scale_d"), nb::arg("scale_a"), nb::arg("scale_b"), nb::arg("trans_a"),
        nb::arg("trans_b"), nb::arg("swizzle"), nb::arg("a_in_registers"));
  m.def("wgmma_shared", &wgmma_shared, nb::arg("instr"), nb::arg("arch"), nb::arg("image"), nb::arg("base"),
        nb::arg("desc_a"), nb::arg("a_regs").none(), nb::arg("desc_b"), nb::arg("c").none(), nb::arg("scale_d"),
        nb::arg("scale_a"), nb::arg("scale_b"), nb::arg("trans_a"), nb::arg("trans_b"),
        nb::arg("sp_meta").none() = nb::none(), nb::arg("sp_sel") = 0);
  m.def("wgmma_addresses", &wgmma_addresses, nb::arg("instr"), nb::arg("arch"), nb::arg("operand"), nb::arg("desc"),
        nb::arg("trans"));
}

}  // namespace ptxmma::py
