// The kernel checks (docs/kernel-checks.md): each catches a planted defect in a small kernel, with
// its located message, says nothing once the defect is fixed, and is an error under strict.
#include <gtest/gtest.h>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

std::string kernel(const std::string& body, int threads = 64) {
  return ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n.reqntid " + std::to_string(threads) +
         ", 1, 1\n{\n.reg .b32 %r<9>;\n.reg .pred %p;\n.shared .align 4 .b32 buf[64];\n.local .align 4 .b32 loc[4];\n" +
         body + "ret;\n}\n";
}

// Each thread writes its word, then reads the word of the thread 32 away (the other warp).
std::string exchange(bool barrier) {
  return kernel(std::string("mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, buf;\nadd.u32 %r4, %r3, %r2;\n"
                            "st.shared.u32 [%r4], %r1;\n") +
                (barrier ? "bar.sync 0;\n" : "") +
                "xor.b32 %r5, %r2, 128;\nadd.u32 %r6, %r3, %r5;\nld.shared.u32 %r7, [%r6];\n");
}

TEST(KernelChecks, RacecheckFindsSharedMemoryHazardsBetweenWarps) {
  const Ran racy = run_ptx(exchange(false));
  EXPECT_EQ(warnings(racy),
            "test.ptx:18:1: warning: initcheck: warp 0 lane 0 reads shared memory 0x80..0x83, and byte 0x80 was never "
            "written (an uninitialised read; this machine reads 0)\n"
            "test.ptx:15:1: warning: racecheck: warp 1 lane 0 writes shared byte 0x80, which warp 0 read at line 18 "
            "with no barrier between them (a write-after-read hazard)\n"
            "test.ptx:18:1: warning: racecheck: warp 1 lane 0 reads shared byte 0x0, which warp 0 wrote at line 15 "
            "with no barrier between them (a read-after-write hazard)\n");
  const Ran fixed = run_ptx(exchange(true));
  EXPECT_EQ(warnings(fixed), "");
  EXPECT_EQ(fixed.reg(0, "%r7"), 32U);
  InterpreterOptions strict;
  strict.strict = true;
  EXPECT_NE(error_of(exchange(false), strict).find("error: initcheck: warp 0 lane 0 reads shared memory"),
            std::string::npos);
}

TEST(KernelChecks, RacecheckWriteAfterWriteAndAtomicsAreNotRaces) {
  // Both warps store to words 1 and 0 (write-after-write hazards); both add to word 1 atomically
  // after a barrier (not a hazard).
  const std::string body =
      "mov.u32 %r1, %tid.x;\nst.shared.u32 [buf+4], 0;\nbar.sync 0;\natom.shared.add.u32 %r2, [buf+4], 1;\n"
      "st.shared.u32 [buf], %r1;\n";
  const Ran r = run_ptx(kernel(body));
  EXPECT_EQ(warnings(r),
            "test.ptx:12:1: warning: racecheck: warp 1 lane 0 writes shared byte 0x4, which warp 0 wrote at line 12 "
            "with no barrier between them (a write-after-write hazard)\n"
            "test.ptx:15:1: warning: racecheck: warp 1 lane 0 writes shared byte 0x0, which warp 0 wrote at line 15 "
            "with no barrier between them (a write-after-write hazard)\n");
}

// Both warps write shared words, then lane 0 of warp 0 stores them to global memory with a bulk
// copy (the async proxy): without fence.proxy.async after the writes, the copy may not see them.
std::string bulk_store(bool fenced) {
  return kernel(std::string(".reg .b64 %rd1;\nmov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, buf;\n"
                            "add.u32 %r4, %r3, %r2;\nst.shared.u32 [%r4], %r1;\n") +
                (fenced ? "fence.proxy.async.shared::cta;\n" : "") +
                "bar.sync 0;\nsetp.eq.u32 %p, %r1, 0;\nmov.u64 %rd1, 0x20000;\n"
                "@%p cp.async.bulk.global.shared::cta.bulk_group [%rd1], [buf], 256;\n"
                "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\n");
}

TEST(KernelChecks, RacecheckFindsABulkCopyOfUnfencedGenericWrites) {
  const Ran racy = run_ptx(bulk_store(false));
  EXPECT_EQ(warnings(racy),
            "test.ptx:20:5: warning: racecheck: warp 0 lane 0 copies shared byte 0x0 through the async proxy, which "
            "warp 0 wrote at line 16 through the generic proxy with no fence.proxy.async since (a read-after-write "
            "hazard between proxies)\n");
  const Ran fixed = run_ptx(bulk_store(true));
  EXPECT_EQ(warnings(fixed), "");
  for (std::uint64_t t = 0; t < 64; ++t) EXPECT_EQ(fixed.machine->global().load(0x20000 + 4 * t, 4), t);
}

TEST(KernelChecks, RacecheckForgetsTheCtaBefore) {
  // Warp k of CTA k writes a shared word: the same bytes and epoch in both CTAs, in their own
  // shared memories (racecheck's record of CTA 0's is reused for CTA 1's, on one thread or two).
  const std::string body =
      "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nshr.u32 %r3, %r2, 5;\nsetp.ne.u32 %p, %r1, %r3;\n@%p bra E;\n"
      "st.shared.u32 [buf], %r1;\nE:\n";
  for (const int jobs : {1, 2}) {
    InterpreterOptions o;
    o.nctaid = {2, 1, 1};
    o.jobs = jobs;
    EXPECT_EQ(warnings(run_ptx(kernel(body), {}, o)), "") << jobs;
  }
}

TEST(KernelChecks, InitcheckReportsReadsOfBytesNobodyWroteOncePerInstruction) {
  // Every lane of a loop of two iterations reads an unwritten word: one report.
  const std::string body =
      "mov.u32 %r1, 0;\nL:\nld.shared.u32 %r2, [buf+8];\nld.local.u32 %r3, [loc+4];\nadd.u32 %r1, %r1, 1;\n"
      "setp.lt.u32 %p, %r1, 2;\n@%p bra L;\nst.local.u32 [loc], %r1;\nld.local.u32 %r4, [loc];\n";
  const Ran r = run_ptx(kernel(body, 32));
  EXPECT_EQ(warnings(r),
            "test.ptx:13:1: warning: initcheck: warp 0 lane 0 reads shared memory 0x8..0xb, and byte 0x8 was never "
            "written (an uninitialised read; this machine reads 0)\n"
            "test.ptx:14:1: warning: initcheck: warp 0 lane 0 reads local memory 0x4..0x7, and byte 0x4 was never "
            "written (an uninitialised read; this machine reads 0)\n");
}

TEST(KernelChecks, SynccheckFindsBarriersWithDifferentCounts) {
  // Warp 0 waits at one barrier.sync for 32 threads, warp 1 at another for 64.
  const std::string body =
      "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p, %r1, 32;\n@%p bra A;\nbarrier.sync 0, 64;\nbra.uni E;\nA:\n"
      "barrier.sync 0, 32;\nE:\n";
  const Ran r = run_ptx(kernel(body));
  EXPECT_EQ(warnings(r),
            "test.ptx:17:1: warning: synccheck: warp 0 waits at the barrier for 32 threads, but 2 warps (64 threads) "
            "arrive\n"
            "test.ptx:14:1: warning: synccheck: warp 1 waits at the barrier for 64 threads, warp 0 for 32: the warps "
            "of one barrier give different thread counts\n");
  EXPECT_EQ(warnings(run_ptx(kernel("barrier.sync 0, 64;\n"))), "");
}

TEST(KernelChecks, SynccheckFindsABarrierReachedByPartOfAWarp) {
  // Lanes 0..15 of each warp wait at a (non-.aligned) barrier.sync while lanes 16..31 go round it.
  const std::string body =
      "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p, %r1, 16;\n@!%p bra E;\nbarrier.sync 0;\nE:\n";
  const Ran r = run_ptx(kernel(body));
  EXPECT_EQ(warnings(r),
            "test.ptx:14:1: warning: synccheck: warp 0 reaches the barrier with lanes 0-15 while its lanes 16-31 are "
            "on another path (a divergent barrier: this machine completes barriers warp by warp)\n");
}

TEST(KernelChecks, MemcheckErrorsNameTheLaneAndAddress) {
  // Out of bounds and misaligned accesses stop the run (what would the access give?), located.
  EXPECT_NE(error_of(kernel("mov.u32 %r1, %laneid;\nshl.b32 %r1, %r1, 12;\nld.shared.u32 %r2, [%r1];\n", 32))
                .find("lane 12: shared memory: 4 bytes at 0xc000 are outside [0, 0xc000)"),
            std::string::npos);
  EXPECT_NE(error_of(kernel("ld.shared.u32 %r2, [buf+2];\n", 32)).find("lane 0: address 0x2 is not aligned to the 4-byte access"),
            std::string::npos);
  EXPECT_NE(error_of(kernel("ld.local.u32 %r2, [loc+16];\n", 32)).find("lane 0: 4 bytes at local offset 0x10 are outside "
                                                                        "the thread's 16 bytes"),
            std::string::npos);
}

}  // namespace
}  // namespace ptxmma::test
