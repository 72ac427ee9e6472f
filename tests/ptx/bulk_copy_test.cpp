// The bulk-copy unit: cp.async.bulk into shared memory completes at the first mbarrier wait that
// needs it (its bytes land, its transaction bytes complete the phase), a read of its destination
// before then is reported, bulk groups, cp.async.bulk.tensor through a tensor map declared in a
// parameter, and the located errors of malformed copies and maps. The GPU's own results are the
// captured vectors of tests/data/tma-sm90 (HardwareSnippets.BulkCopiesAndTmaBoxesGiveTheGpuBytes).
#include <gtest/gtest.h>

#include "sim/exec/tensor_map.hpp"
#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

void fill_global(Ran& r) {
  for (std::uint64_t a = 0; a < 0x1000; ++a) r.machine->global().store(0x10000 + a, 1, (a * 7 + 3) & 0xff);
}

// Lane 0 copies 64 bytes from global 0x10000 to shared 0x100 on the mbarrier at 0; every lane
// waits for phase 0 and reads its word; lane 0 then stores 64 bytes back to global 0x20000 in a
// bulk group.
const char* kRoundTrip = R"(
.reg .b32 %r<4>;
.reg .b64 %rd<2>;
.reg .pred %p<3>;
mov.u32 %r0, %laneid;
setp.eq.u32 %p0, %r0, 0;
@%p0 mbarrier.init.shared::cta.b64 [0], 1;
@%p0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [0], 64;
mov.u64 %rd0, 0x10000;
@%p0 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [256], [%rd0], 64, [0];
WAIT:
mbarrier.try_wait.parity.shared::cta.b64 %p1, [0], 0;
@!%p1 bra WAIT;
and.b32 %r1, %r0, 15;
shl.b32 %r1, %r1, 2;
ld.shared.u32 %r2, [%r1+256];
fence.proxy.async.shared::cta;
mov.u64 %rd1, 0x20000;
@%p0 cp.async.bulk.global.shared::cta.bulk_group [%rd1], [256], 64;
cp.async.bulk.commit_group;
cp.async.bulk.wait_group.read 0;
)";

TEST(BulkCopy, LandsAtTheWaitAndCompletesItsBytesOnTheMbarrier) {
  const Ran r = run_ptx(kRoundTrip, fill_global);
  EXPECT_EQ(warnings(r), "");
  for (int lane = 0; lane < 32; ++lane)
    EXPECT_EQ(r.reg(lane, "%r2"), r.machine->global().load(0x10000 + 4 * static_cast<std::uint64_t>(lane % 16), 4));
  for (std::uint64_t a = 0; a < 64; ++a) EXPECT_EQ(r.machine->global().load(0x20000 + a, 1), (a * 7 + 3) & 0xff);
  EXPECT_EQ(r.machine->shared().load(0, 8) >> 63, 1U);  // phase 0 completed: parity 1
}

TEST(BulkCopy, ReadingTheDestinationBeforeTheWaitIsARace) {
  const std::string text = R"(
.reg .b32 %r<2>;
.reg .b64 %rd0;
.reg .pred %p;
mbarrier.init.shared::cta.b64 [0], 1;
mov.u64 %rd0, 0x10000;
cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [128], [%rd0], 32, [0];
ld.shared.u32 %r0, [136];
mbarrier.arrive.expect_tx.shared::cta.b64 _, [0], 32;
mbarrier.try_wait.parity.shared::cta.b64 %p, [0], 0;
)";
  InterpreterOptions one;
  one.ntid = {1, 1, 1};
  const Ran r = run_ptx(text, fill_global, one);
  const std::string w = warnings(r);
  EXPECT_NE(w.find("reads shared bytes 0x88..0x8b while the bulk copy at line 7"), std::string::npos) << w;
  EXPECT_EQ(r.reg(0, "%r0"), 0U);  // the old bytes
  EXPECT_EQ(r.reg(0, "%p"), 1U);   // the wait completed the copy and the phase
  one.strict = true;
  try {
    (void)run_ptx(text, fill_global, one);
    FAIL() << "no error under strict";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a data race"), std::string::npos) << e.what();
  }
}

TEST(BulkCopy, MalformedCopiesAreLocatedErrors) {
  const auto err = [](const std::string& body) {
    return error_of(".reg .b64 %rd0;\nmov.u64 %rd0, 0x10000;\nmbarrier.init.shared::cta.b64 [0], 1;\n" + body);
  };
  EXPECT_NE(err("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [128], [%rd0], 24, [0];")
                .find("test.ptx:4:78: error: 'cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes': a size of 24 bytes"),
            std::string::npos);
  EXPECT_NE(err("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [136], [%rd0], 32, [0];")
                .find("the destination 0x88 is not a multiple of 16"),
            std::string::npos);
  EXPECT_NE(err("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [1048576], [%rd0], 32, [0];")
                .find("outside the CTA's"),
            std::string::npos);
  EXPECT_NE(err("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [128], [%rd0], 32, [4];")
                .find("not 8-byte aligned"),
            std::string::npos);
  EXPECT_NE(err("cp.async.bulk.shared::cta.global [128], [%rd0], 32, [0];").find("completes on an mbarrier"),
            std::string::npos);
  EXPECT_NE(err("cp.async.bulk.global.shared::cta.bulk_group [%rd0], [128], 32;\ncp.async.bulk.wait_group %rd0;")
                .find("the group count must be an integer constant"),
            std::string::npos);
  // Floating-point reductions: the forms ptxas takes for sm_90 (docs/hardware/bulk-reduce-sm90.md).
  for (const char* refused : {"min.f32", "add.f16", "add.noftz.f32", "max.f64"})
    EXPECT_NE(err(std::string("cp.reduce.async.bulk.global.shared::cta.bulk_group.") + refused + " [%rd0], [128], 32;")
                  .find("the bulk reductions of floating-point types are .add.f32, .add.f64"),
              std::string::npos)
        << refused;
  // The source must be given: global memory holds only what the state gave.
  EXPECT_NE(err("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [128], [%rd0], 32, [0];")
                .find("is not given by the initial state"),
            std::string::npos);
}

// A 2-D f32 tensor of 20 x 30 at global 0x10000 (rows of 80 bytes), an 8 x 4 box at (c0, c1)
// loaded with the 32B swizzle to shared 0x400.
const char* kTensor = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry tile(.param .align 64 .b8 map[128], .param .u32 c0, .param .u32 c1)
{
.reg .b32 %r<4>;
.reg .b64 %rd<2>;
.reg .pred %p;
ld.param.u32 %r0, [c0];
ld.param.u32 %r1, [c1];
mov.b64 %rd0, map;
cvta.param.u64 %rd1, %rd0;
prefetch.tensormap [%rd1];
mbarrier.init.shared::cta.b64 [0], 1;
mbarrier.arrive.expect_tx.shared::cta.b64 _, [0], 128;
cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [1024], [%rd1, {%r0, %r1}], [0];
WAIT:
mbarrier.try_wait.parity.shared::cta.b64 %p, [0], 0;
@!%p bra WAIT;
}
)";

TensorMapParams tensor_20x30() {
  TensorMapParams p;
  p.type = TensorMapType::f32;
  p.address = 0x10000;
  p.dims = {20, 30, 0, 0, 0};
  p.strides = {80, 0, 0, 0};
  p.box = {8, 4, 0, 0, 0};
  p.swizzle = 1;
  return p;
}

Ran run_tensor(std::uint32_t c0, std::uint32_t c1, const TensorMapBytes& map) {
  InterpreterOptions one;
  one.ntid = {1, 1, 1};
  return run_ptx(
      kTensor,
      [&](Ran& r) {
        for (std::uint64_t a = 0; a < 20 * 30 * 4; ++a) r.machine->global().store(0x10000 + a, 1, (a * 5 + 1) & 0xff);
        r.machine->param().write(0, map.data(), map.size());
        r.machine->param().store(128, 4, c0);
        r.machine->param().store(132, 4, c1);
      },
      one);
}

TEST(BulkCopy, TensorBoxLandsSwizzledWithZerosOutside) {
  const Ran r = run_tensor(16, 2, encode_tensor_map(tensor_20x30()));
  EXPECT_EQ(warnings(r), "");
  const Memory& s = r.machine->shared();
  const Memory& g = r.machine->global();
  for (std::uint64_t row = 0; row < 4; ++row)
    for (std::uint64_t col = 0; col < 8; ++col) {
      const std::uint64_t lin = 1024 + row * 32 + col * 4;
      const std::uint64_t at = lin ^ (((lin >> 7) & 1) << 4);  // 32B swizzle: bit 4 ^= bit 7
      const std::uint64_t want = 16 + col < 20 ? g.load(0x10000 + (2 + row) * 80 + (16 + col) * 4, 4) : 0;
      EXPECT_EQ(s.load(at, 4), want) << row << " " << col;
    }
}

TEST(BulkCopy, TensorErrorsAreLocated) {
  const auto what = [](std::uint32_t c0, const TensorMapBytes& m) {
    try {
      (void)run_tensor(c0, 0, m);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const TensorMapBytes good = encode_tensor_map(tensor_20x30());
  EXPECT_NE(what(0xfffffffdU, good).find("coordinate 0 of the box is -3"), std::string::npos);
  TensorMapBytes bad = good;
  bad[120] = 1;
  const std::string e = what(0, bad);
  EXPECT_NE(e.find("test.ptx:17:1: error:"), std::string::npos) << e;
  EXPECT_NE(e.find("byte 120"), std::string::npos) << e;
}

// A tensor reduction's element type is its map's: the operations the H200 stopped with an
// illegal instruction on that type are runtime errors, located and naming the map.
TEST(BulkCopy, TensorReductionsTheGpuRefusedAreLocatedErrors) {
  const std::string kernel = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry reduce(.param .align 64 .b8 map[128])
{
.reg .b64 %rd<2>;
mov.b64 %rd0, map;
cvta.param.u64 %rd1, %rd0;
cp.reduce.async.bulk.tensor.2d.global.shared::cta.OP.tile.bulk_group [%rd1, {0, 0}], [1024];
cp.async.bulk.commit_group;
cp.async.bulk.wait_group 0;
}
)";
  const auto what = [&](const std::string& op, TensorMapType type) {
    TensorMapParams m = tensor_20x30();
    m.type = type;
    m.strides = {160, 0, 0, 0};
    m.box = {16, 4, 0, 0, 0};
    m.swizzle = 0;
    const TensorMapBytes bytes = encode_tensor_map(m);
    InterpreterOptions one;
    one.ntid = {1, 1, 1};
    std::string text = kernel;
    text.replace(text.find("OP"), 2, op);
    try {
      (void)run_ptx(text, [&](Ran& r) {
        for (std::uint64_t a = 0; a < 20 * 30 * 8; ++a) r.machine->global().store(0x10000 + a, 1, 0);
        r.machine->param().write(0, bytes.data(), bytes.size());
      }, one);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(what("add", TensorMapType::s64).find("test.ptx:10:1: error:"), 0U);
  EXPECT_NE(what("add", TensorMapType::s64).find(".add of s64 elements stopped the H200 with an illegal instruction"),
            std::string::npos);
  EXPECT_NE(what("inc", TensorMapType::s32).find(".inc of s32 elements stopped the H200"), std::string::npos);
  EXPECT_NE(what("min", TensorMapType::f32).find(".min of f32 elements stopped the H200"), std::string::npos);
  EXPECT_NE(what("add", TensorMapType::u8).find("a tensor reduction on u8 elements was never run on a GPU"),
            std::string::npos);
  EXPECT_EQ(what("add", TensorMapType::u64), "(no error)");
  EXPECT_EQ(what("max", TensorMapType::s64), "(no error)");
}

}  // namespace
}  // namespace ptxmma::test
