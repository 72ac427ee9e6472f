// The D elements where a computed result differs from the expected one, each located (row and
// column; the thread, register and element holding it) with both values and their distance in
// units in the last place. One report for `ptxmma test`, `ptxmma replay` (text, JSON, HTML) and
// the wgmma replay.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/layout/register_codec.hpp"

namespace ptxmma {

struct ElementMismatch {
  int row = 0, col = 0;           // in D (m8n8k4 .f16: the four problems stacked)
  int thread = 0, reg = 0, elem = 0;
  std::uint64_t want = 0, got = 0;  // the element's bits as its register holds them
  std::optional<std::uint64_t> ulps;  // distance on the format's grid (integers: the difference); none with a NaN
};

// Every differing element, row by row. `want` and `got` are the threads' D words.
std::vector<ElementMismatch> element_mismatches(const RegisterCodec& d, std::span<const std::uint32_t> want,
                                                std::span<const std::uint32_t> got);
// The same with the expectation as a row-major matrix of element bits.
std::vector<ElementMismatch> element_mismatches_of_cells(const RegisterCodec& d, std::span<const std::uint64_t> want,
                                                         std::span<const std::uint32_t> got);

// The distance between two elements of type `t` (raw bits in their container): steps between
// their encodings on the number line for floats (+0 and -0 are one point), the difference for
// integers; none when either is a NaN.
std::optional<std::uint64_t> ulp_distance(const RegisterCodec& d, std::uint64_t a, std::uint64_t b);

// "D[0][2] (lane 1, reg 0, elem 0): expected 0x3c00 (1), got 0x3c01 (1.0009765625), 1 ulp"
std::string mismatch_text(const RegisterCodec& d, const ElementMismatch& m);
// {"row", "col", "lane" or "thread", "register", "element", "expected": {"hex", "value"}, "got": {...}, "ulps"}
nlohmann::json mismatch_json(const RegisterCodec& d, const ElementMismatch& m);

}  // namespace ptxmma
