#include "sim/catalog/wgmma_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>

#include "sim/catalog/mma_catalog.hpp"  // parse_shape, shape_name
#include "sim/error.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/util/config_dir.hpp"
#include "sim/util/target.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {

namespace {

constexpr std::array<std::string_view, 17> kEntryKeys = {"row",       "k",     "n",      "atype", "btype",
                                                         "dtype",     "satfinite", "bitop", "sparse", "a", "imm_scale",
                                                         "trans",     "family", "targets", "ptx", "when", "note"};

class VariantLoader {
 public:
  VariantLoader(const YamlFile& f, LayoutLibrary& lib, const SparseLibrary& sparse)
      : f_(f), lib_(lib), sparse_(sparse) {}

  std::vector<WgmmaVariant> run() {
    if (!f_.root.IsMap()) f_.fail(f_.root, "expected a map with 'n_lists', 'accumulators' and 'variants'");
    n_lists(f_.root["n_lists"]);
    accumulators(f_.root["accumulators"]);
    const YAML::Node list = f_.root["variants"];
    if (!list || !list.IsSequence()) f_.fail(f_.root, "'variants' must be a list of catalogue rows");
    for (const YAML::Node& e : list) entry(e);
    return std::move(out_);
  }

 private:
  struct When {
    YAML::Node at;
    std::vector<std::pair<std::string, std::vector<std::string>>> match;
    std::string ptx;
    bool used = false;
  };

  [[noreturn]] void fail(const YAML::Node& at, int row, const std::string& what) const {
    f_.fail(at, row ? fmt::format("row {}: {}", row, what) : what);
  }

  std::string scalar(const YAML::Node& map, const char* key, int row) const {
    const YAML::Node n = map[key];
    if (!n) fail(map, row, fmt::format("missing key '{}'", key));
    if (!n.IsScalar()) fail(n, row, fmt::format("'{}' must be a single value", key));
    return n.as<std::string>();
  }
  std::vector<std::string> list(const YAML::Node& map, const char* key, int row,
                                std::vector<std::string> fallback = {}, bool allow_empty = false) const {
    const YAML::Node n = map[key];
    if (!n) {
      if (fallback.empty() && !allow_empty) fail(map, row, fmt::format("missing key '{}'", key));
      return fallback;
    }
    if (n.IsScalar()) return {n.as<std::string>()};
    if (!n.IsSequence() || (n.size() == 0 && !allow_empty))
      fail(n, row, fmt::format("'{}' must be a value or a non-empty list", key));
    std::vector<std::string> out;
    for (const YAML::Node& x : n) {
      if (!x.IsScalar()) fail(x, row, fmt::format("'{}' must list plain values", key));
      out.push_back(x.as<std::string>());
    }
    return out;
  }
  Type type(const YAML::Node& at, int row, const std::string& s) const {
    if (auto t = parse_type(s)) return *t;
    fail(at, row, fmt::format("unknown type '{}'", s));
  }
  int integer(const YAML::Node& n, int row, const std::string& what) const {
    try {
      return n.as<int>();
    } catch (const YAML::Exception&) {
      fail(n, row, fmt::format("{} must be an integer", what));
    }
  }
  bool boolean(const YAML::Node& map, const char* key, int row) const {
    const YAML::Node n = map[key];
    if (!n) return false;
    try {
      return n.as<bool>();
    } catch (const YAML::Exception&) {
      fail(n, row, fmt::format("'{}' must be true or false", key));
    }
  }
  void ptx_version(const YAML::Node& at, int row, const std::string& s) const {
    const auto dot = s.find('.');
    int major = 0, minor = 0;
    const bool ok = dot != std::string::npos && dot > 0 && dot + 1 < s.size() &&
                    std::from_chars(s.data(), s.data() + dot, major).ptr == s.data() + dot &&
                    std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor).ptr == s.data() + s.size();
    if (!ok) fail(at, row, fmt::format("PTX version '{}' is not of the form MAJOR.MINOR (quote it: \"8.0\")", s));
  }

  // A list of N: [8, 16, ...] or {from: 8, to: 256, step: 8}.
  std::vector<int> n_values(const YAML::Node& n, int row, const std::string& what) const {
    std::vector<int> out;
    if (n.IsSequence()) {
      for (const YAML::Node& x : n) out.push_back(integer(x, row, what + " values"));
    } else if (n.IsMap()) {
      for (const char* k : {"from", "to", "step"})
        if (!n[k]) fail(n, row, fmt::format("{}: expected {{from, to, step}}, missing '{}'", what, k));
      const int from = integer(n["from"], row, what + ": from"), to = integer(n["to"], row, what + ": to"),
                step = integer(n["step"], row, what + ": step");
      if (step <= 0) fail(n["step"], row, fmt::format("{}: step must be positive", what));
      for (int v = from; v <= to; v += step) out.push_back(v);
    } else {
      fail(n, row, fmt::format("{}: expected a list of N or {{from, to, step}}", what));
    }
    if (out.empty()) fail(n, row, fmt::format("{}: no N", what));
    for (int v : out)
      if (v < 8 || v > 256 || v % 8 != 0)
        fail(n, row, fmt::format("{}: N = {} is not a multiple of 8 in 8..256", what, v));
    return out;
  }

  void n_lists(const YAML::Node& n) {
    if (!n || !n.IsMap()) f_.fail(f_.root, "'n_lists' must map a name to a list of N");
    for (const auto& kv : n) {
      const std::string name = kv.first.as<std::string>();
      lists_[name] = n_values(kv.second, 0, fmt::format("n_lists {}", name));
    }
  }

  void accumulators(const YAML::Node& n) {
    if (!n || !n.IsMap()) f_.fail(f_.root, "'accumulators' must map a D type to a layout template");
    for (const auto& kv : n) {
      const Type t = type(kv.first, 0, kv.first.as<std::string>());
      if (!kv.second.IsScalar()) f_.fail(kv.second, fmt::format("accumulators {}: expected a layout template name", name(t)));
      acc_[t] = {kv.second.as<std::string>(), kv.second};
    }
  }

  std::vector<When> whens(const YAML::Node& n, int row) const {
    std::vector<When> out;
    if (!n) return out;
    if (!n.IsSequence()) fail(n, row, "'when' must be a list of {match keys..., ptx}");
    for (const YAML::Node& w : n) {
      if (!w.IsMap()) fail(w, row, "a 'when' item must be a map");
      When item{w, {}, {}, false};
      for (const auto& kv : w) {
        const std::string k = kv.first.as<std::string>();
        if (k == "ptx") {
          item.ptx = kv.second.as<std::string>();
          ptx_version(kv.second, row, item.ptx);
        } else if (k == "atype" || k == "btype" || k == "dtype" || k == "satfinite") {
          item.match.emplace_back(k, list(w, k.c_str(), row));
        } else {
          fail(kv.first, row, fmt::format("unknown 'when' key '{}' (match: atype btype dtype satfinite; set: ptx)", k));
        }
      }
      if (item.ptx.empty()) fail(w, row, "a 'when' item must set ptx");
      out.push_back(std::move(item));
    }
    return out;
  }

  static std::string key_of(const WgmmaVariant& v, const std::string& k) {
    if (k == "atype") return std::string(name(v.a));
    if (k == "btype") return std::string(name(v.b));
    if (k == "dtype") return std::string(name(v.d));
    return v.satfinite ? "true" : "false";
  }

  const FragmentLayout& layout(const YAML::Node& at, int row, const std::string& name, int n) const {
    try {
      if (name.find("{N}") != std::string::npos) return lib_.instantiate(name, n);
      return lib_.at(name);
    } catch (const Error& e) {
      fail(at, row, e.what());
    }
  }

  void entry(const YAML::Node& e) {
    if (!e.IsMap()) f_.fail(e, "a catalogue row must be a map");
    int row = 0;
    try {
      row = e["row"].as<int>();
    } catch (const YAML::Exception&) {
      f_.fail(e, "every catalogue row needs 'row: <number>' (its row in docs/wgmma-catalogue.md §1)");
    }
    for (const auto& kv : e) {
      const std::string k = kv.first.as<std::string>();
      if (std::find(kEntryKeys.begin(), kEntryKeys.end(), k) == kEntryKeys.end())
        fail(kv.first, row, fmt::format("unknown key '{}'", k));
    }
    if (!e["k"]) fail(e, row, "missing key 'k'");
    const int k = integer(e["k"], row, "'k'");
    std::vector<int> ns;
    if (!e["n"]) fail(e, row, "missing key 'n'");
    if (e["n"].IsScalar()) {
      const auto it = lists_.find(e["n"].as<std::string>());
      if (it == lists_.end()) fail(e["n"], row, fmt::format("unknown N list '{}'", e["n"].as<std::string>()));
      ns = it->second;
    } else {
      ns = n_values(e["n"], row, "n");
    }
    std::vector<Type> atypes, btypes, dtypes;
    for (const auto& s : list(e, "atype", row)) atypes.push_back(type(e["atype"], row, s));
    for (const auto& s : list(e, "btype", row)) btypes.push_back(type(e["btype"], row, s));
    for (const auto& s : list(e, "dtype", row)) dtypes.push_back(type(e["dtype"], row, s));
    std::vector<bool> sats = {false};
    if (const YAML::Node s = e["satfinite"]) {
      const std::string v = s.as<std::string>();
      if (v == "optional") sats = {false, true};
      else if (v != "false" && v != "no") fail(s, row, "satfinite: expected 'optional' (or false)");
    }
    BitOp bitop = BitOp::none;
    if (e["bitop"]) {
      const std::string s = scalar(e, "bitop", row);
      if (s == "and.popc") bitop = BitOp::and_popc;
      else if (s == "xor.popc") bitop = BitOp::xor_popc;
      else fail(e["bitop"], row, fmt::format("bitop: '{}' is not and.popc or xor.popc", s));
    }
    // sparse: {pattern: 2:4|1:2, metadata: CLASS of configs/mma/sparse.yaml}: the row is wgmma.mma_async.sp.
    bool sparse = false;
    SparsePattern pattern = SparsePattern::two_of_four;
    const SparseMetadata* metadata = nullptr;
    if (const YAML::Node sp = e["sparse"]) {
      if (!sp.IsMap()) fail(sp, row, "sparse: expected {pattern: 2:4|1:2, metadata: CLASS}");
      const std::string p = scalar(sp, "pattern", row);
      if (p == "2:4") pattern = SparsePattern::two_of_four;
      else if (p == "1:2") pattern = SparsePattern::one_of_two;
      else fail(sp["pattern"], row, fmt::format("sparse pattern '{}' is not 2:4 or 1:2", p));
      metadata = sparse_.find(scalar(sp, "metadata", row));
      if (!metadata) fail(sp["metadata"], row, "unknown metadata class (configs/mma/sparse.yaml)");
      if (metadata->rows != 16 || metadata->chunks * chunk_columns(pattern) != k)
        fail(sp, row, fmt::format("metadata {} describes {} rows x {} chunks per warp; k{} needs 16 x {}",
                                  metadata->name, metadata->rows, metadata->chunks, k, k / chunk_columns(pattern)));
      sparse = true;
    }
    const YAML::Node a = e["a"];
    if (!a || !a.IsSequence() || a.size() != 2 || !a[0].IsScalar())
      fail(a ? a : e, row, "a: expected [A register layout, registers]");
    const std::string a_layout = a[0].as<std::string>();
    const int a_regs = integer(a[1], row, "a: the register count");
    const bool imm_scale = boolean(e, "imm_scale", row);
    bool trans_a = false, trans_b = false;
    for (const auto& s : list(e, "trans", row, {}, true)) {
      if (s == "a") trans_a = true;
      else if (s == "b") trans_b = true;
      else fail(e["trans"], row, fmt::format("trans: '{}' is not a or b", s));
    }
    const std::string family = scalar(e, "family", row);
    const std::vector<std::string> targets = list(e, "targets", row);
    for (const auto& t : targets)
      if (!target_rank(t)) fail(e["targets"], row, unknown_target(t));
    const std::string ptx = scalar(e, "ptx", row);
    ptx_version(e["ptx"], row, ptx);
    std::vector<When> when = whens(e["when"], row);

    for (Type at : atypes)
      for (Type bt : btypes)
        for (Type dt : dtypes)
          for (bool sat : sats)
            for (int n : ns) {
              WgmmaVariant v;
              v.shape = Shape{64, n, k};
              v.a = at, v.b = bt, v.d = dt;
              v.satfinite = sat;
              v.bitop = bitop;
              v.imm_scale = imm_scale;
              v.trans_a = trans_a, v.trans_b = trans_b;
              v.family = family;
              v.targets = targets;
              v.ptx_version = ptx;
              v.row = row;
              v.sparse = sparse;
              v.pattern = pattern;
              v.metadata = metadata;
              if (element_bits(at) * v.a_cols() != 256)
                fail(e["k"], row, fmt::format("k{} with {} inputs is not 32 bytes of {}K", k, name(at),
                                              sparse ? "stored " : ""));
              if (element_bits(at) != element_bits(bt))
                fail(e["btype"], row, fmt::format("{} A with {} B: A and B must have the same width", name(at), name(bt)));
              const auto acc = acc_.find(dt);
              if (acc == acc_.end()) fail(e["dtype"], row, fmt::format("no accumulator layout for {} D", name(dt)));
              v.ld = &layout(acc->second.second, row, acc->second.first, n);
              v.la = &layout(a, row, a_layout, n);
              if (v.la->regs != a_regs)
                fail(a, row, fmt::format("A: layout {} has {} registers, the entry says {}", v.la->name, v.la->regs, a_regs));
              if (v.la->lanes != 128 || v.ld->lanes != 128)
                fail(a, row, fmt::format("layouts {} and {} must have 128 lanes", v.la->name, v.ld->name));
              if (v.la->rows != 64 || v.la->cols != v.a_cols())
                fail(a, row, fmt::format("A: layout {} is {}x{}, the shape needs 64x{}", v.la->name, v.la->rows,
                                         v.la->cols, v.a_cols()));
              if (v.la->elems_per_reg != elements_per_register(at))
                fail(a, row, fmt::format("A: layout {} has {} elements per register, {} needs {}", v.la->name,
                                         v.la->elems_per_reg, name(at), elements_per_register(at)));
              if (v.ld->rows != 64 || v.ld->cols != n || v.ld->elems_per_reg != elements_per_register(dt))
                fail(acc->second.second, row,
                     fmt::format("D: layout {} is {}x{} with {} elements per register; m64n{} {} needs 64x{} with {}",
                                 v.ld->name, v.ld->rows, v.ld->cols, v.ld->elems_per_reg, n, name(dt), n,
                                 elements_per_register(dt)));
              for (When& w : when) {
                bool all = true;
                for (const auto& [key, values] : w.match)
                  all = all && std::find(values.begin(), values.end(), key_of(v, key)) != values.end();
                if (!all) continue;
                w.used = true;
                v.ptx_version = w.ptx;
              }
              v.ptx = wgmma_ptx(v.selector());
              const auto [it, fresh] = seen_.emplace(v.ptx, row);
              if (!fresh) fail(e, row, fmt::format("{} is also produced by row {}", v.ptx, it->second));
              out_.push_back(std::move(v));
            }
    for (const When& w : when)
      if (!w.used) fail(w.at, row, "this 'when' item matches none of the row's variants");
  }

  const YamlFile& f_;
  LayoutLibrary& lib_;
  const SparseLibrary& sparse_;
  std::map<std::string, std::vector<int>> lists_;
  std::map<Type, std::pair<std::string, YAML::Node>> acc_;
  std::map<std::string, int> seen_;
  std::vector<WgmmaVariant> out_;
};

}  // namespace

std::vector<std::string> WgmmaVariant::operand_names(ASource s) const {
  std::vector<std::string> out = {"d", s == ASource::descriptor ? "a-desc" : "a", "b-desc"};
  if (sparse) {
    out.emplace_back("sp-meta");
    out.emplace_back("sp-sel");
  }
  out.emplace_back("scale-d");
  if (imm_scale) {
    out.emplace_back("imm-scale-a");
    out.emplace_back("imm-scale-b");
  }
  if (trans_a && s == ASource::descriptor) out.emplace_back("imm-trans-a");
  if (trans_b) out.emplace_back("imm-trans-b");
  return out;
}

void WgmmaVariant::check(const WgmmaOperands& o) const {
  const auto fail = [&](const std::string& what) { throw Error(fmt::format("{}: {}", ptx, what)); };
  for (const auto& [value, op] : {std::pair{o.imm_scale_a, "imm-scale-a"}, std::pair{o.imm_scale_b, "imm-scale-b"}}) {
    if (value != 1 && value != -1) fail(fmt::format("{} is {}; it must be 1 or -1", op, value));
    if (value == -1 && !imm_scale)
      fail(fmt::format("{} -1: {} inputs take no imm-scale operands (floating-point variants only)", op, name(a)));
  }
  for (const auto& [value, op] : {std::pair{o.imm_trans_a, "imm-trans-a"}, std::pair{o.imm_trans_b, "imm-trans-b"}})
    if (value != 0 && value != 1) fail(fmt::format("{} is {}; it must be 0 (K-major) or 1 (transposed)", op, value));
  if (o.imm_trans_a == 1) {
    if (!trans_a) fail(fmt::format("imm-trans-a 1: {} inputs cannot be transposed (f16 and bf16 only)", name(a)));
    if (o.a_source == ASource::registers)
      fail("imm-trans-a 1: A in registers cannot be transposed (imm-trans-a exists only with an A descriptor)");
  }
  if (o.imm_trans_b == 1 && !trans_b)
    fail(fmt::format("imm-trans-b 1: {} inputs cannot be transposed (f16 and bf16 only)", name(b)));
}

std::string wgmma_ptx(const WgmmaSelector& s) {
  std::string out = fmt::format("wgmma.mma_async{}.sync.aligned.{}", s.sparse ? ".sp" : "", shape_name(s.shape));
  if (s.satfinite) out += ".satfinite";
  out += fmt::format(".{}.{}.{}", name(s.d), name(s.a), name(s.b));
  if (s.bitop != BitOp::none) out += fmt::format(".{}", name(s.bitop));
  return out;
}

WgmmaCatalog WgmmaCatalog::load(const std::string& config_dir) {
  WgmmaCatalog c;
  c.layouts_ = LayoutLibrary::load(config_dir + "/wgmma/layouts.yaml");
  c.sparse_ = SparseLibrary::load(config_dir + "/mma/sparse.yaml");
  const YamlFile f = YamlFile::load(config_dir + "/wgmma/variants.yaml");
  c.variants_ = VariantLoader(f, c.layouts_, c.sparse_).run();
  return c;
}

const WgmmaVariant* WgmmaCatalog::lookup(const WgmmaSelector& s) const {
  for (const WgmmaVariant& v : variants_)
    if (v.shape == s.shape && v.a == s.a && v.b == s.b && v.d == s.d && v.satfinite == s.satfinite &&
        v.bitop == s.bitop && v.sparse == s.sparse)
      return &v;
  return nullptr;
}

const WgmmaVariant& WgmmaCatalog::find(const WgmmaSelector& s) const {
  if (const WgmmaVariant* v = lookup(s)) return *v;
  throw Error(fmt::format("{}: not in the wgmma catalogue", wgmma_ptx(s)));
}

const WgmmaCatalog& wgmma_catalog() {
  static const WgmmaCatalog catalog = WgmmaCatalog::load(config_dir());
  return catalog;
}

}  // namespace ptxmma
