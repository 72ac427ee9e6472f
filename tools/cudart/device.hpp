// The simulated GPU behind ptxmma's CUDA runtime (tools/cudart/runtime_api.cpp): the program's
// modules and kernels as it registered them, its allocations in one global memory, and kernel
// launches, each a whole grid run by the PTX interpreter (sim/exec/interpreter.hpp) on that memory.
//
// Launches run when they are made, to their end, in program order (every stream is the default
// stream), so a kernel's results are in global memory when the launch returns.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/ptx_program.hpp"
#include "sim/exec/interpreter.hpp"
#include "sim/state/memory.hpp"

namespace ptxmma::cudart {

struct LaunchShape {
  Dim3 grid = {1, 1, 1};
  Dim3 block = {1, 1, 1};
  std::uint64_t dynamic_shared = 0;
};

class Device {
 public:
  // cudaMalloc's addresses start here, 256-byte aligned as the CUDA runtime's are; the allocation
  // budget keeps them far below the modules' own .global variables (at 0x7f0000000000).
  static constexpr std::uint64_t kHeapBase = 0x0000020000000000ULL;
  static constexpr std::uint64_t kAlign = 256;

  // Settings from the environment (docs/cuda-programs.md): PTXMMA_ARCH, PTXMMA_SAVE_PTX, PTXMMA_STRICT.
  Device();

  // A translation unit's fatbinary (kept as given: its PTX is read at the first launch) and its kernels.
  int add_module(const void* fatbin);
  void add_kernel(const void* host_function, int module, std::string name);
  // The kernel a host stub stands for (a handle for launch()); nullptr when none was registered there.
  [[nodiscard]] void* kernel(const void* host_function);

  // Allocations: zero-filled (a kernel reading bytes nobody wrote reads zeros). Error past the budget.
  std::uint64_t allocate(std::uint64_t bytes);
  void free(std::uint64_t address);
  // Whether [address, address + bytes) lies inside one allocation.
  [[nodiscard]] bool inside(std::uint64_t address, std::uint64_t bytes) const;
  void write(std::uint64_t address, const void* bytes, std::uint64_t n);
  void read(std::uint64_t address, void* bytes, std::uint64_t n) const;

  // Runs the kernel's whole grid; `args` as the launch gives them (one pointer per parameter).
  // Located errors (PtxError) and others (Error) propagate; warnings go to stderr.
  void launch(void* kernel, const LaunchShape& shape, void** args);

 private:
  struct Module {
    const void* fatbin;
    std::string ptx;  // read at the first launch of one of its kernels
    bool read = false;
  };
  struct Kernel {
    int module;
    std::string name;
    std::unique_ptr<ptx::Program> program;  // parsed at its first launch
  };
  const ptx::Program& program(Kernel& k);

  std::string arch_ = "sm_90a";
  std::string save_ptx_;  // a folder the modules' PTX is written to, or ""
  bool strict_ = false;
  std::vector<Module> modules_;
  std::map<const void*, Kernel> kernels_;
  std::map<std::uint64_t, std::uint64_t> allocations_;  // address -> bytes
  std::uint64_t next_ = kHeapBase, allocated_ = 0;
  int globals_of_ = -1;  // the module whose .global variables live in memory (at most one may have any)
  bool globals_seeded_ = false;  // its initializers are in global_ (its first launch ran)
  Memory global_ = Memory::sparse("global");
};

}  // namespace ptxmma::cudart
