#include "tools/vectors/wgmma_vector.hpp"

#include <fmt/format.h>

#include <optional>
#include <vector>

#include "isa/wgmma_instruction.hpp"
#include "sim/error.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/model/model.hpp"
#include "tools/vectors/matrix_operands.hpp"
#include "tools/vectors/value_text.hpp"
#include "tools/vectors/vector_matrix.hpp"
#include "tools/vectors/wgmma_operands.hpp"

namespace ptxmma {

struct WgmmaVectorCase {
  WgmmaInstruction ins;
  const Model* model = nullptr;
  WgmmaOperands operands;
  std::uint64_t desc_a = 0, desc_b = 0;
  SharedImage image;
  std::vector<std::uint32_t> a, c, meta;  // A in registers; C; a sparse A's sp-meta words (selector 0)
  bool scale_d = true;
  std::vector<std::uint64_t> d;  // expected, 64 x N
};

namespace {

std::string scalar(const YamlFile& f, const YAML::Node& n, const char* key) {
  if (!n.IsScalar()) f.fail(n, fmt::format("'{}' takes a single value", key));
  return n.Scalar();
}

// An integer key that takes one of `allowed`.
int choice(const YamlFile& f, const YAML::Node& n, const char* key, std::initializer_list<int> allowed, int dflt) {
  if (!n) return dflt;
  const std::string s = scalar(f, n, key);
  for (const int a : allowed)
    if (s == std::to_string(a)) return a;
  std::string list;
  for (const int a : allowed) list += (list.empty() ? "" : " or ") + std::to_string(a);
  f.fail(n, fmt::format("'{}' takes {}, found '{}'", key, list, s));
}

std::uint32_t field(const YamlFile& f, const YAML::Node& m, const char* key, const char* what) {
  if (!m[key]) return 0;
  try {
    return static_cast<std::uint32_t>(parse_value_text(scalar(f, m[key], key), 32, ptx::PtxType::u32));
  } catch (const Error& e) {
    f.fail(m[key], fmt::format("{} {}: {}", what, key, e.what()));
  }
}

// A descriptor: its 64-bit value, or its fields {start, lbo, sbo, base_offset, swizzle}.
std::uint64_t descriptor(const YamlFile& f, const YAML::Node& n, const char* key) {
  std::uint64_t raw = 0;
  if (n.IsMap()) {
    f.check_keys(n, {"start", "lbo", "sbo", "base_offset", "swizzle"}, fmt::format("'{}'", key));
    std::optional<Swizzle> sw = Swizzle::none;
    if (n["swizzle"]) {
      sw = parse_swizzle(scalar(f, n["swizzle"], "swizzle"));
      if (!sw) f.fail(n["swizzle"], fmt::format("{} swizzle: '{}' is not none, 32B, 64B or 128B", key, n["swizzle"].Scalar()));
    }
    try {
      raw = MatrixDescriptor::encode(field(f, n, "start", key), field(f, n, "lbo", key), field(f, n, "sbo", key),
                                     static_cast<int>(field(f, n, "base_offset", key)), *sw);
    } catch (const Error& e) {
      f.fail(n, fmt::format("{}: {}", key, e.what()));
    }
  } else {
    try {
      raw = parse_value_text(scalar(f, n, key), 64, ptx::PtxType::b64);
    } catch (const Error& e) {
      f.fail(n, fmt::format("{}: {}", key, e.what()));
    }
  }
  try {
    (void)MatrixDescriptor::decode(raw);
  } catch (const Error& e) {
    f.fail(n, fmt::format("{}: {}", key, e.what()));
  }
  return raw;
}

}  // namespace

std::shared_ptr<const WgmmaVectorCase> load_wgmma_case(const YamlFile& f, const YAML::Node& n, const std::string& name,
                                                       const std::string& target, ExactWork& work) {
  auto c = std::make_shared<WgmmaVectorCase>();
  const YAML::Node in = n["instruction"];
  const std::string text = scalar(f, in, "instruction");
  try {
    c->ins = parse_wgmma(text, target);
  } catch (const Error& e) {
    f.fail(in, e.what());
  }
  const MatrixVariant& v = *c->ins.variant;
  try {
    c->model = &models_for(target).select(v.family, v.a, v.d);
  } catch (const Error& e) {
    f.fail(n["target"] ? n["target"] : in, e.what());
  }
  for (const char* k : {"scale_A", "scale_B"})
    if (n[k]) f.fail(n[k], fmt::format("{}: {} is not block-scaled", k, text));
  // The form and the immediates.
  WgmmaOperands& o = c->operands;
  if (const YAML::Node s = n["a_source"]) {
    const std::string src = scalar(f, s, "a_source");
    if (src == "registers") o.a_source = ASource::registers;
    else if (src != "descriptor") f.fail(s, fmt::format("'a_source' takes descriptor or registers, found '{}'", src));
  }
  o.imm_scale_a = choice(f, n["imm_scale_a"], "imm_scale_a", {1, -1}, 1);
  o.imm_scale_b = choice(f, n["imm_scale_b"], "imm_scale_b", {1, -1}, 1);
  o.imm_trans_a = choice(f, n["imm_trans_a"], "imm_trans_a", {0, 1}, 0);
  o.imm_trans_b = choice(f, n["imm_trans_b"], "imm_trans_b", {0, 1}, 0);
  c->scale_d = choice(f, n["scale_d"], "scale_d", {0, 1}, 1) == 1;
  try {
    check_wgmma_operands(v, o);
  } catch (const Error& e) {
    YAML::Node at = in;
    for (const char* k : {"imm_trans_b", "imm_trans_a", "imm_scale_b", "imm_scale_a", "a_source"})
      if (n[k]) at = n[k];
    f.fail(at, e.what());
  }
  const bool regs = o.a_source == ASource::registers;
  const WgmmaExecutor x(v, *c->model, o);
  // Where A and B lie.
  if (regs && n["desc_a"]) f.fail(n["desc_a"], "desc_a: A comes from registers (a_source: registers)");
  const bool given = n["desc_a"] || n["desc_b"];
  if (given) {
    if (n["swizzle"]) f.fail(n["swizzle"], "'swizzle' picks the default layout; the descriptors given carry their own");
    if (!n["desc_b"] || (!regs && !n["desc_a"]))
      f.fail(n["desc_a"] ? n["desc_a"] : n["desc_b"], "give desc_a and desc_b both (a_source: registers: desc_b), or "
                                                      "neither for the default layout");
    if (!regs) c->desc_a = descriptor(f, n["desc_a"], "desc_a");
    c->desc_b = descriptor(f, n["desc_b"], "desc_b");
  } else {
    Swizzle sw = Swizzle::none;
    if (const YAML::Node s = n["swizzle"]) {
      const auto p = parse_swizzle(scalar(f, s, "swizzle"));
      if (!p) f.fail(s, fmt::format("'swizzle' takes none, 32B, 64B or 128B, found '{}'", s.Scalar()));
      sw = *p;
    }
    const WgmmaPlacement p = default_placement(x, sw);
    c->desc_a = p.desc_a;
    c->desc_b = p.desc_b;
  }
  // The matrices.
  for (const char* k : {"A", "B"})
    if (!n[k]) f.fail(n, fmt::format("case '{}' needs matrix {}", name, k));
  const YAML::Node ex = n["expect"];
  if (!ex["D"]) f.fail(ex, fmt::format("case '{}': 'expect' needs matrix D", name));
  const int m = v.shape.m, nn = v.shape.n, k = v.shape.k;
  const int abits = element_bits(v.a), bbits = element_bits(v.b), dbits = element_bits(v.d);
  std::vector<std::uint64_t> a = parse_matrix(f, n["A"], {"A", v.a, abits, m, k}, work);
  if (v.is_sparse()) {
    try {
      SparseMetadata::Compressed sa = compress_sparse_a(v, a);
      a = std::move(sa.stored);
      c->meta = std::move(sa.meta);
    } catch (const Error& e) {
      f.fail(n["A"], fmt::format("A: {}", e.what()));
    }
  }
  const std::vector<std::uint64_t> b = parse_matrix(f, n["B"], {"B", v.b, bbits, k, nn}, work);
  // A descriptor that reaches outside shared memory, or A and B on the same bytes, is named
  // where the case gives the descriptor (or, for the default layout, its instruction).
  const auto place = [&](const OperandAddressing& at, std::span<const std::uint64_t> values, const char* op,
                         const char* key) {
    try {
      c->image.place(at, values, op);
    } catch (const Error& e) {
      f.fail(n[key] ? n[key] : in, e.what());
    }
  };
  const auto addressing = [&](bool is_a, std::uint64_t desc, const char* key) {
    try {
      return is_a ? x.a_addressing(desc) : x.b_addressing(desc);
    } catch (const Error& e) {
      f.fail(n[key] ? n[key] : in, e.what());
    }
  };
  if (regs) c->a = v.codec(Operand::a).scatter(a);
  else place(addressing(true, c->desc_a, "desc_a"), a, "A", "desc_a");
  place(addressing(false, c->desc_b, "desc_b"), transpose(b, k, nn), "B", "desc_b");
  const RegisterCodec cd = v.codec(Operand::d);
  c->c = n["C"] ? cd.scatter(parse_matrix(f, n["C"], {"C", v.d, dbits, m, nn}, work))
                : std::vector<std::uint32_t>(cd.words(), 0);
  c->d = parse_matrix(f, ex["D"], {"D", v.d, dbits, m, nn}, work);
  return c;
}

std::string run_wgmma_case(const WgmmaVectorCase& c) {
  const MatrixVariant& v = *c.ins.variant;
  const WgmmaExecutor x(v, *c.model, c.operands);
  SharedMemory smem;
  c.image.write_to(smem);
  const WgmmaInputs in{
      .shared = smem.bytes(), .desc_a = c.desc_a, .a = c.a, .desc_b = c.desc_b, .scale_d = c.scale_d, .c = c.c, .meta = c.meta};
  const RegisterCodec cd = v.codec(Operand::d);
  std::vector<std::uint32_t> d(cd.words(), 0);
  x.run(in, d);
  return matrix_differences(cd, c.d, d, c.ins.text);
}

}  // namespace ptxmma
