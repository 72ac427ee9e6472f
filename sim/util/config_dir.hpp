// Where the YAML data lives: $PTXMMA_CONFIG_DIR, else the source tree's configs/.
#pragma once
#include <cstdlib>
#include <string>

namespace ptxmma {

inline std::string config_dir() {
  if (const char* env = std::getenv("PTXMMA_CONFIG_DIR"); env && *env) return env;
  return PTXMMA_CONFIG_DIR;
}

}  // namespace ptxmma
