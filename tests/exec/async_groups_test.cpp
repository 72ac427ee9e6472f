// AsyncGroups: operations complete by group, oldest first; operations never committed stay
// pending; an empty commit is a group.
#include "sim/exec/async_groups.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace ptxmma {
namespace {

TEST(AsyncGroups, WaitCompletesAllButTheMostRecentGroups) {
  AsyncGroups<int> g;
  std::vector<int> done;
  const auto record = [&](int op) { done.push_back(op); };
  g.issue(1);
  g.issue(2);
  g.commit();  // group 0: 1, 2
  g.commit();  // group 1: empty
  g.issue(3);
  g.commit();  // group 2: 3
  g.issue(4);  // not committed
  g.wait(2, record);
  EXPECT_EQ(done, (std::vector<int>{1, 2}));
  g.wait(2, record);  // nothing more: groups 1 and 2 are the two most recent
  EXPECT_EQ(done, (std::vector<int>{1, 2}));
  g.wait(0, record);
  EXPECT_EQ(done, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(g.pending(), 1U);  // 4 belongs to no closed group
  g.commit();
  g.wait(0, record);
  EXPECT_EQ(done, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_TRUE(g.idle());
}

}  // namespace
}  // namespace ptxmma
