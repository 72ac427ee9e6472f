// Golden sets of GPU results: replayed as the CLI's `replay` does (a report object, not text),
// and read as arrays (the manifest's variants; one variant's cases).
#include <fmt/format.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "python/src/bindings.hpp"
#include "sim/error.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/matlab_tc.hpp"
#include "tools/vectors/replay.hpp"
#include "tools/vectors/wgmma_golden.hpp"
#include "tools/vectors/wgmma_replay.hpp"

namespace ptxmma::py {
namespace {

nb::dict report_dict(const ReplayReport& r) {
  nb::list variants;
  for (const VariantReplay& v : r.variants) {
    nb::dict d;
    d["instruction"] = v.ptx;
    d["family"] = v.family;
    d["cases"] = v.cases;
    d["failed_cases"] = v.failed_cases;
    d["mismatched_values"] = v.mismatched_values;
    d["supported"] = v.supported;
    d["error"] = v.error;
    d["first_failure"] = v.first_failure;
    d["failed_case_indices"] = v.failed_case_indices;
    variants.append(d);
  }
  nb::dict out;
  out["set"] = r.set;
  out["device"] = r.device;
  out["sm"] = r.sm;
  out["arch"] = r.arch;
  out["passed_cases"] = r.passed_cases;
  out["failed_cases"] = r.failed_cases;
  out["ok"] = r.ok();
  out["variants"] = variants;
  return out;
}

nb::dict matlab_dict(const MatlabTcReport& r) {
  nb::list files;
  for (const MatlabTcFileReplay& f : r.files) {
    nb::dict d;
    d["name"] = f.name;
    d["arch"] = f.arch;
    d["family"] = f.family;
    d["model"] = f.model;
    d["cases"] = f.cases;
    d["failed_cases"] = f.failed;
    d["supported"] = f.supported;
    d["error"] = f.error;
    d["first_failure"] = f.first_failure;
    files.append(d);
  }
  nb::dict out;
  out["set"] = r.root;
  out["passed_cases"] = r.passed;
  out["failed_cases"] = r.failed;
  out["ok"] = r.ok();
  out["files"] = files;
  return out;
}

// arch: "" for a matlab-tc set means each file's own architecture (as `replay` without --arch).
nb::dict replay_set(const std::string& path, const std::string& arch, int jobs) {
  if (jobs < 1 || jobs > 256) throw Error(fmt::format("jobs: 1 to 256, not {}", jobs));
  if (is_matlab_tc_path(path)) return matlab_dict(replay_matlab_tc(read_matlab_tc(path), arch, jobs));
  const std::string a = arch.empty() ? "sm_90a" : arch;
  nb::dict out = golden_format(path) == kWgmmaGoldenFormat ? report_dict(replay_wgmma(read_wgmma_golden_set(path), a, jobs))
                                                           : report_dict(replay(read_golden_set(path), a, jobs));
  return out;
}

nb::dict types_dict(const std::map<std::string, Type>& types) {
  nb::dict d;
  for (const auto& [k, t] : types) d[k.c_str()] = std::string(name(t));
  return d;
}

nb::dict golden_manifest(const std::string& path) {
  nb::dict out;
  nb::list entries;
  if (golden_format(path) == kWgmmaGoldenFormat) {
    const WgmmaGoldenSet s = read_wgmma_golden_set(path);
    out["format"] = s.format;
    out["set"] = s.set;
    out["device"] = s.device;
    out["sm"] = s.sm;
    for (const WgmmaGoldenEntry& e : s.entries) {
      nb::dict d;
      d["instruction"] = e.ptx;
      d["label"] = e.label();
      d["cases"] = e.cases;
      d["a_source"] = std::string(name(e.operands.a_source));
      d["scale_a"] = e.operands.imm_scale_a;
      d["scale_b"] = e.operands.imm_scale_b;
      d["trans_a"] = e.operands.imm_trans_a;
      d["trans_b"] = e.operands.imm_trans_b;
      d["types"] = types_dict(e.types);
      entries.append(d);
    }
  } else {
    const GoldenSet s = read_golden_set(path);
    out["format"] = s.format;
    out["set"] = s.set;
    out["device"] = s.device;
    out["sm"] = s.sm;
    for (const GoldenVariant& v : s.variants) {
      nb::dict d;
      d["instruction"] = v.ptx;
      d["cases"] = v.cases;
      d["types"] = types_dict(v.types);
      if (v.selector >= 0)  // sparse: an entry per selector captured
        d["selector"] = v.selector;
      else
        d["selector"] = nb::none();
      entries.append(d);
    }
  }
  out["variants"] = entries;
  return out;
}

template <class Case>
Array<std::uint32_t> stack(const std::vector<Case>& cases, std::vector<std::uint32_t> Case::* field, int threads, int words) {
  std::vector<std::uint32_t> out;
  out.reserve(cases.size() * static_cast<std::size_t>(threads * words));
  for (const Case& c : cases) out.insert(out.end(), (c.*field).begin(), (c.*field).end());
  return to_numpy(std::move(out), {cases.size(), static_cast<std::size_t>(threads), static_cast<std::size_t>(words)});
}

// Every case of variant `index`: the registers per case, lane and word.
nb::dict golden_cases(const std::string& path, int index) {
  nb::dict out;
  const auto check = [&](std::size_t n) {
    if (index < 0 || static_cast<std::size_t>(index) >= n)
      throw Error(fmt::format("variant {} is out of range: {} has variants 0..{}", index, path, n - 1));
  };
  if (golden_format(path) == kWgmmaGoldenFormat) {
    const WgmmaGoldenSet s = read_wgmma_golden_set(path);
    check(s.entries.size());
    const WgmmaGoldenEntry& e = s.entries[static_cast<std::size_t>(index)];
    const std::vector<WgmmaGoldenCase> cs = read_wgmma_golden_cases(e);
    std::vector<std::uint64_t> da, db, base;
    std::vector<std::uint8_t> scale_d, image;
    for (const WgmmaGoldenCase& c : cs) {
      da.push_back(c.desc_a);
      db.push_back(c.desc_b);
      base.push_back(c.smem_base);
      scale_d.push_back(c.scale_d ? 1 : 0);
      image.insert(image.end(), c.image.begin(), c.image.end());
    }
    out["instruction"] = e.ptx;
    out["desc_a"] = to_numpy(std::move(da), {cs.size()});
    out["desc_b"] = to_numpy(std::move(db), {cs.size()});
    out["smem_base"] = to_numpy(std::move(base), {cs.size()});
    out["scale_d"] = to_numpy(std::move(scale_d), {cs.size()});
    out["image"] = to_numpy(std::move(image), {cs.size(), static_cast<std::size_t>(e.smem_bytes)});
    out["a"] = stack(cs, &WgmmaGoldenCase::a, 128, e.a_words);
    out["c"] = stack(cs, &WgmmaGoldenCase::c, 128, e.c_words);
    out["d"] = stack(cs, &WgmmaGoldenCase::d, 128, e.d_words);
    if (e.selector >= 0) {  // wgmma.mma_async.sp: the sp-meta words and sp-sel
      out["e"] = stack(cs, &WgmmaGoldenCase::e, 128, e.e_words);
      out["selector"] = e.selector;
    }
    return out;
  }
  const GoldenSet s = read_golden_set(path);
  check(s.variants.size());
  const GoldenVariant& v = s.variants[static_cast<std::size_t>(index)];
  const std::vector<GoldenCase> cs = read_golden_cases(v);
  out["instruction"] = v.ptx;
  out["a"] = stack(cs, &GoldenCase::a, 32, v.words.a);
  out["b"] = stack(cs, &GoldenCase::b, 32, v.words.b);
  out["c"] = stack(cs, &GoldenCase::c, 32, v.words.c);
  out["d"] = stack(cs, &GoldenCase::d, 32, v.words.d);
  if (v.selector >= 0) {  // sparse: the metadata words and the selector
    out["e"] = stack(cs, &GoldenCase::e, 32, v.words.e);
    out["selector"] = v.selector;
  }
  return out;
}

}  // namespace

void bind_golden(nb::module_& m) {
  m.def("replay", &replay_set, nb::arg("path"), nb::arg("arch"), nb::arg("jobs"));
  m.def("golden_manifest", &golden_manifest, nb::arg("path"));
  m.def("golden_cases", &golden_cases, nb::arg("path"), nb::arg("index"));
}

}  // namespace ptxmma::py
