// `ptxmma run SNIPPET.ptx [--init STATE.yaml] [--lanes 0-3,8] [--regs %r1,%f2] [--as REG=TYPE]`:
// parses a PTX kernel or bare snippet, runs it on one warp and prints the final register file
// lane by lane, each register in hex and typed by its declared type (or --as).
// Parse and runtime errors print as a compiler's: file:line:col: error: message.
#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"
#include "sim/exec/interpreter.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/vectors/ptx_state.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma::cli {
namespace {

std::uint32_t parse_lane_list(const std::string& s) {
  const auto mask = lane_mask(s);
  if (!mask) throw Error(fmt::format("--lanes: bad lane list '{}' (e.g. 0-3,8; lanes 0..31)", s));
  return *mask;
}

std::vector<std::string> split_commas(const std::vector<std::string>& in) {
  std::vector<std::string> out;
  for (const auto& s : in) {
    std::size_t p = 0;
    while (p <= s.size()) {
      std::size_t q = s.find(',', p);
      if (q == std::string::npos) q = s.size();
      if (q > p) out.push_back(s.substr(p, q - p));
      p = q + 1;
    }
  }
  return out;
}

// Whether register `r` matches a --regs/--as pattern: its name, its source name, a vector
// register's name (all components), or a prefix ending in '*'.
bool matches(const ptx::RegisterDecl& r, const std::string& pat) {
  if (!pat.empty() && pat.back() == '*') {
    const std::string pre = pat.substr(0, pat.size() - 1);
    return r.name.starts_with(pre) || r.source.starts_with(pre);
  }
  if (r.name == pat || r.source == pat) return true;
  const std::size_t dot = r.source.rfind('.');
  return dot != std::string::npos && r.source.substr(0, dot) == pat;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "run a PTX kernel or snippet on the warps of one block and print the final registers");
  struct Opts {
    std::string file, init, lanes, warps, entry, arch = "sm_90a";
    std::vector<std::string> regs, as, dump_shared;
    std::uint64_t max_steps = 1'000'000;
    bool trace = false, strict = false;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("SNIPPET", opts->file, "a .ptx file: a kernel (.entry) or a bare instruction sequence")->required();
  cmd->add_option("--init", opts->init, "initial state: registers per lane, shared/global memory, parameters (docs/state-format.md)");
  cmd->add_option("--lanes", opts->lanes, "lanes to print, e.g. 0-3,8 (default: all)");
  cmd->add_option("--warps", opts->warps, "warps to print, e.g. 0,2 (default: all that ran)");
  cmd->add_option("--regs", opts->regs, "registers to print, e.g. %r1,%f2 or %r* (default: all)");
  cmd->add_option("--as", opts->as, "show a register as another type, e.g. %r1=e4m3x4 or %r*=f16x2 (repeatable)");
  cmd->add_option("--entry", opts->entry, "the kernel to run when the file has several");
  cmd->add_option("--arch", opts->arch, "rounding models of mma (configs/models/<arch>.yaml)");
  cmd->add_option("--max-steps", opts->max_steps, "instructions per lane before the run stops (default 1000000)");
  cmd->add_option("--dump-shared", opts->dump_shared, "also print shared memory bytes OFFSET:LENGTH, e.g. 0:256");
  cmd->add_flag("--trace", opts->trace, "print each executed instruction: line, path mask, executing lanes");
  cmd->add_flag("--strict", opts->strict, "diagnostics (wgmma hazards, differing descriptors) are errors");
  cmd->callback([opts] {
    ptx::ParseOptions po;
    po.entry = opts->entry;
    InterpreterOptions io;
    io.arch = opts->arch;
    io.max_steps = opts->max_steps;
    if (opts->trace) io.trace = &std::cout;
    io.strict = opts->strict;
    const std::uint32_t lane_mask = opts->lanes.empty() ? 0xffffffffU : parse_lane_list(opts->lanes);
    std::set<int> warps;
    for (const auto& w : split_commas({opts->warps})) {
      int v = -1;
      const auto [e, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
      if (ec != std::errc() || e != w.data() + w.size() || v < 0 || v > 31)
        throw Error(fmt::format("--warps: bad warp number '{}' (0..31)", w));
      warps.insert(v);
    }
    const PtxState state = opts->init.empty() ? PtxState() : PtxState::load(opts->init);
    state.configure(io);
    try {
      const ptx::Program prog = ptx::parse_ptx_file(opts->file, po);
      // What to show, checked before running.
      const auto regs = split_commas(opts->regs);
      std::vector<int> shown;
      for (std::size_t r = 0; r < prog.registers.size(); ++r) {
        bool keep = regs.empty();
        for (const auto& pat : regs) keep = keep || matches(prog.registers[r], pat);
        if (keep) shown.push_back(static_cast<int>(r));
      }
      for (const auto& pat : regs) {
        bool any = false;
        for (const auto& r : prog.registers) any = any || matches(r, pat);
        if (!any) throw Error(fmt::format("--regs: no register '{}' in {}", pat, opts->file));
      }
      std::map<int, ValueView> views;
      for (const auto& r : shown) views.emplace(r, default_view(prog.registers[static_cast<std::size_t>(r)].type));
      for (const auto& spec : split_commas(opts->as)) {
        const std::size_t eq = spec.find('=');
        if (eq == std::string::npos) throw Error(fmt::format("--as: expected REG=TYPE, found '{}'", spec));
        const std::string pat = spec.substr(0, eq), type = spec.substr(eq + 1);
        bool any = false;
        for (std::size_t r = 0; r < prog.registers.size(); ++r) {
          if (!matches(prog.registers[r], pat)) continue;
          any = true;
          try {
            views[static_cast<int>(r)] = parse_view(type, ptx::bits(prog.registers[r].type));
          } catch (const Error& e) {
            throw Error(fmt::format("--as {}: {}", spec, e.what()));
          }
        }
        if (!any) throw Error(fmt::format("--as: no register '{}' in {}", pat, opts->file));
      }
      Machine m(prog, io);
      state.apply(m);
      const RunSummary sum = m.run();
      for (const auto& w : sum.warnings) std::cerr << w.text() << "\n";
      std::string exited;
      for (int w = 0; w < m.warps(); ++w)
        if (sum.exited[static_cast<std::size_t>(w)])
          exited += fmt::format("{}{}{:#010x}", exited.empty() ? "" : ", ",
                                m.warps() > 1 ? fmt::format("warp {} ", m.warp_id(w)) : "", sum.exited[static_cast<std::size_t>(w)]);
      std::cout << fmt::format("{}: {} ({}), {}{} instructions issued; lanes exited: {}\n", opts->file,
                               prog.bare ? "snippet" : "kernel " + prog.entry, prog.target,
                               m.warps() > 1 ? fmt::format("{} warps, ", m.warps()) : "", sum.warp_instructions,
                               exited.empty() ? "none" : exited);
      std::size_t nw = 4, tw = 4;
      for (const int r : shown) {
        nw = std::max(nw, prog.registers[static_cast<std::size_t>(r)].name.size());
        tw = std::max(tw, views.at(r).name.size() + 1);
      }
      for (int t = 0; t < m.threads(); ++t) {
        const int lane = t % 32, warp = m.warp_id(t / 32);
        if (!((lane_mask >> lane) & 1U) || !(warps.empty() || warps.count(warp))) continue;
        std::cout << (m.warps() > 1 ? fmt::format("warp {} lane {}\n", warp, lane) : fmt::format("lane {}\n", lane));
        for (const int r : shown) {
          const auto& decl = prog.registers[static_cast<std::size_t>(r)];
          const int w = ptx::bits(decl.type);
          const std::uint64_t v = m.reg(t, r);
          const ValueView& view = views.at(r);
          if (decl.type == ptx::PtxType::pred)
            std::cout << fmt::format("  {:<{}}  {:<{}}  {}\n", decl.name, nw, ".pred", tw, v & 1U);
          else
            std::cout << fmt::format("  {:<{}}  {:<{}}  {:<{}}  {}\n", decl.name, nw, "." + view.name, tw,
                                     hex_text(v, w), (w + 3) / 4 + 2, typed_text(v, w, view));
        }
      }
      for (const auto& d : opts->dump_shared) {
        const std::size_t colon = d.find(':');
        std::uint64_t off = 0, len = 0;
        const auto num = [](std::string_view t, std::uint64_t& out) {
          int base = 10;
          if (t.starts_with("0x")) t.remove_prefix(2), base = 16;
          const auto [e, ec] = std::from_chars(t.data(), t.data() + t.size(), out, base);
          return ec == std::errc() && e == t.data() + t.size();
        };
        if (colon == std::string::npos || !num(std::string_view(d).substr(0, colon), off) ||
            !num(std::string_view(d).substr(colon + 1), len) || len > (1U << 20))
          throw Error(fmt::format("--dump-shared: expected OFFSET:LENGTH, found '{}'", d));
        std::vector<std::uint8_t> bytes(len);
        m.shared.read(off, bytes.data(), bytes.size());
        std::cout << fmt::format("shared [{:#x}, {:#x})\n", off, off + len);
        for (std::uint64_t i = 0; i < len; i += 16) {
          std::string line = fmt::format("  {:06x}:", off + i);
          for (std::uint64_t k = i; k < std::min(len, i + 16); ++k) line += fmt::format(" {:02x}", bytes[k]);
          std::cout << line << "\n";
        }
      }
    } catch (const ptx::PtxError& e) {
      std::cout.flush();
      std::cerr << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace ptxmma::cli
