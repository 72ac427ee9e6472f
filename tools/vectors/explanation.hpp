// One output element's steps as a numerics person reads them (`ptxmma explain`, Python's
// explain): every term with its k, A and B (value and encoding) and exact product, C marked as
// the accumulator, each block's alignment with the bits it drops, the rounding rule applied named
// as the model applies it, which operands made a NaN or an Inf. Values are exact decimals (a
// binary value always has a finite one). The JSON document is the structure; the text is drawn
// from it, so the two never disagree.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/model/dot.hpp"
#include "sim/model/model.hpp"

namespace ptxmma {

// {"hex": the encoding, "value": its exact value} (the JSON convention of every command).
nlohmann::json value_json(Type t, std::uint64_t code);
// "0x3fc00000 = 1.5" for such a value.
std::string value_line(const nlohmann::json& v);

// The element's structure: "engine", "types", "terms" (k, a, b, product), "accumulator" (C),
// "scales", "blocks" (each with its aligned terms, exact sum and rounding), "fmas", "additions",
// "final_add", "integer_sum", "popc", "special", "rounding" (mode and rule by name), "notes",
// "result" (the engine's, before an accumulator is narrowed to D).
nlohmann::json explanation_json(const Model& m, const DotTrace& t);

// The same as lines of text (without indentation).
std::vector<std::string> explanation_lines(const nlohmann::json& e);

}  // namespace ptxmma
