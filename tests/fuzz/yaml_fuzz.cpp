// libFuzzer target for the two YAML inputs: the text as a test-vector file
// (tools/vectors/test_vectors.hpp; files named by snippet_file / init_file resolve under a folder
// that does not exist), and the same text as a STATE.yaml initial state
// (tools/vectors/ptx_state.hpp) applied to a machine for a kernel with registers of every kind,
// parameters and shared memory. Nothing runs.
//
// A generator reaches alias graphs larger than -max_len allows written out: an input "@L" + byte n
// + TEXT is TEXT after a chain of n % 32 anchors, each a list of two aliases of the one before (a
// "billion laughs" of 2^n nodes, which the YAML node budget must stop before any walk does). The
// budgets are small here so that sparse writes (blocks far apart), long decimals and large grids
// reach them.
#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/ptx_parser.hpp"
#include "sim/util/budget.hpp"
#include "sim/error.hpp"
#include "sim/exec/interpreter.hpp"
#include "tools/vectors/ptx_state.hpp"
#include "tools/vectors/test_vectors.hpp"

namespace {

constexpr const char* kKernel = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .f32 k_param_1, .param .align 8 .b8 k_param_2[16])
{
  .reg .pred %p<2>;
  .reg .b16 %h<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .f16x2 %hh;
  .reg .f32 %f<2>;
  .reg .f64 %fd;
  .reg .v2 .b32 %v;
  .shared .align 16 .b8 smem[1024];
  ret;
}
)";

const ptxmma::ptx::Program& kernel() {
  static const ptxmma::ptx::Program p = ptxmma::ptx::parse_ptx(kKernel, "state_kernel.ptx");
  return p;
}

std::string laughs(int levels) {
  std::string out = "l0: &l0 [1, 2]\n";
  for (int i = 1; i < levels; ++i) out += fmt::format("l{0}: &l{0} [*l{1}, *l{1}]\n", i, i - 1);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Each budget small enough that crossing it is cheap (many executions a second), large enough
  // for the seeds: at the defaults one input could cost a second of exact decimal arithmetic, a
  // walk of 2^20 alias nodes or 256 MiB of shared memory, and the fork-mode rate fell to 171 a
  // second on 15 workers.
  ptxmma::Budget& b = ptxmma::budget();
  b.memory_pages = 64;
  b.yaml_nodes = 1 << 16;
  b.exact_units = 1 << 14;
  b.register_words = 1 << 18;
  b.shared_bytes = 1 << 20;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (text.size() > 3 && text.starts_with("@L"))
    text = laughs(static_cast<std::uint8_t>(text[2]) % 32) + text.substr(3);
  try {
    (void)ptxmma::VectorFile::parse(text, "/nonexistent-ptxmma-fuzz/fuzz.test.yaml");
  } catch (const ptxmma::Error&) {
  }
  try {
    const ptxmma::YamlFile f = ptxmma::YamlFile::parse(text, "state.yaml");
    f.check_unique_keys();  // as PtxState::load does
    const ptxmma::PtxState state = ptxmma::PtxState::from_node(f.path, f.root);
    ptxmma::InterpreterOptions options;
    state.configure(options);
    ptxmma::Machine m(kernel(), options);
    state.apply(m);
  } catch (const ptxmma::Error&) {
  }
  return 0;
}
