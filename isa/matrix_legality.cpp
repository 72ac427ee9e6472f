#include "isa/matrix_legality.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "isa/instruction_text.hpp"
#include "sim/error.hpp"
#include "sim/util/target.hpp"

namespace ptxmma {

Candidates Candidates::narrow(const Keep& keep) const {
  std::vector<const MatrixVariant*> out;
  for (const MatrixVariant* v : v_)
    if (keep(*v)) out.push_back(v);
  return Candidates(std::move(out));
}

std::vector<std::string> Candidates::collect(const Text& what) const {
  std::vector<std::string> out;
  for (const MatrixVariant* v : v_) add_unique(out, what(*v));
  return out;
}

std::string inputs_text(const MatrixSelector& ins) {
  return ins.a == ins.b ? fmt::format("{} inputs", name(ins.a)) : fmt::format("{} x {} inputs", name(ins.a), name(ins.b));
}

const MatrixVariant& check_matrix(const MatrixInstruction& ins, std::string_view target, const MatrixCatalog& catalog,
                                  const LegalitySteps& steps) {
  const Fail fail = [&](const std::string& what) { throw Error(fmt::format("{}: {}", ins.text, what)); };
  try {
    (void)require_target(target);
  } catch (const Error& e) {
    fail(e.what());
  }
  std::vector<const MatrixVariant*> all;
  for (const MatrixVariant& v : catalog.variants())
    if (v.sparse == ins.sparse) all.push_back(&v);
  const Candidates left = steps(Candidates(std::move(all)), fail);
  if (left.size() != 1) fail(fmt::format("matches {} catalogue entries (the catalogue has duplicates)", left.size()));
  const MatrixVariant& v = left.front();
  if (auto why = target_shortfall(v.targets, target)) fail(*why);
  return v;
}

Candidates by_input_types(const Candidates& from, const MatrixSelector& ins, std::string_view subject, const Fail& fail) {
  const Candidates by_a = from.narrow([&](const MatrixVariant& v) { return v.a == ins.a; });
  if (by_a.empty())
    fail(fmt::format("{} does not take {} {} (its A types: {})", subject, name(ins.a), ins.a == ins.b ? "inputs" : "A",
                     all_of(from.collect([](const MatrixVariant& v) { return std::string(name(v.a)); }))));
  const Candidates by_ab = by_a.narrow([&](const MatrixVariant& v) { return v.b == ins.b; });
  if (by_ab.empty())
    fail(fmt::format("{} does not take {} A with {} B (with {} A, B is {})", subject, name(ins.a), name(ins.b),
                     name(ins.a), one_of(by_a.collect([](const MatrixVariant& v) { return std::string(name(v.b)); }))));
  return by_ab;
}

Candidates by_satfinite(const Candidates& from, const Candidates& all, const MatrixSelector& ins, const Fail& fail) {
  const Candidates by_sat = from.narrow([&](const MatrixVariant& v) { return v.satfinite == ins.satfinite; });
  if (by_sat.empty())
    fail(fmt::format(".satfinite applies only to {} inputs, not {}",
                     all_of(all.narrow([](const MatrixVariant& v) { return v.satfinite; })
                                .collect([](const MatrixVariant& v) { return std::string(name(v.a)); })),
                     name(ins.a)));
  return by_sat;
}

Candidates by_layouts(const Candidates& from, const MatrixSelector& ins, std::string_view shape, const Fail& fail) {
  const Candidates by_layout =
      from.narrow([&](const MatrixVariant& v) { return v.alayout == ins.alayout && v.blayout == ins.blayout; });
  if (by_layout.empty()) {
    const auto legal =
        from.collect([](const MatrixVariant& v) { return fmt::format(".{}.{}", name(v.alayout), name(v.blayout)); });
    fail(fmt::format("{} on {} take {}{}, not .{}.{}", inputs_text(ins), shape, legal.size() == 1 ? "only " : "",
                     one_of(legal), name(ins.alayout), name(ins.blayout)));
  }
  return by_layout;
}

Candidates by_accumulators(const Candidates& from, const MatrixSelector& ins, std::string_view shape, const Fail& fail) {
  const Candidates by_dc = from.narrow([&](const MatrixVariant& v) { return v.d == ins.d && v.c == ins.c; });
  if (by_dc.empty()) {
    const std::string inputs = inputs_text(ins);
    if (std::all_of(from.begin(), from.end(), [](auto* v) { return v->c == v->d; })) {
      const auto types = from.collect([](const MatrixVariant& v) { return std::string(name(v.d)); });
      if (types.size() == 1) fail(fmt::format("{} need {} C and D", inputs, types[0]));
      fail(fmt::format("{} need C and D both {}", inputs, one_of(types)));
    }
    fail(fmt::format("{} on {} need (D, C) = {}; ({}, {}) is illegal", inputs, shape,
                     one_of(from.collect([](const MatrixVariant& v) { return fmt::format("({}, {})", name(v.d), name(v.c)); })),
                     name(ins.d), name(ins.c)));
  }
  return by_dc;
}

Candidates by_bit_operation(const Candidates& from, const Candidates& all, const MatrixSelector& ins, const Fail& fail) {
  const Candidates by_bitop = from.narrow([&](const MatrixVariant& v) { return v.bitop == ins.bitop; });
  if (by_bitop.empty()) {
    if (ins.bitop == BitOp::none)
      fail(fmt::format("{} need {}", inputs_text(ins),
                       one_of(from.collect([](const MatrixVariant& v) { return fmt::format(".{}", name(v.bitop)); }))));
    fail(fmt::format(".{} applies only to {} inputs", name(ins.bitop),
                     all_of(all.narrow([](const MatrixVariant& v) { return v.bitop != BitOp::none; })
                                .collect([](const MatrixVariant& v) { return std::string(name(v.a)); }))));
  }
  return by_bitop;
}

void check_rounding(const Candidates& from, const Candidates& all, const MatrixSelector& ins,
                    std::optional<Rounding> rounding, const Fail& fail) {
  if (!rounding || from.size() != 1) return;
  const MatrixVariant& v = from.front();
  if (v.roundings.empty())
    fail(fmt::format("rounding .{} applies only to {} inputs", name(*rounding),
                     all_of(all.narrow([](const MatrixVariant& x) { return !x.roundings.empty(); })
                                .collect([](const MatrixVariant& x) { return std::string(name(x.a)); }))));
  if (std::find(v.roundings.begin(), v.roundings.end(), *rounding) == v.roundings.end()) {
    std::vector<std::string> legal;
    for (Rounding r : v.roundings) legal.push_back(fmt::format(".{}", name(r)));
    fail(fmt::format("{} take {}, not .{}", inputs_text(ins), one_of(legal), name(*rounding)));
  }
}

}  // namespace ptxmma
