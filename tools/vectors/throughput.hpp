// Throughput of one instruction variant on random inputs: what `ptxmma bench` and the Google
// Benchmark programs in bench/ measure.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "sim/exec/mma.hpp"

namespace ptxmma {

// Register words for one operand of a whole warp, each element a finite value with an exponent
// near 1 (random bits would make most floating-point dot products NaN or Inf, a shortcut path).
std::vector<std::uint32_t> random_operand(const RegisterCodec& codec, std::mt19937_64& rng);

struct Throughput {
  std::string ptx;
  long instructions = 0;
  double seconds = 0;      // wall clock
  double cpu_seconds = 0;  // CPU time of the measuring threads, summed
  int jobs = 1;
  long mnk = 0;            // M * N * K of one instruction (all its problems)
  [[nodiscard]] double per_second() const { return seconds > 0 ? static_cast<double>(instructions) / seconds : 0; }
  // Per second of one core's time: unaffected by other processes competing for the cores.
  [[nodiscard]] double per_cpu_second() const {
    return cpu_seconds > 0 ? static_cast<double>(instructions) / cpu_seconds : 0;
  }
};

// One instruction on fixed random inputs, ready to run over and over (one per thread).
using Execution = std::function<void()>;

// An mma.sync or wgmma.mma_async instruction (descriptor form, K-major operands, scale-d 1)
// prepared on random inputs from `rng`; `mnk` receives M * N * K.
Execution prepare_execution(const std::string& ptx, const std::string& arch, std::mt19937_64& rng, long& mnk);

// Runs the instruction for about `seconds` on `jobs` threads (each its own inputs) and counts.
Throughput measure(const std::string& ptx, const std::string& arch, double seconds, int jobs, std::uint64_t seed);

}  // namespace ptxmma
