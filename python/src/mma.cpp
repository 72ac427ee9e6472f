// Warp-level mma on whole matrices: A (M x K), B (K x N), C and D (M x N) as element codes,
// scattered to the lanes' registers through the fragment layouts, run, and D gathered back.
#include <fmt/format.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "python/src/bindings.hpp"
#include "sim/error.hpp"
#include "sim/layout/scale_layout.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/util/target.hpp"
#include "tools/vectors/explanation.hpp"
#include "tools/vectors/matrix_operands.hpp"

namespace ptxmma::py {

Operand operand_arg(const std::string& s) {
  if (s == "A" || s == "a") return Operand::a;
  if (s == "B" || s == "b") return Operand::b;
  if (s == "C" || s == "c") return Operand::c;
  if (s == "D" || s == "d") return Operand::d;
  throw Error(fmt::format("unknown operand '{}' (A, B, C or D)", s));
}

const PreparedMma& prepare_mma(const std::string& instr, const std::string& arch) {
  static std::map<std::string, std::unique_ptr<PreparedMma>> cache;  // the GIL serializes callers
  const std::string key = instr + '\n' + arch;
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  MmaInstruction ins = parse_warp_mma(instr, arch);
  const MatrixVariant& v = *ins.variant;
  const Model& model = models_for(arch).select(v.family, v.a, v.d);
  const MmaOptions o{ins.rounding.value_or(Rounding::rn), ins.satfinite};
  if (cache.size() >= 256) cache.clear();
  auto p = std::make_unique<PreparedMma>(PreparedMma{std::move(ins), &model, MmaExecutor(v, model, o)});
  return *cache.emplace(key, std::move(p)).first->second;
}

namespace {

struct Dims {
  int rows, cols;
};
// The matrix of an operand: problems stacked (m8n8k4 .f16: four M x K problems give 4M rows).
Dims dims(const MatrixVariant& v, Operand o) {
  const RegisterCodec codec = v.codec(o);
  return {codec.rows(), codec.cols()};
}

// The element codes of operand o as a d.rows x d.cols matrix, checked to be codes of its type.
std::vector<std::uint64_t> checked_codes(const MatrixVariant& v, Operand o, const In<std::uint64_t>& a, Dims d) {
  const TypeInfo& ti = info(v.type(o));
  if (a.size() != static_cast<std::size_t>(d.rows) * static_cast<std::size_t>(d.cols))
    throw Error(fmt::format("{}: expected a {}x{} matrix of {}, got {} elements", name(o), d.rows, d.cols, ti.name,
                            a.size()));
  const std::uint64_t mask = ti.mask() << ti.shift | (ti.shift ? (1ULL << ti.shift) - 1 : 0);
  std::vector<std::uint64_t> codes(a.data(), a.data() + a.size());
  for (std::size_t i = 0; i < codes.size(); ++i)
    if (codes[i] & ~mask)
      throw Error(fmt::format("{}[{}][{}] = {:#x} is not a {} code", name(o), i / static_cast<std::size_t>(d.cols),
                              i % static_cast<std::size_t>(d.cols), codes[i], ti.name));
  return codes;
}

// The register words of operand o from its matrix of codes (none: zeros), and back.
std::vector<std::uint32_t> words_of(const MatrixVariant& v, Operand o, const std::optional<In<std::uint64_t>>& a) {
  if (a) return operand_words(v, o, checked_codes(v, o, *a, dims(v, o)));
  return std::vector<std::uint32_t>(v.codec(o).words(), 0);
}

Array<std::uint64_t> matrix_array(const MatrixVariant& v, Operand o, std::span<const std::uint32_t> words) {
  const Dims d = dims(v, o);
  return to_numpy(operand_values(v, o, words), {static_cast<std::size_t>(d.rows), static_cast<std::size_t>(d.cols)});
}

int wpl(const MatrixVariant& v, Operand o) { return v.words(o); }

// Block-scaled: the scale matrices (A's M x V, B's V x N scale codes), checked for shape.
ScaleWords scales_of(const MatrixVariant& v, const std::optional<In<std::uint64_t>>& sa,
                     const std::optional<In<std::uint64_t>>& sb) {
  if (!v.block_scale) {
    if (sa || sb) throw Error(fmt::format("{} is not block-scaled: it takes no scale_a / scale_b", v.ptx));
    return {};
  }
  if (!sa || !sb)
    throw Error(fmt::format("{} is block-scaled: give scale_a ({} x {}) and scale_b ({} x {}) as {} codes", v.ptx,
                            v.shape.m, v.scale_vec, v.scale_vec, v.shape.n, name(*v.stype)));
  const auto check = [&](const In<std::uint64_t>& m, int rows, int cols, const char* what) {
    if (m.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols))
      throw Error(fmt::format("{}: expected a {}x{} matrix of {} codes, got {} elements", what, rows, cols,
                              name(*v.stype), m.size()));
    return std::span<const std::uint64_t>(m.data(), m.size());
  };
  return scale_words(v, check(*sa, v.shape.m, v.scale_vec, "scale_a"), check(*sb, v.scale_vec, v.shape.n, "scale_b"));
}

// The operands' register words of one mma on matrices. A sparse A is its logical M x K matrix,
// compressed to the stored elements and the metadata that selector 0 reads; with `meta` (a golden
// case's 32 metadata words) A is already the stored M x K/2 matrix.
struct Inputs {
  std::vector<std::uint32_t> a, b, c, meta;
  ScaleWords scales;
  int selector = 0;
};
Inputs inputs(const MatrixVariant& v, const In<std::uint64_t>& a, const In<std::uint64_t>& b,
              const std::optional<In<std::uint64_t>>& c, const std::optional<In<std::uint64_t>>& scale_a,
              const std::optional<In<std::uint64_t>>& scale_b, const std::optional<In<std::uint32_t>>& meta = {},
              int selector = 0) {
  Inputs in{{}, words_of(v, Operand::b, b), words_of(v, Operand::c, c), {}, scales_of(v, scale_a, scale_b)};
  if (v.sparse == Sparsity::dense) {
    if (meta) throw Error(fmt::format("{} is not sparse: it takes no metadata", v.ptx));
    in.a = words_of(v, Operand::a, a);
  } else if (meta) {  // MmaExecutor checks that it holds the 32 lanes' words
    in.a = words_of(v, Operand::a, a);
    in.meta = to_vector(*meta);
    in.selector = selector;
  } else {
    SparseA sparse = sparse_a_words(v, checked_codes(v, Operand::a, a, {v.shape.m, v.shape.k}));
    in.a = std::move(sparse.a);
    in.meta = std::move(sparse.meta);
  }
  return in;
}

Array<std::uint64_t> mma_run(const std::string& instr, const std::string& arch, const In<std::uint64_t>& a,
                             const In<std::uint64_t>& b, const std::optional<In<std::uint64_t>>& c,
                             const std::optional<In<std::uint64_t>>& scale_a,
                             const std::optional<In<std::uint64_t>>& scale_b) {
  const PreparedMma& p = prepare_mma(instr, arch);
  const MatrixVariant& v = *p.ins.variant;
  const Inputs in = inputs(v, a, b, c, scale_a, scale_b);
  std::vector<std::uint32_t> wd(static_cast<std::size_t>(32 * wpl(v, Operand::d)), 0);
  p.exec.run({in.a, wpl(v, Operand::a)}, {in.b, wpl(v, Operand::b)}, {in.c, wpl(v, Operand::c)}, wd,
             {in.meta, in.selector}, {in.scales.a, in.scales.b});
  return matrix_array(v, Operand::d, wd);
}

std::string mma_explain(const std::string& instr, const std::string& arch, const In<std::uint64_t>& a,
                     const In<std::uint64_t>& b, const std::optional<In<std::uint64_t>>& c, int problem, int row,
                     int col, const std::optional<In<std::uint64_t>>& scale_a,
                     const std::optional<In<std::uint64_t>>& scale_b, const std::optional<In<std::uint32_t>>& meta,
                     int selector) {
  const PreparedMma& p = prepare_mma(instr, arch);
  const MatrixVariant& v = *p.ins.variant;
  const FragmentLayout& ld = *v.ld;
  if (row < 0 || row >= ld.rows || col < 0 || col >= ld.cols || problem < 0 || problem >= ld.problems)
    throw Error(fmt::format("D has {} rows and {} columns{}: row {} col {} is outside", ld.rows, ld.cols,
                            ld.problems > 1 ? fmt::format(" in each of {} problems", ld.problems) : "", row, col));
  const Inputs in = inputs(v, a, b, c, scale_a, scale_b, meta, selector);
  DotTrace trace;
  const std::uint64_t got =
      p.exec.explain({in.a, wpl(v, Operand::a)}, {in.b, wpl(v, Operand::b)}, {in.c, wpl(v, Operand::c)}, problem, row,
                     col, trace, {in.meta, in.selector}, {in.scales.a, in.scales.b});
  const FragmentSlot& s = ld.slot(problem, row, col);
  // The document `ptxmma explain --json` writes, as JSON text: ptxmma/__init__.py turns it into
  // Records with numbers.
  nlohmann::json j = {{"instruction", v.ptx}, {"model", p.model->name}, {"problem", problem}, {"row", row},
                      {"col", col},          {"lane", s.lane},          {"register", s.reg},  {"element", s.elem}};
  j.update(explanation_json(*p.model, trace));
  j["steps"] = explanation_lines(j);
  j["got"] = value_json(v.d, got);
  return j.dump();
}

nb::dict operand_info(const MatrixVariant& v, Operand o) {
  const Dims d = dims(v, o);
  nb::dict out;
  out["type"] = std::string(name(v.type(o)));
  out["rows"] = d.rows;
  out["cols"] = d.cols;
  out["words_per_lane"] = wpl(v, o);
  return out;
}

nb::dict mma_info(const std::string& instr, const std::string& arch) {
  const PreparedMma& p = prepare_mma(instr, arch);
  const MatrixVariant& v = *p.ins.variant;
  nb::dict out;
  out["instruction"] = v.ptx;
  out["text"] = p.ins.text;
  out["shape"] = nb::make_tuple(v.shape.m, v.shape.n, v.shape.k);
  out["problems"] = v.problems();
  out["family"] = v.family;
  out["model"] = p.model->name;
  out["block_scale"] = v.block_scale;
  if (v.sparse != Sparsity::dense)
    out["sparse"] = std::string(name(v.pattern));  // A's stored columns are K/2 of its logical K
  else
    out["sparse"] = nb::none();
  nb::dict ops;
  for (const Operand o : {Operand::a, Operand::b, Operand::c, Operand::d}) ops[name(o).data()] = operand_info(v, o);
  out["operands"] = ops;
  return out;
}

Array<std::uint32_t> mma_scatter(const std::string& instr, const std::string& arch, const std::string& op,
                                 const In<std::uint64_t>& m) {
  const PreparedMma& p = prepare_mma(instr, arch);
  const MatrixVariant& v = *p.ins.variant;
  const Operand o = operand_arg(op);
  std::vector<std::uint32_t> words = words_of(v, o, m);
  return to_numpy(std::move(words), {32, static_cast<std::size_t>(wpl(v, o))});
}

Array<std::uint64_t> mma_gather(const std::string& instr, const std::string& arch, const std::string& op,
                                const In<std::uint32_t>& words) {
  const PreparedMma& p = prepare_mma(instr, arch);
  const MatrixVariant& v = *p.ins.variant;
  const Operand o = operand_arg(op);
  if (words.size() != static_cast<std::size_t>(32 * wpl(v, o)))
    throw Error(fmt::format("{}: expected 32 lanes x {} words, got {} words", name(o), wpl(v, o), words.size()));
  return matrix_array(v, o, std::span<const std::uint32_t>(words.data(), words.size()));
}

}  // namespace

void bind_mma(nb::module_& m) {
  m.def("targets", [] {
    std::vector<std::string> out;
    for (const std::string_view t : known_targets()) out.emplace_back(t);
    return out;
  });
  m.def("mma_info", &mma_info, nb::arg("instr"), nb::arg("arch"));
  m.def("mma_run", &mma_run, nb::arg("instr"), nb::arg("arch"), nb::arg("a"), nb::arg("b"), nb::arg("c").none(),
        nb::arg("scale_a").none() = nb::none(), nb::arg("scale_b").none() = nb::none());
  m.def("mma_explain", &mma_explain, nb::arg("instr"), nb::arg("arch"), nb::arg("a"), nb::arg("b"),
        nb::arg("c").none(), nb::arg("problem"), nb::arg("row"), nb::arg("col"),
        nb::arg("scale_a").none() = nb::none(), nb::arg("scale_b").none() = nb::none(),
        nb::arg("meta").none() = nb::none(), nb::arg("selector") = 0);
  m.def("mma_scatter", &mma_scatter, nb::arg("instr"), nb::arg("arch"), nb::arg("operand"), nb::arg("matrix"));
  m.def("mma_gather", &mma_gather, nb::arg("instr"), nb::arg("arch"), nb::arg("operand"), nb::arg("words"));
}

}  // namespace ptxmma::py
