// atom and red: every operation on global, shared and generic addresses, lane order as the order
// of side effects, the old value returned, floating-point adds rounded to nearest even (.f32 on
// global memory flushing subnormals), and the forms ptxas refuses refused with located errors.
#include <gtest/gtest.h>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

TEST(Atomic, IntegerOperationsInLaneOrder) {
  const Ran r = run_ptx(R"(
.reg .b32 %r<24>;
.reg .b64 %rd<8>;
.reg .b16 %h;
mov.u32 %r0, %laneid;
add.u32 %r1, %r0, 1;
mov.u64 %rd0, 0x1000;
atom.global.add.u32 %r2, [%rd0], %r1;
atom.shared.min.s32 %r3, [0], %r0;
sub.s32 %r4, 10, %r0;
atom.shared.max.s32 %r5, [4], %r4;
atom.shared::cta.inc.u32 %r6, [8], 5;
atom.shared.dec.u32 %r7, [12], 3;
shl.b32 %r8, 1, %r0;
atom.shared.or.b32 %r9, [16], %r8;
atom.shared.xor.b32 %r10, [20], %r1;
not.b32 %r11, %r8;
atom.shared.and.b32 %r12, [24], %r11;
atom.shared.exch.b32 %r13, [28], %r1;
atom.shared.cas.b32 %r14, [32], %r0, %r1;
red.shared.add.u32 [36], %r1;
cvta.shared.u64 %rd1, 40;
atom.add.u32 %r15, [%rd1], 2;
cvt.u64.u32 %rd2, %r1;
atom.relaxed.gpu.global.add.u64 %rd3, [%rd0+8], %rd2;
atom.global.min.s64 %rd4, [%rd0+16], -5;
atom.global.cas.b64 %rd5, [%rd0+24], 0, %rd2;
atom.shared.cas.b16 %h, [44], 0, 7;
)",
                        [](Ran& x) {
                          for (std::uint64_t a = 0; a < 32; a += 8) x.machine->global().store(0x1000 + a, 8, 0);
                          x.machine->shared().store(0, 4, 100);
                          x.machine->shared().store(4, 4, 0x80000000U);
                          x.machine->shared().store(24, 4, 0xffffffffU);
                        });
  std::uint32_t xs = 0;
  for (std::uint32_t l = 0; l < 32; ++l) {
    const int lane = static_cast<int>(l);
    EXPECT_EQ(r.reg(lane, "%r2"), l * (l + 1) / 2) << l;
    EXPECT_EQ(r.reg(lane, "%r3"), l == 0 ? 100U : 0U);
    EXPECT_EQ(r.reg(lane, "%r5"), l == 0 ? 0x80000000U : 10U);
    EXPECT_EQ(r.reg(lane, "%r6"), l % 6);
    EXPECT_EQ(r.reg(lane, "%r7"), (4 - l % 4) % 4);
    EXPECT_EQ(r.reg(lane, "%r9"), l == 0 ? 0U : (1ULL << l) - 1);
    EXPECT_EQ(r.reg(lane, "%r10"), xs);
    xs ^= l + 1;
    EXPECT_EQ(r.reg(lane, "%r12"), 0xffffffffULL << l & 0xffffffffU);
    EXPECT_EQ(r.reg(lane, "%r13"), l);
    EXPECT_EQ(r.reg(lane, "%r14"), l);
    EXPECT_EQ(r.reg(lane, "%r15"), 2 * l);
    EXPECT_EQ(r.reg(lane, "%rd3"), l * (l + 1) / 2);
    EXPECT_EQ(r.reg(lane, "%rd4"), l == 0 ? 0U : ~0ULL - 4);
    EXPECT_EQ(r.reg(lane, "%rd5"), l == 0 ? 0U : 1U);
    EXPECT_EQ(r.reg(lane, "%h"), l == 0 ? 0U : 7U);
  }
  const Memory& s = r.machine->shared();
  EXPECT_EQ(s.load(0, 4), 0U);
  EXPECT_EQ(s.load(8, 4), 32U % 6);
  EXPECT_EQ(s.load(16, 4), 0xffffffffU);
  EXPECT_EQ(s.load(24, 4), 0U);
  EXPECT_EQ(s.load(32, 4), 32U);
  EXPECT_EQ(s.load(36, 4), 528U);
  EXPECT_EQ(s.load(40, 4), 64U);
  EXPECT_EQ(r.machine->global().load(0x1000, 4), 528U);
}

// One thread: float adds round to nearest even; .f32 on global memory flushes subnormal inputs
// and results, on shared memory not.
TEST(Atomic, FloatAddsRoundToNearestEven) {
  InterpreterOptions o;
  o.ntid = {1, 1, 1};
  const Ran r = run_ptx(R"(
.reg .f32 %f<4>;
.reg .f64 %fd;
.reg .b32 %r<4>;
.reg .b16 %h<2>;
.reg .b64 %rd;
mov.u64 %rd, 0x1000;
mov.b16 %h1, 0x3b80;
atom.global.add.f32 %f0, [%rd], 0f00000002;
atom.shared.add.f32 %f1, [0], 0f00000002;
atom.global.add.f32 %f2, [%rd+4], 0f33800000;
red.global.add.f32 [%rd+8], 0f33800001;
atom.global.add.f64 %fd, [%rd+16], 0d3CA0000000000000;
atom.global.add.noftz.f16x2 %r0, [%rd+24], 0x10011000;
atom.shared.add.noftz.bf16 %h0, [4], %h1;
atom.shared.add.noftz.bf16x2 %r1, [8], 0x3b813b80;
)",
                        [](Ran& x) {
                          Memory& g = x.machine->global();
                          g.store(0x1000, 4, 0x00000001);
                          g.store(0x1004, 4, 0x3f800000);
                          g.store(0x1008, 4, 0x3f800000);
                          g.store(0x1010, 8, 0x3ff0000000000000ULL);
                          g.store(0x1018, 4, 0x3c003c00);
                          x.machine->shared().store(0, 4, 0x00000001);
                          x.machine->shared().store(4, 2, 0x3f80);
                          x.machine->shared().store(8, 4, 0x3f803f80);
                        },
                        o);
  const Memory& g = r.machine->global();
  const Memory& s = r.machine->shared();
  EXPECT_EQ(r.reg(0, "%f0"), 0x00000001U);  // the old value, as stored
  EXPECT_EQ(g.load(0x1000, 4), 0U);         // 0 + 0 after flushing
  EXPECT_EQ(s.load(0, 4), 3U);
  EXPECT_EQ(g.load(0x1004, 4), 0x3f800000U);  // 1 + 2^-24: a tie, to even
  EXPECT_EQ(g.load(0x1008, 4), 0x3f800001U);
  EXPECT_EQ(g.load(0x1010, 8), 0x3ff0000000000000ULL);
  EXPECT_EQ(r.reg(0, "%r0"), 0x3c003c00U);
  EXPECT_EQ(g.load(0x1018, 4), 0x3c013c00U);
  EXPECT_EQ(s.load(4, 2), 0x3f80U);
  EXPECT_EQ(s.load(8, 4), 0x3f813f80U);
}

TEST(Atomic, RefusedFormsAndBadAddressesAreLocatedErrors) {
  const auto has = [](const std::string& text, const std::string& what) {
    const std::string e = error_of(text);
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  has(".reg .b64 %rd;\natom.global.add.s64 %rd, [0], %rd;",
      "test.ptx:2:1: error: 'atom.global.add.s64': .add takes .u32 .s32 .u64 .f32 .f64 .f16 .f16x2 .bf16 .bf16x2, "
      "not .s64");
  has(".reg .b32 %r;\natom.global.inc.s32 %r, [0], %r;", ".inc takes .u32, not .s32");
  has(".reg .b16 %h;\natom.global.add.f16 %h, [0], %h;", ".add of .f16 needs .noftz");
  has(".reg .b32 %r;\nred.global.exch.b32 [0], %r;", "red has no .exch");
  has(".reg .b32 %r;\natom.global.v2.f32.add %r, [0], %r;", "vector atomics are not supported yet");
  has(".reg .b32 %r;\natom.global.cas.b32 %r, [0], %r;", "takes 4 operands, found 3");
  has(".reg .b32 %r;\natom.global.add.u32 %r, [2], 1;", "lane 0: address 0x2 is not aligned to the 4-byte access");
  has(".reg .b32 %r;\natom.shared.add.u32 %r, [0x100000], 1;", "lane 0: shared memory");
  has(".reg .b32 %r;\natom.global.add.u32 %r, [0x5000], 1;", "lane 0: global memory");
}

}  // namespace
}  // namespace ptxmma::test
