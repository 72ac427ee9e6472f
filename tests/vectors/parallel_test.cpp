// parallel_for: every item once, the lowest item's error whatever the threads, and the progress
// reporter told of each item done, one call at a time, counting up to the total.
#include "tools/vectors/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptxmma {
namespace {

TEST(ParallelFor, RunsEveryItemOnceAndReportsProgress) {
  std::vector<std::atomic<int>> runs(200);
  std::vector<std::size_t> heard;
  parallel_progress() = [&](std::size_t done, std::size_t all) {
    EXPECT_EQ(all, 200U);
    heard.push_back(done);
  };
  parallel_for(200, 4, [&](std::size_t i) { ++runs[i]; });
  parallel_progress() = {};
  for (const auto& r : runs) EXPECT_EQ(r, 1);
  ASSERT_EQ(heard.size(), 200U);
  for (std::size_t k = 0; k < heard.size(); ++k) EXPECT_EQ(heard[k], k + 1);
}

TEST(ParallelFor, RethrowsTheLowestItemsError) {
  for (const int jobs : {1, 3}) {
    try {
      parallel_for(50, jobs, [](std::size_t i) {
        if (i % 7 == 3) throw std::runtime_error("item " + std::to_string(i));
      });
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "item 3");
    }
  }
}

}  // namespace
}  // namespace ptxmma
