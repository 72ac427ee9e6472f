// Malformed STATE.yaml initial states (`ptxmma run --init`, docs/state-format.md): one located
// message each, before anything runs.
#include <gtest/gtest.h>

#include "isa/ptx_parser.hpp"
#include "sim/exec/interpreter.hpp"
#include "tests/malformed/malformed.hpp"
#include "tools/vectors/ptx_state.hpp"

namespace ptxmma::malformed {
namespace {

constexpr const char* kKernel = R"(.visible .entry k(.param .u64 k_p0, .param .align 8 .b8 k_p1[8])
{
  .reg .b32 %r1;
  .reg .f16x2 %h;
  .reg .pred %p;
  ret;
}
)";

// Loads the state from FILE and applies it to a machine for kKernel.
std::string state_error(const TempDir& dir, const std::string& text) {
  const ptx::Program p = ptx::parse_ptx(kKernel, "k.ptx");
  const std::string path = dir.write("state.yaml", text);
  return error_of([&] {
    const PtxState s = PtxState::load(path);
    InterpreterOptions o;
    s.configure(o);
    Machine m = s.machine(p, o);
    s.apply(m);
  });
}

TEST(Malformed, StateYaml) {
  const std::vector<Bad> bad = {
      {"truncated", "registers:\n  \"%r1\": [1, 2", "FILE:2:1: end of sequence flow not found"},
      {"not a map", "- 1\n- 2\n", "FILE:1:1: the state is a map (registers, shared, global, const, params, ntid, ...)"},
      {"registers of the wrong type", "registers: 7\n", "FILE:1:12: 'registers' is a map from register name to value"},
      {"wrong count of lane values", "registers:\n  \"%r1\": [1, 2, 3]\n", "FILE:2:10: a list of values per lane needs 32 entries, found 3"},
      {"value out of range", "registers:\n  \"%r1\": 0x1ffffffff\n", "FILE:2:10: '0x1ffffffff' does not fit in 32 bits"},
      {"negative out of range", "registers:\n  \"%r1\": -2147483649\n", "FILE:2:10: -2147483649 is out of range for 32 bits"},
      {"duplicate key", "registers:\n  \"%r1\": 1\n  \"%r1\": 2\n", "FILE:3:3: duplicate key '%r1'"},
      {"NaN where an integer is due", "warpid: nan\n", "FILE:1:9: warpid: 'nan' is not an integer"},
      {"float where an integer is due", "registers:\n  \"%r1\": 1.5\n", "FILE:2:10: '1.5' is not an integer"},
      {"one decimal for a .f16x2", "registers:\n  \"%h\": 1.5\n", "FILE:2:9: '1.5': a .f16x2 register takes 2 values, e.g. 'f16x2 1 2'"},
      {"undeclared register", "registers:\n  \"%nope\": 1\n", "FILE:2:3: register %nope is not declared in k.ptx"},
      {"bad lane list", "registers:\n  \"%r1\": {lanes: 0-32, value: 1}\n", "FILE:2:18: bad lane list '0-32' (e.g. 0-3,8)"},
      {"predicate value", "registers:\n  \"%p\": 2\n", "FILE:2:9: '2' is not a predicate value (0, 1, true, false)"},
      {"nesting too deep", "registers: " + std::string(600, '[') + "\n", "FILE:2:1: nested more than 499 levels deep"},
      {"unknown key", "registerz: {}\n", "FILE:1:1: unknown key 'registerz' (did you mean 'registers'?) (expected registers, shared, global, const, params, ntid, warpid, ctaid, nctaid, cluster, cluster_non_portable, shared_size, dynamic_shared)"},
      {"ntid with four values", "ntid: [64, 1, 1, 1]\n", "FILE:1:7: 'ntid' takes [x, y, z]"},
      {"ntid out of range", "ntid: [2048]\n", "FILE:1:8: 'ntid' value 2048 is out of range [1, 1024]"},
      {"ntid of 0 (once 32)", "ntid: [0, 1, 1]\n", "FILE:1:8: 'ntid' value 0 is out of range [1, 1024]"},
      {"ntid y of 0 (once 1)", "ntid: [32, 0, 1]\n", "FILE:1:12: 'ntid' value 0 is out of range [1, 1024]"},
      {"nctaid of 0", "nctaid: [0, 0, 0]\n", "FILE:1:10: 'nctaid' value 0 is out of range [1, 65535]"},
      {"ctaid outside the grid", "ctaid: [2]\nnctaid: [2]\n", "FILE:1:8: 'ctaid' x = 2 is outside the grid: 'nctaid' x = 2"},
      {"ctaid outside the default grid", "ctaid: [0, 1]\n", "FILE:1:8: 'ctaid' y = 1 is outside the grid: 'nctaid' y = 1"},
      {"grid past the shared-memory budget", "nctaid: [65535, 65535, 2]\n",
       "FILE:1:9: 422199580262400 bytes of shared memory (8589672450 CTAs x 49152 bytes), more than the budget of "
       "268435456 (raise it with --max-shared-bytes)"},
      {"warpid out of range", "warpid: 4294967296\n", "FILE:1:9: 'warpid' value 4294967296 is out of range [0, 31]"},
      {"shared memory too large", "shared_size: 0x100000\n", "FILE:1:14: 'shared_size' value 1048576 is out of range [0, 262144]"},
      {"block outside shared memory", "shared:\n  - {address: 0xbffe, bytes: \"00 01 02 04\"}\n", "FILE:2:5: shared memory: 4 bytes at 0xbffe are outside [0, 0xc000)"},
      {"odd hex bytes", "shared:\n  - {address: 0, bytes: \"0 1 2\"}\n", "FILE:2:25: 'bytes' has an odd number of hex digits"},
      {"unknown memory type", "shared:\n  - {address: 0, type: f17, values: [1]}\n", "FILE:2:24: 'f17' is not a memory element type (b8..b64, u/s8..64, f16, f16x2, bf16, bf16x2, f32, f64)"},
      {"ramp of infinities", "shared:\n  - {address: 0, type: f32, ramp: {start: inf, count: 4}}\n", "FILE:2:35: 'ramp' takes finite decimal start and step"},
      {"ramp of a number", "shared:\n  - {address: 0, type: f32, ramp: 5}\n", "FILE:2:35: expected a map in 'ramp' (keys start, step, count)"},
      {"ramp of a list", "shared:\n  - {address: 0, type: f32, ramp: [1]}\n", "FILE:2:35: expected a map in 'ramp' (keys start, step, count)"},
      {"memory block of a list", "shared:\n  - [1, 2]\n", "FILE:2:5: expected a block {address: ..., bytes: ... | file: ... | type: ..., values: [...]}"},
      {"lane group of a number", "registers:\n  \"%r1\": [{lanes: 0, value: 1}, 7]\n", "FILE:2:33: expected a map (keys lanes, value)"},
      {"ramp too long", "shared:\n  - {address: 0, type: f32, ramp: {count: 2000000}}\n", "FILE:2:43: 'count' 2000000 is too large: the file's numbers have room for 65536 more elements with this start and step (4 words of exact arithmetic, 16 units an element; a budget of 1048576 units in all: raise it with --max-exact-work)"},
      {"ramps too long together",
       "shared:\n  - {address: 0, type: f32, ramp: {count: 40000}}\n  - {address: 0, type: f32, ramp: {count: 40000}}\n",
       "FILE:3:43: 'count' 40000 is too large: the file's numbers have room for 25536 more elements with this start and step (4 words of exact arithmetic, 16 units an element; a budget of 1048576 units in all: raise it with --max-exact-work)"},
      // The long fuzz run's timeout (docs/robustness.md): a 130-digit start.
      {"ramp of long decimals",
       "shared:\n  - {address: 0, type: f32, ramp: {start: 0.00000000090990999994999999999999999999999900000000000000000000000000000000999099999499999999990000000000000000000000000001737053517, step: 18888888888888048788888800, count: 20076}}\n",
       "FILE:2:219: 'count' 20076 is too large: the file's numbers have room for 3628 more elements with this start and step (17 words of exact arithmetic, 289 units an element; a budget of 1048576 units in all: raise it with --max-exact-work)"},
      {"u8 ramp that wraps (once 250..255, 0..3)", "shared:\n  - {address: 0, type: u8, ramp: {start: 250, count: 10}}\n", "FILE:2:34: ramp value 256 is out of range for u8"},
      {"s8 ramp below its range", "shared:\n  - {address: 0, type: s8, ramp: {start: -120, step: -1, count: 10}}\n", "FILE:2:34: ramp value -129 is out of range for s8"},
      {"ramp past f16", "shared:\n  - {address: 0, type: f16, ramp: {start: 65000, step: 1000, count: 3}}\n", "FILE:2:35: ramp element 1: value 66000 is out of range for f16 (largest finite 65504)"},
      {"bytes and values (values once dropped)", "shared:\n  - {address: 0, bytes: \"00\", type: u8, values: [1]}\n", "FILE:2:37: 'type' does not go with 'bytes' (a block has 'bytes', 'file', or 'type' with 'values' or 'ramp')"},
      {"file and bytes", "shared:\n  - {address: 0, file: a.bin, bytes: \"00\"}\n", "FILE:2:24: 'file' does not go with 'bytes' (a block has 'bytes', 'file', or 'type' with 'values' or 'ramp')"},
      {"file that is not there", "shared:\n  - {address: 0, file: nope.bin}\n", "FILE:2:24: DIR/nope.bin: cannot open"},
      {"file that is a folder", "shared:\n  - {address: 0, file: .}\n", "FILE:2:24: DIR/.: not a regular file"},
      {"file of a list", "shared:\n  - {address: 0, file: [a]}\n", "FILE:2:24: 'file' takes the path of a binary file"},
      {"values and ramp", "shared:\n  - {address: 0, type: u8, values: [1], ramp: {count: 1}}\n", "FILE:2:47: 'ramp' does not go with 'values' (give one of them)"},
      {"decimal past f32 (once Inf)", "shared:\n  - {address: 0, type: f32, values: [1e39]}\n", "FILE:2:38: value 1e39 is out of range for f32 (largest finite 340282346638528859811704183484516925440)"},
      {"decimal past f16 in a register", "registers:\n  \"%h\": f16x2 70000 1\n", "FILE:2:9: value 70000 is out of range for f16 (largest finite 65504)"},
      {"unknown parameter", "params: {nope: 1}\n", "FILE:1:10: 'nope' is not a parameter of k"},
      {"too many parameters", "params: [1, 2, 3]\n", "FILE:1:9: 3 values for 2 parameters"},
      {"array parameter as a scalar", "params: [0, 7]\n", "FILE:1:13: parameter k_p1 is an array of 8 bytes: give {bytes: ...} or {type: ..., values: [...]}"},
      {"parameter bytes too long", "params: [0, {bytes: \"00 01 02 03 04 05 06 07 08\"}]\n", "FILE:1:13: 9 bytes for parameter k_p1 of 8 bytes"},
  };
  ASSERT_GE(bad.size(), 10U);
  const TempDir dir;
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    std::string want = b.error;
    for (std::size_t at; (at = want.find("FILE")) != std::string::npos;) want.replace(at, 4, dir.path("state.yaml"));
    for (std::size_t at; (at = want.find("DIR/")) != std::string::npos;) want.replace(at, 4, dir.path(""));
    EXPECT_EQ(state_error(dir, b.input), want);
  }
}

}  // namespace
}  // namespace ptxmma::malformed
