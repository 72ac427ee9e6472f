// The whole matrices of a test vector's instruction case (docs/test-vectors.md): read from YAML
// (a list of rows, each a list or a string of values, or one value for every cell) in an
// operand's element type, and the report of the cells where a computed D differs from the
// expected one.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/layout/register_codec.hpp"
#include "sim/numeric/type.hpp"
#include "sim/util/yaml_file.hpp"
#include "tools/vectors/ptx_state.hpp"

namespace ptxmma {

// A matrix a case gives: its name in messages, element type, the bits of a value (the
// register's, but an FP6/FP4 value is its format's code) and its shape.
struct MatrixSpec {
  std::string op;
  Type t;
  int bits;
  int rows, cols;
};

// The values, row-major; located errors for a wrong shape or a malformed value.
std::vector<std::uint64_t> parse_matrix(const YamlFile& f, const YAML::Node& n, const MatrixSpec& spec, ExactWork& work);

// "" when every cell of `got` (gathered through `d`) equals `expected` (row-major, d.rows() x
// d.cols()); else a count line naming `instruction` and one line per differing cell (up to 64):
// its place in the registers, expected and computed bits in hex and typed.
std::string matrix_differences(const RegisterCodec& d, std::span<const std::uint64_t> expected,
                               std::span<const std::uint32_t> got, const std::string& instruction);

}  // namespace ptxmma
