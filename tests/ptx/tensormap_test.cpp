// The forms of cp.async.bulk.tensor's im2col mode and of tensormap.replace / cp_fenceproxy that
// ptxas 13.0 takes for sm_90a decode, and the ones it refuses are located errors naming what is
// wrong (each line below was tried with ptxas -arch=sm_90a). What the GPU does with them is in the
// captured vectors of tests/data/tma-sm90 (HardwareSnippets.BulkCopiesAndTmaBoxesGiveTheGpuBytes).
#include <gtest/gtest.h>

#include "sim/error.hpp"
#include "sim/exec/tensor_map.hpp"
#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

const char* kHead = R"(.reg .b64 %rd<3>;
.reg .b32 %r<3>;
.reg .b16 %h<3>;
)";

// The decoder's message for one instruction after kHead, or "" when it decodes.
std::string decode_error(const std::string& line) {
  try {
    (void)ptx::parse_ptx(kHead + line + "\n", "test.ptx");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(TensorForms, PtxasTakesTheseIm2colForms) {
  for (const char* ok : {
           "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0, %r0}], [8], {%h0};",
           "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0, %r0, %r0}], [8], {%h0, %h1};",
           "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0, %r0, %r0, %r0}], [8], {%h0, %h1, 3};",
           "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [0], [%rd0, {%r0, %r0, %r0, %r0}], [8], {%h0, %h1}, %h2, %rd1;",
           "cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%rd0, {%r0, %r0, %r0}], [0];",
           "cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd0, {%r0, %r0, %r0}], [0];",
           "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd0, {%r0, %r0, %r0}], {%h0};",
       })
    EXPECT_EQ(decode_error(ok), "") << ok;
}

TEST(TensorForms, PtxasRefusesTheseIm2colForms) {
  const std::pair<const char*, const char*> refused[] = {
      {"cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0}], [8], {%h0};",
       "the im2col mode is for 3d, 4d and 5d tensors"},
      {"cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0, %r0}], [8];",
       "needs 1 im2col offset {...} (16-bit) after the mbarrier"},
      {"cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0, %r0, %r0}], [8], {%h0};",
       "needs 2 im2col offsets"},
      {"cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0, %r0}], [8], {%r0};",
       "an im2col offset of"},
      {"cp.async.bulk.tensor.3d.global.shared::cta.im2col.bulk_group [%rd0, {%r0, %r0, %r0}], [0];",
       "a store or reduction in the im2col mode is .im2col_no_offs"},
      {"cp.async.bulk.tensor.3d.shared::cluster.global.im2col_no_offs.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0, %r0}], [8];",
       "a load or prefetch in the im2col mode is .im2col"},
      {"cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes [0], [%rd0, {%r0, %r0, %r0}], [8], {%h0};",
       "are sm_100's"},
  };
  for (const auto& [line, what] : refused) {
    const std::string e = decode_error(line);
    EXPECT_EQ(e.find("test.ptx:4:"), 0U) << e;
    EXPECT_NE(e.find(what), std::string::npos) << line << "\n" << e;
  }
}

TEST(TensorForms, PtxasTakesTheseTensormapForms) {
  for (const char* ok : {
           "tensormap.replace.tile.global_address.global.b1024.b64 [%rd0], %rd1;",
           "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r0], 4096;",
           "tensormap.replace.tile.rank.b1024.b32 [%rd0], 2;",
           "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd0], 4, %r1;",
           "tensormap.replace.tile.global_dim.global.b1024.b32 [%rd0], 0, 7;",
           "tensormap.replace.tile.global_stride.global.b1024.b64 [%rd0], 4, %rd1;",
           "tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%r0], 1, %r1;",
           "tensormap.replace.tile.elemtype.global.b1024.b32 [%rd0], 12;",
           "tensormap.replace.tile.interleave_layout.global.b1024.b32 [%rd0], 2;",
           "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd0], 3;",
           "tensormap.replace.tile.fill_mode.global.b1024.b32 [%rd0], 1;",
           "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd0], [%r0], 128;",
           "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.cta.sync.aligned [%rd0], [%r0], 128;",
       })
    EXPECT_EQ(decode_error(ok), "") << ok;
}

TEST(TensorForms, PtxasRefusesTheseTensormapForms) {
  const std::pair<const char*, const char*> refused[] = {
      {"tensormap.replace.global_address.global.b1024.b64 [%rd0], %rd1;", "needs .tile"},
      {"tensormap.replace.tile.global_address.global.b1024.b32 [%rd0], %r1;", ".global_address takes the type .b64"},
      {"tensormap.replace.tile.global_dim.global.b1024.b64 [%rd0], 0, %rd1;", ".global_dim takes the type .b32"},
      {"tensormap.replace.tile.global_address.global.b64 [%rd0], %rd1;", "needs .b1024"},
      {"tensormap.replace.tile.rank.shared.b1024.b32 [%r0], 2;", "the map is .global or .shared::cta"},
      {"tensormap.replace.tile.box_dim.global.b1024.b32 [%rd0], 5, %r1;", "the ordinal 5 is outside 0..4"},
      {"tensormap.replace.tile.box_dim.global.b1024.b32 [%rd0], %r0, %r1;", "the ordinal of"},
      {"tensormap.replace.tile.elemtype.global.b1024.b32 [%rd0], 13;", "the new value 13 is outside 0..12"},
      {"tensormap.replace.tile.elemtype.global.b1024.b32 [%rd0], %r1;", "the new value of"},
      {"tensormap.replace.tile.interleave_layout.global.b1024.b32 [%rd0], 3;", "outside 0..2"},
      {"tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%rd0], 4;", "outside 0..3"},
      {"tensormap.replace.tile.fill_mode.global.b1024.b32 [%rd0], 2;", "outside 0..1"},
      {"tensormap.replace.tile.swizzle_atomicity.global.b1024.b32 [%rd0], 0;", "sm_100's"},
      {"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu [%rd0], [%r0], 128;", "needs .sync.aligned"},
      {"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd0], [%r0], 64;",
       "the size is 128"},
      {"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.acquire.gpu.sync.aligned [%rd0], [%r0], 128;",
       "needs .tensormap::generic.release"},
      {"tensormap.cp_fenceproxy.shared::cta.global.tensormap::generic.release.gpu.sync.aligned [%r0], [%rd0], 128;",
       "copies .global.shared::cta"},
  };
  for (const auto& [line, what] : refused) {
    const std::string e = decode_error(line);
    EXPECT_EQ(e.find("test.ptx:4:"), 0U) << e;
    EXPECT_NE(e.find(what), std::string::npos) << line << "\n" << e;
  }
}

// An NHWC f16 tensor of 16 channels, W 6, H 5, N 2 at global 0x10000, as an im2col map with the
// pixel box (-1, -1) .. (-1, -1) and 8 channels x 32 pixels; OP runs on it with coordinates C.
std::string run_im2col(const std::string& op) {
  TensorMapParams m;
  m.type = TensorMapType::f16;
  m.rank = 4;
  m.address = 0x10000;
  m.dims = {16, 6, 5, 2, 0};
  m.strides = {32, 192, 960, 0};
  m.im2col = true;
  m.lower = {-1, -1, 0};
  m.upper = {-1, -1, 0};
  m.channels = 8;
  m.pixels = 32;
  const TensorMapBytes bytes = encode_tensor_map(m);
  const std::string kernel = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .align 64 .b8 map[128])
{
.reg .b64 %rd<2>;
.reg .pred %p;
mov.b64 %rd0, map;
cvta.param.u64 %rd1, %rd0;
mbarrier.init.shared::cta.b64 [0], 1;
mbarrier.arrive.expect_tx.shared::cta.b64 _, [0], 512;
)" + op + R"(
WAIT:
mbarrier.try_wait.parity.shared::cta.b64 %p, [0], 0;
@!%p bra WAIT;
}
)";
  InterpreterOptions one;
  one.ntid = {1, 1, 1};
  try {
    (void)run_ptx(kernel, [&](Ran& r) {
      for (std::uint64_t a = 0; a < 1920; ++a) r.machine->global().store(0x10000 + a, 1, a & 0xff);
      r.machine->param().write(0, bytes.data(), bytes.size());
    }, one);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// What stopped the H100 with an illegal instruction (docs/hardware/tensormap-sm90.md, "im2col").
TEST(TensorForms, Im2colCopiesTheGpuStoppedAreLocatedErrors) {
  const std::string load = "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [1024], [%rd1, ";
  EXPECT_EQ(run_im2col(load + "{0, -1, -1, 0}], [0], {1, 1};"), "");
  std::string e = run_im2col(load + "{0, -3, 0, 0}], [0], {0, 0};");
  EXPECT_EQ(e.find("test.ptx:13:1: error:"), 0U) << e;
  EXPECT_NE(e.find("coordinate 1 is -3, outside the pixel box's -1..4"), std::string::npos) << e;
  e = run_im2col(load + "{12, 0, 0, 0}], [0], {0, 0};");
  EXPECT_NE(e.find("channels 12..19 of dimension 0's 16"), std::string::npos) << e;
  e = run_im2col("cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {0, 0, 0, 0}], [1024];");
  EXPECT_NE(e.find("every im2col_no_offs store tried stopped the H100"), std::string::npos) << e;
}

// tensormap.replace changes the 128 bytes where they are (here shared memory), and
// tensormap.cp_fenceproxy copies them to global memory; its warp must execute it whole.
TEST(TensorForms, ReplaceChangesTheMapAndCpFenceproxyCopiesIt) {
  const std::string text = R"(
.reg .b64 %rd<2>;
.reg .b32 %r<2>;
.reg .pred %p;
mov.u64 %rd0, 0x20000;
mov.u32 %r0, 128;
tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r0], 1, 77;
tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r0], 2;
tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd0], [%r0], 128;
)";
  TensorMapParams m;
  m.address = 0x10000;
  m.dims = {64, 48, 0, 0, 0};
  m.strides = {128, 0, 0, 0};
  m.box = {8, 8, 0, 0, 0};
  const TensorMapBytes before = encode_tensor_map(m);
  const Ran r = run_ptx(text, [&](Ran& run) {
    run.machine->shared().write(128, before.data(), before.size());
    for (std::uint64_t a = 0; a < 128; ++a) run.machine->global().store(0x20000 + a, 1, 0);
  });
  TensorMapBytes after{};
  r.machine->global().read(0x20000, after.data(), after.size());
  const TensorMapParams p = decode_tensor_map(after);
  EXPECT_EQ(p.dims[1], 77U);
  EXPECT_EQ(p.swizzle, 2);
  m.dims[1] = 77, m.swizzle = 2;
  TensorMapBytes want = encode_tensor_map(m);
  for (std::size_t i = 64; i < 80; ++i) want[i] = before[i];  // qwords 8 and 9 stay as they were
  EXPECT_EQ(after, want);
  const std::string e = error_of(".reg .b32 %r0;\n.reg .b64 %rd0;\n.reg .pred %p;\nmov.u32 %r0, %laneid;\n"
                                 "setp.lt.u32 %p, %r0, 4;\nmov.u64 %rd0, 0x20000;\n"
                                 "@%p tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
                                 "[%rd0], [128], 128;");
  EXPECT_NE(e.find("is .sync.aligned, but only lanes 0-3"), std::string::npos) << e;
}

}  // namespace
}  // namespace ptxmma::test
