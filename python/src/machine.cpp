// Register level: runs PTX text (a kernel or a bare snippet) on one warp or one warpgroup whose
// registers and shared memory the Python Warp / Warpgroup objects hold between runs.
#include <fmt/format.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "isa/ptx_parser.hpp"
#include "python/src/bindings.hpp"
#include "sim/error.hpp"
#include "sim/exec/interpreter.hpp"

namespace ptxmma::py {
namespace {

// regs: name -> uint64 array of `threads` values; registers the program does not declare are
// left to the caller. Returns the registers the program declares (name -> (bits, values)), the
// shared memory after the run and the warnings.
nb::dict run_ptx(const std::string& text, const std::string& file, int threads, const std::string& arch,
                 const nb::dict& regs, const std::optional<In<std::uint8_t>>& shared, std::uint64_t shared_bytes,
                 bool strict, std::uint64_t max_steps) {
  if (threads != 32 && threads != 128) throw Error(fmt::format("threads: 32 (a warp) or 128 (a warpgroup), not {}", threads));
  ptx::ParseOptions po;
  po.default_target = arch;
  const ptx::Program prog = ptx::parse_ptx(text, file, po);
  InterpreterOptions io;
  io.arch = arch;
  io.ntid = {threads, 1, 1};
  io.strict = strict;
  io.max_steps = max_steps;
  io.shared_bytes = shared_bytes;
  Machine m(prog, io);
  for (std::size_t r = 0; r < prog.registers.size(); ++r) {
    const nb::str key(prog.registers[r].name.c_str());
    if (!regs.contains(key)) continue;
    const auto values = nb::cast<In<std::uint64_t>>(regs[key]);
    if (values.size() != static_cast<std::size_t>(threads))
      throw Error(fmt::format("register {}: expected {} values, got {}", prog.registers[r].name, threads, values.size()));
    for (int t = 0; t < threads; ++t) m.set_reg(t, static_cast<int>(r), values.data()[t]);
  }
  if (shared && shared->size()) m.shared().write(0, shared->data(), shared->size());
  const RunSummary sum = m.run();

  nb::dict out_regs;
  for (std::size_t r = 0; r < prog.registers.size(); ++r) {
    std::vector<std::uint64_t> v(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) v[static_cast<std::size_t>(t)] = m.reg(t, static_cast<int>(r));
    out_regs[prog.registers[r].name.c_str()] =
        nb::make_tuple(m.reg_bits(static_cast<int>(r)), to_numpy(std::move(v), {static_cast<std::size_t>(threads)}));
  }
  std::vector<std::uint8_t> smem(m.shared().size());
  m.shared().read(0, smem.data(), smem.size());
  nb::list warnings;
  for (const auto& d : sum.warnings) warnings.append(d.text());
  nb::dict out;
  out["registers"] = out_regs;
  out["shared"] = to_numpy(std::move(smem), {m.shared().size()});
  out["warnings"] = warnings;
  out["instructions"] = sum.warp_instructions;
  return out;
}

}  // namespace

void bind_machine(nb::module_& m) {
  m.def("run_ptx", &run_ptx, nb::arg("text"), nb::arg("file"), nb::arg("threads"), nb::arg("arch"), nb::arg("regs"),
        nb::arg("shared").none(), nb::arg("shared_bytes"), nb::arg("strict"), nb::arg("max_steps"));
}

}  // namespace ptxmma::py
