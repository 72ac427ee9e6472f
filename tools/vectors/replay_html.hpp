// `ptxmma replay ... --html FILE`: the replay report as one self-contained HTML page — per variant
// its cases, failures and mismatched values, and for the first failing case of the first failing
// variant a lane-by-lane table of the D registers, expected against computed (hex and value),
// with the differing cells marked.
#pragma once
#include <string>

#include "tools/vectors/replay.hpp"

namespace ptxmma {

std::string replay_html(const ReplayReport& r);
// Error when the file cannot be written.
void write_html(const ReplayReport& r, const std::string& path);

}  // namespace ptxmma
