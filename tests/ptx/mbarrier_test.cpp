// mbarrier.*: the object's encoding, phases with arrivals and transaction counts, waits that make
// a warp yield to the others (a producer/consumer pair of warps runs within a small step budget),
// cp.async.mbarrier.arrive, and the misuses and deadlocks that are located errors.
#include <gtest/gtest.h>

#include "sim/exec/mbarrier.hpp"
#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

TEST(Mbarrier, EncodingRoundTripsAndZeroIsUninitialised) {
  EXPECT_FALSE(Mbarrier::decode(0).valid);
  Mbarrier b = Mbarrier::init(5);
  EXPECT_EQ(b.encode(), (1ULL << 62) | (5ULL << 20) | 5);
  b.tx = -3;
  b.phase = true;
  const Mbarrier c = Mbarrier::decode(b.encode());
  EXPECT_TRUE(c.valid && c.phase);
  EXPECT_EQ(c.pending, 5U);
  EXPECT_EQ(c.expected, 5U);
  EXPECT_EQ(c.tx, -3);
  EXPECT_THROW((void)Mbarrier::init(0), Error);
  EXPECT_THROW((void)Mbarrier::init(1U << 20), Error);
}

TEST(Mbarrier, PhaseCompletesWhenArrivalsAndTransactionsAreDone) {
  Mbarrier b = Mbarrier::init(2);
  EXPECT_FALSE(b.complete_tx(16));  // before the expect-tx: the count goes negative
  EXPECT_FALSE(b.arrive(1, false, false));
  EXPECT_FALSE(b.expect_tx(8));
  EXPECT_FALSE(b.arrive(1, false, false));  // no arrivals pending, tx-count -8
  EXPECT_TRUE(b.expect_tx(8));
  EXPECT_TRUE(b.phase);
  EXPECT_EQ(b.pending, 2U);
  EXPECT_EQ(b.tx, 0);
  EXPECT_TRUE(b.arrive(2, true, false));  // arrive_drop of both: the next phases expect none
  EXPECT_EQ(b.expected, 0U);
  EXPECT_FALSE(b.phase);
}

// One warp (ntid 1): init, arrive.expect_tx, waits, complete_tx, arrive_drop, expect_tx, the
// state's pending count, the object's bits.
TEST(Mbarrier, InstructionsOnOneThread) {
  const char* text = R"(
.reg .b64 %rd<4>;
.reg .b32 %r<2>;
.reg .pred %p<4>;
mbarrier.init.shared.b64 [8], 2;
mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd0, [8], 64;
mbarrier.pending_count.b64 %r0, %rd0;
mbarrier.test_wait.parity.shared.b64 %p0, [8], 0;
mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [8], 64;
mbarrier.arrive.shared.b64 %rd1, [8];
mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 %p1, [8], 0;
mbarrier.try_wait.shared.b64 %p2, [8], %rd0, 1000;
mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [8], 16;
mbarrier.arrive_drop.shared.b64 %rd2, [8];
mbarrier.pending_count.b64 %r1, %rd2;
ld.shared.b64 %rd3, [8];
)";
  InterpreterOptions o;
  o.ntid = {1, 1, 1};
  const Ran r = run_ptx(text, {}, o);
  EXPECT_EQ(r.reg(0, "%r0"), 2U);
  EXPECT_EQ(r.reg(0, "%p0"), 0U);
  EXPECT_EQ(r.reg(0, "%p1"), 1U);
  EXPECT_EQ(r.reg(0, "%p2"), 1U);
  EXPECT_EQ(r.reg(0, "%r1"), 2U);
  // phase 1, initialised, tx-count 16, expects 1, 1 pending
  EXPECT_EQ(r.reg(0, "%rd3"), (1ULL << 63) | (1ULL << 62) | (16ULL << 40) | (1ULL << 20) | 1);
}

// Warp 0 produces four values through one shared slot, warp 1 consumes them; `full` and `empty`
// alternate phases, each wait a try_wait.parity loop in its own inline-asm block (the same labels).
const char* kProducerConsumer = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
.reqntid 64, 1, 1
{
.reg .b32 %r<10>;
.reg .pred %p<4>;
.shared .align 8 .b64 full;
.shared .align 8 .b64 empty;
.shared .align 4 .b32 slot;
mov.u32 %r0, %tid.x;
shr.u32 %r1, %r0, 5;
setp.ne.u32 %p0, %r0, 0;
@%p0 bra INIT_DONE;
mbarrier.init.shared::cta.b64 [full], 1;
mbarrier.init.shared::cta.b64 [empty], 32;
INIT_DONE:
bar.sync 0;
mov.u32 %r2, 0;
mov.u32 %r3, 0;
mov.u32 %r9, 0;
setp.eq.u32 %p1, %r1, 0;
@%p1 bra PRODUCER;
CONSUMER:
{
.reg .pred P1;
WAIT:
mbarrier.try_wait.parity.shared::cta.b64 P1, [full], %r3;
@P1 bra DONE;
bra.uni WAIT;
DONE:
}
ld.shared.u32 %r4, [slot];
add.u32 %r9, %r9, %r4;
mbarrier.arrive.release.cta.shared::cta.b64 _, [empty];
xor.b32 %r3, %r3, 1;
add.u32 %r2, %r2, 1;
setp.lt.u32 %p2, %r2, 4;
@%p2 bra CONSUMER;
bra.uni END;
PRODUCER:
xor.b32 %r5, %r3, 1;
{
.reg .pred P1;
WAIT:
mbarrier.try_wait.parity.shared::cta.b64 P1, [empty], %r5;
@P1 bra DONE;
bra.uni WAIT;
DONE:
}
mad.lo.u32 %r6, %r2, 10, 7;
@!%p0 st.shared.u32 [slot], %r6;
@!%p0 mbarrier.arrive.shared::cta.b64 _, [full];
xor.b32 %r3, %r3, 1;
add.u32 %r2, %r2, 1;
setp.lt.u32 %p2, %r2, 4;
@%p2 bra PRODUCER;
END:
ret;
}
)";

TEST(Mbarrier, WaitingWarpsYieldToTheOthers) {
  InterpreterOptions o;
  o.max_steps = 200;  // a spinning wait would run out of it
  const Ran r = run_ptx(kProducerConsumer, {}, o);
  EXPECT_TRUE(r.summary.warnings.empty());
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(r.reg(32 + lane, "%r9"), 7U + 17 + 27 + 37) << lane;
}

TEST(Mbarrier, AWaitThatCannotCompleteIsADeadlock) {
  const std::string e = error_of(R"(
.reg .pred %p;
mbarrier.init.shared.b64 [16], 64;
mbarrier.arrive.shared.b64 _, [16];
WAIT:
mbarrier.try_wait.parity.shared.b64 %p, [16], 0;
@!%p bra WAIT;
)");
  EXPECT_NE(e.find("test.ptx:6:1: error: deadlock"), std::string::npos) << e;
  EXPECT_NE(e.find("warp 0 at line 6"), std::string::npos) << e;
  EXPECT_NE(e.find("the mbarrier at shared 0x10: phase parity 0, 32 of 64 arrivals pending, tx-count 0"),
            std::string::npos)
      << e;
}

TEST(Mbarrier, MisusesAreLocatedErrors) {
  EXPECT_NE(error_of("mbarrier.arrive.shared.b64 _, [0];").find(
                "test.ptx:1:1: error: 'mbarrier.arrive.shared.b64': lane 0: the mbarrier at shared 0x0: "
                "mbarrier.arrive on an mbarrier that is not initialised"),
            std::string::npos);
  EXPECT_NE(error_of("mbarrier.init.shared.b64 [0], 32;\nmbarrier.arrive.shared.b64 _, [0], 33;")
                .find("lane 0: the mbarrier at shared 0x0: an arrive with a count of 33 on an mbarrier with 32 "
                      "arrivals pending"),
            std::string::npos);
  EXPECT_NE(error_of("mbarrier.init.shared.b64 [0], 0;").find("a count of 0; the expected arrivals are 1"),
            std::string::npos);
  EXPECT_NE(error_of("mbarrier.init.shared.b64 [4], 1;").find("lane 0: the mbarrier address 0x4 is not 8-byte aligned"),
            std::string::npos);
  EXPECT_NE(error_of(".reg .b64 %rd;\nmov.u64 %rd, 0x1000;\nmbarrier.init.b64 [%rd], 1;")
                .find("the generic address 0x1000 is not in shared memory"),
            std::string::npos);
  EXPECT_NE(error_of("mbarrier.init.shared.b64 [0], 1;\nmbarrier.complete_tx.shared.b64 [0], 1048575;\n"
                     "mbarrier.complete_tx.shared.b64 [0], 1;")
                .find("below -(2^20 - 1)"),
            std::string::npos);
  EXPECT_NE(error_of(".reg .b64 %rd;\nmbarrier.arrive.shared::cluster.b64 %rd, [0];")
                .find("test.ptx:2:37: error: 'mbarrier.arrive.shared::cluster.b64': an arrive on .shared::cluster "
                      "returns no state; its destination is _"),
            std::string::npos);
  EXPECT_NE(error_of(".reg .pred %p;\nmbarrier.try_wait.release.shared.b64 %p, [0], 0;")
                .find(".release does not apply to mbarrier.try_wait"),
            std::string::npos);
  EXPECT_NE(error_of(".reg .pred %p;\nmbarrier.test_wait.parity.shared.b64 %p, [0], 0, 5;").find("takes 3 operands"),
            std::string::npos);
}

// cp.async.mbarrier.arrive.noinc: the thread's copies land, then it arrives (init count 32: the
// lanes' arrivals complete phase 0); without .noinc the pending count does not move.
TEST(Mbarrier, CpAsyncArrive) {
  const Ran r = run_ptx(R"(
.reg .b32 %r<4>;
.reg .b64 %rd<2>;
.reg .pred %p<2>;
mov.u32 %r0, %laneid;
setp.eq.u32 %p0, %r0, 0;
@%p0 mbarrier.init.shared.b64 [0x100], 32;
@%p0 mbarrier.init.shared.b64 [0x108], 1;
shl.b32 %r1, %r0, 2;
cvt.u64.u32 %rd0, %r1;
add.u64 %rd0, %rd0, 0x2000;
cp.async.ca.shared.global [%r1], [%rd0], 4;
cp.async.mbarrier.arrive.shared.b64 [0x108];
cp.async.mbarrier.arrive.noinc.shared::cta.b64 [0x100];
mbarrier.test_wait.parity.shared.b64 %p1, [0x100], 0;
mbarrier.test_wait.parity.shared.b64 %p0, [0x108], 0;
ld.shared.u32 %r2, [%r1];
)",
                        [](Ran& x) {
                          for (std::uint64_t a = 0; a < 128; a += 4) x.machine->global().store(0x2000 + a, 4, a * 3 + 1);
                        });
  EXPECT_TRUE(r.summary.warnings.empty());
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r.reg(lane, "%r2"), 12U * static_cast<unsigned>(lane) + 1) << lane;
    EXPECT_EQ(r.reg(lane, "%p1"), 1U);
    EXPECT_EQ(r.reg(lane, "%p0"), 0U);
  }
}

}  // namespace
}  // namespace ptxmma::test
