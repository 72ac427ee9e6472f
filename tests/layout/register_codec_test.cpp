#include "sim/layout/register_codec.hpp"

#include <gtest/gtest.h>

#include <random>

#include "sim/catalog/mma_family.hpp"
#include "sim/catalog/wgmma_family.hpp"

namespace ptxmma {
namespace {

TEST(ElementBits, OneWidthForRegistersAndSharedMemory) {
  EXPECT_EQ(element_bits(Type::tf32), 32);  // a whole b32
  EXPECT_EQ(element_bits(Type::f64), 64);
  EXPECT_EQ(element_bits(Type::e2m1), 4);
  EXPECT_EQ(element_bits(Type::e2m1, Container::f8f6f4), 8);
  EXPECT_EQ(element_bits(Type::e3m2), 8);
  EXPECT_EQ(element_bits(Type::b1), 1);
  EXPECT_EQ(elements_per_register(Type::f64), 1);
  EXPECT_EQ(elements_per_register(Type::e4m3), 4);
  EXPECT_EQ(element_raw(Type::e2m1, Container::f8f6f4, 0x7), 0x1cU);  // bits [5:2]
  EXPECT_EQ(element_code(Type::e2m1, Container::f8f6f4, 0x1c), 0x7U);
  EXPECT_EQ(element_code(Type::tf32, Container::packed, 0x3f802000), 0x3f802000U >> 13);
}

// Every element lands on its own bits and comes back: scatter then gather is the identity, and
// each element's place is the fragment layout's slot.
void round_trip(const RegisterCodec& codec, std::mt19937_64& rng, const std::string& what) {
  const std::uint64_t mask = codec.bits() == 64 ? ~0ULL : (1ULL << codec.bits()) - 1;
  std::vector<std::uint64_t> m(static_cast<std::size_t>(codec.rows() * codec.cols()));
  for (auto& x : m) x = rng() & mask;
  const std::vector<std::uint32_t> words = codec.scatter(m);
  ASSERT_EQ(words.size(), codec.words()) << what;
  ASSERT_EQ(codec.gather(words), m) << what;
  const FragmentLayout& l = codec.layout();
  for (int r = 0; r < codec.rows(); ++r)
    for (int c = 0; c < codec.cols(); ++c) {
      const FragmentSlot& s = l.slot(r / l.rows, r % l.rows, c);
      const RegisterCodec::Place p = codec.place(r / l.rows, r % l.rows, c);
      ASSERT_EQ(p.thread, s.lane) << what;
      ASSERT_EQ(p.reg, s.reg) << what;
      ASSERT_EQ(p.shift, codec.bits() == 64 ? 0U : static_cast<std::uint32_t>(codec.bits() * s.elem)) << what;
    }
}

TEST(RegisterCodec, EveryMmaOperandRoundTrips) {
  std::mt19937_64 rng(7);
  for (const MatrixVariant& v : mma_catalog().variants())
    for (Operand o : {Operand::a, Operand::b, Operand::c, Operand::d})
      round_trip(v.codec(o), rng, v.ptx + " " + std::string(name(o)));
}

TEST(RegisterCodec, EveryWgmmaRegisterOperandRoundTrips) {
  std::mt19937_64 rng(8);
  for (const MatrixVariant& v : wgmma_catalog().variants()) {
    round_trip(v.codec(Operand::d), rng, v.ptx + " D");
    if (v.la) round_trip(v.codec(Operand::a), rng, v.ptx + " A");
  }
}

}  // namespace
}  // namespace ptxmma
