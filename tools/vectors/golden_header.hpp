// What every golden-set manifest says first (docs/golden-format.md): where it is, its format, set,
// device and target, and the input families of its cases; the mma and wgmma sets add their entries.
#pragma once
#include <string>
#include <vector>

namespace ptxmma {

struct GoldenHeader {
  std::string dir, manifest;  // the set's folder and DIR/manifest.json
  std::string format, set, device, sm;
  std::vector<std::string> families;
};

}  // namespace ptxmma
