// The folder of the running program, from which an installed ptxmma finds its data (configs/,
// libcudart.so.13) wherever its prefix was put.
#pragma once
#include <filesystem>
#include <optional>

namespace ptxmma {

// nullopt where the kernel does not say (no /proc).
std::optional<std::filesystem::path> program_dir();

}  // namespace ptxmma
