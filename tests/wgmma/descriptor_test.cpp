// Matrix descriptors: decoding, errors, and the shared address of every A/B element, checked
// against the formulas of docs/hardware/sm90-paths.md §2 (H200-verified) and the canonical
// CuTe layouts of docs/wgmma-catalogue.md §3.3, each written here independently.
#include "sim/exec/descriptor.hpp"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>

#include "sim/error.hpp"

namespace ptxmma {
namespace {

std::string error_of(std::uint64_t raw) {
  try {
    (void)MatrixDescriptor::decode(raw);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MatrixDescriptor, DecodesTheCatalogueExamples) {
  // docs/wgmma-catalogue.md §3.6 (S = 0x400).
  const MatrixDescriptor none = MatrixDescriptor::decode(0x0000001000080040);
  EXPECT_EQ(none.start, 0x400U);
  EXPECT_EQ(none.lbo, 128U);
  EXPECT_EQ(none.sbo, 256U);
  EXPECT_EQ(none.base_offset, 0);
  EXPECT_EQ(none.swizzle, Swizzle::none);
  const MatrixDescriptor b32 = MatrixDescriptor::decode(0xC000001000010040);
  EXPECT_EQ(b32.swizzle, Swizzle::b32);
  EXPECT_EQ(b32.lbo, 16U);
  EXPECT_EQ(b32.sbo, 256U);
  EXPECT_EQ(MatrixDescriptor::decode(0x8000002000010040).swizzle, Swizzle::b64);
  EXPECT_EQ(MatrixDescriptor::decode(0x8000002000010040).sbo, 512U);
  const MatrixDescriptor b128 = MatrixDescriptor::decode(0x4000004000010040);
  EXPECT_EQ(b128.swizzle, Swizzle::b128);
  EXPECT_EQ(b128.sbo, 1024U);
  EXPECT_EQ(b128.text(), "start 0x400, LBO 16, SBO 1024, base offset 0, swizzle 128B");
  // Every field at its largest value.
  const MatrixDescriptor max = MatrixDescriptor::decode(0xC00E3FFF3FFF3FFF);
  EXPECT_EQ(max.start, 0x3fff0U);
  EXPECT_EQ(max.lbo, 0x3fff0U);
  EXPECT_EQ(max.sbo, 0x3fff0U);
  EXPECT_EQ(max.base_offset, 7);
  EXPECT_EQ(max.swizzle, Swizzle::b32);
}

TEST(MatrixDescriptor, EncodeIsTheInverseOfDecode) {
  for (Swizzle s : {Swizzle::none, Swizzle::b128, Swizzle::b64, Swizzle::b32})
    for (int bo = 0; bo < 8; ++bo) {
      const std::uint64_t raw = MatrixDescriptor::encode(0x1230, 0x40, 0x3fff0, bo, s);
      const MatrixDescriptor d = MatrixDescriptor::decode(raw);
      EXPECT_EQ(d.raw, raw);
      EXPECT_EQ(d.start, 0x1230U);
      EXPECT_EQ(d.lbo, 0x40U);
      EXPECT_EQ(d.sbo, 0x3fff0U);
      EXPECT_EQ(d.base_offset, bo);
      EXPECT_EQ(d.swizzle, s);
    }
  EXPECT_EQ(MatrixDescriptor::encode(0x400, 128, 256, 0, Swizzle::none), 0x0000001000080040U);
  EXPECT_EQ(MatrixDescriptor::encode(0x400, 16, 1024, 0, Swizzle::b128), 0x4000004000010040U);
}

TEST(MatrixDescriptor, ReservedBitsAreErrors) {
  EXPECT_EQ(error_of(0x0000001000088040),
            "matrix descriptor 0x0000001000088040: reserved bits 15:14 are 0b10 (must be 0)");
  EXPECT_EQ(error_of(0x0000001040080040),
            "matrix descriptor 0x0000001040080040: reserved bits 31:30 are 0b01 (must be 0)");
  EXPECT_EQ(error_of(0x0000401000080040),
            "matrix descriptor 0x0000401000080040: reserved bits 48:46 are 0b001 (must be 0); bits 48:46 = 0b001 "
            "belong to the sm_100 tcgen05 descriptor, not wgmma");
  EXPECT_EQ(error_of(0x0010001000080040),
            "matrix descriptor 0x0010001000080040: reserved bits 61:52 are 0b0000000001 (must be 0)");
  EXPECT_EQ(error_of(0x2000001000080040),
            "matrix descriptor 0x2000001000080040: reserved bits 61:52 are 0b1000000000 (must be 0)");
}

TEST(MatrixDescriptor, EncodeRejectsFieldsThatDoNotFit) {
  EXPECT_THROW((void)MatrixDescriptor::encode(0x408, 16, 16, 0, Swizzle::none), Error);   // not 16-aligned
  EXPECT_THROW((void)MatrixDescriptor::encode(0x40000, 16, 16, 0, Swizzle::none), Error); // 18 bits
  EXPECT_THROW((void)MatrixDescriptor::encode(0x400, 16, 16, 8, Swizzle::none), Error);   // base offset
  try {
    (void)MatrixDescriptor::encode(0x400, 24, 16, 0, Swizzle::none);
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "matrix descriptor: the LBO 0x18 is not a multiple of 16 bytes");
  }
}

// ---- addresses against the H200-verified formulas --------------------------------------------------

int bits_of(Type t) { return t == Type::tf32 ? 32 : info(t).bits; }

// docs/hardware/sm90-paths.md §2, K-major: element (r, byte kb) at start + (r%8)*16 + (r/8)*SBO + (kb/16)*LBO
// + kb%16 without swizzle; with W: a = start + (r%8)*W + (r/8)*SBO + kb, then bits [4, 4+s) of a
// XOR bits [7, 7+s), s = 1/2/3, on the absolute shared address.
std::uint64_t hardware_k_major(const MatrixDescriptor& d, int r, int kb) {
  if (d.swizzle == Swizzle::none) return d.start + (r % 8) * 16 + (r / 8) * d.sbo + (kb / 16) * d.lbo + kb % 16;
  const int w = d.swizzle == Swizzle::b128 ? 128 : d.swizzle == Swizzle::b64 ? 64 : 32;
  const int s = w == 128 ? 3 : w == 64 ? 2 : 1;
  const std::uint64_t a = d.start + (r % 8) * w + (r / 8) * d.sbo + kb;
  const std::uint64_t mask = (1U << s) - 1;
  return a ^ (((a >> 7) & mask) << 4);
}

TEST(OperandAddressing, KMajorMatchesTheHardwareFormulaForEveryTypeAndSwizzle) {
  struct Case {
    Swizzle s;
    std::uint32_t lbo, sbo;
  };
  // The descriptors of the golden set (README "Descriptors used") and some others.
  const std::array<Case, 6> cases = {{{Swizzle::none, 128, 256},
                                      {Swizzle::none, 1024, 128},
                                      {Swizzle::none, 256, 512},
                                      {Swizzle::b32, 16, 256},
                                      {Swizzle::b64, 16, 512},
                                      {Swizzle::b128, 16, 1024}}};
  for (const Type t : {Type::f16, Type::bf16, Type::tf32, Type::e4m3, Type::s8, Type::b1})
    for (const Case& c : cases)
      for (const std::uint32_t start : {0x400U, 0x420U, 0x440U, 0x460U, 0x2400U, 0x10000U}) {
        const MatrixDescriptor d = MatrixDescriptor::decode(MatrixDescriptor::encode(start, c.lbo, c.sbo, 0, c.s));
        const int k = 256 / bits_of(t);
        for (const int rows : {64, 8, 256}) {
          const OperandAddressing at(d, Major::k, t, rows, k);
          for (int x = 0; x < rows; ++x)
            for (int kk = 0; kk < k; ++kk) {
              const int bit_pos = kk * bits_of(t);
              const SmemSlot s = at.slot(x, kk);
              ASSERT_EQ(s.address, hardware_k_major(d, x, bit_pos / 8))
                  << name(t) << " " << d.text() << " element (" << x << ", " << kk << ")";
              ASSERT_EQ(s.bit, bit_pos % 8);
            }
        }
      }
}

// docs/wgmma-catalogue.md §3.6: f16 K-major A 64x16, element (13, 10), S = 0x400.
TEST(OperandAddressing, CatalogueWorkedExamples) {
  const auto addr = [](std::uint64_t desc, Major m) {
    return OperandAddressing(MatrixDescriptor::decode(desc), m, Type::f16, 64, 16).slot(13, 10).address;
  };
  EXPECT_EQ(addr(0x0000001000080040, Major::k), 0x400U + 468);
  EXPECT_EQ(addr(0xC000001000010040, Major::k), 0x400U + 420);
  EXPECT_EQ(addr(0x8000002000010040, Major::k), 0x400U + 884);
  EXPECT_EQ(addr(0x4000004000010040, Major::k), 0x400U + 1732);
  // MN-major 128B (imm-trans-a 1, SBO 1024): lin = 1306 -> 1338.
  EXPECT_EQ(addr(0x4000004000010040, Major::mn), 0x400U + 1338);
  // Base offset: the 128B tile at S' = 0x580 with the pattern anchored at S' (BO 3): absolute 0xC44.
  EXPECT_EQ(addr(MatrixDescriptor::encode(0x580, 16, 1024, 3, Swizzle::b128), Major::k), 0xC44U);
  EXPECT_EQ(swizzle_address(0x580 + 1684, Swizzle::b128, 3), 0x580U + (1684 ^ (5 << 4)));
}

// The canonical layouts of docs/wgmma-catalogue.md §3.3 in CuTe form, evaluated as CuTe does:
// MN-major  none: ((T,1,m),(8,k)) : ((1,T,SBO),(T,LBO))    W: ((T,W/16,m),(8,k)) : ((1,T,LBO),(W/16*T,SBO))
// (strides in elements; LBO/SBO converted to elements), then the swizzle on the byte address.
std::uint64_t cute_mn_major(const MatrixDescriptor& d, int bytes, int x, int k) {
  const int t = 16 / bytes;
  const int lbo = static_cast<int>(d.lbo) / bytes, sbo = static_cast<int>(d.sbo) / bytes;
  std::int64_t e = 0;
  if (d.swizzle == Swizzle::none) {
    e = (x % t) * 1 + (x / t) * sbo + (k % 8) * t + (k / 8) * lbo;
  } else {
    const int w16 = (d.swizzle == Swizzle::b128 ? 128 : d.swizzle == Swizzle::b64 ? 64 : 32) / 16;
    e = (x % t) + ((x / t) % w16) * t + (x / (t * w16)) * lbo + (k % 8) * (w16 * t) + (k / 8) * sbo;
  }
  const std::uint64_t lin = d.start + static_cast<std::uint64_t>(e) * static_cast<std::uint64_t>(bytes);
  if (d.swizzle == Swizzle::none) return lin;
  const int b = d.swizzle == Swizzle::b128 ? 3 : d.swizzle == Swizzle::b64 ? 2 : 1;  // Swizzle<B,4,3>
  return lin ^ (((lin >> 7) & ((1U << b) - 1)) << 4);
}

TEST(OperandAddressing, MnMajorMatchesTheCanonicalLayouts) {
  for (const Swizzle s : {Swizzle::none, Swizzle::b32, Swizzle::b64, Swizzle::b128})
    for (const std::uint32_t lbo : {128U, 256U, 512U, 1024U})
      for (const std::uint32_t sbo : {128U, 256U, 512U, 1024U})
        for (const int rows : {64, 8, 72, 256}) {
          const MatrixDescriptor d = MatrixDescriptor::decode(MatrixDescriptor::encode(0x400, lbo, sbo, 0, s));
          const OperandAddressing at(d, Major::mn, Type::f16, rows, 16);
          for (int x = 0; x < rows; ++x)
            for (int k = 0; k < 16; ++k)
              ASSERT_EQ(at.slot(x, k).address, cute_mn_major(d, 2, x, k)) << d.text() << " (" << x << ", " << k << ")";
        }
}

TEST(OperandAddressing, SwizzleUsesTheAbsoluteAddressAndTheBaseOffset) {
  // BO = 0: bits [6:4] ^= [9:7] (128B), [5:4] ^= [8:7] (64B), [4] ^= [7] (32B).
  for (std::uint64_t a = 0; a < 4096; a += 16) {
    EXPECT_EQ(swizzle_address(a, Swizzle::b128, 0), a ^ (((a >> 7) & 7) << 4));
    EXPECT_EQ(swizzle_address(a, Swizzle::b64, 0), a ^ (((a >> 7) & 3) << 4));
    EXPECT_EQ(swizzle_address(a, Swizzle::b32, 0), a ^ (((a >> 7) & 1) << 4));
    EXPECT_EQ(swizzle_address(a, Swizzle::none, 5), a);
  }
  // A pattern anchored at S (not on its natural boundary) with BO = (S >> 7) & 7 reads as if S were 0.
  for (const std::uint64_t s : {0x580ULL, 0x680ULL, 0x400ULL + 384})
    for (std::uint64_t off = 0; off < 1024; off += 16)
      EXPECT_EQ(swizzle_address(s + off, Swizzle::b128, static_cast<int>((s >> 7) & 7)), s + swizzle_address(off, Swizzle::b128, 0));
}

TEST(OperandAddressing, ReverseMapFindsEveryElement) {
  for (const Type t : {Type::f16, Type::tf32, Type::e5m2, Type::b1}) {
    const OperandAddressing at(MatrixDescriptor::decode(0x4000004000010044), Major::k, t, 64, 256 / bits_of(t));
    const int bytes = bits_of(t) >= 8 ? bits_of(t) / 8 : 1;
    std::set<std::uint64_t> used;
    for (int x = 0; x < 64; x += 7)
      for (int k = 0; k < at.k(); k += 3) {
        const SmemSlot s = at.slot(x, k);
        for (int b = 0; b < bytes; ++b) {
          const auto found = at.elements_at(s.address + static_cast<std::uint64_t>(b));
          bool hit = false;
          for (const auto& e : found) hit = hit || (e.x == x && e.k == k && e.byte == b && e.bit == s.bit);
          ASSERT_TRUE(hit) << name(t) << " (" << x << ", " << k << ")";
          if (t == Type::b1) EXPECT_EQ(found.size(), 8U);  // a byte holds 8 b1 elements
          else EXPECT_EQ(found.size(), 1U);
        }
      }
    EXPECT_TRUE(at.elements_at(0x100).empty());
  }
}

TEST(OperandAddressing, FootprintAndOverlap) {
  const OperandAddressing dense(MatrixDescriptor::decode(0x0000001000080040), Major::k, Type::f16, 64, 16);
  EXPECT_EQ(dense.footprint(), (std::pair<std::uint64_t, std::uint64_t>{0x400, 0x400 + 64 * 32 - 1}));
  EXPECT_FALSE(dense.overlap().has_value());
  for (const std::uint64_t d : {0xC000001000010040ULL, 0x8000002000010040ULL, 0x4000004000010040ULL})
    EXPECT_FALSE(OperandAddressing(MatrixDescriptor::decode(d), Major::k, Type::b1, 64, 256).overlap().has_value());
  // LBO 0: the two 16-byte halves of every row land on the same bytes.
  const OperandAddressing clash(MatrixDescriptor::decode(MatrixDescriptor::encode(0x400, 0, 256, 0, Swizzle::none)),
                                Major::k, Type::f16, 64, 16);
  ASSERT_TRUE(clash.overlap().has_value());
  EXPECT_EQ(*clash.overlap(), "elements (0, 0) and (0, 8) both use shared byte 0x400");
  EXPECT_EQ(dense.formula(), "address = start 0x400 + (x>>3)*256 + (2k/16)*128 + (x&7)*16 + (2k)%16");
}

TEST(OperandAddressing, CombinationsThatCannotBeAddressed) {
  const MatrixDescriptor d = MatrixDescriptor::decode(0x4000004000010040);
  EXPECT_THROW(OperandAddressing(d, Major::mn, Type::b1, 64, 256), Error);
}

// A K-major row wider than the swizzle (sparse B: 32 f16 = 64 bytes of K under 32B swizzle) goes
// on LBO further per swizzle width, as the H100 ran it (tests/data/wgmma-sp-sm90).
TEST(OperandAddressing, KMajorRowWiderThanTheSwizzleStepsByLbo) {
  const MatrixDescriptor d = MatrixDescriptor::decode(MatrixDescriptor::encode(0x400, 0x800, 256, 0, Swizzle::b32));
  const OperandAddressing at(d, Major::k, Type::f16, 8, 32);
  // Row 1, k 16..31: the second 32-byte chunk, 0x800 further; then the 32B swizzle of bit 7.
  EXPECT_EQ(at.slot(1, 16).address, swizzle_address(0x400 + 32 + 0x800, Swizzle::b32, 0));
  EXPECT_EQ(at.slot(1, 15).address, swizzle_address(0x400 + 32 + 30, Swizzle::b32, 0));
}

}  // namespace
}  // namespace ptxmma
