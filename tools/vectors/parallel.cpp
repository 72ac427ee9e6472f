#include "tools/vectors/parallel.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ptxmma {

void parallel_for(std::size_t n, int jobs, const std::function<void(std::size_t)>& fn) {
  std::atomic<std::size_t> next{0};
  // The error of the lowest index, not the first in time: the message must not depend on jobs.
  std::exception_ptr error;
  std::size_t error_index = n;
  std::mutex error_mu;
  std::size_t done = 0;
  std::mutex progress_mu;
  const auto& progress = parallel_progress();
  const auto worker = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        fn(i);
      } catch (...) {
        const std::lock_guard lock(error_mu);
        if (i < error_index) {
          error = std::current_exception();
          error_index = i;
        }
      }
      if (progress) {
        const std::lock_guard lock(progress_mu);
        progress(++done, n);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

std::function<void(std::size_t, std::size_t)>& parallel_progress() {
  static std::function<void(std::size_t, std::size_t)> reporter;
  return reporter;
}

}  // namespace ptxmma
