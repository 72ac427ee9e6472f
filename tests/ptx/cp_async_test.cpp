// cp.async: copies from global to shared memory issued now and written when a wait completes
// their group; 4/8/16 bytes, the src-size operand and ignore-src (zero fill), commit_group,
// wait_group N, wait_all; accesses to bytes still being copied are reported (errors under
// strict); malformed forms are located errors.
#include <gtest/gtest.h>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

// Lane l copies 16 bytes from global 0x1000 + 16 l to shared 16 l (group 0), 8 bytes from
// 0x1200 + 8 l to 0x200 + 8 l with a source size of l % 9 (group 1), and 4 bytes to 0x300 + 4 l
// with ignore-src on odd lanes (not committed before wait_all).
const char* kCopies = R"(
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
.reg .pred %p;
mov.u32 %r0, %laneid;
shl.b32 %r1, %r0, 4;
cvt.u64.u32 %rd0, %r1;
add.u64 %rd1, %rd0, 0x1000;
cp.async.cg.shared.global [%r1], [%rd1], 16;
cp.async.commit_group;
shl.b32 %r2, %r0, 3;
add.u32 %r3, %r2, 0x200;
cvt.u64.u32 %rd2, %r2;
add.u64 %rd2, %rd2, 0x1200;
rem.u32 %r4, %r0, 9;
cp.async.ca.shared.global.L2::128B [%r3], [%rd2], 8, %r4;
cp.async.commit_group;
shl.b32 %r5, %r0, 2;
add.u32 %r5, %r5, 0x300;
and.b32 %r6, %r0, 1;
setp.ne.u32 %p, %r6, 0;
cp.async.ca.shared.global [%r5], [%rd2], 4, %p;
cp.async.wait_group 1;
ld.shared.u32 %r7, [%r1];
cp.async.wait_all;
)";

void fill_global(Ran& r) {
  for (std::uint64_t a = 0; a < 0x300; ++a) r.machine->global().store(0x1000 + a, 1, (a * 7 + 3) & 0xff);
}

TEST(CpAsync, CopiesLandWhenTheirGroupIsWaitedFor) {
  const Ran r = run_ptx(kCopies, fill_global);
  EXPECT_EQ(warnings(r), "");
  const Memory& s = r.machine->shared();
  for (std::uint64_t lane = 0; lane < 32; ++lane) {
    for (std::uint64_t b = 0; b < 16; ++b)
      ASSERT_EQ(s.load(16 * lane + b, 1), ((16 * lane + b) * 7 + 3) & 0xff) << lane << " " << b;
    EXPECT_EQ(r.reg(static_cast<int>(lane), "%r7"), s.load(16 * lane, 4));  // read after wait_group 1
    for (std::uint64_t b = 0; b < 8; ++b)  // the first lane % 9 bytes copied, the rest zero
      ASSERT_EQ(s.load(0x200 + 8 * lane + b, 1), b < lane % 9 ? ((0x200 + 8 * lane + b) * 7 + 3) & 0xff : 0)
          << lane << " " << b;
    for (std::uint64_t b = 0; b < 4; ++b)  // odd lanes ignore the source: zeros
      ASSERT_EQ(s.load(0x300 + 4 * lane + b, 1), lane % 2 ? 0 : ((0x200 + 8 * lane + b) * 7 + 3) & 0xff) << lane;
  }
}

TEST(CpAsync, AccessesToBytesInFlightAreRaces) {
  // Lane 0 copies 16 bytes to shared 0; before waiting, lane 1 reads shared 12 and lane 2 writes
  // shared 32 (not a target); the read sees the old bytes and is reported once.
  const char* racy = R"(
.reg .b32 %r<4>;
.reg .b64 %rd<2>;
.reg .pred %p<3>;
mov.u32 %r0, %laneid;
mov.u64 %rd0, 0x1000;
setp.eq.u32 %p0, %r0, 0;
@%p0 cp.async.cg.shared.global [0], [%rd0], 16;
cp.async.commit_group;
setp.ne.u32 %p1, %r0, 2;
@!%p1 st.shared.u32 [32], %r0;
ld.shared.u32 %r1, [12];
cp.async.wait_group 0;
bar.sync 0;
ld.shared.u32 %r2, [12];
)";
  const Ran r = run_ptx(racy, fill_global);
  EXPECT_EQ(warnings(r),
            "test.ptx:12:1: warning: racecheck: warp 0 lane 0 reads shared bytes 0xc..0xf while the cp.async at line 8 (warp 0 "
            "lane 0) is still copying into 0x0..0xf: its group has not been waited for (a data race; "
            "cp.async.wait_group or wait_all, then a barrier when another thread reads it)\n");
  EXPECT_EQ(r.reg(1, "%r1"), 0U);
  EXPECT_EQ(r.reg(1, "%r2"), 0x6c655e57U);  // bytes 12..15 of the source: (12 + i) * 7 + 3
  InterpreterOptions strict;
  strict.strict = true;
  std::string error;
  try {
    (void)run_ptx(racy, fill_global, strict);
  } catch (const Error& e) {
    error = e.what();
  }
  EXPECT_EQ(error.substr(0, 74), "test.ptx:12:1: error: racecheck: warp 0 lane 0 reads shared bytes 0xc..0xf");
}

TEST(CpAsync, CopiesNeverWaitedForAreWrittenAtTheEndAndReported) {
  const Ran r = run_ptx(R"(
.reg .b64 %rd0;
mov.u64 %rd0, 0x1000;
cp.async.ca.shared.global [64], [%rd0], 4;
)",
                        fill_global);
  EXPECT_EQ(warnings(r),
            "test.ptx:4:1: warning: warp 0 lane 0: this cp.async is still in flight when the program ends (no "
            "cp.async.wait_group or wait_all completed it; its bytes were written then)\n");
  EXPECT_EQ(r.machine->shared().load(64, 4), 0x18110a03U);
}

TEST(CpAsync, MalformedFormsAreLocatedErrors) {
  EXPECT_EQ(error_of(".reg .b64 %rd0;\ncp.async.ca.shared.global [0], [%rd0], 2;\n"),
            "test.ptx:2:40: error: 'cp.async.ca.shared.global': a copy of 2 bytes; .ca copies 4, 8 or 16, .cg 16");
  EXPECT_EQ(error_of(".reg .b64 %rd0;\ncp.async.cg.shared.global [0], [%rd0], 8;\n"),
            "test.ptx:2:40: error: 'cp.async.cg.shared.global': a copy of 8 bytes; .ca copies 4, 8 or 16, .cg 16");
  EXPECT_EQ(error_of(".reg .b32 %r0;\ncp.async.wait_group %r0;\n"),
            "test.ptx:2:21: error: 'cp.async.wait_group': the group count must be an integer constant, not '%r0'");
  EXPECT_EQ(error_of(".reg .b64 %rd0;\ncp.async.ca.shared.global [0], [%rd0], 8, 9;\n"),
            "test.ptx:2:43: error: 'cp.async.ca.shared.global': a source size of 9 is more than the copy's 8 bytes");
  EXPECT_EQ(error_of(".reg .b64 %rd0;\nmov.u64 %rd0, 0x1004;\ncp.async.ca.shared.global [0], [%rd0], 8;\n"),
            "test.ptx:3:1: error: 'cp.async.ca.shared.global': lane 0: address 0x1004 is not aligned to the 8-byte "
            "access");
  EXPECT_EQ(error_of(".reg .b64 %rd0;\nmov.u64 %rd0, 0x1000;\ncp.async.ca.shared.global [0], [%rd0], 8;\n"),
            "test.ptx:3:1: error: 'cp.async.ca.shared.global': lane 0: global memory: byte 0x1000 is not given by "
            "the initial state");
  EXPECT_EQ(error_of(".reg .b64 %rd0;\ncp.async.bulk.shared.global [0], [%rd0], 8;\n"),
            "test.ptx:2:1: error: 'cp.async.bulk.shared.global': a bulk copy goes .shared::cluster/.shared::cta.global "
            "or .global.shared::cta");
  EXPECT_EQ(error_of(".reg .b64 %rd0;\ncp.async.shared.global [0], [%rd0], 8;\n"),
            "test.ptx:2:1: error: 'cp.async.shared.global': expected cp.async.ca, .cg, .bulk, .commit_group, "
            ".wait_group or .wait_all");
}

}  // namespace
}  // namespace ptxmma::test
