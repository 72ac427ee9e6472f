// The initial state of a `ptxmma run`: registers per lane, shared/global/const memory, kernel
// parameters and the launch geometry, read from a YAML file (docs/state-format.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/exec/interpreter.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {

class PtxState {
 public:
  // Reads the file; errors name file:line:col.
  static PtxState load(const std::string& path);
  // The same from a node of an already-read YAML file (a test vector's `init:`); errors name
  // `path` and the node's line and column.
  static PtxState from_node(const std::string& path, const YAML::Node& root);
  // An empty state (every register and shared byte zero).
  PtxState() = default;

  // Launch geometry and memory sizes into the interpreter's options (before the Machine exists).
  void configure(InterpreterOptions& o) const;
  // Registers, memory and parameters into a machine built for `m.program()`.
  void apply(Machine& m) const;

 private:
  YamlFile file_;
  bool empty_ = true;
};

// The blocks of a memory list (`shared:`, `global:`, `const:`; a test vector's expected memory):
// where they start, their bytes, their element size (1 for `bytes:`), and the node for messages.
struct MemoryBlock {
  std::uint64_t address = 0;
  std::vector<std::uint8_t> bytes;
  int width = 1;
  YAML::Node node;
};
// Ramps (`type` + `ramp:`) of one STATE.yaml, or of one vector file's expected memory, are exact
// rational arithmetic per element, whose time grows with about the square of the size of start and
// step. They share one budget: an element costs w^2 units, w the 64-bit words of start and step
// (numerators and denominators; 4 for short numbers), so 2^16 elements of short numbers fit, or a
// few of 1000-digit ones. A file of a few KiB could otherwise ask for minutes of work.
struct RampBudget {
  static constexpr std::uint64_t kUnits = 1U << 20;
  std::uint64_t left = kUnits;
};
std::vector<MemoryBlock> memory_blocks(const YamlFile& f, const YAML::Node& list, RampBudget& ramps);

}  // namespace ptxmma
