// `ptxmma exec [--arch A] [--save-ptx DIR] [--strict] -- PROGRAM [ARGS...]`: runs an unmodified CUDA
// program with ptxmma's CUDA runtime (tools/cudart) in place of NVIDIA's, so that its kernels run
// on the simulator and everything else on the host (docs/cuda-programs.md).
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sim/error.hpp"
#include "sim/util/config_dir.hpp"
#include "sim/util/program_dir.hpp"
#include "tools/ptxmma/commands.hpp"

namespace ptxmma::cli {
namespace {

// Where libcudart.so.13 of tools/cudart is: $PTXMMA_CUDART_DIR; else an installed program's, found
// from its own folder (the prefix may be moved); else the build tree's. The paths are defined for
// this file alone (tools/CMakeLists.txt), so that the other objects compile the same in any checkout.
std::string cudart_dir() {
  if (const char* env = std::getenv("PTXMMA_CUDART_DIR"); env && *env) return env;
  std::vector<std::string> tried;
  if (const auto dir = program_dir()) tried.push_back((*dir / PTXMMA_CUDART_DIR_FROM_PROGRAM).lexically_normal());
  tried.push_back(PTXMMA_BUILD_CUDART_DIR);
  for (const auto& dir : tried)
    if (std::filesystem::exists(std::filesystem::path(dir) / "libcudart.so.13")) return dir;
  throw Error(fmt::format(
      "exec: ptxmma's libcudart.so.13 was not found (looked in {}); set PTXMMA_CUDART_DIR to its folder",
      fmt::join(tried, ", ")));
}

// nvcc links the CUDA runtime statically unless told otherwise; such a program never loads ours.
bool loads_shared_cudart(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return bytes.find("libcudart.so.13") != std::string::npos;
}

}  // namespace

void add_exec_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("exec", "run a CUDA program (built with nvcc -cudart shared) with its kernels on the simulator");
  struct Opts {
    std::string arch = "sm_90a";
    std::string save_ptx;
    bool strict = false;
    std::vector<std::string> command;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("--arch", opts->arch, "rounding models of configs/models/<arch>.yaml and the PTX taken from the program")
      ->capture_default_str();
  cmd->add_option("--save-ptx", opts->save_ptx, "write each module's PTX into DIR as moduleN.ptx (messages then point into it)");
  cmd->add_flag("--strict", opts->strict, "diagnostics (wgmma hazards, ...) are errors, not warnings");
  cmd->add_option("PROGRAM", opts->command, "the program and its arguments (after --)")->required();
  cmd->callback([opts] {
    const std::string& program = opts->command.front();
    std::string path = program;
    if (program.find('/') == std::string::npos) {
      // Found through PATH, as execvp will.
      const char* search = std::getenv("PATH");
      for (std::string_view rest = search ? search : ""; !rest.empty();) {
        const auto colon = rest.find(':');
        const std::filesystem::path candidate = std::filesystem::path(rest.substr(0, colon)) / program;
        if (access(candidate.c_str(), X_OK) == 0) {
          path = candidate;
          break;
        }
        rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
      }
    }
    if (access(path.c_str(), X_OK) != 0) throw Error(fmt::format("exec: {}: not an executable file", program));
    if (!loads_shared_cudart(path))
      throw Error(fmt::format("exec: {} does not load libcudart.so.13 (nvcc links the CUDA runtime statically by default): "
                              "rebuild it with nvcc -cudart shared -no-compress -gencode arch=compute_90a,code=compute_90a",
                              program));
    if (!opts->save_ptx.empty() && !std::filesystem::is_directory(opts->save_ptx))
      throw Error(fmt::format("exec: --save-ptx {}: not a directory", opts->save_ptx));
    const char* old = std::getenv("LD_LIBRARY_PATH");
    const std::string libraries = cudart_dir() + (old && *old ? std::string(":") + old : "");
    setenv("LD_LIBRARY_PATH", libraries.c_str(), 1);
    setenv("PTXMMA_ARCH", opts->arch.c_str(), 1);
    setenv("PTXMMA_CONFIG_DIR", config_dir().c_str(), 1);
    if (opts->save_ptx.empty()) unsetenv("PTXMMA_SAVE_PTX"); else setenv("PTXMMA_SAVE_PTX", opts->save_ptx.c_str(), 1);
    if (opts->strict) setenv("PTXMMA_STRICT", "1", 1); else unsetenv("PTXMMA_STRICT");
    std::vector<char*> argv;
    for (auto& a : opts->command) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(path.c_str(), argv.data());
    throw Error(fmt::format("exec: {}: {}", program, std::strerror(errno)));
  });
}

}  // namespace ptxmma::cli
