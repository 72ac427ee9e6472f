// A warp's named registers.
#include <gtest/gtest.h>

#include "sim/error.hpp"
#include "sim/state/warp.hpp"

namespace ptxmma {
namespace {

TEST(Warp, RegisterKindsFollowPtxNames) {
  EXPECT_EQ(kind_from_name("%r1"), RegKind::b32);
  EXPECT_EQ(kind_from_name("%f2"), RegKind::b32);
  EXPECT_EQ(kind_from_name("%rd3"), RegKind::b64);
  EXPECT_EQ(kind_from_name("%fd4"), RegKind::b64);
  EXPECT_EQ(kind_from_name("%h0"), RegKind::b16);
  EXPECT_EQ(kind_from_name("%p1"), RegKind::pred);
  EXPECT_FALSE(kind_from_name("r1").has_value());
}

TEST(Warp, ValuesKeepTheRegisterWidth) {
  Warp w;
  w.declare("%h0", RegKind::b16);
  w.declare("%p1", RegKind::pred);
  w.set(3, "%h0", 0x12345);
  w.set(3, "%p1", 2);
  EXPECT_EQ(w.get(3, "%h0"), 0x2345U);
  EXPECT_EQ(w.get(3, "%p1"), 0U);
  EXPECT_EQ(w.get(4, "%h0"), 0U);
  EXPECT_THROW((void)w.get(0, "%r9"), Error);
  EXPECT_THROW(w.declare("%h0", RegKind::b32), Error);
}

}  // namespace
}  // namespace ptxmma
