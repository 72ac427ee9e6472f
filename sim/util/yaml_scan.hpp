// A pass over a YAML text's parser events before yaml-cpp builds its nodes (yaml_file.hpp): the
// nodes are counted as every walk over the document will meet them, aliases expanded (an alias
// adds the size of the node it names, without expanding it), within the YAML-node budget
// (sim/budget.hpp: --max-yaml-nodes), so a few lines of aliases (a "billion laughs") cannot ask
// for minutes of walking. An alias inside the node it names (a cycle, on which every walk would
// run for ever) and a second document (which would be ignored) are errors too.
#pragma once
#include <cstdint>
#include <string>

namespace ptxmma {

// The nodes of `text`, aliases expanded. Errors "PATH:LINE:COL: what", also yaml-cpp's own.
std::uint64_t scan_yaml(const std::string& text, const std::string& path);

}  // namespace ptxmma
