// Clusters run together: barrier.cluster, mapa and distributed shared memory (ld/st/atom
// .shared::cluster to another CTA), mbarrier arrivals on another CTA, bulk copies into another
// CTA's shared memory and multicast; their misuses are located errors, never hangs.
#include <gtest/gtest.h>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

InterpreterOptions cluster_of(int n, int grid) {
  InterpreterOptions o;
  o.nctaid = {grid, 1, 1};
  o.cluster = {n, 1, 1};
  o.explicit_cluster = true;
  o.ntid = {64, 1, 1};
  return o;
}

// Each CTA writes rank * 1000 + tid into a[tid]; after the cluster barrier every thread reads the
// next CTA's a[tid] through mapa and ld.shared::cluster, stores it into b[tid] of the CTA after
// that (st.shared::cluster), adds 1 to that CTA's counter (atom.shared::cluster), and after a
// second barrier each thread writes its own b[tid] and counter to global memory.
const char* kExchange = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry exchange(.param .u64 out) {
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b32 a[64];
  .shared .align 4 .b32 b[64];
  .shared .align 4 .b32 count;
  ld.param.u64 %rd0, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %cluster_nctarank;
  mad.lo.u32 %r3, %r1, 1000, %r0;
  mov.u32 %r4, a;
  shl.b32 %r5, %r0, 2;
  add.u32 %r6, %r4, %r5;
  st.shared.u32 [%r6], %r3;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  add.u32 %r7, %r1, 1;
  rem.u32 %r7, %r7, %r2;
  mapa.shared::cluster.u32 %r8, %r6, %r7;
  ld.shared::cluster.u32 %r9, [%r8];
  add.u32 %r7, %r7, 1;
  rem.u32 %r7, %r7, %r2;
  mov.u32 %r10, b;
  add.u32 %r10, %r10, %r5;
  mapa.shared::cluster.u32 %r11, %r10, %r7;
  st.shared::cluster.u32 [%r11], %r9;
  mapa.shared::cluster.u32 %r12, count, %r7;
  atom.shared::cluster.add.u32 %r13, [%r12], 1;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ld.shared.u32 %r14, [%r10];
  ld.shared.u32 %r15, [count];
  mov.u32 %r3, %ctaid.x;
  mad.lo.u32 %r3, %r3, 64, %r0;
  mul.wide.u32 %rd1, %r3, 8;
  add.u64 %rd2, %rd0, %rd1;
  st.global.v2.u32 [%rd2], {%r14, %r15};
}
)";

TEST(Cluster, DistributedSharedMemoryBetweenCtasOfACluster) {
  for (const int n : {2, 4}) {
    const Ran r = run_ptx(kExchange, [](Ran& x) { x.machine->param().store(0, 8, 0x10000); }, cluster_of(n, 8));
    // The kernel counts on shared memory starting at zero (count is never stored): initcheck says so, once.
    ASSERT_EQ(r.summary.warnings.size(), 1U);
    EXPECT_NE(r.summary.warnings[0].text().find("warning: initcheck: CTA (0, 0, 0) warp 0 lane 0 reads shared memory"), std::string::npos) << r.summary.warnings[0].text();
    for (int cta = 0; cta < 8; ++cta)
      for (int t = 0; t < 64; ++t) {
        const std::uint64_t a = 0x10000 + 8 * static_cast<std::uint64_t>(cta * 64 + t);
        const int prev = (cta % n + n - 1) % n;  // the CTA that wrote into this one
        EXPECT_EQ(r.machine->global().load(a, 4), static_cast<std::uint64_t>(prev * 1000 + t)) << n << " " << cta << " " << t;
        EXPECT_EQ(r.machine->global().load(a + 4, 4), 64U);
      }
  }
}

// A producer CTA (rank 0) fills a word in each other CTA and arrives on that CTA's mbarrier
// (.shared::cluster, release.cluster); each consumer waits on its own mbarrier and reads the word.
const char* kRemoteArrive = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry remote(.param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 word;
  ld.param.u64 %rd0, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %cluster_nctarank;
  setp.eq.u32 %p0, %r0, 0;
  @%p0 mbarrier.init.shared::cta.b64 [bar], 1;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra consumer;
  setp.ge.u32 %p2, %r0, %r2;
  @%p2 bra done;
  setp.eq.u32 %p2, %r0, 0;
  @%p2 bra done;
  mad.lo.u32 %r3, %r0, 11, 7;
  mapa.shared::cluster.u32 %r4, word, %r0;
  st.shared::cluster.u32 [%r4], %r3;
  mapa.shared::cluster.u32 %r5, bar, %r0;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r5];
  bra done;
consumer:
  mov.u32 %r6, 0;
wait:
  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p2, [bar], %r6;
  @!%p2 bra wait;
  ld.shared.u32 %r7, [word];
  mov.u32 %r8, %ctaid.x;
  mad.lo.u32 %r8, %r8, 64, %r0;
  mul.wide.u32 %rd1, %r8, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r7;
done:
  barrier.cluster.arrive;
  barrier.cluster.wait;
}
)";

TEST(Cluster, MbarrierArrivalOnAnotherCta) {
  const Ran r = run_ptx(kRemoteArrive, [](Ran& x) { x.machine->param().store(0, 8, 0x10000); }, cluster_of(4, 4));
  EXPECT_TRUE(r.summary.warnings.empty());
  for (int cta = 1; cta < 4; ++cta)
    for (int t = 0; t < 64; ++t)
      EXPECT_EQ(r.machine->global().load(0x10000 + 4 * static_cast<std::uint64_t>(cta * 64 + t), 4),
                static_cast<std::uint64_t>(cta * 11 + 7));
}

// Rank 0 multicasts 256 bytes of global memory into every CTA of the cluster (ctaMask 0b11); each
// CTA's mbarrier expects them; then each thread copies a word of what landed to global memory.
const char* kMulticast = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry multicast(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .reg .pred %p<3>;
  .shared .align 8 .b64 bar;
  .shared .align 128 .b8 buf[256];
  ld.param.u64 %rd0, [in];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %cluster_ctarank;
  setp.eq.u32 %p0, %r0, 0;
  @%p0 mbarrier.init.shared::cta.b64 [bar], 1;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  @%p0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 256;
  setp.eq.u32 %p1, %r1, 0;
  and.pred %p1, %p1, %p0;
  mov.u16 %rs0, 3;
  @%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [buf], [%rd0], 256, [bar], %rs0;
  mov.u32 %r2, 0;
wait:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], %r2;
  @!%p2 bra wait;
  shl.b32 %r3, %r0, 2;
  mov.u32 %r4, buf;
  add.u32 %r4, %r4, %r3;
  ld.shared.u32 %r5, [%r4];
  mov.u32 %r6, %ctaid.x;
  mad.lo.u32 %r6, %r6, 64, %r0;
  mul.wide.u32 %rd2, %r6, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  barrier.cluster.arrive;
  barrier.cluster.wait;
}
)";

TEST(Cluster, MulticastBulkCopyLandsInEveryCtaOfTheMask) {
  std::string text = kMulticast;
  text.insert(text.find("  .reg .pred"), "  .reg .b16 %rs<1>;\n");
  const Ran r = run_ptx(text, [](Ran& x) {
    x.machine->param().store(0, 8, 0x10000);
    x.machine->param().store(8, 8, 0x20000);
    for (std::uint64_t i = 0; i < 64; ++i) x.machine->global().store(0x10000 + 4 * i, 4, 0x5000 + i);
  }, cluster_of(2, 4));
  EXPECT_TRUE(r.summary.warnings.empty()) << r.summary.warnings.front().message;
  for (int cta = 0; cta < 4; ++cta)
    for (int t = 0; t < 64; ++t)
      EXPECT_EQ(r.machine->global().load(0x20000 + 4 * static_cast<std::uint64_t>(cta * 64 + t), 4),
                static_cast<std::uint64_t>(0x5000 + t));
}

TEST(Cluster, ClusterBarrierMisuseIsALocatedError) {
  InterpreterOptions o = cluster_of(2, 2);
  o.ntid = {32, 1, 1};
  // wait without arrive
  EXPECT_EQ(error_of(".reg .b32 %r;\nmov.u32 %r, 1;\nbarrier.cluster.wait;\n", o),
            "test.ptx:3:1: error: 'barrier.cluster.wait': CTA (0, 0, 0) warp 0 lane 0 waits at the cluster barrier "
            "without having arrived (barrier.cluster.arrive first): it would wait forever");
  // arrive twice
  EXPECT_NE(error_of("barrier.cluster.arrive;\nbarrier.cluster.arrive;\n", o).find(
                "test.ptx:2:1: error: 'barrier.cluster.arrive' in CTA (0, 0, 0) warp 0: lane 0 arrives at the cluster barrier again before its "
                "barrier.cluster.wait"),
            std::string::npos);
  // rank 1 waits on an mbarrier nobody arrives on while rank 0 waits at the cluster barrier
  const std::string stuck = error_of(R"(
.reg .b32 %r<2>;
.reg .pred %p<2>;
.shared .align 8 .b64 bar;
mov.u32 %r0, %cluster_ctarank;
setp.eq.u32 %p0, %r0, 0;
@%p0 bra first;
mbarrier.init.shared.b64 [bar], 1;
mov.u32 %r1, 0;
spin:
mbarrier.try_wait.parity.shared.b64 %p1, [bar], %r1;
@!%p1 bra spin;
first:
barrier.cluster.arrive;
barrier.cluster.wait;
)",
                                     o);
  EXPECT_NE(stuck.find("deadlock: no warp can go on (CTA (0, 0, 0) warp 0 at line 15 (barrier.cluster.wait); "
                       "CTA (1, 0, 0) warp 0 at line 11 (mbarrier.try_wait.parity.shared.b64, waiting on the mbarrier "
                       "at shared 0x0"),
            std::string::npos)
      << stuck;
  EXPECT_NE(stuck.find("the cluster barrier waits for the arrival of CTA (1, 0, 0) warp 0 lanes 0-31"), std::string::npos)
      << stuck;
}

TEST(Cluster, MapaAndSharedClusterMisuseAreLocatedErrors) {
  InterpreterOptions o = cluster_of(2, 2);
  EXPECT_EQ(error_of(".reg .b32 %r<2>;\nmov.u32 %r0, 0;\nmapa.shared::cluster.u32 %r1, %r0, 2;\n", o),
            "test.ptx:3:1: error: 'mapa.shared::cluster.u32' in CTA (0, 0, 0) warp 0: lane 0: CTA rank 2 is outside the cluster of 2 CTAs "
            "(%cluster_ctarank 0-1)");
  EXPECT_EQ(error_of(".reg .b32 %r<2>;\nmov.u32 %r0, 0x5000000;\nld.shared::cluster.u32 %r1, [%r0];\n", o),
            "test.ptx:3:1: error: 'ld.shared::cluster.u32' in CTA (0, 0, 0) warp 0: lane 0: the .shared::cluster address 0x5000000: CTA rank 4 "
            "is outside the cluster of 2 CTAs (%cluster_ctarank 0-1)");
  // Rank 1 exits at once (its threads count as arrived); rank 0 then writes into its shared memory.
  EXPECT_EQ(error_of(R"(
.reg .b32 %r<3>;
.reg .pred %p;
mov.u32 %r0, %cluster_ctarank;
setp.ne.u32 %p, %r0, 0;
@%p exit;
barrier.cluster.arrive;
barrier.cluster.wait;
mov.u32 %r1, 0;
mapa.shared::cluster.u32 %r2, %r1, 1;
st.shared::cluster.u32 [%r2], %r0;
)",
                     o),
            "test.ptx:11:1: error: 'st.shared::cluster.u32' in CTA (0, 0, 0) warp 0: lane 0: the .shared::cluster address 0x2000000: CTA (1, 0, 0) "
            "(cluster rank 1) has exited: its shared memory is gone (a barrier.cluster before it exits keeps it)");
  EXPECT_EQ(error_of(".reg .b64 %rd<2>;\nmapa.u32 %rd1, %rd0, 1;\n"),
            "test.ptx:2:1: error: 'mapa.u32': generic addresses are .u64 (or name .shared::cluster)");
  EXPECT_EQ(error_of("barrier.cluster.sync;\n"),
            "test.ptx:1:1: error: 'barrier.cluster.sync' needs .arrive or .wait");
  EXPECT_EQ(error_of("barrier.cluster.wait.release;\n"),
            "test.ptx:1:1: error: 'barrier.cluster.wait.release': barrier.cluster.wait takes .acquire");
}

TEST(Cluster, SizeLimitsAndDirectives) {
  InterpreterOptions o;
  o.nctaid = {16, 1, 1};
  o.cluster = {16, 1, 1};
  EXPECT_EQ(error_of("exit;\n", o),
            "a cluster of 16x1x1 CTAs: it must have 1 to 8 CTAs (16 with the non-portable cluster size) and divide the "
            "grid of 16x1x1 in each dimension");
  o.non_portable_cluster = true;
  EXPECT_EQ(error_of("exit;\n", o), "(no error)");
  // .reqnctapercluster gives the cluster; %is_explicit_cluster is true then.
  const char* kReq = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k() .reqnctapercluster 2, 1, 1 {
  .reg .b32 %r<2>;
  .reg .pred %p;
  mov.u32 %r0, %cluster_nctarank;
  mov.pred %p, %is_explicit_cluster;
  selp.u32 %r1, 1, 0, %p;
}
)";
  InterpreterOptions g;
  g.nctaid = {4, 1, 1};
  const Ran r = run_ptx(kReq, {}, g);
  EXPECT_EQ(r.reg(0, "%r0"), 2U);
  EXPECT_EQ(r.reg(0, "%r1"), 1U);
  g.cluster = {4, 1, 1};
  g.explicit_cluster = true;
  EXPECT_EQ(error_of(kReq, g), "a cluster of 4x1x1 CTAs, but the kernel declares .reqnctapercluster 2, 1, 1");
  // Without a cluster: false.
  const Ran plain = run_ptx(".reg .pred %p;\n.reg .b32 %r;\nmov.pred %p, %is_explicit_cluster;\nselp.u32 %r, 1, 0, %p;\n");
  EXPECT_EQ(plain.reg(0, "%r"), 0U);
  // Whole clusters only.
  InterpreterOptions part = cluster_of(2, 4);
  part.ctas = {{1, 1}};
  EXPECT_EQ(error_of("exit;\n", part),
            "CTA (0, 0, 0) of cluster (0, 0, 0) does not run: the CTAs that run must be whole clusters of 2x1x1");
}

}  // namespace
}  // namespace ptxmma::test
