#include "tools/vectors/parallel.hpp"
#include "tools/vectors/replay.hpp"

#include <fmt/format.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

#include "isa/wmma_instruction.hpp"
#include "sim/catalog/mma_family.hpp"
#include "sim/catalog/wmma_family.hpp"
#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "tools/vectors/output_file.hpp"

namespace ptxmma {

std::string shell_word(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+:,@%=") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

namespace {

long count_mismatches(Type d, Container c, const std::vector<std::uint32_t>& want, const std::vector<std::uint32_t>& got) {
  const int bits = element_bits(d, c);
  long n = 0;
  if (bits == 64) {
    for (std::size_t i = 0; i + 1 < want.size(); i += 2) n += (want[i] != got[i] || want[i + 1] != got[i + 1]);
    return n;
  }
  const int per = elements_per_register(d, c);
  for (std::size_t i = 0; i < want.size(); ++i)
    for (int e = 0; e < per; ++e) n += get_element(want[i], bits, e) != get_element(got[i], bits, e);
  return n;
}

VariantReplay replay_variant(const GoldenSet& set, const GoldenVariant& gv, const std::string& arch) {
  VariantReplay r;
  r.ptx = gv.ptx;
  r.cases = gv.cases;
  r.selector = gv.selector;
  r.explain = fmt::format("ptxmma explain {} {}{}{}", shell_word(set.dir), gv.ptx, arch == "sm_90a" ? "" : " --arch " + arch,
                          gv.selector >= 0 ? fmt::format(" --selector {}", gv.selector) : "");
  const MatrixVariant* v = nullptr;
  MmaOptions opts;
  try {
    const MmaInstruction ins = parse_warp_mma(gv.ptx, arch);
    v = ins.variant;  // parse_warp_mma found and checked it
    opts = MmaOptions{ins.rounding.value_or(Rounding::rn), ins.satfinite};
  } catch (const Error& e) {
    r.supported = false;
    r.error = e.what();
    r.failed_cases = gv.cases;
    return r;
  }
  const OperandWords need{v->words(Operand::a), v->words(Operand::b), v->words(Operand::c), v->words(Operand::d)};
  if ((v->sparse != Sparsity::dense) != (gv.selector >= 0))
    throw Error(fmt::format("{}: variants[{}] ({}): {}", set.manifest, gv.index, gv.ptx,
                            gv.selector >= 0 ? "a dense instruction with \"sparse\" metadata"
                                             : "a sparse instruction needs \"sparse\": {\"selector\": S} and words e"));
  if (need.a != gv.words.a || need.b != gv.words.b || need.c != gv.words.c || need.d != gv.words.d)
    throw Error(fmt::format("{}: variants[{}] ({}): manifest gives words a={} b={} c={} d={}, the instruction has "
                            "a={} b={} c={} d={}",
                            set.manifest, gv.index, gv.ptx, gv.words.a, gv.words.b, gv.words.c, gv.words.d, need.a,
                            need.b, need.c, need.d));
  for (const auto& [op, t] : gv.types) {
    const Type want = op == "a" ? v->a : op == "b" ? v->b : op == "c" ? v->c : v->d;
    if (t != want)
      throw Error(fmt::format("{}: variants[{}] ({}): types: {} is {}, the instruction has {}", set.manifest, gv.index,
                              gv.ptx, op, name(t), name(want)));
  }
  r.family = v->family;
  const Model& model = models_for(arch).select(v->family, v->a, v->d);
  spdlog::debug("{}: {} cases, model {}", gv.ptx, gv.cases, model.name);
  const MmaExecutor exec(*v, model, opts);
  const std::vector<GoldenCase> cases = read_golden_cases(gv);
  std::vector<std::uint32_t> got;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const GoldenCase& c = cases[i];
    got.assign(c.d.size(), 0);
    try {
      exec.run({c.a, gv.words.a}, {c.b, gv.words.b}, {c.c, gv.words.c}, got, {c.e, gv.selector});
    } catch (const Error& e) {
      throw Error(fmt::format("{}: variants[{}] ({}), case {}: {}", set.manifest, gv.index, gv.ptx, i, e.what()));
    }
    const long bad = count_mismatches(v->d, v->container, c.d, got);
    if (bad == 0) continue;
    if (r.failed_cases == 0) {
      const RegisterCodec cd = v->codec(Operand::d);
      r.first = FailedCase{static_cast<int>(i), 32, gv.words.d, v->d, v->container, c.d, got,
                           element_mismatches(cd, c.d, got), cd};
      std::string title = fmt::format("{}{} case {}", gv.ptx, gv.selector >= 0 ? fmt::format(" selector {}", gv.selector) : "", i);
      if (!set.families.empty()) title += fmt::format(" (family {})", set.families[i % set.families.size()]);
      r.first_failure = failure_text(title, r.first, r.explain);
    }
    ++r.failed_cases;
    r.failed_case_indices.push_back(static_cast<int>(i));
    r.mismatched_values += bad;
  }
  return r;
}

}  // namespace

bool ReplayReport::ok() const {
  return failed_cases == 0 && std::all_of(variants.begin(), variants.end(), [](const auto& v) { return v.supported; });
}

ReplayReport replay(const GoldenSet& set, const std::string& arch, int jobs) {
  ReplayReport r{set.set, set.device, set.sm, arch, {}, 0, 0};
  // Broken configuration is fatal, not a per-variant failure.
  mma_catalog();
  wmma_catalog();
  models_for(arch);
  r.variants.resize(set.variants.size());
  parallel_for(set.variants.size(), jobs,
               [&](std::size_t i) { r.variants[i] = replay_variant(set, set.variants[i], arch); });
  for (const auto& v : r.variants) {
    r.failed_cases += v.failed_cases;
    r.passed_cases += v.cases - v.failed_cases;
  }
  return r;
}

std::string explain_command(const std::string& explain, const FailedCase& f, const ElementMismatch& m) {
  const int rows = f.codec->layout().rows;
  return fmt::format("{} --case {}{} --row {} --col {}", explain, f.index,
                     f.codec->layout().problems > 1 ? fmt::format(" --problem {}", m.row / rows) : "", m.row % rows, m.col);
}

std::string failure_text(const std::string& title, const FailedCase& f, const std::string& explain) {
  std::string out = fmt::format("first failure: {}: {} of {} D elements differ\n", title, f.elements.size(),
                                f.codec->rows() * f.codec->cols());
  for (std::size_t i = 0; i < std::min(f.elements.size(), kShownElements); ++i) {
    out += "  " + mismatch_text(*f.codec, f.elements[i]) + "\n";
    if (!explain.empty()) out += "    " + explain_command(explain, f, f.elements[i]) + "\n";
  }
  if (f.elements.size() > kShownElements) out += fmt::format("  ... and {} more\n", f.elements.size() - kShownElements);
  return out;
}

void print(const ReplayReport& r, std::ostream& os) {
  os << fmt::format("replay {} ({}, {}) through the {} model\n", r.set, r.device, r.sm, r.arch);
  std::size_t width = 0;
  for (const auto& v : r.variants) width = std::max(width, v.ptx.size());
  // A sparse variant's entries (one per selector) share a line unless they differ in more.
  for (std::size_t i = 0; i < r.variants.size();) {
    const VariantReplay& v = r.variants[i];
    int cases = 0, failed = 0;
    long mismatched = 0;
    std::string selectors;
    std::size_t j = i;
    for (; j < r.variants.size(); ++j) {
      const VariantReplay& u = r.variants[j];
      if (u.ptx != v.ptx || u.supported != v.supported || u.error != v.error || (j > i && u.selector < 0)) break;
      cases += u.cases;
      failed += u.failed_cases;
      mismatched += u.mismatched_values;
      if (u.selector >= 0) selectors += fmt::format("{}{}", selectors.empty() ? "" : ",", u.selector);
    }
    os << fmt::format("  {:<{}}  cases {:3}  failed {:3}  mismatched values {:5}", v.ptx, width, cases, failed,
                      mismatched);
    if (j - i > 1) os << fmt::format("  (selectors {})", selectors);
    if (!v.supported) os << "  UNSUPPORTED: " << v.error;
    os << "\n";
    i = j;
  }
  for (const auto& v : r.variants)
    if (!v.first_failure.empty()) {
      os << v.first_failure;
      break;
    }
  os << fmt::format("replay: {} passed, {} failed\n", r.passed_cases, r.failed_cases);
}

void write_json(const ReplayReport& r, const std::string& path) {
  nlohmann::json j;
  j["set"] = r.set;
  j["device"] = r.device;
  j["sm"] = r.sm;
  j["arch"] = r.arch;
  j["passed"] = r.passed_cases;
  j["failed"] = r.failed_cases;
  j["variants"] = nlohmann::json::array();
  for (const auto& v : r.variants)
    j["variants"].push_back({{"instruction", v.ptx},
                             {"cases", v.cases},
                             {"failed_cases", v.failed_cases},
                             {"mismatched_values", v.mismatched_values},
                             {"supported", v.supported},
                             {"error", v.error},
                             {"family", v.family},
                             {"failed_case_indices", v.failed_case_indices}});
  for (std::size_t i = 0; i < r.variants.size(); ++i) {
    const VariantReplay& v = r.variants[i];
    nlohmann::json& jv = j["variants"][i];
    jv["selector"] = v.selector >= 0 ? nlohmann::json(v.selector) : nlohmann::json(nullptr);
    if (v.first.index < 0) continue;
    nlohmann::json elements = nlohmann::json::array();
    for (const ElementMismatch& m : v.first.elements) {
      nlohmann::json e = mismatch_json(*v.first.codec, m);
      if (!v.explain.empty()) e["explain"] = explain_command(v.explain, v.first, m);
      elements.push_back(std::move(e));
    }
    jv["first_failure"] = {{"case", v.first.index}, {"elements", std::move(elements)}};
  }
  write_output_file(path, j.dump(2) + "\n");
}

}  // namespace ptxmma
