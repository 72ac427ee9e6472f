// Work over independent items on several threads, results in item order.
#pragma once
#include <cstddef>
#include <functional>

namespace ptxmma {

// Calls fn(i) for every i in [0, n) on `jobs` threads (the caller's included). The exception of
// the lowest i that threw is rethrown once all threads have finished (the same for any jobs).
void parallel_for(std::size_t n, int jobs, const std::function<void(std::size_t)>& fn);

}  // namespace ptxmma
