#include "tools/vectors/parallel.hpp"
#include "tools/vectors/wgmma_replay.hpp"

#include <fmt/format.h>

#include <spdlog/spdlog.h>


#include "isa/wgmma_instruction.hpp"
#include "sim/catalog/wgmma_family.hpp"
#include "sim/error.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma {
namespace {

// The first failing case: its descriptors and scale-d, then the D elements that differ.
std::string case_report(const WgmmaGoldenSet& set, const WgmmaGoldenEntry& e, const WgmmaExecutor& x,
                        const WgmmaGoldenCase& c, const FailedCase& f, const std::string& explain) {
  std::string title = fmt::format("{} case {}", e.label(), f.index);
  if (!set.families.empty()) title += fmt::format(" (family {})", set.family_of(e.index, f.index));
  const auto desc = [](std::uint64_t d) {
    try {
      return fmt::format("{:#018x} ({})", d, MatrixDescriptor::decode(d).text());
    } catch (const Error& err) {
      return std::string(err.what());
    }
  };
  std::string out;
  if (e.operands.a_source == ASource::descriptor) out += fmt::format("  A descriptor {}\n", desc(c.desc_a));
  out += fmt::format("  B descriptor {}\n", desc(c.desc_b));
  out += fmt::format("  scale-d {} (C {}), shared image {} bytes at {:#x}, model {}\n", c.scale_d ? 1 : 0,
                     c.scale_d ? "added" : "not read", c.image.size(), c.smem_base, x.model().name);
  const std::string text = failure_text(title, f, explain);
  const std::size_t header = text.find('\n') + 1;
  return text.substr(0, header) + out + text.substr(header);
}

long count_mismatches(Type d, const std::vector<std::uint32_t>& want, const std::vector<std::uint32_t>& got) {
  const int bits = element_bits(d);
  const int per = 32 / bits;
  long n = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    for (int e = 0; e < per; ++e) n += get_element(want[i], bits, e) != get_element(got[i], bits, e);
  return n;
}

VariantReplay replay_entry(const WgmmaGoldenSet& set, const WgmmaGoldenEntry& e, const std::string& arch) {
  VariantReplay r;
  r.ptx = e.label();
  r.cases = e.cases;
  r.selector = e.selector;
  r.explain = fmt::format("ptxmma explain {} {} --entry {}{}", shell_word(set.dir), e.ptx, e.index,
                          arch == "sm_90a" ? "" : " --arch " + arch);
  const MatrixVariant* v = nullptr;
  try {
    v = parse_wgmma(e.ptx, arch).variant;
  } catch (const Error& err) {
    r.supported = false;
    r.error = err.what();
    r.failed_cases = e.cases;
    return r;
  }
  r.family = v->family;
  const std::string where = fmt::format("{}: variants[{}] ({})", set.manifest, e.index, e.label());
  const int a_words = e.operands.a_source == ASource::registers ? v->regs(Operand::a) : 0;
  if (e.n != v->shape.n) throw Error(fmt::format("{}: 'n' is {}, the instruction has N = {}", where, e.n, v->shape.n));
  if (v->is_sparse() != (e.selector >= 0))
    throw Error(fmt::format("{}: {}", where, v->is_sparse() ? "a sparse instruction needs \"sparse\": {\"selector\": S} and words e"
                                                      : "a dense instruction with \"sparse\" metadata"));
  if (e.a_words != a_words || e.c_words != v->regs(Operand::d) || e.d_words != v->regs(Operand::d))
    throw Error(fmt::format("{}: manifest gives words a={} c={} d={}, the instruction has a={} c={} d={}", where,
                            e.a_words, e.c_words, e.d_words, a_words, v->regs(Operand::d), v->regs(Operand::d)));
  for (const auto& [op, t] : e.types) {
    const Type want = op == "a" ? v->a : op == "b" ? v->b : v->d;
    if (t != want)
      throw Error(fmt::format("{}: types: {} is {}, the instruction has {}", where, op, name(t), name(want)));
  }
  const Model& model = models_for(arch).select(v->family, v->a, v->d);
  spdlog::debug("{}: {} cases, model {}", e.label(), e.cases, model.name);
  const WgmmaExecutor x(*v, model, e.operands);  // checks the immediates
  const std::vector<WgmmaGoldenCase> cases = read_wgmma_golden_cases(e);
  SharedMemory smem;
  std::vector<std::uint32_t> got;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const WgmmaGoldenCase& c = cases[i];
    if (static_cast<std::uint64_t>(c.smem_base) + c.image.size() > set.smem_alloc_bytes)
      throw Error(fmt::format("{}: case {}: the shared image at {:#x} ({} bytes) ends past the manifest's "
                              "smem_alloc_bytes {}",
                              where, i, c.smem_base, c.image.size(), set.smem_alloc_bytes));
    smem.fill(0);
    smem.write(c.smem_base, c.image, fmt::format("the shared image of {} case {}", e.label(), i));
    const WgmmaInputs in{.shared = smem.bytes(), .desc_a = c.desc_a, .a = c.a, .desc_b = c.desc_b, .scale_d = c.scale_d,
                         .c = c.c, .meta = c.e, .selector = e.selector};
    got.assign(c.d.size(), 0);
    try {
      x.run(in, got);
    } catch (const Error& err) {  // a descriptor or address the simulator rejects: the entry fails as a whole
      r.supported = false;
      r.error = fmt::format("case {}: {}", i, err.what());
      r.failed_cases = e.cases;
      r.failed_case_indices.clear();
      for (int k = 0; k < e.cases; ++k) r.failed_case_indices.push_back(k);
      return r;
    }
    const long bad = count_mismatches(v->d, c.d, got);
    if (bad == 0) continue;
    if (r.failed_cases == 0) {
      const RegisterCodec cd = v->codec(Operand::d);
      r.first = FailedCase{static_cast<int>(i), 128, v->regs(Operand::d), v->d, Container::packed, c.d, got,
                           element_mismatches(cd, c.d, got), cd};
      r.first_failure = case_report(set, e, x, c, r.first, r.explain);
    }
    ++r.failed_cases;
    r.failed_case_indices.push_back(static_cast<int>(i));
    r.mismatched_values += bad;
  }
  return r;
}

}  // namespace

ReplayReport replay_wgmma(const WgmmaGoldenSet& set, const std::string& arch, int jobs) {
  ReplayReport r{set.set, set.device, set.sm, arch, {}, 0, 0};
  wgmma_catalog();  // broken configuration is fatal, not a per-entry failure
  models_for(arch);
  r.variants.resize(set.entries.size());
  parallel_for(set.entries.size(), jobs, [&](std::size_t i) { r.variants[i] = replay_entry(set, set.entries[i], arch); });
  for (const auto& v : r.variants) {
    r.failed_cases += v.failed_cases;
    r.passed_cases += v.cases - v.failed_cases;
  }
  return r;
}

}  // namespace ptxmma
