#include "sim/catalog/fragment_family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace ptxmma {

namespace {

constexpr std::array<std::pair<std::string_view, MmaKind>, 4> kKinds = {{{"f8f6f4", MmaKind::f8f6f4},
                                                                         {"mxf8f6f4", MmaKind::mxf8f6f4},
                                                                         {"mxf4", MmaKind::mxf4},
                                                                         {"mxf4nvf4", MmaKind::mxf4nvf4}}};

// [layout, registers]
std::pair<std::string, int> fragment(const CatalogRow& r, const char* key) {
  const YAML::Node n = r[key];
  if (!n || !n.IsSequence() || n.size() != 2 || !n[0].IsScalar() || !n[1].IsScalar())
    r.fail(n ? n : r.node(), fmt::format("{}: expected [layout name, registers]", key));
  return {n[0].as<std::string>(), r.integer(n[1], fmt::format("{}: the register count", key))};
}
const FragmentLayout& accumulator_fragment(const CatalogRow& r, const YAML::Node& l, Operand op, Type t,
                                           Container c, const Shape& sh) {
  return r.fragment(l, op, l[0].as<std::string>(), 0, r.integer(l[1], "the register count"), t, c, sh.m, sh.n);
}
std::string substitute(std::string s, std::string_view key, std::string_view value) {
  for (auto p = s.find(key); p != std::string::npos; p = s.find(key, p + value.size())) s.replace(p, key.size(), value);
  return s;
}

}  // namespace

void FragmentFamily::header(const YamlFile& f) {
  const YAML::Node n = f.root["accumulators"];
  if (!n || !n.IsMap()) f.fail(f.root, "'accumulators' must map a set name to {type: [layout, registers]}");
  for (const auto& set : n) {
    const std::string set_name = set.first.as<std::string>();
    if (!set.second.IsMap())
      f.fail(set.second, fmt::format("accumulators {}: expected {{type: [layout, registers]}}", set_name));
    for (const auto& kv : set.second) {
      const auto t = parse_type(kv.first.as<std::string>());
      if (!t) f.fail(kv.first, fmt::format("unknown type '{}'", kv.first.as<std::string>()));
      const YAML::Node& l = kv.second;
      if (!l.IsSequence() || l.size() != 2 || !l[0].IsScalar() || !l[1].IsScalar())
        f.fail(l, fmt::format("accumulators {} {}: expected [layout name, registers]", set_name, ptxmma::name(*t)));
      acc_[set_name][*t] = l;
    }
  }
}

void FragmentFamily::expand(const CatalogRow& r, const std::function<void(MatrixVariant&)>& emit) const {
  const std::string shape_text = r.scalar("shape");
  const auto shape = parse_shape(shape_text);
  if (!shape) r.fail(r["shape"], fmt::format("malformed shape '{}' (expected m<M>n<N>k<K>)", shape_text));
  std::vector<std::pair<MatrixLayout, MatrixLayout>> layouts;
  for (const std::string& s : r.list("layouts", {"row.col"})) {
    const auto parse = [&](std::string_view x) -> MatrixLayout {
      if (x == "row") return MatrixLayout::row;
      if (x != "col") r.fail(r["layouts"], fmt::format("layouts: '{}' is not <row|col>.<row|col>", s));
      return MatrixLayout::col;
    };
    const auto dot = s.find('.');
    if (dot == std::string::npos) r.fail(r["layouts"], fmt::format("layouts: '{}' is not <row|col>.<row|col>", s));
    layouts.emplace_back(parse(std::string_view(s).substr(0, dot)), parse(std::string_view(s).substr(dot + 1)));
  }
  std::vector<std::pair<Type, Type>> dcs;  // (d, c)
  for (const auto& s : r.list("dc")) {
    const auto dot = s.find('.');
    if (dot == std::string::npos) dcs.emplace_back(r.type(r["dc"], s), r.type(r["dc"], s));
    else dcs.emplace_back(r.type(r["dc"], s.substr(0, dot)), r.type(r["dc"], s.substr(dot + 1)));
  }
  std::vector<Rounding> roundings;
  if (r["rounding"])
    for (const auto& s : r.list("rounding")) {
      const auto mode = parse_rounding(s);
      if (!mode) r.fail(r["rounding"], fmt::format("rounding: unknown mode '{}'", s));
      roundings.push_back(*mode);
    }
  std::optional<Type> mixed_via;
  if (r["mixed_via"]) mixed_via = r.type(r["mixed_via"], r.scalar("mixed_via"));
  MmaKind kind = MmaKind::none;
  if (r["kind"]) {
    const std::string k = r.scalar("kind");
    const auto* it = std::find_if(kKinds.begin(), kKinds.end(), [&](const auto& p) { return p.first == k; });
    if (it == kKinds.end()) r.fail(r["kind"], fmt::format("unknown kind '{}'", k));
    kind = it->second;
  }
  Container container = Container::packed;
  if (r["container"]) {
    const std::string c = r.scalar("container");
    if (c == "f8f6f4") container = Container::f8f6f4;
    else if (c != "packed") r.fail(r["container"], fmt::format("container: '{}' is not packed or f8f6f4", c));
  }
  struct Scale {
    int vec = 0;
    std::optional<Type> stype;
  };
  std::vector<Scale> scales = {{}};
  int default_vec = 0;
  if (const YAML::Node bs = r["block_scale"]) {
    if (!bs.IsMap()) r.fail(bs, "block_scale: expected {scale: [NX.stype, ...], default: NX}");
    scales.clear();
    for (const auto& s : r.list(bs, "scale")) {
      const bool ok = s.size() > 3 && (s[0] == '1' || s[0] == '2' || s[0] == '4') && s.substr(1, 2) == "X.";
      if (!ok) r.fail(bs["scale"], fmt::format("block_scale: '{}' is not 1X|2X|4X.<stype>", s));
      scales.push_back({s[0] - '0', r.type(bs["scale"], s.substr(3))});
    }
    if (bs["default"]) {
      const std::string d = r.scalar(bs, "default");
      if (d.size() != 2 || d[1] != 'X' || (d[0] != '1' && d[0] != '2' && d[0] != '4'))
        r.fail(bs["default"], fmt::format("block_scale default '{}' is not 1X, 2X or 4X", d));
      default_vec = d[0] - '0';
    }
  }
  if (const SparseMetadata* m = r.metadata;
      m && (m->rows != shape->m || m->chunks * chunk_columns(r.pattern) != shape->k))
    r.fail(r["sparse"], fmt::format("metadata {} describes {} rows x {} chunks; {} needs {} x {}", m->name, m->rows,
                                    m->chunks, shape_text, shape->m, shape->k / chunk_columns(r.pattern)));
  const std::pair<std::string, int> fa = fragment(r, "a"), fb = fragment(r, "b");
  const std::string cd = r.scalar("cd");
  const auto acc = acc_.find(cd);
  if (acc == acc_.end()) r.fail(r["cd"], fmt::format("unknown accumulator set '{}'", cd));
  const auto accumulator = [&](Type t, Operand op) -> const YAML::Node& {
    const auto it = acc->second.find(t);
    if (it == acc->second.end())
      r.fail(r["dc"], fmt::format("{}: accumulator set {} has no {} fragment", ptxmma::name(op), cd, ptxmma::name(t)));
    return it->second;
  };

  for (const auto& [al, bl] : layouts)
    for (Type at : r.atypes)
      for (Type bt : r.btypes)
        for (const auto& [dt, ct] : dcs)
          for (bool sat : r.satfinite)
            for (BitOp bop : r.bitops)
              for (const Scale& sc : scales)
                for (Sparsity sparsity : r.sparsities) {
                  MatrixVariant v;
                  v.shape = *shape;
                  v.a = at, v.b = bt, v.c = ct, v.d = dt;
                  v.alayout = al, v.blayout = bl;
                  v.bitop = bop;
                  v.container = container;
                  v.satfinite = sat;
                  v.kind = kind;
                  v.block_scale = sc.vec != 0;
                  v.scale_vec = sc.vec;
                  v.scale_vec_is_default = sc.vec != 0 && sc.vec == default_vec;
                  v.stype = sc.stype;
                  v.roundings = roundings;
                  if (dt != ct) v.accumulate = mixed_via;
                  v.sparse = sparsity;
                  for (std::uint8_t& s : v.sources) s = static_cast<std::uint8_t>(Source::registers);
                  const auto named = [&](const std::string& s) {
                    return substitute(substitute(s, "{alayout}", ptxmma::name(v.alayout)), "{blayout}", ptxmma::name(v.blayout));
                  };
                  // An architecture's layouts may give A or B per memory layout: NAME.row and
                  // NAME.col take NAME's place (Volta's wmma, configs/wmma/layouts-volta.yaml).
                  const auto loaded = [&](const std::string& s, MatrixLayout l) {
                    std::string own = s + "." + std::string(ptxmma::name(l));
                    return r.has_layout(own) ? own : s;
                  };
                  const Shape& sh = *shape;
                  v.la = &r.fragment(r["a"], Operand::a, loaded(named(fa.first), v.alayout), 0, fa.second, at, container,
                                     sh.m, v.a_cols());
                  v.lb = &r.fragment(r["b"], Operand::b, loaded(named(fb.first), v.blayout), 0, fb.second, bt, container,
                                     sh.k, sh.n);
                  v.lc = &accumulator_fragment(r, accumulator(ct, Operand::c), Operand::c, ct, container, sh);
                  v.ld = &accumulator_fragment(r, accumulator(dt, Operand::d), Operand::d, dt, container, sh);
                  if (v.la->problems != v.lb->problems || v.la->problems != v.lc->problems ||
                      v.la->problems != v.ld->problems)
                    r.fail(r.node(), "the A, B, C and D layouts disagree on the number of problems");
                  emit(v);
                }
}

}  // namespace ptxmma
