#include "sim/util/program_dir.hpp"

#include <system_error>

namespace ptxmma {

std::optional<std::filesystem::path> program_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  return exe.parent_path();
}

}  // namespace ptxmma
