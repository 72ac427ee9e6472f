#include "tools/vectors/kernel_throughput.hpp"

#include <time.h>

#include <chrono>

#include "isa/ptx_parser.hpp"
#include "sim/exec/interpreter.hpp"
#include "tools/vectors/ptx_state.hpp"

namespace ptxmma {
namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

KernelThroughput measure_kernel(const std::string& ptx, const std::string& state, const std::string& arch,
                                double seconds) {
  KernelThroughput t{ptx, state};
  const ptx::Program prog = ptx::parse_ptx_file(ptx, {});
  const PtxState st = state.empty() ? PtxState() : PtxState::load(state);
  InterpreterOptions io;
  io.arch = arch;
  io.max_steps = std::uint64_t{1} << 40;  // a bench kernel ends; its steps are what is measured
  io.keep_ctas = false;
  st.configure(io);
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  do {
    Machine m = st.machine(prog, io);
    st.apply(m);
    const auto start = Clock::now();
    const double cpu_start = thread_cpu_seconds();
    t.warp_instructions += m.run().warp_instructions;
    t.cpu_seconds += thread_cpu_seconds() - cpu_start;
    t.seconds += std::chrono::duration<double>(Clock::now() - start).count();
    ++t.runs;
  } while (Clock::now() < deadline);
  return t;
}

}  // namespace ptxmma
