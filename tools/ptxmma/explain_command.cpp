// `ptxmma explain SET PTX --case N --row R --col C [--selector S | --entry I] [--json [FILE]]`: the steps of one
// output element of a golden case (mma, wmma and wgmma sets).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "isa/wgmma_instruction.hpp"
#include "isa/wmma_instruction.hpp"
#include "sim/catalog/wgmma_family.hpp"
#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/util/suggest.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "tools/vectors/explanation.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/wgmma_golden.hpp"

namespace ptxmma::cli {

namespace {

struct Opts {
  std::string path, ptx, arch = "sm_90a";
  int case_index = 0, row = 0, col = 0, problem = 0;
  std::optional<int> selector, entry;
  JsonOutput json;
};

// The element's explanation (`head`: what names it) with both results, as JSON or text; `title`
// is the text's first line.
void report(const Opts& o, nlohmann::json j, const std::string& title, const Model& model, const DotTrace& trace, Type d,
            std::uint64_t got, std::uint64_t want) {
  j["model"] = model.name;
  j.update(explanation_json(model, trace));
  const std::vector<std::string> steps = explanation_lines(j);
  j["steps"] = steps;
  j["got"] = value_json(d, got);
  j["expected"] = value_json(d, want);
  j["same"] = got == want;
  o.json.write(j);
  if (!o.json.text()) return;
  std::cout << title << "\n";
  for (const auto& line : steps) std::cout << "  " << line << "\n";
  std::cout << fmt::format("result {}; the GPU gave {}: {}\n", value_line(j["got"]), value_line(j["expected"]),
                           got == want ? "same bits" : "DIFFERENT");
}

// A wgmma set: the entry of that instruction (--entry: its index in the manifest, where the set
// has several forms of it), its case's shared-memory image, descriptors and registers.
void explain_wgmma(const Opts& o) {
  const WgmmaGoldenSet set = read_wgmma_golden_set(o.path);
  std::vector<const WgmmaGoldenEntry*> named;
  for (const auto& e : set.entries)
    if (e.ptx == o.ptx) named.push_back(&e);
  if (named.empty()) {
    std::vector<std::string> names;
    for (const auto& e : set.entries) names.push_back(e.ptx);
    throw Error(fmt::format("{}: no entry '{}'{}", set.manifest, o.ptx, did_you_mean(o.ptx, names)));
  }
  const WgmmaGoldenEntry* e = named.front();
  if (o.entry) {
    const auto it = std::ranges::find_if(named, [&](const WgmmaGoldenEntry* x) { return x->index == *o.entry; });
    if (it == named.end()) {
      std::string have;
      for (const WgmmaGoldenEntry* x : named) have += fmt::format("{}{} ({})", have.empty() ? "" : ", ", x->index, x->label());
      throw Error(fmt::format("--entry {}: not an entry of '{}' (its entries: {})", *o.entry, o.ptx, have));
    }
    e = *it;
  }
  if (o.selector) throw Error("--selector applies to mma sets; a wgmma set's entry is chosen with --entry");
  const MatrixVariant& v = *parse_wgmma(e->ptx, o.arch).variant;
  const FragmentLayout& ld = *v.ld;
  if (o.case_index < 0 || o.case_index >= e->cases)
    throw Error(fmt::format("--case {} is out of range: {} has cases 0..{}", o.case_index, e->label(), e->cases - 1));
  if (o.row < 0 || o.row >= ld.rows || o.col < 0 || o.col >= ld.cols)
    throw Error(fmt::format("D has {} rows and {} columns: --row {} --col {} is outside", ld.rows, ld.cols, o.row, o.col));
  const Model& model = models_for(o.arch).select(v.family, v.a, v.d);
  const WgmmaExecutor x(v, model, e->operands);
  const WgmmaGoldenCase c = read_wgmma_golden_cases(*e)[static_cast<std::size_t>(o.case_index)];
  SharedMemory smem;
  smem.write(c.smem_base, c.image, fmt::format("the shared image of {} case {}", e->label(), o.case_index));
  const WgmmaInputs in{.shared = smem.bytes(), .desc_a = c.desc_a, .a = c.a, .desc_b = c.desc_b, .scale_d = c.scale_d,
                       .c = c.c, .meta = c.e, .selector = e->selector};
  DotTrace trace;
  const std::uint64_t got = x.explain(in, o.row, o.col, trace);
  const std::uint64_t want = v.codec(Operand::d).code(c.d, o.row, o.col);
  const FragmentSlot& s = ld.slot(0, o.row, o.col);
  const nlohmann::json j = {{"instruction", e->ptx}, {"entry", e->index}, {"form", e->label()},
                            {"case", o.case_index},  {"row", o.row},      {"col", o.col},
                            {"thread", s.lane},      {"register", s.reg}, {"element", s.elem}};
  report(o, j, fmt::format("{} (entry {}) case {}, D[{}][{}] (thread {} register {} element {}), model {}", e->label(),
                           e->index, o.case_index, o.row, o.col, s.lane, s.reg, s.elem, model.name),
         model, trace, v.d, got, want);
}

}  // namespace

void add_explain_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("explain", "show how one output element of a golden case is computed, step by step");
  auto opts = std::make_shared<Opts>();
  cmd->add_option("SET", opts->path, "golden set directory (with manifest.json)")->required();
  cmd->add_option("INSTRUCTION", opts->ptx, "the variant, as in the manifest (mma.sync.aligned...)")->required();
  cmd->add_option("--case", opts->case_index, "case index (default 0)");
  cmd->add_option("--row", opts->row, "row of D");
  cmd->add_option("--col", opts->col, "column of D");
  cmd->add_option("--problem", opts->problem, "m8n8k4 .f16: which of the four products (0-3)");
  cmd->add_option("--selector", opts->selector,
                  "sparse sets: the entry captured with this sparsity selector (default: the variant's first entry)");
  cmd->add_option("--entry", opts->entry,
                  "wgmma sets: the entry (its index in the manifest) where the set has several forms of the instruction");
  cmd->add_option("--arch", opts->arch, "architecture whose rounding model runs (default sm_90a)");
  opts->json.add(*cmd, "the element, its steps and both results");
  cmd->callback([opts] {
    if (golden_format(opts->path) == kWgmmaGoldenFormat) return explain_wgmma(*opts);
    if (opts->entry) throw Error("--entry applies to wgmma sets");
    const GoldenSet set = read_golden_set(opts->path);
    const GoldenVariant* gv = nullptr;
    bool named = false;
    std::string selectors;
    for (const auto& v : set.variants) {
      if (v.ptx != opts->ptx) continue;
      named = true;
      if (v.selector >= 0) selectors += fmt::format("{}{}", selectors.empty() ? "" : ", ", v.selector);
      if (!gv && (!opts->selector || v.selector == *opts->selector)) gv = &v;
    }
    if (!named) {
      std::vector<std::string> names;
      for (const auto& v : set.variants) names.push_back(v.ptx);
      throw Error(fmt::format("{}: no variant '{}'{}", set.manifest, opts->ptx, did_you_mean(opts->ptx, names)));
    }
    if (!gv && selectors.empty()) throw Error(fmt::format("--selector: '{}' is not sparse", opts->ptx));
    if (!gv)
      throw Error(fmt::format("--selector: '{}' has no entry with selector {} (it has {})", opts->ptx, *opts->selector,
                              selectors));
    const MmaInstruction ins = parse_warp_mma(gv->ptx, opts->arch);
    const MatrixVariant& v = *ins.variant;
    const FragmentLayout& ld = *v.ld;
    if (opts->case_index < 0 || opts->case_index >= gv->cases)
      throw Error(fmt::format("--case {} is out of range: {} has cases 0..{}", opts->case_index, gv->ptx, gv->cases - 1));
    if (opts->row < 0 || opts->row >= ld.rows || opts->col < 0 || opts->col >= ld.cols || opts->problem < 0 ||
        opts->problem >= ld.problems)
      throw Error(fmt::format("D has {} rows and {} columns{}: --row {} --col {} is outside", ld.rows, ld.cols,
                              ld.problems > 1 ? fmt::format(" in each of {} problems", ld.problems) : "", opts->row,
                              opts->col));
    const Model& model = models_for(opts->arch).select(v.family, v.a, v.d);
    const MmaExecutor exec(v, model, MmaOptions{ins.rounding.value_or(Rounding::rn), ins.satfinite});
    const GoldenCase c = read_golden_cases(*gv)[static_cast<std::size_t>(opts->case_index)];
    DotTrace trace;
    const std::uint64_t got = exec.explain({c.a, gv->words.a}, {c.b, gv->words.b}, {c.c, gv->words.c}, opts->problem,
                                           opts->row, opts->col, trace, {c.e, gv->selector});
    const RegisterCodec cd = v.codec(Operand::d);
    if (gv->words.d != cd.words_per_thread())
      throw Error(fmt::format("{}: {} has {} D words per lane, the instruction {}", set.manifest, gv->ptx, gv->words.d,
                              cd.words_per_thread()));
    const FragmentSlot& s = ld.slot(opts->problem, opts->row, opts->col);
    const std::uint64_t want = cd.code(c.d, opts->problem * ld.rows + opts->row, opts->col);
    nlohmann::json j = {{"instruction", gv->ptx}, {"case", opts->case_index}, {"row", opts->row}, {"col", opts->col},
                        {"lane", s.lane},         {"register", s.reg},        {"element", s.elem}};
    j["selector"] = gv->selector >= 0 ? nlohmann::json(gv->selector) : nlohmann::json(nullptr);
    if (ld.problems > 1) j["problem"] = opts->problem;
    report(*opts, j,
           fmt::format("{}{} case {}, D[{}][{}]{} (lane {} register {} element {}), model {}", gv->ptx,
                       gv->selector >= 0 ? fmt::format(" selector {}", gv->selector) : "", opts->case_index, opts->row,
                       opts->col, ld.problems > 1 ? fmt::format(" of problem {}", opts->problem) : "", s.lane, s.reg,
                       s.elem, model.name),
           model, trace, v.d, got, want);
  });
}

}  // namespace ptxmma::cli
