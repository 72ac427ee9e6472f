// The warpgroup state (4 warps, shared memory) and wgmma executed on it.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <functional>

#include "isa/wgmma_instruction.hpp"
#include "sim/error.hpp"
#include "tests/malformed/malformed.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/state/warpgroup.hpp"
#include "tests/paths.hpp"
#include "tools/vectors/wgmma_golden.hpp"

namespace ptxmma {
namespace {

using malformed::error_of;

TEST(SharedMemory, LittleEndianAndBoundsChecked) {
  SharedMemory s;
  EXPECT_EQ(s.size(), 228U * 1024);
  s.store(0x10, 4, 0x11223344);
  EXPECT_EQ(s.load(0x10, 2), 0x3344U);
  EXPECT_EQ(s.load(0x12, 2), 0x1122U);
  EXPECT_EQ(s.byte(0x13), 0x11);
  EXPECT_EQ(s.load(0x10, 8), 0x11223344U);
  EXPECT_EQ(error_of([&] { (void)s.load(0x38fff, 2, "A element (63, 15)"); }),
            "shared memory: a 2-byte read at 0x38fff (A element (63, 15)) goes past the end of the 233472-byte "
            "shared memory (0x0..0x38fff)");
  EXPECT_EQ(error_of([&] { s.store(0x40000, 1, 0); }),
            "shared memory: a 1-byte write at 0x40000 is outside the 233472-byte shared memory (0x0..0x38fff)");
  EXPECT_EQ(error_of([&] { (void)s.load(0, 3); }), "shared memory: a load of 3 bytes (1, 2, 4 or 8)");
  SharedMemory small(1024);
  const std::vector<std::uint8_t> image(16, 0xab);
  small.write(1008, image);
  EXPECT_EQ(small.byte(1023), 0xab);
  EXPECT_THROW(small.write(1009, image), Error);
  EXPECT_THROW(SharedMemory(300 * 1024), Error);
}

TEST(Warpgroup, FourWarpsOfNamedRegisters) {
  Warpgroup wg;
  wg.declare("%r1", RegKind::b32);
  wg.set(37, "%r1", 7);
  EXPECT_EQ(wg.get(37, "%r1"), 7U);
  EXPECT_EQ(wg.warp(1).get(5, "%r1"), 7U);
  EXPECT_EQ(wg.get(5, "%r1"), 0U);
  EXPECT_TRUE(wg.all_active());
  wg.warp(3).set_active_mask(0x7fffffff);
  EXPECT_FALSE(wg.all_active());
  EXPECT_THROW((void)wg.get(128, "%r1"), Error);
  EXPECT_THROW((void)wg.warp(4), Error);
}

// The first case of golden entries, loaded into a warpgroup's named registers and shared memory,
// gives the H200's D registers.
class GoldenOnRegisters : public ::testing::Test {
 protected:
  static const WgmmaGoldenSet& set() {
    static const WgmmaGoldenSet s = read_wgmma_golden_set(std::string(kPtxmmaSourceDir) + "/tests/data/wgmma-sm90");
    return s;
  }
  static const WgmmaGoldenEntry& entry(const std::string& label) {
    for (const auto& e : set().entries)
      if (e.label() == label) return e;
    throw Error("no entry " + label);
  }
  // Runs case `index` of an entry as a statement on named registers; returns whether D matches.
  static void run(const WgmmaGoldenEntry& e, int index) {
    const WgmmaGoldenCase c = read_wgmma_golden_cases(e)[static_cast<std::size_t>(index)];
    const MatrixVariant& v = *parse_wgmma(e.ptx).variant;
    Warpgroup wg;
    wg.shared().write(c.smem_base, c.image);
    WgmmaRegisters regs;
    for (int i = 0; i < v.regs(Operand::d); ++i) {
      regs.d.push_back(fmt::format("%f{}", i));
      wg.declare(regs.d.back(), RegKind::b32);
    }
    if (e.operands.a_source == ASource::registers) {
      for (int i = 0; i < 4; ++i) {
        regs.a.push_back(fmt::format("%r{}", i));
        wg.declare(regs.a.back(), RegKind::b32);
      }
    } else {
      regs.a_desc = "%rd1";
      wg.declare("%rd1", RegKind::b64);
    }
    regs.b_desc = "%rd2";
    wg.declare("%rd2", RegKind::b64);
    regs.scale_d = "%p1";
    wg.declare("%p1", RegKind::pred);
    for (int t = 0; t < 128; ++t) {
      for (int i = 0; i < v.regs(Operand::d); ++i) wg.set(t, regs.d[i], c.c[static_cast<std::size_t>(t * v.regs(Operand::d) + i)]);
      for (std::size_t i = 0; i < regs.a.size(); ++i) wg.set(t, regs.a[i], c.a[t * 4 + i]);
      if (!regs.a_desc.empty()) wg.set(t, regs.a_desc, c.desc_a);
      wg.set(t, regs.b_desc, c.desc_b);
      wg.set(t, regs.scale_d, c.scale_d ? 1 : 0);
    }
    const WgmmaExecutor x(v, models_for("sm_90a").select(v.family, v.a, v.d), e.operands);
    execute_wgmma(wg, x, regs);
    for (int t = 0; t < 128; ++t)
      for (int i = 0; i < v.regs(Operand::d); ++i)
        ASSERT_EQ(wg.get(t, regs.d[i]), c.d[static_cast<std::size_t>(t * v.regs(Operand::d) + i)])
            << e.label() << " case " << index << " thread " << t << " register " << i;
  }
};

TEST_F(GoldenOnRegisters, IntegerAndBinaryMatchTheH200) {
  run(entry("wgmma.mma_async.sync.aligned.m64n64k32.satfinite.s32.u8.s8 [RS]"), 0);
  run(entry("wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 [SS]"), 0);
  run(entry("wgmma.mma_async.sync.aligned.m64n24k256.s32.b1.b1.and.popc [RS]"), 0);
  run(entry("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc [SS]"), 3);  // scale-d 0
}

TEST_F(GoldenOnRegisters, TransposesAndScales) {
  run(entry("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 [SS, trans-a, trans-b]"), 0);
  run(entry("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 [RS, trans-b]"), 1);
  run(entry("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 [SS, scale-a -1]"), 1);
}

TEST(WgmmaExecute, ErrorsOnRegistersAndDescriptors) {
  const MatrixVariant& v = *parse_wgmma("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8").variant;
  const WgmmaExecutor x(v, models_for("sm_90a").select(v.family, v.a, v.d), WgmmaOperands{});
  Warpgroup wg;
  WgmmaRegisters regs{{"%r0", "%r1", "%r2", "%r3"}, {}, "%rd1", "%rd2", "", true, "", 0};
  for (const auto& r : regs.d) wg.declare(r, RegKind::b32);
  wg.declare("%rd1", RegKind::b64);
  wg.declare("%rd2", RegKind::b64);
  const std::uint64_t good = MatrixDescriptor::encode(0x400, 128, 256, 0, Swizzle::none);
  for (int t = 0; t < 128; ++t) {
    wg.set(t, "%rd1", good);
    wg.set(t, "%rd2", good);
  }
  EXPECT_EQ(error_of([&] { execute_wgmma(wg, x, regs); }), "no error");
  wg.set(77, "%rd2", good + 0x10);
  EXPECT_EQ(error_of([&] { execute_wgmma(wg, x, regs); }),
            "the B descriptor (%rd2) differs between threads 0 and 77 (0x1000080040 and 0x1000080050): it must be the "
            "same in the whole warpgroup");
  wg.set(77, "%rd2", good);
  // A 64x32 s8 tile starting 1 KiB before the end of shared memory runs past it.
  const std::uint64_t late = MatrixDescriptor::encode(0x38c00, 128, 256, 0, Swizzle::none);
  for (int t = 0; t < 128; ++t) wg.set(t, "%rd1", late);
  EXPECT_EQ(error_of([&] { execute_wgmma(wg, x, regs); }),
            "shared memory: a 1-byte read at 0x39000 (A element (32, 0) through descriptor 0x00000010000838c0: start "
            "0x38c00, LBO 128, SBO 256, base offset 0, swizzle none) is outside the 233472-byte shared memory "
            "(0x0..0x38fff)");
  for (int t = 0; t < 128; ++t) wg.set(t, "%rd1", good | (1ULL << 14));
  EXPECT_EQ(error_of([&] { execute_wgmma(wg, x, regs); }),
            "matrix descriptor 0x0000001000084040: reserved bits 15:14 are 0b01 (must be 0)");
  for (int t = 0; t < 128; ++t) wg.set(t, "%rd1", good);
  regs.d.pop_back();
  EXPECT_EQ(error_of([&] { execute_wgmma(wg, x, regs); }),
            "operand d: wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 needs 4 registers, the instruction names 3");
  regs.d.push_back("%r3");
  wg.warp(2).set_active_mask(0xfffffffe);
  EXPECT_EQ(error_of([&] { execute_wgmma(wg, x, regs); }),
            "wgmma.mma_async.sync.aligned needs all 128 threads of the warpgroup active");
  EXPECT_THROW(WgmmaExecutor(v, models_for("sm_90a").select(v.family, v.a, v.d), WgmmaOperands{ASource::descriptor, -1, 1, 0, 0}),
               Error);
}

}  // namespace
}  // namespace ptxmma
