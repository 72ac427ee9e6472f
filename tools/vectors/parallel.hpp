// Work over independent items on several threads, results in item order.
#pragma once
#include <cstddef>
#include <functional>

namespace ptxmma {

// Calls fn(i) for every i in [0, n) on `jobs` threads (the caller's included). The exception of
// the lowest i that threw is rethrown once all threads have finished (the same for any jobs).
// After each item the process's progress reporter, if one is set, hears (done, n), one call at a time.
void parallel_for(std::size_t n, int jobs, const std::function<void(std::size_t)>& fn);

// The process's progress reporter for parallel_for: empty (none) unless a program sets one (the
// ptxmma command line on a terminal, tools/ptxmma/progress.hpp).
std::function<void(std::size_t, std::size_t)>& parallel_progress();

}  // namespace ptxmma
