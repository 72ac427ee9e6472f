// Where the YAML data lives: $PTXMMA_CONFIG_DIR, else the source tree's configs/.
#pragma once
#include <string>

namespace ptxmma {

std::string config_dir();

}  // namespace ptxmma
