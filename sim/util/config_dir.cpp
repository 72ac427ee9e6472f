#include "sim/util/config_dir.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "sim/error.hpp"
#include "sim/util/program_dir.hpp"

namespace ptxmma {

// The PTXMMA_*CONFIG_DIR* paths are defined for this file alone (sim/CMakeLists.txt), so that
// every other object compiles the same in any checkout and a compiler cache can share it.
std::string config_dir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("PTXMMA_CONFIG_DIR"); env && *env) {
    if (!fs::is_directory(env)) throw Error(fmt::format("PTXMMA_CONFIG_DIR={}: not a directory", env));
    return env;
  }
  std::vector<std::string> tried;
  if (const auto dir = program_dir()) tried.push_back((*dir / PTXMMA_CONFIG_DIR_FROM_PROGRAM).lexically_normal());
  tried.push_back(PTXMMA_SOURCE_CONFIG_DIR);
  tried.push_back(PTXMMA_INSTALLED_CONFIG_DIR);
  for (const auto& dir : tried)
    if (fs::is_directory(dir)) return dir;
  throw Error(fmt::format("ptxmma's configs/ folder was not found (looked in {}); set PTXMMA_CONFIG_DIR to it",
                          fmt::join(tried, ", ")));
}

}  // namespace ptxmma
