// Throughput of one instruction variant on random inputs: what `ptxmma bench` and the Google
// Benchmark programs in bench/ measure.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/exec/mma.hpp"

namespace ptxmma {

// Register words for one operand of a whole warp, each element a finite value with an exponent
// near 1 (random bits would make most floating-point dot products NaN or Inf, a shortcut path).
std::vector<std::uint32_t> random_operand(const FragmentLayout& l, Type t, Container c, std::mt19937_64& rng);

struct Throughput {
  std::string ptx;
  long instructions = 0;
  double seconds = 0;
  int jobs = 1;
  [[nodiscard]] double per_second() const { return seconds > 0 ? static_cast<double>(instructions) / seconds : 0; }
};

// Runs the variant for about `seconds` on `jobs` threads (each its own inputs) and counts.
Throughput measure_mma(const std::string& ptx, const std::string& arch, double seconds, int jobs, std::uint64_t seed);

}  // namespace ptxmma
