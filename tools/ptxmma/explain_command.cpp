// `ptxmma explain SET PTX --case N --row R --col C [--selector S] [--json [FILE]]`: the steps of one output element.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "isa/wmma_instruction.hpp"
#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "sim/util/suggest.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "tools/vectors/explanation.hpp"
#include "tools/vectors/golden_set.hpp"

namespace ptxmma::cli {

void add_explain_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("explain", "show how one output element of a golden case is computed, step by step");
  struct Opts {
    std::string path, ptx, arch = "sm_90a";
    int case_index = 0, row = 0, col = 0, problem = 0;
    std::optional<int> selector;
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("SET", opts->path, "golden set directory (with manifest.json)")->required();
  cmd->add_option("INSTRUCTION", opts->ptx, "the variant, as in the manifest (mma.sync.aligned...)")->required();
  cmd->add_option("--case", opts->case_index, "case index (default 0)");
  cmd->add_option("--row", opts->row, "row of D");
  cmd->add_option("--col", opts->col, "column of D");
  cmd->add_option("--problem", opts->problem, "m8n8k4 .f16: which of the four products (0-3)");
  cmd->add_option("--selector", opts->selector,
                  "sparse sets: the entry captured with this sparsity selector (default: the variant's first entry)");
  cmd->add_option("--arch", opts->arch, "architecture whose rounding model runs (default sm_90a)");
  opts->json.add(*cmd, "the element, its steps and both results");
  cmd->callback([opts] {
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
    nlohmann::json j = {{"instruction", gv->ptx}, {"case", opts->case_index}, {"row", opts->row},
                        {"col", opts->col},        {"lane", s.lane},          {"register", s.reg},
                        {"element", s.elem},       {"model", model.name}};
    j["selector"] = gv->selector >= 0 ? nlohmann::json(gv->selector) : nlohmann::json(nullptr);
    if (ld.problems > 1) j["problem"] = opts->problem;
    j.update(explanation_json(model, trace));
    const std::vector<std::string> steps = explanation_lines(j);
    j["steps"] = steps;
    j["got"] = value_json(v.d, got);
    j["expected"] = value_json(v.d, want);
    j["same"] = got == want;
    opts->json.write(j);
    if (!opts->json.text()) return;
    std::cout << fmt::format("{}{} case {}, D[{}][{}]{} (lane {} register {} element {}), model {}\n", gv->ptx,
                             gv->selector >= 0 ? fmt::format(" selector {}", gv->selector) : "", opts->case_index,
                             opts->row, opts->col,
                             ld.problems > 1 ? fmt::format(" of problem {}", opts->problem) : "", s.lane, s.reg, s.elem,
                             model.name);
    for (const auto& line : steps) std::cout << "  " << line << "\n";
    std::cout << fmt::format("result {}; the GPU gave {}: {}\n", value_line(j["got"]), value_line(j["expected"]),
                             got == want ? "same bits" : "DIFFERENT");
  });
}

}  // namespace ptxmma::cli
