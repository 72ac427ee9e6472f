#include "sim/catalog/mma_catalog.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <map>
#include <set>

#include "sim/error.hpp"
#include "sim/util/config_dir.hpp"
#include "sim/util/target.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {

namespace {

constexpr std::array<std::string_view, 21> kEntryKeys = {
    "row",  "shape",     "layouts", "atype", "btype",  "dc",  "satfinite", "bitop", "rounding", "kind",
    "container", "block_scale", "sparse", "a", "b",  "cd",  "family", "target", "ptx", "when", "note"};

constexpr std::array<std::pair<std::string_view, MmaKind>, 4> kKinds = {{{"f8f6f4", MmaKind::f8f6f4},
                                                                         {"mxf8f6f4", MmaKind::mxf8f6f4},
                                                                         {"mxf4", MmaKind::mxf4},
                                                                         {"mxf4nvf4", MmaKind::mxf4nvf4}}};

std::string scale_name(int scale_vec, std::optional<Type> stype) {
  return fmt::format("{}X.{}", scale_vec, stype ? name(*stype) : "?");
}

class VariantLoader {
 public:
  VariantLoader(const YamlFile& f, const LayoutLibrary& lib, const SparseLibrary& sparse)
      : f_(f), lib_(lib), sparse_(sparse) {}

  std::vector<MmaVariant> run() {
    if (!f_.root.IsMap()) f_.fail(f_.root, "expected a map with 'accumulators' and 'variants'");
    accumulators(f_.root["accumulators"]);
    const YAML::Node list = f_.root["variants"];
    if (!list || !list.IsSequence()) f_.fail(f_.root, "'variants' must be a list of catalogue rows");
    for (const YAML::Node& e : list) entry(e);
    return std::move(out_);
  }

 private:
  struct Acc {
    std::string layout;
    int regs = 0;
    YAML::Node at;
  };
  struct When {
    YAML::Node at;
    std::vector<std::pair<std::string, std::vector<std::string>>> match;
    std::optional<std::string> target, ptx;
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
                                std::vector<std::string> fallback = {}) const {
    const YAML::Node n = map[key];
    if (!n) {
      if (fallback.empty()) fail(map, row, fmt::format("missing key '{}'", key));
      return fallback;
    }
    std::vector<std::string> out;
    if (n.IsScalar()) return {n.as<std::string>()};
    if (!n.IsSequence() || n.size() == 0) fail(n, row, fmt::format("'{}' must be a value or a non-empty list", key));
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
  void target(const YAML::Node& at, int row, const std::string& s) const {
    if (!target_rank(s)) fail(at, row, unknown_target(s));
  }
  void ptx_version(const YAML::Node& at, int row, const std::string& s) const {
    const auto dot = s.find('.');
    int major = 0, minor = 0;
    const bool ok = dot != std::string::npos &&
                    std::from_chars(s.data(), s.data() + dot, major).ptr == s.data() + dot &&
                    std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor).ptr == s.data() + s.size() &&
                    dot > 0 && dot + 1 < s.size();
    if (!ok) fail(at, row, fmt::format("PTX version '{}' is not of the form MAJOR.MINOR (quote it: \"7.0\")", s));
  }

  void accumulators(const YAML::Node& n) {
    if (!n || !n.IsMap()) f_.fail(f_.root, "'accumulators' must map a set name to {type: [layout, registers]}");
    for (const auto& set : n) {
      const std::string name = set.first.as<std::string>();
      if (!set.second.IsMap()) f_.fail(set.second, fmt::format("accumulators {}: expected {{type: [layout, registers]}}", name));
      for (const auto& kv : set.second) {
        const Type t = type(kv.first, 0, kv.first.as<std::string>());
        acc_[name][t] = fragment(kv.second, 0, fmt::format("accumulators {} {}", name, ptxmma::name(t)));
      }
    }
  }

  // [layout, registers]
  Acc fragment(const YAML::Node& n, int row, const std::string& what) const {
    if (!n || !n.IsSequence() || n.size() != 2 || !n[0].IsScalar() || !n[1].IsScalar())
      fail(n ? n : f_.root, row, fmt::format("{}: expected [layout name, registers]", what));
    Acc a{n[0].as<std::string>(), 0, n};
    try {
      a.regs = n[1].as<int>();
    } catch (const YAML::Exception&) {
      fail(n[1], row, fmt::format("{}: the register count must be an integer", what));
    }
    return a;
  }

  const FragmentLayout& check_fragment(const Acc& frag, int row, Operand op, const std::string& layout_name, Type t,
                                       Container c, int rows, int cols) const {
    const FragmentLayout* l = lib_.find(layout_name);
    if (!l) fail(frag.at, row, fmt::format("{}: unknown layout '{}'", name(op), layout_name));
    if (l->regs != frag.regs)
      fail(frag.at, row, fmt::format("{}: layout {} has {} registers, the entry says {}", name(op), layout_name,
                                     l->regs, frag.regs));
    if (l->rows != rows || l->cols != cols)
      fail(frag.at, row, fmt::format("{}: layout {} is {}x{}, the shape needs {}x{}", name(op), layout_name, l->rows,
                                     l->cols, rows, cols));
    const int e = elements_per_register(t, c);
    if (l->elems_per_reg != e)
      fail(frag.at, row, fmt::format("{}: layout {} has {} elements per register, {} needs {}", name(op),
                                     layout_name, l->elems_per_reg, name(t), e));
    return *l;
  }

  static std::string substitute(std::string s, std::string_view key, std::string_view value) {
    for (auto p = s.find(key); p != std::string::npos; p = s.find(key, p + value.size())) s.replace(p, key.size(), value);
    return s;
  }

  std::vector<When> whens(const YAML::Node& n, int row) const {
    std::vector<When> out;
    if (!n) return out;
    if (!n.IsSequence()) fail(n, row, "'when' must be a list of {match keys..., target/ptx}");
    static constexpr std::array<std::string_view, 9> kMatch = {"atype", "btype",     "d",       "c",     "bitop",
                                                               "scale", "satfinite", "layouts", "sparse"};
    for (const YAML::Node& w : n) {
      if (!w.IsMap()) fail(w, row, "a 'when' item must be a map");
      When item{w, {}, {}, {}, false};
      for (const auto& kv : w) {
        const std::string k = kv.first.as<std::string>();
        if (k == "target") {
          item.target = kv.second.as<std::string>();
          target(kv.second, row, *item.target);
        } else if (k == "ptx") {
          item.ptx = kv.second.as<std::string>();
          ptx_version(kv.second, row, *item.ptx);
        } else if (std::find(kMatch.begin(), kMatch.end(), k) != kMatch.end()) {
          item.match.emplace_back(k, list(w, k.c_str(), row));
        } else {
          fail(kv.first, row,
               fmt::format("unknown 'when' key '{}' (match: atype btype d c bitop scale satfinite layouts sparse; "
                           "set: target ptx)",
                           k));
        }
      }
      if (!item.target && !item.ptx) fail(w, row, "a 'when' item must set target or ptx");
      out.push_back(std::move(item));
    }
    return out;
  }

  static std::string key_of(const MmaVariant& v, const std::string& k) {
    if (k == "atype") return std::string(name(v.a));
    if (k == "btype") return std::string(name(v.b));
    if (k == "d") return std::string(name(v.d));
    if (k == "c") return std::string(name(v.c));
    if (k == "bitop") return std::string(name(v.bitop));
    if (k == "scale") return v.block_scale ? scale_name(v.scale_vec, v.stype) : "";
    if (k == "satfinite") return v.satfinite ? "true" : "false";
    if (k == "sparse") return std::string(name(v.sparse));
    return fmt::format("{}.{}", name(v.alayout), name(v.blayout));  // layouts
  }

  void entry(const YAML::Node& e) {
    if (!e.IsMap()) f_.fail(e, "a catalogue row must be a map");
    int row = 0;
    try {
      row = e["row"].as<int>();
    } catch (const YAML::Exception&) {
      f_.fail(e, "every catalogue row needs 'row: <number>' (its row in docs/mma-catalogue.md §1 or §3.1)");
    }
    for (const auto& kv : e) {
      const std::string k = kv.first.as<std::string>();
      if (std::find(kEntryKeys.begin(), kEntryKeys.end(), k) == kEntryKeys.end())
        fail(kv.first, row, fmt::format("unknown key '{}'", k));
    }
    const std::string shape_text = scalar(e, "shape", row);
    const auto shape = parse_shape(shape_text);
    if (!shape) fail(e["shape"], row, fmt::format("malformed shape '{}' (expected m<M>n<N>k<K>)", shape_text));

    std::vector<std::pair<MatrixLayout, MatrixLayout>> layouts;
    for (const std::string& s : list(e, "layouts", row, {"row.col"})) {
      const auto parse = [&](std::string_view x) -> MatrixLayout {
        if (x == "row") return MatrixLayout::row;
        if (x == "col") return MatrixLayout::col;
        fail(e["layouts"], row, fmt::format("layouts: '{}' is not <row|col>.<row|col>", s));
      };
      const auto dot = s.find('.');
      if (dot == std::string::npos) fail(e["layouts"], row, fmt::format("layouts: '{}' is not <row|col>.<row|col>", s));
      layouts.emplace_back(parse(std::string_view(s).substr(0, dot)), parse(std::string_view(s).substr(dot + 1)));
    }
    std::vector<Type> atypes, btypes;
    for (const auto& s : list(e, "atype", row)) atypes.push_back(type(e["atype"], row, s));
    for (const auto& s : list(e, "btype", row)) btypes.push_back(type(e["btype"], row, s));
    std::vector<std::pair<Type, Type>> dcs;  // (d, c)
    for (const auto& s : list(e, "dc", row)) {
      const auto dot = s.find('.');
      if (dot == std::string::npos) {
        const Type t = type(e["dc"], row, s);
        dcs.emplace_back(t, t);
      } else {
        dcs.emplace_back(type(e["dc"], row, s.substr(0, dot)), type(e["dc"], row, s.substr(dot + 1)));
      }
    }
    std::vector<bool> sats = {false};
    if (const YAML::Node s = e["satfinite"]) {
      const std::string v = s.as<std::string>();
      if (v == "optional") sats = {false, true};
      else if (v != "false" && v != "no") fail(s, row, "satfinite: expected 'optional' (or false)");
    }
    std::vector<BitOp> bitops = {BitOp::none};
    if (e["bitop"]) {
      bitops.clear();
      for (const auto& s : list(e, "bitop", row)) {
        if (s == "xor.popc") bitops.push_back(BitOp::xor_popc);
        else if (s == "and.popc") bitops.push_back(BitOp::and_popc);
        else fail(e["bitop"], row, fmt::format("bitop: '{}' is not xor.popc or and.popc", s));
      }
    }
    std::vector<Rounding> roundings;
    if (e["rounding"])
      for (const auto& s : list(e, "rounding", row)) {
        const auto r = parse_rounding(s);
        if (!r) fail(e["rounding"], row, fmt::format("rounding: unknown mode '{}'", s));
        roundings.push_back(*r);
      }
    MmaKind kind = MmaKind::none;
    if (e["kind"]) {
      const std::string k = scalar(e, "kind", row);
      const auto* it = std::find_if(kKinds.begin(), kKinds.end(), [&](const auto& p) { return p.first == k; });
      if (it == kKinds.end()) fail(e["kind"], row, fmt::format("unknown kind '{}'", k));
      kind = it->second;
    }
    Container container = Container::packed;
    if (e["container"]) {
      const std::string c = scalar(e, "container", row);
      if (c == "f8f6f4") container = Container::f8f6f4;
      else if (c != "packed") fail(e["container"], row, fmt::format("container: '{}' is not packed or f8f6f4", c));
    }
    struct Scale {
      int vec = 0;
      std::optional<Type> stype;
    };
    std::vector<Scale> scales = {{}};
    int default_vec = 0;
    if (const YAML::Node bs = e["block_scale"]) {
      if (!bs.IsMap()) fail(bs, row, "block_scale: expected {scale: [NX.stype, ...], default: NX}");
      scales.clear();
      for (const auto& s : list(bs, "scale", row)) {
        const bool ok = s.size() > 3 && (s[0] == '1' || s[0] == '2' || s[0] == '4') && s.substr(1, 2) == "X.";
        if (!ok) fail(bs["scale"], row, fmt::format("block_scale: '{}' is not 1X|2X|4X.<stype>", s));
        scales.push_back({s[0] - '0', type(bs["scale"], row, s.substr(3))});
      }
      if (bs["default"]) {
        const std::string d = scalar(bs, "default", row);
        if (d.size() != 2 || d[1] != 'X' || (d[0] != '1' && d[0] != '2' && d[0] != '4'))
          fail(bs["default"], row, fmt::format("block_scale default '{}' is not 1X, 2X or 4X", d));
        default_vec = d[0] - '0';
      }
    }
    // sparse: {pattern: 2:4|1:2|4:8, metadata: <class of sparse.yaml>[, forms: [...]]}: both
    // spellings, or those of `forms` (the sm_120a rows exist only as sp::ordered_metadata).
    std::vector<Sparsity> sparsities = {Sparsity::dense};
    SparsePattern pattern = SparsePattern::two_of_four;
    const SparseMetadata* metadata = nullptr;
    if (const YAML::Node sp = e["sparse"]) {
      if (!sp.IsMap()) fail(sp, row, "sparse: expected {pattern: 2:4|1:2|4:8, metadata: CLASS}");
      f_.check_keys(sp, {"pattern", "metadata", "forms"}, "'sparse'");
      const std::string p = scalar(sp, "pattern", row);
      if (p == "2:4") pattern = SparsePattern::two_of_four;
      else if (p == "1:2") pattern = SparsePattern::one_of_two;
      else if (p == "4:8") pattern = SparsePattern::four_of_eight;
      else fail(sp["pattern"], row, fmt::format("sparse pattern '{}' is not 2:4, 1:2 or 4:8", p));
      metadata = sparse_.find(scalar(sp, "metadata", row));
      if (!metadata) fail(sp["metadata"], row, "unknown metadata class (configs/mma/sparse.yaml)");
      if (metadata->rows != shape->m || metadata->chunks * chunk_columns(pattern) != shape->k)
        fail(sp, row, fmt::format("metadata {} describes {} rows x {} chunks; {} needs {} x {}", metadata->name,
                                  metadata->rows, metadata->chunks, shape_text, shape->m, shape->k / chunk_columns(pattern)));
      sparsities = {Sparsity::sp, Sparsity::ordered};
      if (sp["forms"]) {
        sparsities.clear();
        for (const std::string& form : list(sp, "forms", row)) {
          if (form == name(Sparsity::sp)) sparsities.push_back(Sparsity::sp);
          else if (form == name(Sparsity::ordered)) sparsities.push_back(Sparsity::ordered);
          else fail(sp["forms"], row, fmt::format("sparse form '{}' is not sp or sp::ordered_metadata", form));
        }
      }
    }
    const Acc fa = fragment(e["a"], row, "a");
    const Acc fb = fragment(e["b"], row, "b");
    const std::string cd = scalar(e, "cd", row);
    const auto acc = acc_.find(cd);
    if (acc == acc_.end()) fail(e["cd"], row, fmt::format("unknown accumulator set '{}'", cd));
    const std::string family = scalar(e, "family", row);
    const std::string min_target = scalar(e, "target", row);
    target(e["target"], row, min_target);
    const std::string ptx = scalar(e, "ptx", row);
    ptx_version(e["ptx"], row, ptx);
    std::vector<When> when = whens(e["when"], row);

    const auto accumulator = [&](Type t, Operand op) -> const Acc& {
      const auto it = acc->second.find(t);
      if (it == acc->second.end())
        fail(e["dc"], row, fmt::format("{}: accumulator set {} has no {} fragment", name(op), cd, name(t)));
      return it->second;
    };

    for (const auto& [al, bl] : layouts)
      for (Type at : atypes)
        for (Type bt : btypes)
          for (const auto& [dt, ct] : dcs)
            for (bool sat : sats)
              for (BitOp bop : bitops)
                for (const Scale& sc : scales)
                  for (Sparsity sparsity : sparsities) {
                    MmaVariant v;
                    v.shape = *shape;
                    v.a = at, v.b = bt, v.c = ct, v.d = dt;
                    v.alayout = al, v.blayout = bl;
                    v.bitop = bop;
                    v.container = container;
                    v.family = family;
                    v.min_target = min_target;
                    v.ptx_version = ptx;
                    v.satfinite = sat;
                    v.kind = kind;
                    v.block_scale = sc.vec != 0;
                    v.scale_vec = sc.vec;
                    v.scale_vec_is_default = sc.vec != 0 && sc.vec == default_vec;
                    v.stype = sc.stype;
                    v.roundings = roundings;
                    v.sparse = sparsity;
                    v.pattern = pattern;
                    v.metadata = metadata;
                    v.row = row;
                    const auto named = [&](const std::string& s) {
                      return substitute(substitute(s, "{alayout}", name(v.alayout)), "{blayout}", name(v.blayout));
                    };
                    const Shape& sh = *shape;
                    const int a_cols = sparsity == Sparsity::dense ? sh.k : sh.k / 2;  // sparse A: stored elements
                    v.la = &check_fragment(fa, row, Operand::a, named(fa.layout), at, container, sh.m, a_cols);
                    v.lb = &check_fragment(fb, row, Operand::b, named(fb.layout), bt, container, sh.k, sh.n);
                    const Acc& fc = accumulator(ct, Operand::c);
                    const Acc& fd = accumulator(dt, Operand::d);
                    v.lc = &check_fragment(fc, row, Operand::c, fc.layout, ct, container, sh.m, sh.n);
                    v.ld = &check_fragment(fd, row, Operand::d, fd.layout, dt, container, sh.m, sh.n);
                    if (v.la->problems != v.lb->problems || v.la->problems != v.lc->problems ||
                        v.la->problems != v.ld->problems)
                      fail(e, row, "the A, B, C and D layouts disagree on the number of problems");
                    for (When& w : when) {
                      bool all = true;
                      for (const auto& [k, values] : w.match)
                        all = all && std::find(values.begin(), values.end(), key_of(v, k)) != values.end();
                      if (!all) continue;
                      w.used = true;
                      if (w.target) v.min_target = *w.target;
                      if (w.ptx) v.ptx_version = *w.ptx;
                    }
                    v.ptx = mma_ptx(v.selector());
                    const auto [it, fresh] = seen_.emplace(v.ptx, row);
                    if (!fresh) fail(e, row, fmt::format("{} is also produced by row {}", v.ptx, it->second));
                    out_.push_back(std::move(v));
                  }
    for (const When& w : when)
      if (!w.used) fail(w.at, row, "this 'when' item matches none of the row's variants");
  }

  const YamlFile& f_;
  const LayoutLibrary& lib_;
  const SparseLibrary& sparse_;
  std::map<std::string, std::map<Type, Acc>> acc_;
  std::map<std::string, int> seen_;
  std::vector<MmaVariant> out_;
};

}  // namespace

std::optional<Shape> parse_shape(std::string_view text) {
  Shape s;
  std::array<int*, 3> dims = {&s.m, &s.n, &s.k};
  constexpr std::string_view letters = "mnk";
  std::size_t p = 0;
  for (int d = 0; d < 3; ++d) {
    if (p >= text.size() || text[p] != letters[static_cast<std::size_t>(d)]) return std::nullopt;
    ++p;
    const auto [end, ec] = std::from_chars(text.data() + p, text.data() + text.size(), *dims[static_cast<std::size_t>(d)]);
    if (ec != std::errc() || end == text.data() + p || *dims[static_cast<std::size_t>(d)] <= 0) return std::nullopt;
    p = static_cast<std::size_t>(end - text.data());
  }
  if (p != text.size()) return std::nullopt;
  return s;
}

std::string shape_name(const Shape& s) { return fmt::format("m{}n{}k{}", s.m, s.n, s.k); }

std::string mma_ptx(const MmaSelector& s) {
  std::string out = fmt::format("mma{}{}.sync.aligned.{}.{}.{}", s.sparse == Sparsity::dense ? "" : ".",
                                name(s.sparse), shape_name(s.shape), name(s.alayout), name(s.blayout));
  if (s.kind != MmaKind::none) out += fmt::format(".kind::{}", name(s.kind));
  if (s.block_scale) {
    out += ".block_scale";
    if (s.scale_vec) out += fmt::format(".scale_vec::{}X", s.scale_vec);
  }
  if (s.satfinite) out += ".satfinite";
  out += fmt::format(".{}.{}.{}.{}", name(s.d), name(s.a), name(s.b), name(s.c));
  if (s.stype) out += fmt::format(".{}", name(*s.stype));
  if (s.bitop != BitOp::none) out += fmt::format(".{}", name(s.bitop));
  return out;
}

MmaCatalog MmaCatalog::load(const std::string& config_dir) {
  MmaCatalog c;
  c.layouts_ = LayoutLibrary::load(config_dir + "/mma/layouts.yaml");
  c.sparse_ = SparseLibrary::load(config_dir + "/mma/sparse.yaml");
  const YamlFile f = YamlFile::load(config_dir + "/mma/variants.yaml");
  c.variants_ = VariantLoader(f, c.layouts_, c.sparse_).run();
  c.scales_ = std::make_shared<const ScaleLayout>(ScaleLayout::load(config_dir + "/mma/block_scale.yaml"));
  for (MmaVariant& v : c.variants_)
    if (v.block_scale) v.scales = c.scales_.get();
  return c;
}

const MmaVariant* MmaCatalog::lookup(const MmaSelector& s) const {
  for (const MmaVariant& v : variants_) {
    if (!(v.shape == s.shape) || v.alayout != s.alayout || v.blayout != s.blayout || v.a != s.a || v.b != s.b ||
        v.c != s.c || v.d != s.d || v.satfinite != s.satfinite || v.bitop != s.bitop || v.kind != s.kind ||
        v.block_scale != s.block_scale || v.stype != s.stype || v.sparse != s.sparse)
      continue;
    if (v.scale_vec == s.scale_vec || (s.scale_vec == 0 && v.scale_vec_is_default)) return &v;
  }
  return nullptr;
}

const MmaVariant& MmaCatalog::find(const MmaSelector& s) const {
  if (const MmaVariant* v = lookup(s)) return *v;
  throw Error(fmt::format("{}: not in the mma catalogue", mma_ptx(s)));
}

const MmaCatalog& mma_catalog() {
  static const MmaCatalog catalog = MmaCatalog::load(config_dir());
  return catalog;
}

}  // namespace ptxmma
