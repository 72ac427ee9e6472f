// Helpers of the PTX front-end and interpreter tests: parse and run a snippet, read registers.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "isa/ptx_parser.hpp"
#include "sim/exec/interpreter.hpp"

namespace ptxmma::test {

struct Ran {
  std::unique_ptr<ptx::Program> program;
  std::unique_ptr<Machine> machine;
  RunSummary summary;
  [[nodiscard]] std::uint64_t reg(int lane, const std::string& name) const {
    const int r = program->find_register(name);
    if (r < 0) throw std::runtime_error("no register " + name);
    return machine->reg(lane, r);
  }
  [[nodiscard]] int index(const std::string& name) const { return program->find_register(name); }
};

// Parses and runs `text`; `setup` may fill registers and memory before the run.
inline Ran run_ptx(const std::string& text, const std::function<void(Ran&)>& setup = {},
                   InterpreterOptions opts = {}) {
  Ran r;
  r.program = std::make_unique<ptx::Program>(ptx::parse_ptx(text, "test.ptx"));
  r.machine = std::make_unique<Machine>(*r.program, opts);
  if (setup) setup(r);
  r.summary = r.machine->run();
  return r;
}

// The run's warnings, one diagnostic per line.
inline std::string warnings(const Ran& r) {
  std::string s;
  for (const auto& w : r.summary.warnings) s += w.text() + "\n";
  return s;
}

// Sets a register in every lane.
inline void set_all(Ran& r, const std::string& name, std::uint64_t v) {
  const int idx = r.index(name);
  if (idx < 0) throw std::runtime_error("no register " + name);
  for (int lane = 0; lane < 32; ++lane) r.machine->set_reg(lane, idx, v);
}

// The text of the error a snippet gives (parse or run), or "(no error)".
inline std::string error_of(const std::string& text, InterpreterOptions opts = {}) {
  try {
    (void)run_ptx(text, {}, opts);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace ptxmma::test
