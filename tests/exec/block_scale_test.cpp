// Block-scaled mma (kind::mxf8f6f4, mxf4, mxf4nvf4) against hand-derived exact cases: scale
// extremes, NaN scales, max x max products, the F = 25 truncation, ue4m3 significands and sign
// bit, and the byte-id / thread-id selection. The scale bytes are placed here by the rule of
// docs/mma-catalogue.md §4 written out by hand (not by configs/mma/block_scale.yaml), with NaN
// scales in every byte the selectors do not name: reading a wrong byte shows as a NaN.
#include <gtest/gtest.h>

#include "sim/catalog/mma_family.hpp"
#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "sim/model/model.hpp"
#include "sim/numeric/packing.hpp"

namespace ptxmma {
namespace {

class Scaled {
 public:
  explicit Scaled(const std::string& ptx) : v_(find(ptx)), m_(models_for("sm_120a").select(v_.family, v_.a, v_.d)) {
    for (Operand o : {Operand::a, Operand::b, Operand::c, Operand::d})
      regs(o).assign(32 * static_cast<std::size_t>(words(o)), 0);
    // Every scale byte NaN until set (ue8m0 0xFF; ue4m3 0x7F, whose bit 7 is ignored).
    scale_a_.assign(32, 0xFFFFFFFFU);
    scale_b_.assign(32, 0xFFFFFFFFU);
  }
  // Element codes of A (row, k), B (k, col); C as f32 bits.
  void a(int row, int k, std::uint32_t code) { put(Operand::a, row, k, code); }
  void b(int k, int col, std::uint32_t code) { put(Operand::b, k, col, code); }
  void c(int row, int col, std::uint32_t bits) { put(Operand::c, row, col, bits); }
  void fill_a(int row, std::uint32_t code) {  // sparse: the row's K/2 stored elements
    for (int k = 0; k < v_.layout(Operand::a).cols; ++k) a(row, k, code);
  }
  void fill_b(int col, std::uint32_t code) {
    for (int k = 0; k < v_.shape.k; ++k) b(k, col, code);
  }
  // The scale of A's row / B's column for K-block v under the selectors (§4: SF_A from lane
  // 4g + 2*tid + j for row g + 8j, SF_B from lane 4g + tid for column g, byte byte-id + v).
  void scale_a(int row, int v, std::uint32_t code) { set_byte(scale_a_, 4 * (row % 8) + 2 * tid_a + row / 8, byte_a + v, code); }
  void scale_b(int col, int v, std::uint32_t code) { set_byte(scale_b_, 4 * col + tid_b, byte_b + v, code); }
  void scale_all(std::uint32_t code) {
    for (int v = 0; v < v_.scale_vec; ++v) {
      for (int row = 0; row < 16; ++row) scale_a(row, v, code);
      for (int col = 0; col < 8; ++col) scale_b(col, v, code);
    }
  }
  // Sparse: every lane's metadata word (selector 0).
  void metadata(std::uint32_t word) { meta_.assign(32, word); }
  std::uint32_t d(int row, int col) {
    MmaExecutor x(v_, m_, MmaOptions{});
    x.run({a_, words(Operand::a)}, {b_, words(Operand::b)}, {c_, words(Operand::c)}, d_, {meta_, 0},
          {scale_a_, scale_b_, byte_a, tid_a, byte_b, tid_b});
    const FragmentSlot& s = v_.layout(Operand::d).slot(0, row, col);
    return d_[static_cast<std::size_t>(s.lane * words(Operand::d) + s.reg)];
  }
  int byte_a = 0, tid_a = 0, byte_b = 0, tid_b = 0;

 private:
  static const MatrixVariant& find(const std::string& ptx) {
    for (const MatrixVariant& v : mma_catalog().variants())
      if (v.ptx == ptx) return v;
    throw Error("no variant " + ptx);
  }
  int words(Operand o) const { return v_.words(o); }
  std::vector<std::uint32_t>& regs(Operand o) { return o == Operand::a ? a_ : o == Operand::b ? b_ : o == Operand::c ? c_ : d_; }
  void put(Operand o, int row, int col, std::uint32_t code) {
    const FragmentSlot& s = v_.layout(o).slot(0, row, col);
    const int eb = element_bits(v_.type(o), v_.container);
    std::uint32_t& w = regs(o)[static_cast<std::size_t>(s.lane * words(o) + s.reg)];
    w = eb == 32 ? code : set_element(w, eb, s.elem, code);
  }
  static void set_byte(std::vector<std::uint32_t>& w, int lane, int byte, std::uint32_t code) {
    auto& x = w[static_cast<std::size_t>(lane)];
    x = (x & ~(0xFFU << (8 * byte))) | (code << (8 * byte));
  }
  const MatrixVariant& v_;
  const Model& m_;
  std::vector<std::uint32_t> a_, b_, c_, d_, scale_a_, scale_b_, meta_;
};

const std::string kMx8 = "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0";
const std::string kMx4 = "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0";
const std::string kNv4 = "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3";
constexpr std::uint32_t kOne8 = 0x38;   // e4m3 1.0
constexpr std::uint32_t kOne4 = 0x2;    // e2m1 1.0
constexpr std::uint32_t kUnit = 127;    // ue8m0 2^0

TEST(BlockScale, Mxf8ScalesArePowersOfTwoOnEveryProduct) {
  Scaled s(kMx8);
  s.scale_all(kUnit);
  s.fill_a(0, kOne8);
  s.fill_b(0, kOne8);
  s.scale_a(0, 0, kUnit + 3);  // 2^3
  s.scale_b(0, 0, kUnit - 1);  // 2^-1
  EXPECT_EQ(s.d(0, 0), 0x43000000U);  // 32 x 2^3 x 2^-1 = 128
  EXPECT_EQ(s.d(0, 1), 0U);           // B's column 1 is zero
}

TEST(BlockScale, Mxf8ScaleExtremes) {
  Scaled s(kMx8);
  s.scale_all(kUnit);
  s.a(0, 0, kOne8);
  s.b(0, 0, kOne8);
  s.scale_a(0, 0, 0x00);  // ue8m0 0x00 is 2^-127, not zero: an f32 subnormal
  EXPECT_EQ(s.d(0, 0), 0x00400000U);  // 2^-127 = 2^22 x 2^-149
  s.fill_a(1, 0x7E);  // 448, the e4m3 maximum, times 2^127 x 2^127: past f32, +Inf also toward zero
  s.fill_b(1, 0x7E);
  s.scale_a(1, 0, 0xFE);
  s.scale_b(1, 0, 0xFE);
  EXPECT_EQ(s.d(1, 1), 0x7F800000U);
  s.fill_a(2, 0xFE);  // -448
  s.scale_a(2, 0, 0xFE);
  EXPECT_EQ(s.d(2, 1), 0xFF800000U);
}

TEST(BlockScale, NanScaleMakesNanEvenOverZeroProducts) {
  Scaled s(kMx8);
  s.scale_all(kUnit);
  s.scale_a(1, 0, 0xFF);
  EXPECT_EQ(s.d(1, 0), 0x7FFFFFFFU);
  EXPECT_EQ(s.d(0, 0), 0U);
}

TEST(BlockScale, ScaledProductsAreTruncatedBelowTwentyFiveBits) {
  // C = 1, one product -2^-9 x 1 x 2^-21 = -2^-30: E = 0, kept down to 2^-25, so the product is
  // dropped and D = 1.0; the toward-zero rounding of the exact sum would give 0x3F7FFFFF.
  Scaled s(kMx8);
  s.scale_all(kUnit);
  s.c(0, 0, 0x3F800000);
  s.a(0, 0, 0x01);  // e4m3 2^-9 (subnormal)
  s.b(0, 0, 0xB8);  // -1
  s.scale_a(0, 0, kUnit - 21);
  EXPECT_EQ(s.d(0, 0), 0x3F800000U);
}

TEST(BlockScale, InfinitiesWithFiniteScales) {
  Scaled s("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e5m2.e5m2.f32.ue8m0");
  s.scale_all(0x00);
  s.a(0, 0, 0x7C);  // e5m2 +Inf
  s.b(0, 0, 0x3C);  // 1
  EXPECT_EQ(s.d(0, 0), 0x7F800000U);
  EXPECT_EQ(s.d(0, 1), 0x7FFFFFFFU);  // Inf x 0
}

TEST(BlockScale, Mxf4TwoScalesPerRowAndTheSelectors) {
  for (const bool moved : {false, true}) {
    Scaled s(kMx4);
    if (moved) s.byte_a = 2, s.tid_a = 1, s.byte_b = 2, s.tid_b = 3;
    s.scale_all(kUnit);
    s.fill_a(0, kOne4);
    s.fill_b(0, kOne4);
    s.scale_a(0, 1, kUnit + 1);  // k 32..63 scaled by 2
    EXPECT_EQ(s.d(0, 0), 0x42C00000U) << moved;  // 32 + 64 = 96
    EXPECT_EQ(s.d(15, 7), 0U) << moved;
  }
}

TEST(BlockScale, Nvf4Ue4m3ScalesCarryASignificand) {
  Scaled s(kNv4);
  s.scale_all(0x38);  // ue4m3 1.0
  s.fill_a(0, kOne4);
  s.fill_b(0, kOne4);
  s.scale_a(0, 0, 0x3C);  // 1.5 for k 0..15
  EXPECT_EQ(s.d(0, 0), 0x42900000U);  // 16 x 1.5 + 48 = 72
  s.scale_a(0, 0, 0xBC);  // bit 7 is ignored
  EXPECT_EQ(s.d(0, 0), 0x42900000U);
  s.scale_a(0, 0, 0x38);
  s.scale_a(0, 1, 0x00);  // a zero scale drops its group
  EXPECT_EQ(s.d(0, 0), 0x42400000U);  // 48
  s.scale_b(0, 3, 0x7F);  // NaN, and 0xFF too
  EXPECT_EQ(s.d(0, 0), 0x7FFFFFFFU);
  s.scale_b(0, 3, 0xFF);
  EXPECT_EQ(s.d(0, 0), 0x7FFFFFFFU);
}

TEST(BlockScale, SelectorsOutsideTheLegalValuesAreErrors) {
  Scaled s(kNv4);
  s.byte_a = 1;
  EXPECT_THROW(
      {
        try {
          (void)s.d(0, 0);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("byte-id-a 1 is not allowed with .scale_vec::4X (allowed: 0)"), std::string::npos)
              << e.what();
          throw;
        }
      },
      Error);
}

// Sparse block-scaled (mma.sp::ordered_metadata): a scale covers K/V logical columns, i.e. K/V/2
// stored elements. Metadata nibble 0b0100 keeps positions 0 and 1 of every chunk (2:4: columns 0,
// 1 of 4; 4:8: pairs 0, 1, i.e. columns 0-3 of 8); B's other rows hold values that would show.
TEST(BlockScale, SparseMxf8OneScaleOverSixtyFourColumns) {
  Scaled s("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0");
  s.scale_all(kUnit);
  s.metadata(0x44444444U);
  s.fill_a(0, kOne8);  // 32 stored elements
  for (int k = 0; k < 64; ++k) s.b(k, 0, k % 4 < 2 ? kOne8 : 0x40U);  // unselected rows: 2.0
  s.scale_a(0, 0, kUnit + 2);
  EXPECT_EQ(s.d(0, 0), 0x43000000U);  // 32 x 1 x 2^2 = 128 (the 2.0 rows would give 384)
  s.metadata(0x0U);                   // a repeated index is undefined: an error, not a guess
  EXPECT_THROW((void)s.d(0, 0), Error);
}

TEST(BlockScale, SparseNvf4FourBlocksOfSixteenStoredElements) {
  Scaled s("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3");
  s.scale_all(0x38);  // ue4m3 1.0
  s.metadata(0x44444444U);
  s.fill_a(0, kOne4);  // 64 stored elements
  for (int k = 0; k < 128; ++k) s.b(k, 0, k % 8 < 4 ? kOne4 : 0x7U);  // unselected rows: 6.0
  for (int v = 0; v < 4; ++v) s.scale_a(0, v, 0x38 + 8 * static_cast<std::uint32_t>(v));  // 2^v
  EXPECT_EQ(s.d(0, 0), 0x43700000U);  // 16 x (1 + 2 + 4 + 8) = 240
}

}  // namespace
}  // namespace ptxmma
