// Throughput of the PTX interpreter on a whole kernel: what `ptxmma bench --kernel` measures.
#pragma once
#include <cstdint>
#include <string>

namespace ptxmma {

struct KernelThroughput {
  std::string kernel, state;          // the .ptx file and its STATE.yaml ("" for none)
  long runs = 0;                      // whole runs of the grid
  std::uint64_t warp_instructions = 0;  // issued in all runs (RunSummary::warp_instructions)
  double seconds = 0;                 // wall clock of the runs (Machine::run only)
  double cpu_seconds = 0;             // CPU time of the same
  [[nodiscard]] double per_second() const { return seconds > 0 ? static_cast<double>(warp_instructions) / seconds : 0; }
  // Per second of one core's time: unaffected by other processes competing for the cores.
  [[nodiscard]] double per_cpu_second() const {
    return cpu_seconds > 0 ? static_cast<double>(warp_instructions) / cpu_seconds : 0;
  }
};

// Runs the kernel of `ptx` from the state of `state` (as `ptxmma run --init`), again and again
// for about `seconds` (at least once), each time on a new Machine; only Machine::run is timed, so
// that parsing, set-up and the state's memory do not count. Errors as `ptxmma run` has them.
KernelThroughput measure_kernel(const std::string& ptx, const std::string& state, const std::string& arch,
                                double seconds);

}  // namespace ptxmma
