// Work over independent items on several threads, results in item order.
#pragma once
#include <cstddef>
#include <functional>

namespace ptxmma {

// Calls fn(i) for every i in [0, n) on `jobs` threads (the caller's included). The first
// exception any call throws is rethrown once all threads have finished.
void parallel_for(std::size_t n, int jobs, const std::function<void(std::size_t)>& fn);

}  // namespace ptxmma
