#include "sim/catalog/wgmma_family.hpp"

#include <fmt/format.h>

#include <map>

#include "sim/error.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma {

std::string wgmma_ptx(const MatrixSelector& s) {
  std::string out = fmt::format("wgmma.mma_async{}.sync.aligned.{}", s.sparse == Sparsity::dense ? "" : ".sp",
                                shape_name(s.shape));
  if (s.satfinite) out += ".satfinite";
  out += fmt::format(".{}.{}.{}", name(s.d), name(s.a), name(s.b));
  if (s.bitop != BitOp::none) out += fmt::format(".{}", name(s.bitop));
  return out;
}

namespace {

// A row's keys beyond the shared ones: K, the list of N, the D types, the A register fragment,
// and which immediates the variant takes.
class WgmmaFamily final : public CatalogFamily {
 public:
  [[nodiscard]] std::string_view name() const override { return "wgmma"; }
  [[nodiscard]] int lanes() const override { return 128; }
  [[nodiscard]] std::vector<std::string_view> row_keys() const override {
    return {"k", "n", "dtype", "a", "imm_scale", "trans"};
  }
  [[nodiscard]] std::vector<Sparsity> sparse_forms() const override { return {Sparsity::sp}; }
  [[nodiscard]] Spelling spelling() const override { return wgmma_ptx; }

  // n_lists: {NAME: N list}; accumulators: {D type: layout template}.
  void header(const YamlFile& f) override {
    const YAML::Node lists = f.root["n_lists"];
    if (!lists || !lists.IsMap()) f.fail(f.root, "'n_lists' must map a name to a list of N");
    for (const auto& kv : lists) {
      const std::string list_name = kv.first.as<std::string>();
      lists_[list_name] = n_values(f, kv.second, fmt::format("n_lists {}", list_name));
    }
    const YAML::Node acc = f.root["accumulators"];
    if (!acc || !acc.IsMap()) f.fail(f.root, "'accumulators' must map a D type to a layout template");
    for (const auto& kv : acc) {
      const auto t = parse_type(kv.first.as<std::string>());
      if (!t) f.fail(kv.first, fmt::format("unknown type '{}'", kv.first.as<std::string>()));
      if (!kv.second.IsScalar())
        f.fail(kv.second, fmt::format("accumulators {}: expected a layout template name", ptxmma::name(*t)));
      acc_[*t] = kv.second;
    }
  }

  void expand(const CatalogRow& r, const std::function<void(MatrixVariant&)>& emit) const override {
    if (!r["k"]) r.fail(r.node(), "missing key 'k'");
    const int k = r.integer(r["k"], "'k'");
    if (!r["n"]) r.fail(r.node(), "missing key 'n'");
    std::vector<int> ns;
    if (r["n"].IsScalar()) {
      const auto it = lists_.find(r["n"].as<std::string>());
      if (it == lists_.end()) r.fail(r["n"], fmt::format("unknown N list '{}'", r["n"].as<std::string>()));
      ns = it->second;
    } else {
      ns = n_values(r, r["n"], "n");
    }
    const std::vector<Type> dtypes = r.types("dtype");
    if (const SparseMetadata* m = r.metadata; m && (m->rows != 16 || m->chunks * chunk_columns(r.pattern) != k))
      r.fail(r["sparse"], fmt::format("metadata {} describes {} rows x {} chunks per warp; k{} needs 16 x {}", m->name,
                                      m->rows, m->chunks, k, k / chunk_columns(r.pattern)));
    const YAML::Node a = r["a"];
    if (!a || !a.IsSequence() || a.size() != 2 || !a[0].IsScalar())
      r.fail(a ? a : r.node(), "a: expected [A register layout, registers]");
    const std::string a_layout = a[0].as<std::string>();
    const int a_regs = r.integer(a[1], "a: the register count");
    const bool imm_scale = r.boolean("imm_scale");
    bool trans_a = false, trans_b = false;
    if (r["trans"])
      for (const auto& s : r.list("trans")) {
        if (s == "a") trans_a = true;
        else if (s == "b") trans_b = true;
        else r.fail(r["trans"], fmt::format("trans: '{}' is not a or b", s));
      }

    for (Type at : r.atypes)
      for (Type bt : r.btypes)
        for (Type dt : dtypes)
          for (bool sat : r.satfinite)
            for (BitOp bop : r.bitops)
              for (Sparsity sparsity : r.sparsities)
                for (int n : ns) {
                  MatrixVariant v;
                  v.shape = Shape{64, n, k};
                  v.a = at, v.b = bt, v.c = dt, v.d = dt;
                  v.satfinite = sat;
                  v.bitop = bop;
                  v.sparse = sparsity;
                  v.imm_scale = imm_scale;
                  v.trans_a = trans_a, v.trans_b = trans_b;
                  v.sources[static_cast<int>(Operand::a)] =
                      static_cast<std::uint8_t>(Source::descriptor) | static_cast<std::uint8_t>(Source::registers);
                  v.sources[static_cast<int>(Operand::b)] = static_cast<std::uint8_t>(Source::descriptor);
                  v.sources[static_cast<int>(Operand::c)] = static_cast<std::uint8_t>(Source::registers);
                  v.sources[static_cast<int>(Operand::d)] = static_cast<std::uint8_t>(Source::registers);
                  if (element_bits(at) * v.a_cols() != 256)
                    r.fail(r["k"], fmt::format("k{} with {} inputs is not 32 bytes of {}K", k, ptxmma::name(at),
                                               v.is_sparse() ? "stored " : ""));
                  if (element_bits(at) != element_bits(bt))
                    r.fail(r["btype"], fmt::format("{} A with {} B: A and B must have the same width",
                                                   ptxmma::name(at), ptxmma::name(bt)));
                  const auto acc = acc_.find(dt);
                  if (acc == acc_.end())
                    r.fail(r["dtype"], fmt::format("no accumulator layout for {} D", ptxmma::name(dt)));
                  v.ld = &r.fragment(acc->second, Operand::d, acc->second.as<std::string>(), n, -1, dt,
                                     Container::packed, 64, n);
                  v.lc = v.ld;
                  v.la = &r.fragment(a, Operand::a, a_layout, n, a_regs, at, Container::packed, 64, v.a_cols());
                  emit(v);
                }
  }

 private:
  // A list of N: [8, 16, ...] or {from: 8, to: 256, step: 8}; `Reader` fails at a node (a row or the file).
  template <class Reader>
  static std::vector<int> n_values(const Reader& f, const YAML::Node& n, const std::string& what) {
    const auto integer = [&](const YAML::Node& x, const std::string& of) {
      try {
        return x.as<int>();
      } catch (const YAML::Exception&) {
        f.fail(x, fmt::format("{} must be an integer", of));
      }
    };
    std::vector<int> out;
    if (n.IsSequence()) {
      for (const YAML::Node& x : n) out.push_back(integer(x, what + " values"));
    } else if (n.IsMap()) {
      for (const char* key : {"from", "to", "step"})
        if (!n[key]) f.fail(n, fmt::format("{}: expected {{from, to, step}}, missing '{}'", what, key));
      const int from = integer(n["from"], what + ": from"), to = integer(n["to"], what + ": to"),
                step = integer(n["step"], what + ": step");
      if (step <= 0) f.fail(n["step"], fmt::format("{}: step must be positive", what));
      for (int v = from; v <= to; v += step) out.push_back(v);
    } else {
      f.fail(n, fmt::format("{}: expected a list of N or {{from, to, step}}", what));
    }
    if (out.empty()) f.fail(n, fmt::format("{}: no N", what));
    for (int v : out)
      if (v < 8 || v > 256 || v % 8 != 0)
        f.fail(n, fmt::format("{}: N = {} is not a multiple of 8 in 8..256", what, v));
    return out;
  }

  std::map<std::string, std::vector<int>> lists_;
  std::map<Type, YAML::Node> acc_;
};

}  // namespace

MatrixCatalog load_wgmma_catalog(const std::string& config_dir) { return MatrixCatalog::load(config_dir, WgmmaFamily{}); }

const MatrixCatalog& wgmma_catalog() { return process_catalog<load_wgmma_catalog>(); }

std::vector<std::string> wgmma_operand_names(const MatrixVariant& v, ASource s) {
  std::vector<std::string> out = {"d", s == ASource::descriptor ? "a-desc" : "a", "b-desc"};
  if (v.is_sparse()) {
    out.emplace_back("sp-meta");
    out.emplace_back("sp-sel");
  }
  out.emplace_back("scale-d");
  if (v.imm_scale) {
    out.emplace_back("imm-scale-a");
    out.emplace_back("imm-scale-b");
  }
  if (v.trans_a && s == ASource::descriptor) out.emplace_back("imm-trans-a");
  if (v.trans_b) out.emplace_back("imm-trans-b");
  return out;
}

void check_wgmma_operands(const MatrixVariant& v, const WgmmaOperands& o) {
  const auto fail = [&](const std::string& what) { throw Error(fmt::format("{}: {}", v.ptx, what)); };
  for (const auto& [value, op] : {std::pair{o.imm_scale_a, "imm-scale-a"}, std::pair{o.imm_scale_b, "imm-scale-b"}}) {
    if (value != 1 && value != -1) fail(fmt::format("{} is {}; it must be 1 or -1", op, value));
    if (value == -1 && !v.imm_scale)
      fail(fmt::format("{} -1: {} inputs take no imm-scale operands (floating-point variants only)", op, name(v.a)));
  }
  for (const auto& [value, op] : {std::pair{o.imm_trans_a, "imm-trans-a"}, std::pair{o.imm_trans_b, "imm-trans-b"}})
    if (value != 0 && value != 1) fail(fmt::format("{} is {}; it must be 0 (K-major) or 1 (transposed)", op, value));
  if (o.a_source == ASource::registers && !v.takes(Operand::a, Source::registers))
    fail("A cannot come from registers (this variant reads it through a descriptor)");
  if (o.imm_trans_a == 1) {
    if (!v.trans_a) fail(fmt::format("imm-trans-a 1: {} inputs cannot be transposed (f16 and bf16 only)", name(v.a)));
    if (o.a_source == ASource::registers)
      fail("imm-trans-a 1: A in registers cannot be transposed (imm-trans-a exists only with an A descriptor)");
  }
  if (o.imm_trans_b == 1 && !v.trans_b)
    fail(fmt::format("imm-trans-b 1: {} inputs cannot be transposed (f16 and bf16 only)", name(v.b)));
}

}  // namespace ptxmma
