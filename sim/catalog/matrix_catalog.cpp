#include "sim/catalog/matrix_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "sim/error.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/util/suggest.hpp"
#include "sim/util/target.hpp"

namespace ptxmma {

// ---- one row -------------------------------------------------------------------------------------

void CatalogRow::fail(const YAML::Node& at, const std::string& what) const {
  f_.fail(at, row_ ? fmt::format("row {}: {}", row_, what) : what);
}

std::string CatalogRow::scalar(const YAML::Node& map, const char* key) const {
  const YAML::Node n = map[key];
  if (!n) fail(map, fmt::format("missing key '{}'", key));
  if (!n.IsScalar()) fail(n, fmt::format("'{}' must be a single value", key));
  return n.as<std::string>();
}

std::vector<std::string> CatalogRow::list(const YAML::Node& map, const char* key,
                                          std::vector<std::string> fallback) const {
  const YAML::Node n = map[key];
  if (!n) {
    if (fallback.empty()) fail(map, fmt::format("missing key '{}'", key));
    return fallback;
  }
  if (n.IsScalar()) return {n.as<std::string>()};
  if (!n.IsSequence() || n.size() == 0) fail(n, fmt::format("'{}' must be a value or a non-empty list", key));
  std::vector<std::string> out;
  for (const YAML::Node& x : n) {
    if (!x.IsScalar()) fail(x, fmt::format("'{}' must list plain values", key));
    out.push_back(x.as<std::string>());
  }
  return out;
}

Type CatalogRow::type(const YAML::Node& at, const std::string& s) const {
  if (auto t = parse_type(s)) return *t;
  fail(at, fmt::format("unknown type '{}'", s));
}

std::vector<Type> CatalogRow::types(const char* key) const {
  std::vector<Type> out;
  for (const std::string& s : list(key)) out.push_back(type(e_[key], s));
  return out;
}

int CatalogRow::integer(const YAML::Node& n, const std::string& what) const {
  try {
    return n.as<int>();
  } catch (const YAML::Exception&) {
    fail(n, fmt::format("{} must be an integer", what));
  }
}

bool CatalogRow::boolean(const char* key) const {
  const YAML::Node n = e_[key];
  if (!n) return false;
  try {
    return n.as<bool>();
  } catch (const YAML::Exception&) {
    fail(n, fmt::format("'{}' must be true or false", key));
  }
}

const FragmentLayout& CatalogRow::fragment(const YAML::Node& at, Operand op, const std::string& layout_name, int n,
                                           int regs, Type t, Container c, int rows, int cols) const {
  const FragmentLayout* l = nullptr;
  if (layout_name.find("{N}") != std::string::npos) {
    try {
      l = &layouts_.instantiate(layout_name, n);
    } catch (const Error& e) {
      fail(at, e.what());
    }
  } else {
    l = layouts_.find(layout_name);
  }
  if (!l) fail(at, fmt::format("{}: unknown layout '{}'", name(op), layout_name));
  if (l->lanes != lanes_)
    fail(at, fmt::format("{}: layout {} has {} lanes; the instruction has {}", name(op), l->name, l->lanes, lanes_));
  if (regs >= 0 && l->regs != regs)
    fail(at, fmt::format("{}: layout {} has {} registers, the entry says {}", name(op), l->name, l->regs, regs));
  if (l->rows != rows || l->cols != cols)
    fail(at, fmt::format("{}: layout {} is {}x{}, the shape needs {}x{}", name(op), l->name, l->rows, l->cols, rows,
                         cols));
  const int e = elements_per_register(t, c);
  if (l->elems_per_reg != e)
    fail(at, fmt::format("{}: layout {} has {} elements per register, {} needs {}", name(op), l->name,
                         l->elems_per_reg, name(t), e));
  return *l;
}

// ---- the loader ----------------------------------------------------------------------------------

class CatalogLoader {
 public:
  CatalogLoader(const YamlFile& f, CatalogFamily& family, LayoutLibrary& layouts, const SparseLibrary& sparse)
      : f_(f), family_(family), layouts_(layouts), sparse_(sparse) {}

  std::vector<MatrixVariant> run() {
    if (!f_.root.IsMap()) f_.fail(f_.root, "expected a map with 'variants'");
    family_.header(f_);
    const YAML::Node list = f_.root["variants"];
    if (!list || !list.IsSequence()) f_.fail(f_.root, "'variants' must be a list of catalogue rows");
    for (const YAML::Node& e : list) entry(e);
    return std::move(out_);
  }

 private:
  static constexpr std::array<std::string_view, 11> kSharedKeys = {
      "row", "atype", "btype", "satfinite", "bitop", "sparse", "family", "target", "ptx", "when", "note"};
  static constexpr std::array<std::string_view, 9> kMatchKeys = {"atype", "btype",     "d",       "c",     "bitop",
                                                                 "scale", "satfinite", "layouts", "sparse"};

  // An exception of a row: the variants matching every key take another first target or PTX version.
  struct When {
    YAML::Node at;
    std::vector<std::pair<std::string, std::vector<std::string>>> match;
    std::optional<std::string> target, ptx;
    bool used = false;
  };

  static void ptx_version(const CatalogRow& r, const YAML::Node& at, const std::string& s) {
    const auto dot = s.find('.');
    int major = 0, minor = 0;
    const bool ok = dot != std::string::npos && dot > 0 && dot + 1 < s.size() &&
                    std::from_chars(s.data(), s.data() + dot, major).ptr == s.data() + dot &&
                    std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor).ptr == s.data() + s.size();
    if (!ok) r.fail(at, fmt::format("PTX version '{}' is not of the form MAJOR.MINOR (quote it: \"7.0\")", s));
  }
  static void known(const CatalogRow& r, const YAML::Node& at, const std::string& target) {
    if (!target_rank(target)) r.fail(at, unknown_target(target));
  }

  // `target: sm_80` (and every later target) or `target: {only: sm_90a}`.
  static Targets targets(const CatalogRow& r) {
    const YAML::Node n = r["target"];
    if (n && n.IsMap()) {
      for (const auto& kv : n)
        if (kv.first.as<std::string>() != "only")
          r.fail(kv.first, "target: expected a target, or {only: TARGET} for that target alone");
      Targets t{r.scalar(n, "only"), true};
      known(r, n["only"], t.first);
      return t;
    }
    Targets t{r.scalar("target"), false};
    known(r, n, t.first);
    return t;
  }

  std::vector<When> whens(const CatalogRow& r) const {
    std::vector<When> out;
    const YAML::Node n = r["when"];
    if (!n) return out;
    if (!n.IsSequence()) r.fail(n, "'when' must be a list of {match keys..., target/ptx}");
    for (const YAML::Node& w : n) {
      if (!w.IsMap()) r.fail(w, "a 'when' item must be a map");
      When item{w, {}, {}, {}, false};
      for (const auto& kv : w) {
        const std::string k = kv.first.as<std::string>();
        if (k == "target") {
          item.target = kv.second.as<std::string>();
          known(r, kv.second, *item.target);
        } else if (k == "ptx") {
          item.ptx = kv.second.as<std::string>();
          ptx_version(r, kv.second, *item.ptx);
        } else if (std::find(kMatchKeys.begin(), kMatchKeys.end(), k) != kMatchKeys.end()) {
          item.match.emplace_back(k, r.list(w, k.c_str()));
        } else {
          r.fail(kv.first,
                 fmt::format("unknown 'when' key '{}' (match: atype btype d c bitop scale satfinite layouts sparse; "
                             "set: target ptx)",
                             k));
        }
      }
      if (!item.target && !item.ptx) r.fail(w, "a 'when' item must set target or ptx");
      out.push_back(std::move(item));
    }
    return out;
  }

  static std::string key_of(const MatrixVariant& v, const std::string& k) {
    if (k == "atype") return std::string(name(v.a));
    if (k == "btype") return std::string(name(v.b));
    if (k == "d") return std::string(name(v.d));
    if (k == "c") return std::string(name(v.c));
    if (k == "bitop") return std::string(name(v.bitop));
    if (k == "scale") return v.block_scale ? fmt::format("{}X.{}", v.scale_vec, v.stype ? name(*v.stype) : "?") : "";
    if (k == "satfinite") return v.satfinite ? "true" : "false";
    if (k == "sparse") return std::string(name(v.sparse));
    return fmt::format("{}.{}", name(v.alayout), name(v.blayout));  // layouts
  }

  void shared_keys(CatalogRow& r) const {
    r.atypes = r.types("atype");
    r.btypes = r.types("btype");
    if (const YAML::Node s = r["satfinite"]) {
      const std::string v = s.as<std::string>();
      if (v == "optional") r.satfinite = {false, true};
      else if (v != "false" && v != "no") r.fail(s, "satfinite: expected 'optional' (or false)");
    }
    if (r["bitop"]) {
      r.bitops.clear();
      for (const auto& s : r.list("bitop")) {
        if (s == "xor.popc") r.bitops.push_back(BitOp::xor_popc);
        else if (s == "and.popc") r.bitops.push_back(BitOp::and_popc);
        else r.fail(r["bitop"], fmt::format("bitop: '{}' is not xor.popc or and.popc", s));
      }
    }
    // sparse: {pattern: 2:4|1:2|4:8, metadata: <class of sparse.yaml>[, forms: [...]]}
    if (const YAML::Node sp = r["sparse"]) {
      if (!sp.IsMap()) r.fail(sp, "sparse: expected {pattern: 2:4|1:2|4:8, metadata: CLASS}");
      f_.check_keys(sp, {"pattern", "metadata", "forms"}, "'sparse'");
      const std::string p = r.scalar(sp, "pattern");
      if (p == "2:4") r.pattern = SparsePattern::two_of_four;
      else if (p == "1:2") r.pattern = SparsePattern::one_of_two;
      else if (p == "4:8") r.pattern = SparsePattern::four_of_eight;
      else r.fail(sp["pattern"], fmt::format("sparse pattern '{}' is not 2:4, 1:2 or 4:8", p));
      r.metadata = sparse_.find(r.scalar(sp, "metadata"));
      if (!r.metadata) r.fail(sp["metadata"], "unknown metadata class (configs/mma/sparse.yaml)");
      r.sparsities = family_.sparse_forms();
      if (sp["forms"]) {
        r.sparsities.clear();
        for (const std::string& form : r.list(sp, "forms")) {
          if (form == name(Sparsity::sp)) r.sparsities.push_back(Sparsity::sp);
          else if (form == name(Sparsity::ordered)) r.sparsities.push_back(Sparsity::ordered);
          else r.fail(sp["forms"], fmt::format("sparse form '{}' is not sp or sp::ordered_metadata", form));
        }
      }
    }
  }

  void entry(const YAML::Node& e) {
    if (!e.IsMap()) f_.fail(e, "a catalogue row must be a map");
    CatalogRow r(f_, e, layouts_, family_.lanes());
    try {
      r.row_ = e["row"].as<int>();
    } catch (const YAML::Exception&) {
      f_.fail(e, fmt::format("every catalogue row needs 'row: <number>' (its row in docs/{}-catalogue.md)",
                             family_.name()));
    }
    const std::vector<std::string_view> own = family_.row_keys();
    for (const auto& kv : e) {
      const std::string k = kv.first.as<std::string>();
      if (std::find(kSharedKeys.begin(), kSharedKeys.end(), k) == kSharedKeys.end() &&
          std::find(own.begin(), own.end(), k) == own.end()) {
        std::vector<std::string> names(kSharedKeys.begin(), kSharedKeys.end());
        names.insert(names.end(), own.begin(), own.end());
        r.fail(kv.first, fmt::format("unknown key '{}'{}", k, did_you_mean(k, names)));
      }
    }
    shared_keys(r);
    const std::string machine = r.scalar("family");
    const Targets first = targets(r);
    const std::string ptx = r.scalar("ptx");
    ptx_version(r, r["ptx"], ptx);
    std::vector<When> when = whens(r);

    family_.expand(r, [&](MatrixVariant& v) {
      v.family = machine;
      v.targets = first;
      v.ptx_version = ptx;
      v.row = r.row();
      if (v.is_sparse()) v.pattern = r.pattern, v.metadata = r.metadata;
      for (When& w : when) {
        bool all = true;
        for (const auto& [k, values] : w.match)
          all = all && std::find(values.begin(), values.end(), key_of(v, k)) != values.end();
        if (!all) continue;
        w.used = true;
        if (w.target) v.targets.first = *w.target;
        if (w.ptx) v.ptx_version = *w.ptx;
      }
      v.ptx = family_.spelling()(v.selector());
      const auto [it, fresh] = seen_.emplace(v.ptx, r.row());
      if (!fresh) r.fail(e, fmt::format("{} is also produced by row {}", v.ptx, it->second));
      out_.push_back(std::move(v));
    });
    for (const When& w : when)
      if (!w.used) r.fail(w.at, "this 'when' item matches none of the row's variants");
  }

  const YamlFile& f_;
  CatalogFamily& family_;
  LayoutLibrary& layouts_;
  const SparseLibrary& sparse_;
  std::map<std::string, int> seen_;
  std::vector<MatrixVariant> out_;
};

// ---- the catalogue -------------------------------------------------------------------------------

MatrixCatalog MatrixCatalog::load(const std::string& config_dir, CatalogFamily&& family,
                                  const std::string& arch_layouts) {
  MatrixCatalog c;
  c.family_ = std::string(family.name());
  c.spell_ = family.spelling();
  const std::string dir = config_dir + "/" + c.family_;
  c.layouts_ = LayoutLibrary::load(dir + "/layouts.yaml");
  if (!arch_layouts.empty()) {
    const std::string path = dir + "/" + arch_layouts;
    LayoutLibrary arch = LayoutLibrary::load(path);
    try {
      c.layouts_.overlay(std::move(arch));
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", path, e.what()));
    }
  }
  c.sparse_ = SparseLibrary::load(config_dir + "/mma/sparse.yaml");
  const YamlFile f = YamlFile::load(dir + "/variants.yaml");
  c.variants_ = CatalogLoader(f, family, c.layouts_, c.sparse_).run();
  if (const std::string scales = family.scale_file(); !scales.empty()) {
    c.scales_ = std::make_shared<const ScaleLayout>(ScaleLayout::load(config_dir + "/" + scales));
    for (MatrixVariant& v : c.variants_)
      if (v.block_scale) v.scales = c.scales_.get();
  }
  return c;
}

const MatrixVariant* MatrixCatalog::lookup(const MatrixSelector& s) const {
  for (const MatrixVariant& v : variants_) {
    if (!(v.shape == s.shape) || v.alayout != s.alayout || v.blayout != s.blayout || v.a != s.a || v.b != s.b ||
        v.c != s.c || v.d != s.d || v.satfinite != s.satfinite || v.bitop != s.bitop || v.kind != s.kind ||
        v.block_scale != s.block_scale || v.stype != s.stype || v.sparse != s.sparse)
      continue;
    if (v.scale_vec == s.scale_vec || (s.scale_vec == 0 && v.scale_vec_is_default)) return &v;
  }
  return nullptr;
}

const MatrixVariant& MatrixCatalog::find(const MatrixSelector& s) const {
  if (const MatrixVariant* v = lookup(s)) return *v;
  throw Error(fmt::format("{}: not in the {} catalogue", spell_(s), family_));
}

}  // namespace ptxmma
