// The initial state of a `ptxmma run`: registers per lane, shared/global/const memory, kernel
// parameters and the launch geometry, read from a YAML file (docs/state-format.md).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/util/budget.hpp"
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
  // The Machine of `p` under `o`; a grid it cannot run (GridError) is located at the state's
  // `nctaid` (or `ctaid`) when the state declares the grid.
  [[nodiscard]] Machine machine(const ptx::Program& p, const InterpreterOptions& o) const;
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
// Decimal numbers are exact rational arithmetic, whose time grows with about the square of their
// size: a number costs w^2 units, w its 64-bit words (numerator and denominator; 2 for short
// numbers), a ramp element w^2 with w the words of start and step (4 for short ones). The numbers
// of one STATE.yaml, or of one vector file, share one budget (sim/util/budget.hpp: --max-exact-work),
// charged before the work: a file of a few KiB, aliases expanded, could otherwise ask for minutes.
struct ExactWork {
  std::uint64_t left = budget().exact_units;
  // Takes `units`, or fails at `at`: "N units of exact decimal arithmetic, more than the budget ...".
  void charge(const YamlFile& f, const YAML::Node& at, std::uint64_t units);
};
// The units of the decimal numbers in `text` ("1.5", "f16x2 1 2", "1e-300"), from their digits and
// exponents, before any is converted; 0 for hex words.
std::uint64_t decimal_units(std::string_view text);
std::vector<MemoryBlock> memory_blocks(const YamlFile& f, const YAML::Node& list, ExactWork& work);

}  // namespace ptxmma
