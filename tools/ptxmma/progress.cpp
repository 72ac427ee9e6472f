#include "tools/ptxmma/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <iostream>

namespace ptxmma::cli {

std::function<void(std::size_t, std::size_t)> terminal_progress(std::string unit) {
  if (!isatty(STDERR_FILENO)) return {};
  const auto started = std::chrono::steady_clock::now();
  return [unit = std::move(unit), started, shown = started](std::size_t done, std::size_t all) mutable {
    const auto now = std::chrono::steady_clock::now();
    if (done < all && now - shown < std::chrono::milliseconds(200)) return;
    if (now - started < std::chrono::seconds(1)) return;  // a short run prints nothing
    shown = now;
    std::cerr << fmt::format("\r{} of {} {} done", done, all, unit) << (done == all ? "\n" : "") << std::flush;
  };
}

}  // namespace ptxmma::cli
