// `ptxmma layout` for wgmma (register layouts, descriptor addresses, reverse lookup) and
// `ptxmma replay` dispatching on the manifest's format.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/cli.hpp"
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

// Output and errors of a command.
std::string run(const std::string& args) { return test::run_cli(args).all(); }

bool contains(const std::string& s, const std::string& p) { return s.find(p) != std::string::npos; }

const std::string kF16 = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16";

TEST(WgmmaLayoutCommand, RegisterLayouts) {
  const std::string out = run("layout " + kF16);
  EXPECT_TRUE(contains(out, "layout wgmma.a.k16.16bit")) << out;
  EXPECT_TRUE(contains(out, "layout wgmma.d.32bit.n8")) << out;
  const std::size_t t127 = out.rfind("   T127 ");  // the D table comes last
  ASSERT_NE(t127, std::string::npos) << out;
  const std::string line = out.substr(t127, out.find('\n', t127) - t127);
  EXPECT_TRUE(contains(line, "d0:(55,6)") && contains(line, "d3:(63,7)")) << line;
  EXPECT_TRUE(contains(out, "operands, A from registers:    d, a, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b"));
  EXPECT_TRUE(contains(out, "give --desc-b to see the address of every element")) << out;
}

TEST(WgmmaLayoutCommand, SparseMetadataPerWarp) {
  // Warp w's threads describe rows 16w..16w+15, as warp-level class m2 does rows 0..15 (the
  // executor reads them so: sim/exec/wgmma.cpp sparse_columns).
  const std::string out = run("layout wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 --operand a --view matrix");
  EXPECT_TRUE(contains(out, "A: 64 x 16 f16 (M x K/2: the stored elements, in K order)")) << out;
  EXPECT_TRUE(contains(out, "sp-meta: one .b32 register per thread, warp w describing rows 16w..16w+15; pattern 2:4"))
      << out;
  EXPECT_TRUE(contains(out, "   17    T36:n0   T36:n1   T36:n2   T36:n3   T37:n0")) << out;
  EXPECT_TRUE(contains(out, "   63   T124:n4  T124:n5  T124:n6  T124:n7  T125:n4")) << out;
}

TEST(WgmmaLayoutCommand, DescriptorAddressesAndLookup) {
  // docs/wgmma-catalogue.md §3.6: 128B swizzle, element (13, 10) at S + 1732 = 0xac4.
  std::string out = run("layout " + kF16 + " --desc-a 0x4000004000010040 --operand a --view matrix");
  EXPECT_TRUE(contains(out, "A: 64 x 16 f16 (M x K) through descriptor 0x4000004000010040: start 0x400, LBO 16, SBO "
                            "1024, base offset 0, swizzle 128B"))
      << out;
  EXPECT_TRUE(contains(out, "   13   0xad0   0xad2")) << out;
  EXPECT_TRUE(contains(out, "0xac4")) << out;
  out = run("layout " + kF16 + " --desc-a 0x4000004000010040 --desc-b 0x0000001000080240 --address 0xac4 --address 0x2400");
  EXPECT_TRUE(contains(out, "shared byte 0xac4:\n   A[13][10] (byte 0 of 2)\n   B: no element\n")) << out;
  EXPECT_TRUE(contains(out, "shared byte 0x2400:\n   A: no element\n   B[0][0] (byte 0 of 2)\n")) << out;
  // MN-major A (imm-trans-a 1): element (13, 10) at S + 1338.
  out = run("layout " + kF16 + " --desc-a 0x4000004000010040 --trans-a 1 --address 0x93a");
  EXPECT_TRUE(contains(out, "A[13][10] (byte 0 of 2)")) << out;
  out = run("layout wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc --desc-b 0x1000080040 --address 0x401");
  EXPECT_TRUE(contains(out, "B[8][0] (bit 0)")) << out;
  EXPECT_TRUE(contains(out, "B[15][0] (bit 7)")) << out;
}

TEST(WgmmaLayoutCommand, Errors) {
  EXPECT_TRUE(contains(run("layout " + kF16 + " --trans-a 1"), "--trans-a needs --desc-a"));
  EXPECT_TRUE(contains(run("layout wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 --desc-b 0x40 --trans-b 1"),
                       "imm-trans-b 1: tf32 inputs cannot be transposed (f16 and bf16 only)"));
  EXPECT_TRUE(contains(run("layout " + kF16 + " --desc-a 0x8040"), "reserved bits 15:14 are 0b10 (must be 0)"));
  EXPECT_TRUE(contains(run("layout " + kF16 + " --desc-a zz"), "--desc-a 'zz': expected a number"));
  EXPECT_TRUE(contains(run("layout " + kF16 + " --address 0x400"), "--address needs --desc-a or --desc-b"));
  EXPECT_TRUE(contains(run("layout wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16"),
                       "N = 12 is not legal for f16 inputs"));
}

TEST(WgmmaReplayCommand, DispatchesOnTheFormat) {
  const std::string out = run("replay " + std::string(kPtxmmaSourceDir) + "/tests/data/wgmma-sm90 --jobs 2");
  EXPECT_TRUE(contains(out, "replay wgmma-sm90 (NVIDIA H200, sm_90) through the sm_90a model")) << out;
  EXPECT_TRUE(contains(out, "wgmma.mma_async.sync.aligned.m64n256k256.s32.b1.b1.and.popc [SS]")) << out;
  EXPECT_TRUE(contains(out, "replay: ")) << out;
  EXPECT_TRUE(contains(out, " passed, ")) << out;
}

}  // namespace
}  // namespace ptxmma
