// The forms of cp.async.bulk.tensor's im2col mode and of tensormap.replace / cp_fenceproxy that
// ptxas 13.0 takes for sm_90a decode, and the ones it refuses are located errors naming what is
// wrong (each line below was tried with ptxas -arch=sm_90a). What the GPU does with them is in the
// captured vectors of tests/data/tma-sm90 (HardwareSnippets.BulkCopiesAndTmaBoxesGiveTheGpuBytes).
#include <gtest/gtest.h>

#include "sim/error.hpp"
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

}  // namespace
}  // namespace ptxmma::test
