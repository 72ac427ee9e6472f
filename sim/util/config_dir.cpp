#include "sim/util/config_dir.hpp"

#include <cstdlib>

namespace ptxmma {

// PTXMMA_CONFIG_DIR (the source tree's path) is defined for this file alone, so that every other
// object compiles the same in any checkout and a compiler cache can share it.
std::string config_dir() {
  if (const char* env = std::getenv("PTXMMA_CONFIG_DIR"); env && *env) return env;
  return PTXMMA_CONFIG_DIR;
}

}  // namespace ptxmma
