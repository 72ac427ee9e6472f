#include <gtest/gtest.h>

#include "sim/numeric/type.hpp"

namespace ptxmma {
namespace {

TEST(Type, NamesRoundTrip) {
  for (const auto& ti : all_types()) EXPECT_EQ(parse_type(ti.name), ti.type);
  EXPECT_FALSE(parse_type("f128").has_value());
}

TEST(Type, LargestFiniteAndNaN) {
  EXPECT_EQ(info(Type::e4m3).max_finite(), 0x7eU);
  EXPECT_EQ(info(Type::e5m2).max_finite(), 0x7bU);
  EXPECT_EQ(info(Type::e3m2).max_finite(), 0x1fU);
  EXPECT_EQ(info(Type::e2m1).max_finite(), 0x7U);
  EXPECT_EQ(info(Type::ue8m0).max_finite(), 0xfeU);
  EXPECT_EQ(info(Type::f16).max_finite(), 0x7bffU);
  EXPECT_EQ(info(Type::f32).canonical_nan(), 0x7fffffffU);
  EXPECT_EQ(info(Type::f16).canonical_nan(), 0x7fffU);
  EXPECT_EQ(info(Type::e4m3).canonical_nan(), 0x7fU);
  EXPECT_EQ(info(Type::ue8m0).canonical_nan(), 0xffU);
  EXPECT_EQ(info(Type::ue4m3).canonical_nan(), 0x7fU);
}

}  // namespace
}  // namespace ptxmma
