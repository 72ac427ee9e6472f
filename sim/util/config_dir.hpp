// Where the YAML data lives (configs/): $PTXMMA_CONFIG_DIR; else, for an installed program, its
// prefix's share/ptxmma/configs found from the program's own folder (the prefix may be moved);
// else the source tree's (a program in the build tree); else the configured install prefix's (a
// program elsewhere linked to the installed ptxmma::core). An Error names every place it looked.
#pragma once
#include <string>

namespace ptxmma {

std::string config_dir();

}  // namespace ptxmma
