// A grid on several threads (InterpreterOptions::jobs): whatever its CTAs do to each other
// through global memory (atomics on one counter, a chain where each CTA reads what the one before
// wrote), what they print, the kernel checks' reports, a runtime error in a later CTA and a page
// budget crossed there, the result and everything reported are those of running the clusters one
// after another, for any number of threads.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "tests/cli.hpp"
#include "tests/malformed/malformed.hpp"
#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

// 64 threads a CTA. Thread 0 of CTA k: takes a ticket from the counter at out (atom.add), reads
// the chain's value at out + 4 and writes value * 3 + k + ticket back, writes both to its slot at
// out + 16 + 16k, prints them, and stores a word into page k + 1 after out's page. Warp 1 lane 0
// reads a shared word nothing wrote (initcheck reports it once, in the first CTA). CTA `bad`
// (param) reads global memory nobody gave.
const char* kKernel = R"(
.version 8.0
.target sm_90a
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 fmt_str[28] = {67, 84, 65, 32, 37, 117, 58, 32, 116, 105, 99, 107, 101, 116, 32, 37, 117, 32, 99, 104, 97, 105, 110, 32, 37, 117, 10, 0};
.visible .entry grid(.param .u64 out, .param .u32 bad) {
  .local .align 8 .b8 depot[16];
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .reg .pred %p;
  .shared .align 4 .b32 never[1];
  ld.param.u64 %rd0, [out];
  ld.param.u32 %r9, [bad];
  mov.u32 %r0, %ctaid.x;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p, %r1, 32;
  @%p bra not_warp1;
  ld.shared.u32 %r10, [never];
not_warp1:
  setp.ne.u32 %p, %r1, 0;
  @%p bra done;
  setp.ne.u32 %p, %r0, %r9;
  @%p bra good;
  ld.global.u32 %r11, [0x900000];
good:
  atom.global.add.u32 %r2, [%rd0], 1;
  ld.global.u32 %r3, [%rd0+4];
  mul.lo.u32 %r4, %r3, 3;
  add.u32 %r4, %r4, %r0;
  add.u32 %r4, %r4, %r2;
  st.global.u32 [%rd0+4], %r4;
  mul.wide.u32 %rd1, %r0, 16;
  add.u64 %rd2, %rd0, %rd1;
  st.global.v2.u32 [%rd2+16], {%r2, %r4};
  add.u32 %r5, %r0, 1;
  mul.wide.u32 %rd3, %r5, 4096;
  add.u64 %rd4, %rd0, %rd3;
  st.global.u32 [%rd4], %r5;
  mov.u64 %rd5, depot;
  cvta.local.u64 %rd6, %rd5;
  st.local.u32 [depot], %r0;
  st.local.u32 [depot+4], %r2;
  st.local.u32 [depot+8], %r4;
  mov.u64 %rd7, fmt_str;
  cvta.global.u64 %rd8, %rd7;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd8;
  .param .b64 param1;
  st.param.b64 [param1+0], %rd6;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  }
done:
  ret;
}
)";

constexpr std::uint64_t kOut = 0x100000;

// Everything a run gives: global memory, each CTA's registers and shared memory, the summary,
// what was printed (also as it was streamed), the error.
std::string outcome(InterpreterOptions o, std::uint32_t bad, std::uint64_t* reruns = nullptr) {
  const ptx::Program prog = ptx::parse_ptx(kKernel, "grid.ptx");
  std::ostringstream streamed;
  o.ntid = {64, 1, 1};
  o.print = &streamed;
  std::uint64_t clusters = 0;
  std::string progress;
  o.progress = [&](std::uint64_t done, std::uint64_t all) {
    progress += fmt::format("{}/{} ", done, all);
    clusters = all;
  };
  Machine m(prog, o);
  m.param().store(0, 8, kOut);
  m.param().store(8, 4, bad);
  m.global().store(kOut, 4, 0);
  m.global().store(kOut + 4, 4, 1);
  std::string out;
  try {
    const RunSummary s = m.run();
    if (reruns) *reruns = s.reruns;
    out += fmt::format("instructions {}\nsteps {}\nexited {}\n", s.warp_instructions, fmt::join(s.steps, ","),
                       fmt::join(s.exited, ","));
    for (const auto& w : s.warnings) out += w.text() + "\n";
    out += "printed:\n" + s.printed;
  } catch (const Error& e) {
    out += fmt::format("error: {}\n", e.what());
  }
  out += "streamed:\n" + streamed.str() + "progress: " + progress + "\n";
  for (const auto& [address, bytes] : m.global().runs()) out += fmt::format("global {:#x}: {:02x}\n", address, fmt::join(bytes, ""));
  if (!o.keep_ctas) {  // the CTAs' registers and shared memory are gone
    try {
      (void)m.reg(0, 0, 0);
    } catch (const Error& e) {
      out += fmt::format("first CTA: {}\n", e.what());
    }
    return out;
  }
  for (int c = 0; c < m.ctas(); ++c) {
    for (int t = 0; t < m.threads(); ++t)
      for (int r = 0; r < static_cast<int>(prog.registers.size()); ++r)
        if (const std::uint64_t v = m.reg(t, r, c)) out += fmt::format("CTA {} thread {} {} = {:#x}\n", c, t, prog.registers[static_cast<std::size_t>(r)].name, v);
    out += fmt::format("CTA {} shared word {:#x}\n", c, m.shared(c).load(0, 4));
  }
  return out;
}

constexpr int kJobs[] = {2, 3, 8};

TEST(GridJobs, ConflictingCtasGiveTheSequentialResult) {
  InterpreterOptions o;
  o.nctaid = {12, 1, 1};
  const std::string one = outcome(o, ~0U);
  // The chain: each CTA saw the one before it, with the tickets in rank order.
  EXPECT_NE(one.find("CTA 11: ticket 11 chain"), std::string::npos) << one;
  EXPECT_NE(one.find("initcheck"), std::string::npos) << one;
  EXPECT_NE(one.find("progress: 1/12 2/12"), std::string::npos) << one;
  for (const int jobs : kJobs) {
    o.jobs = jobs;
    std::uint64_t reruns = 0;
    EXPECT_EQ(outcome(o, ~0U, &reruns), one) << jobs << " threads";
    // Each CTA reads what the one before wrote: a run ahead of that one's commit stands only if
    // it started after it; the first never runs again.
    EXPECT_LE(reruns, 11U) << jobs << " threads";
  }
}

TEST(GridJobs, IndependentCtasRunOnce) {
  // Each CTA of the matmul shape: reads what nobody writes, stores its own word.
  const ptx::Program prog = ptx::parse_ptx(R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  mov.u32 %r0, %ctaid.x;
  ld.global.u32 %r1, [%rd0];
  add.u32 %r2, %r1, %r0;
  mul.wide.u32 %rd1, %r0, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2+4096], %r2;
  ret;
}
)", "k.ptx");
  for (const int jobs : kJobs) {
    InterpreterOptions o;
    o.nctaid = {64, 1, 1};
    o.jobs = jobs;
    Machine m(prog, o);
    m.param().store(0, 8, kOut);
    m.global().store(kOut, 4, 7);
    EXPECT_EQ(m.run().reruns, 0U) << jobs << " threads";
    EXPECT_EQ(m.global().load(kOut + 4096 + 4 * 63, 4), 7U + 63U);
  }
}

TEST(GridJobs, TheFirstErrorInOrderWithWhatCameBefore) {
  InterpreterOptions o;
  o.nctaid = {12, 1, 1};
  const std::string one = outcome(o, 5);
  EXPECT_NE(one.find("error: grid.ptx:25:3: error: 'ld.global.u32' in CTA (5, 0, 0) warp 0: lane 0: global memory: byte 0x900000 is not given "
                     "by the initial state"),
            std::string::npos)
      << one;
  EXPECT_NE(one.find("CTA 4: ticket 4"), std::string::npos) << one;
  EXPECT_EQ(one.find("CTA 5: ticket"), std::string::npos) << one;
  for (const int jobs : kJobs) {
    o.jobs = jobs;
    EXPECT_EQ(outcome(o, 5), one) << jobs << " threads";
  }
}

TEST(GridJobs, APageBudgetCrossedByALaterCta) {
  // out's page, fmt_str's, and one more page each CTA: the 8th CTA's store crosses 9 pages.
  const malformed::BudgetScope b(&Budget::memory_pages, 9);
  InterpreterOptions o;
  o.nctaid = {12, 1, 1};
  const std::string one = outcome(o, ~0U);
  EXPECT_NE(one.find("touches a new page"), std::string::npos) << one;
  for (const int jobs : kJobs) {
    o.jobs = jobs;
    EXPECT_EQ(outcome(o, ~0U), one) << jobs << " threads";
  }
}

TEST(GridJobs, Clusters) {
  InterpreterOptions o;
  o.nctaid = {4, 3, 1};
  o.cluster = {2, 1, 1};
  for (const std::uint32_t bad : {~0U, 7U}) {
    o.jobs = 1;
    const std::string one = outcome(o, bad);
    for (const int jobs : kJobs) {
      o.jobs = jobs;
      EXPECT_EQ(outcome(o, bad), one) << jobs << " threads";
    }
  }
}

TEST(GridJobs, StrictDiagnosticsAreTheFirstError) {
  InterpreterOptions o;
  o.nctaid = {6, 1, 1};
  o.strict = true;
  const std::string one = outcome(o, 4);
  EXPECT_NE(one.find("initcheck"), std::string::npos) << one;
  for (const int jobs : kJobs) {
    o.jobs = jobs;
    EXPECT_EQ(outcome(o, 4), one) << jobs << " threads";
  }
}

// Without keep_ctas each cluster's registers and shared memory are freed when it ends (on the
// thread that ran it): the rest of the result is the same, for any number of threads.
TEST(GridJobs, CtasNotKept) {
  InterpreterOptions o;
  o.nctaid = {4, 3, 1};
  o.cluster = {2, 1, 1};
  for (const std::uint32_t bad : {~0U, 7U}) {
    o.jobs = 1;
    o.keep_ctas = true;
    const std::string kept = outcome(o, bad);
    o.keep_ctas = false;
    const std::string one = outcome(o, bad);
    // Everything up to the CTAs' state is the same as when they are kept.
    const std::size_t end = one.find("first CTA: ");
    ASSERT_NE(end, std::string::npos) << one;
    EXPECT_EQ(kept.substr(0, end), one.substr(0, end));
    EXPECT_NE(one.find("first CTA: the registers and shared memory of CTA (0, 0, 0) were freed"), std::string::npos)
        << one;
    for (const int jobs : kJobs) {
      o.jobs = jobs;
      EXPECT_EQ(outcome(o, bad), one) << jobs << " threads";
    }
  }
}

// ptxmma run -j N prints, saves and fails as -j 1 does: the text and JSON results, the global
// memory saved, and the error of CTA 5 with what came before it.
TEST(GridJobs, RunCommand) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "jobs.ptx") << kKernel;
  std::string start(208, '\0');  // the counter 0, the chain 1, the slots
  start[4] = 1;
  std::ofstream(dir + "jobs_in.bin", std::ios::binary) << start;
  for (const char* bad : {"4294967295", "5"}) {
    std::ofstream(dir + "jobs.yaml") << "ntid: [64]\nnctaid: [12]\nparams: [" << kOut << ", " << bad
                                     << "]\nglobal:\n  - {address: " << kOut << ", file: jobs_in.bin}\n";
    const auto run = [&](int jobs, const std::string& how) {
      return run_cli(fmt::format("run {0}jobs.ptx --init {0}jobs.yaml {1} --save-global {2:#x}:208={0}jobs_out{3}.bin -j {3}",
                                 dir, how, kOut, jobs));
    };
    for (const std::string how : {"--regs %r2,%r4", "--json"}) {
      const CliResult one = run(1, how);
      EXPECT_EQ(one.status, bad[0] == '5' ? 1 : 0) << one.err;
      for (const int jobs : kJobs) {
        const CliResult many = run(jobs, how);
        EXPECT_EQ(many.status, one.status) << jobs;
        EXPECT_EQ(many.out, one.out) << jobs;
        EXPECT_EQ(many.err, one.err) << jobs;
        if (one.status == 0) {
          EXPECT_EQ(slurp(fmt::format("{}jobs_out{}.bin", dir, jobs)), slurp(dir + "jobs_out1.bin")) << jobs;
        }
      }
    }
  }
}

}  // namespace
}  // namespace ptxmma::test
