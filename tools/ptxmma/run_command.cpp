// `ptxmma run SNIPPET.ptx [--init STATE.yaml] [--lanes 0-3,8] [--warps 0,2] [--regs %r1,%f2]
// [--as REG=TYPE] [--matrix D[@LINE]] [--json [FILE]] [--trace] [--strict] [--ctas 0-3] [-j N]`: parses a PTX
// kernel or bare snippet, runs it on every CTA of the grid (or those of --ctas), each on the warps
// of its block, and prints the final register file of every CTA lane by lane, each
// register in hex and typed by its declared type (or --as), the operands of an mma/wgmma as
// matrices, or all of it as JSON. Parse and runtime errors print as a compiler's:
// file:line:col: error: message; diagnostics as file:line:col: warning: message on stderr.
#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"
#include "sim/exec/interpreter.hpp"
#include "sim/util/budget.hpp"
#include "tools/ptxmma/commands.hpp"
#include "tools/ptxmma/json_output.hpp"
#include "tools/ptxmma/progress.hpp"
#include "tools/ptxmma/snippet_options.hpp"
#include "tools/ptxmma/register_view.hpp"
#include "tools/vectors/operand_matrix.hpp"
#include "tools/vectors/ptx_state.hpp"
#include "tools/vectors/value_text.hpp"

namespace ptxmma::cli {
namespace {

// Bytes [address, address + length) of global memory, raw, into `file`; Error when a byte was
// never written or the file cannot be written.
void save_memory(const Memory& global, std::uint64_t address, std::uint64_t length, const std::string& file) {
  std::vector<std::uint8_t> bytes(length);
  global.read(address, bytes.data(), bytes.size());
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw Error(fmt::format("--save-global: cannot write {}", file));
}

// --lanes / --warps: a list of numbers 0..31 (both are at most 32).
std::uint32_t parse_list(const std::string& s, const char* what) {
  if (s.empty()) return 0xffffffffU;
  const auto mask = lane_mask(s);
  if (!mask) throw Error(fmt::format("--{}s: bad {} list '{}' (e.g. 0-3,8; {}s 0..31)", what, what, s, what));
  return *mask;
}

// --matrix D or D@LINE: the operand and the line of its instruction (0: the last one).
std::pair<std::string, int> parse_matrix_spec(const std::string& s) {
  const std::size_t at = s.find('@');
  const std::string op = s.substr(0, at);
  int line = 0;
  if (at != std::string::npos) {
    const std::string_view l = std::string_view(s).substr(at + 1);
    const auto [e, ec] = std::from_chars(l.data(), l.data() + l.size(), line);
    if (ec != std::errc() || e != l.data() + l.size() || line <= 0)
      throw Error(fmt::format("--matrix: expected OPERAND or OPERAND@LINE (e.g. D@12), found '{}'", s));
  }
  if (op != "A" && op != "B" && op != "C" && op != "D")
    throw Error(fmt::format("--matrix: '{}' is not an operand: give A, B, C or D", op));
  return {op, line};
}

nlohmann::json matrix_json(const OperandMatrix& om) {
  nlohmann::json rows = nlohmann::json::array(), values = nlohmann::json::array();
  const ValueView view = parse_view(name(om.type), om.bits);
  for (int r = 0; r < om.rows; ++r) {
    nlohmann::json hr = nlohmann::json::array(), vr = nlohmann::json::array();
    for (int c = 0; c < om.cols; ++c) {
      const std::uint64_t x = om.cells[static_cast<std::size_t>(r * om.cols + c)];
      hr.push_back(hex_text(x, om.bits));
      vr.push_back(typed_text(x, om.bits, view));
    }
    rows.push_back(hr);
    values.push_back(vr);
  }
  return {{"title", om.title}, {"type", std::string(name(om.type))}, {"rows", om.rows}, {"cols", om.cols},
          {"hex", rows}, {"values", values}};
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "run a PTX kernel or snippet on the CTAs of a grid and print the final registers");
  struct Opts : SnippetOptions {
    std::string lanes, warps;
    std::vector<std::string> regs, as, dump_shared, dump_tmem, matrix, save_global;
    bool trace = false, no_registers = false;
    int jobs = 1;
    JsonOutput json;
  };
  auto opts = std::make_shared<Opts>();
  add_snippet_options(*cmd, *opts);
  cmd->add_option("--lanes", opts->lanes, "lanes to print, e.g. 0-3,8 (default: all)");
  cmd->add_option("--warps", opts->warps, "warps to print, e.g. 0,2 (default: all that ran)");
  cmd->add_option("--regs", opts->regs, "registers to print, e.g. %r1,%f2 or %r* (default: all)");
  cmd->add_option("--as", opts->as, "show a register as another type, e.g. %r1=e4m3x4 or %r*=f16x2 (repeatable)");
  cmd->add_option("--matrix", opts->matrix,
                  "also print an mma/wgmma operand as its matrix: A, B, C or D of the last such instruction, or "
                  "D@LINE (repeatable)");
  cmd->add_option("--dump-shared", opts->dump_shared, "also print shared memory bytes OFFSET:LENGTH, e.g. 0:256");
  cmd->add_option("--dump-tmem", opts->dump_tmem,
                  "also print tensor memory (tcgen05, sm_100a) lanes and columns LANES:COLUMNS, e.g. 0-31:0-7, and "
                  "its allocations");
  cmd->add_option("--save-global", opts->save_global,
                  "after the run, write global memory bytes ADDRESS:LENGTH to a file: ADDRESS:LENGTH=FILE (repeatable)");
  cmd->add_flag("--no-registers", opts->no_registers, "print no registers (a whole grid's result: see --save-global)");
  cmd->add_flag("--trace", opts->trace, "print each executed instruction: line, path mask, executing lanes");
  cmd->add_option("-j,--jobs", opts->jobs,
                  "threads that run the grid's clusters (default 1); the output is the same for any number "
                  "(docs/ptx-interpreter.md, \"Clusters on several threads\")")
      ->check(CLI::Range(1, 256));
  opts->json.add(*cmd, "the result (registers, matrices, shared memory, warnings)");
  cmd->callback([opts] {
    SnippetSetup setup = snippet_setup(*opts);
    const ptx::ParseOptions& po = setup.parse;
    InterpreterOptions& io = setup.interp;
    io.jobs = opts->jobs;
    const PtxState& state = setup.state;
    if (opts->trace && opts->json.text()) io.trace = &std::cout;
    if (opts->json.text()) io.print = &std::cout;  // device printf, as it runs
    if (auto show = terminal_progress("clusters"))
      io.progress = [show = std::move(show)](std::uint64_t done, std::uint64_t all) mutable { show(done, all); };
    const std::uint32_t lane_mask = parse_list(opts->lanes, "lane");
    const std::uint32_t warp_mask = parse_list(opts->warps, "warp");
    std::vector<std::pair<std::string, int>> matrices;
    for (const auto& s : opts->matrix) matrices.push_back(parse_matrix_spec(s));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> dumps;
    for (const auto& d : opts->dump_shared) dumps.push_back(parse_range(d, "--dump-shared"));
    std::vector<TmemRegion> tmem_dumps;
    for (const auto& d : opts->dump_tmem) tmem_dumps.push_back(parse_tmem_region(d, "--dump-tmem"));
    // Unless something shows a CTA's registers, shared or tensor memory, each cluster's are freed
    // when it ends.
    io.keep_ctas =
        !opts->no_registers || !matrices.empty() || !dumps.empty() || !tmem_dumps.empty() || opts->json.on();
    struct Save {
      std::uint64_t address, length;
      std::string file;
    };
    std::vector<Save> saves;
    for (const auto& s : opts->save_global) {
      const std::size_t eq = s.find('=');
      if (eq == std::string::npos || eq + 1 == s.size())
        throw CLI::ValidationError("--save-global", fmt::format("'{}' is not ADDRESS:LENGTH=FILE", s));
      const auto [address, length] = parse_range(s.substr(0, eq), "--save-global", budget().memory_pages * 4096);
      saves.push_back({address, length, s.substr(eq + 1)});
    }
    try {
      const ptx::Program prog = ptx::parse_ptx_file(opts->file, po);
      // What to show, checked before running.
      const RegisterView view(prog, opts->regs, opts->as);
      std::vector<int> matrix_pcs;
      for (const auto& [op, line] : matrices) matrix_pcs.push_back(matrix_instruction(prog, line));
      Machine m = state.machine(prog, io);
      state.apply(m);
      const RunSummary sum = [&] {
        try {
          return m.run();
        } catch (const ptx::PtxError&) {
          // What the kernel checks found before the error often explains it.
          for (const auto& w : m.summary().warnings) std::cerr << w.text() << "\n";
          throw;
        }
      }();
      for (const auto& w : sum.warnings) std::cerr << w.text() << "\n";
      for (const Save& s : saves) save_memory(m.global(), s.address, s.length, s.file);
      const auto shown_warp = [&](int w) { return ((warp_mask >> m.warp_id(w)) & 1U) != 0; };
      const bool grid = m.grid().ctas() > 1;
      const auto cta_json = [&](int c) {
        const Dim3& id = m.cta(c).id;
        return nlohmann::json::array({id[0], id[1], id[2]});
      };
      // Matrices: per warp for mma, per warpgroup for wgmma, in every CTA.
      std::vector<OperandMatrix> shown_matrices;
      for (std::size_t i = 0; i < matrices.size(); ++i) {
        const bool group = static_cast<bool>(prog.code[static_cast<std::size_t>(matrix_pcs[i])].d.wgmma);
        for (int c = 0; c < m.ctas(); ++c)
          for (int w = 0; w < m.warps(); w += group ? 4 : 1)
            if (shown_warp(w) || (group && (shown_warp(w + 1) || shown_warp(w + 2) || shown_warp(w + 3))))
              shown_matrices.push_back(operand_matrix(m, matrix_pcs[i], matrices[i].first, w, c));
      }
      if (opts->json.on()) {
        nlohmann::json j;
        j["file"] = opts->file;
        j["entry"] = prog.bare ? nlohmann::json(nullptr) : nlohmann::json(prog.entry);
        j["target"] = prog.target;
        if (grid) {
          j["grid"] = nlohmann::json::array({m.grid().nctaid[0], m.grid().nctaid[1], m.grid().nctaid[2]});
          j["ctas"] = nlohmann::json::array();
          for (int c = 0; c < m.ctas(); ++c) j["ctas"].push_back(cta_json(c));
        }
        j["warps"] = m.warps();
        j["instructions"] = sum.warp_instructions;
        if (!sum.printed.empty()) j["printed"] = sum.printed;
        j["exited"] = sum.exited;
        j["warnings"] = nlohmann::json::array();
        for (const auto& w : sum.warnings) j["warnings"].push_back(w.text());
        j["threads"] = nlohmann::json::array();
        for (int c = 0; c < m.ctas(); ++c)
          for (int t = 0; t < m.threads(); ++t)
            if (((lane_mask >> (t % 32)) & 1U) && shown_warp(t / 32)) {
              nlohmann::json th = {{"warp", m.warp_id(t / 32)}, {"lane", t % 32}, {"registers", view.json(m, t, c)}};
              if (grid) th["cta"] = cta_json(c);
              j["threads"].push_back(std::move(th));
            }
        j["matrices"] = nlohmann::json::array();
        for (const auto& om : shown_matrices) j["matrices"].push_back(matrix_json(om));
        for (int c = 0; c < m.ctas(); ++c)
          for (const auto& [off, len] : dumps) {
            std::vector<std::uint8_t> bytes(len);
            m.shared(c).read(off, bytes.data(), bytes.size());
            nlohmann::json d = {{"offset", off}, {"bytes", bytes}};
            if (grid) d["cta"] = cta_json(c);
            j["shared"].push_back(std::move(d));
          }
        for (int c = 0; c < m.ctas(); ++c)
          for (const TmemRegion& r : tmem_dumps) {
            nlohmann::json d = {{"lanes", tmem_json(m.cta(c).tmem, r)}};
            if (grid) d["cta"] = cta_json(c);
            j["tmem"].push_back(std::move(d));
          }
        opts->json.write(j);
        if (opts->json.to_stdout()) return;
      }
      std::string exited;
      for (int c = 0; c < m.ctas(); ++c)
        for (int w = 0; w < m.warps(); ++w) {
          const std::uint32_t e = sum.exited[static_cast<std::size_t>(c * m.warps() + w)];
          if (e)
            exited += fmt::format("{}{}{:#010x}", exited.empty() ? "" : ", ",
                                  m.warps() > 1 || grid ? m.warp_name(c, w) + " " : "", e);
        }
      const GridShape& g = m.grid();
      std::cout << fmt::format("{}: {} ({}), {}{}{} instructions issued; lanes exited: {}\n", opts->file,
                               prog.bare ? "snippet" : "kernel " + prog.entry, prog.target,
                               grid ? fmt::format("{} CTAs of a {}x{}x{} grid, ", m.ctas(), g.nctaid[0], g.nctaid[1],
                                                  g.nctaid[2])
                                    : "",
                               m.warps() > 1 ? fmt::format("{} warps{}, ", m.warps(), grid ? " each" : "") : "",
                               sum.warp_instructions, exited.empty() ? "none" : exited);
      if (!opts->no_registers && (matrices.empty() || !opts->regs.empty()))  // --matrix alone shows just the matrices
        for (int c = 0; c < m.ctas(); ++c)
          for (int t = 0; t < m.threads(); ++t) {
            const int lane = t % 32;
            if (!((lane_mask >> lane) & 1U) || !shown_warp(t / 32)) continue;
            std::cout << (m.warps() > 1 || grid ? fmt::format("{} lane {}\n", m.warp_name(c, t / 32), lane)
                                                : fmt::format("lane {}\n", lane))
                      << view.lines(m, t, c);
          }
      for (const auto& om : shown_matrices) std::cout << format_matrix(om);
      for (int c = 0; c < m.ctas(); ++c)
        for (const auto& [off, len] : dumps)
          std::cout << (grid ? m.cta(c).name() + " " : "") << hex_dump(m.shared(c), off, len);
      for (int c = 0; c < m.ctas(); ++c)
        for (const TmemRegion& r : tmem_dumps) std::cout << (grid ? m.cta(c).name() + " " : "") << tmem_dump(m.cta(c).tmem, r);
    } catch (const ptx::PtxError& e) {
      std::cout.flush();
      std::cerr << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace ptxmma::cli
