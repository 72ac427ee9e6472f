// RaceShadow: an access meets another warp's access of the same byte in the same synchronisation
// epoch (a hazard), never one of an earlier epoch, however many epochs lie between.
#include "sim/exec/race_shadow.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace ptxmma {
namespace {

TEST(RaceShadow, SameEpochIsAHazardALaterOneIsNot) {
  RaceShadow s(64);
  EXPECT_FALSE(s.access(8, 4, /*warp=*/0, /*pc=*/3, /*write=*/true, /*epoch=*/5));
  const auto h = s.access(10, 4, 1, 7, false, 5);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->addr, 10U);
  EXPECT_EQ(h->warp, 0);
  EXPECT_EQ(h->pc, 3);
  EXPECT_TRUE(h->wrote);
  EXPECT_FALSE(s.access(8, 4, 1, 9, true, 6));
}

// The tags keep 26 bits of epoch: an epoch 2^26 later must not look like the same one.
TEST(RaceShadow, EpochsFarApartNeverMeet) {
  RaceShadow s(16);
  constexpr std::uint32_t kLater = std::uint32_t{1} << 26;
  EXPECT_FALSE(s.access(0, 4, 0, 1, true, 0));
  EXPECT_FALSE(s.access(0, 4, 1, 2, false, kLater));
  EXPECT_FALSE(s.access(0, 4, 2, 3, true, 2 * kLater + 1));
  // Hazards are still seen after the tags started over.
  const auto h = s.access(2, 1, 3, 4, false, 2 * kLater + 1);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->warp, 2);
  // The caller's 32-bit epoch wraps too.
  EXPECT_FALSE(s.access(0, 4, 0, 5, false, 0xFFFFFFFFU));
  EXPECT_FALSE(s.access(0, 4, 1, 6, true, 3));
}

}  // namespace
}  // namespace ptxmma
