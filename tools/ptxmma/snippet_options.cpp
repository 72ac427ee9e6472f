#include "tools/ptxmma/snippet_options.hpp"

#include <fmt/format.h>

#include <charconv>

#include "sim/error.hpp"
#include "sim/model/model.hpp"

namespace ptxmma::cli {
namespace {

// "0-3,7" -> {{0, 3}, {7, 7}}; the Machine checks the ranks against the grid.
std::vector<std::pair<std::uint64_t, std::uint64_t>> parse_rank_ranges(const std::string& text, const char* option) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  const auto bad = [&] { return Error(fmt::format("{}: bad list of CTA ranks '{}' (e.g. 0-3,7)", option, text)); };
  const auto number = [&](std::string_view t) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size()) throw bad();
    return v;
  };
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::size_t dash = item.find('-');
    const std::uint64_t lo = number(item.substr(0, dash));
    const std::uint64_t hi = dash == std::string_view::npos ? lo : number(item.substr(dash + 1));
    if (hi < lo) throw bad();
    out.push_back({lo, hi});
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

}  // namespace

void add_snippet_options(CLI::App& cmd, SnippetOptions& o) {
  cmd.add_option("SNIPPET", o.file, "a .ptx file: a kernel (.entry) or a bare instruction sequence")->required();
  cmd.add_option("--init", o.init, "initial state: registers per lane, shared/global memory, parameters (docs/state-format.md)");
  cmd.add_option("--entry", o.entry, "the kernel to run when the file has several");
  cmd.add_option("--arch", o.arch, "rounding models of mma (configs/models/<arch>.yaml)");
  cmd.add_option("--max-steps", o.max_steps, "instructions per lane before the run stops (default 1000000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62));  // "-1" would wrap to an endless run
  cmd.add_flag("--strict", o.strict,
               "diagnostics (kernel checks: memcheck, initcheck, racecheck, synccheck; wgmma hazards) are errors");
  cmd.add_option("--ctas", o.ctas, "run only these CTAs of the grid, by rank (x fastest), e.g. 0-3,7 (default: all)");
}

SnippetSetup snippet_setup(const SnippetOptions& o) {
  SnippetSetup s;
  s.parse.entry = o.entry;
  s.interp.arch = o.arch;
  (void)models_for(o.arch);  // an unknown --arch is an error even when the program has no mma
  s.interp.max_steps = o.max_steps;
  s.interp.strict = o.strict;
  if (!o.init.empty()) s.state = PtxState::load(o.init);
  s.state.configure(s.interp);
  if (!o.ctas.empty()) s.interp.ctas = parse_rank_ranges(o.ctas, "--ctas");
  return s;
}

}  // namespace ptxmma::cli
