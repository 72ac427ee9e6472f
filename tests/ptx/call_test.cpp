// Calls: .func with .param parameters and return values, call (with and without a return value,
// from a divergent path, a function with divergence inside, an early ret in some lanes), .local
// memory, vprintf and __assertfail, and the located errors of bad calls.
#include <gtest/gtest.h>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

const char* kHeader = R"(
.version 8.0
.target sm_90a
.address_size 64
)";

// twice(x) = 2x + its lane's parity (a branch inside), clamp(x) returns early for x > 40.
TEST(Call, FunctionsWithParametersAndReturnValues) {
  const std::string text = std::string(kHeader) + R"(
.func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{
.reg .b32 %r<4>;
.reg .pred %p;
ld.param.b32 %r1, [twice_param_0];
shl.b32 %r2, %r1, 1;
and.b32 %r3, %r1, 1;
setp.eq.u32 %p, %r3, 0;
@%p bra EVEN;
add.u32 %r2, %r2, 1;
EVEN:
st.param.b32 [func_retval0+0], %r2;
ret;
}
.func clamp(.param .b64 clamp_param_0, .param .b32 clamp_param_1)
{
.reg .b32 %r<3>;
.reg .b64 %rd;
.reg .pred %p;
ld.param.u64 %rd, [clamp_param_0];
ld.param.u32 %r1, [clamp_param_1];
setp.gt.u32 %p, %r1, 40;
@%p ret;
st.global.u32 [%rd], %r1;
}
.visible .entry k(.param .u64 out)
{
.reg .b32 %k<6>;
.reg .b64 %kd<4>;
.reg .pred %p;
ld.param.u64 %kd0, [out];
mov.u32 %k0, %laneid;
{
.param .b32 param0;
st.param.b32 [param0+0], %k0;
.param .b32 retval0;
call.uni (retval0), twice, (param0);
ld.param.b32 %k1, [retval0+0];
}
setp.lt.u32 %p, %k0, 24;
@!%p bra SKIP;
mul.wide.u32 %kd1, %k0, 4;
add.u64 %kd2, %kd0, %kd1;
add.u32 %k2, %k1, 3;
{
.param .b64 param0;
st.param.b64 [param0+0], %kd2;
.param .b32 param1;
st.param.b32 [param1+0], %k2;
call.uni clamp, (param0, param1);
}
SKIP:
ret;
}
)";
  const Ran r = run_ptx(text, [](Ran& x) {
    x.machine->param().store(0, 8, 0x1000);
    for (std::uint64_t a = 0; a < 128; a += 4) x.machine->global().store(0x1000 + a, 4, 0xcdcdcdcd);
  });
  for (int lane = 0; lane < 32; ++lane) {
    const auto l = static_cast<std::uint64_t>(lane);
    EXPECT_EQ(r.reg(lane, "%k1"), 2 * l + (l & 1)) << lane;
    const std::uint64_t v = 2 * l + (l & 1) + 3;
    EXPECT_EQ(r.machine->global().load(0x1000 + 4 * l, 4), l < 24 && v <= 40 ? v : 0xcdcdcdcdU) << lane;
  }
}

// printf("lane %d: %5.2f %s %llx%%\n", ...) through vprintf, with its arguments in .local memory.
TEST(Call, VprintfPrintsEachLanesLine) {
  const std::string text = std::string(kHeader) + R"(
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 1 .b8 $str[28] = {108, 97, 110, 101, 32, 37, 100, 58, 32, 37, 53, 46, 50, 102, 32, 37, 115, 32, 37, 108, 108, 120, 37, 37, 10, 0};
.global .align 1 .b8 $str1[3] = {111, 107, 0};
.visible .entry k()
.reqntid 2, 1, 1
{
.local .align 8 .b8 __local_depot0[32];
.reg .b64 %SP;
.reg .b64 %SPL;
.reg .b32 %r<4>;
.reg .b64 %rd<8>;
.reg .f64 %fd;
mov.u64 %SPL, __local_depot0;
cvta.local.u64 %SP, %SPL;
mov.u32 %r0, %tid.x;
cvt.rn.f64.u32 %fd, %r0;
add.f64 %fd, %fd, 0d3FF8000000000000;
st.local.u32 [%SPL], %r0;
st.local.f64 [%SPL+8], %fd;
mov.u64 %rd1, $str1;
cvta.global.u64 %rd2, %rd1;
st.local.u64 [%SPL+16], %rd2;
mov.u64 %rd3, 0xabc;
st.local.u64 [%SPL+24], %rd3;
mov.u64 %rd4, $str;
cvta.global.u64 %rd5, %rd4;
{
.reg .b32 temp_param_reg;
.param .b64 param0;
st.param.b64 [param0+0], %rd5;
.param .b64 param1;
st.param.b64 [param1+0], %SP;
.param .b32 retval0;
call.uni (retval0), vprintf, (param0, param1);
ld.param.b32 %r1, [retval0+0];
}
ret;
}
)";
  std::ostringstream out;
  InterpreterOptions o;
  o.print = &out;
  const Ran r = run_ptx(text, {}, o);
  EXPECT_EQ(r.summary.printed, "lane 0:  1.50 ok abc%\nlane 1:  2.50 ok abc%\n");
  EXPECT_EQ(out.str(), r.summary.printed);
  EXPECT_EQ(r.reg(0, "%r1"), 4U);
}

TEST(Call, AssertfailStopsWithTheGpusMessage) {
  const std::string text = std::string(kHeader) + R"(
.extern .func __assertfail(.param .b64 __assertfail_param_0, .param .b64 __assertfail_param_1,
  .param .b32 __assertfail_param_2, .param .b64 __assertfail_param_3, .param .b64 __assertfail_param_4)
.noreturn;
.global .align 1 .b8 $str[6] = {120, 32, 62, 32, 48, 0};
.global .align 1 .b8 $str1[5] = {97, 46, 99, 117, 0};
.global .align 1 .b8 $str2[7] = {118, 111, 105, 100, 32, 107, 0};
.visible .entry k()
{
.reg .b32 %r<2>;
.reg .b64 %rd<4>;
.reg .pred %p;
mov.u32 %r0, %laneid;
setp.ne.u32 %p, %r0, 5;
@%p bra OK;
mov.u64 %rd1, $str;
mov.u64 %rd2, $str1;
mov.u64 %rd3, $str2;
{
.param .b64 param0;
st.param.b64 [param0+0], %rd1;
.param .b64 param1;
st.param.b64 [param1+0], %rd2;
.param .b32 param2;
st.param.b32 [param2+0], 17;
.param .b64 param3;
st.param.b64 [param3+0], %rd3;
.param .b64 param4;
st.param.b64 [param4+0], 1;
call.uni __assertfail, (param0, param1, param2, param3, param4);
}
OK:
ret;
}
)";
  const std::string e = error_of(text);
  EXPECT_NE(e.find("test.ptx:34:1: error: 'call.uni' (__assertfail): device-side assertion failed in 1 thread: "
                   "a.cu:17: void k: block: [0,0,0], thread: [5,0,0] Assertion `x > 0` failed."),
            std::string::npos)
      << e;
}

TEST(Call, BadCallsAreLocatedErrors) {
  const auto has = [](const std::string& body, const std::string& what) {
    const std::string e = error_of(std::string(kHeader) + body);
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  const std::string f = ".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}\n";
  has(f + ".visible .entry k()\n{\n.param .b64 p;\n.param .b32 q;\ncall.uni (q), f, (p);\n}\n",
      "'p' of 8 bytes passed to 'a' of 'f', which has 4 bytes");
  has(f + ".visible .entry k()\n{\n.param .b32 p;\ncall.uni f, (p, p);\n}\n",
      "passes 2 arguments to 'f', which takes 1");
  has(f + ".visible .entry k()\n{\n.param .b32 p;\ncall.uni g, (p);\n}\n",
      "calls 'g', which is not a function of this file");
  has(".extern .func h();\n.visible .entry k()\n{\ncall.uni h;\n}\n",
      "'h' is declared (line 5) but not defined in the file");
  has(".func r()\n{\ncall.uni r;\nret;\n}\n.visible .entry k()\n{\ncall.uni r;\n}\n",
      "calls 'r' while a call of it is in progress");
  has(".func r()\n{\nret;\n}\n.visible .entry k()\n{\n.reg .pred %p;\nsetp.eq.u32 %p, %laneid, 0;\n@%p call.uni r;\n}\n",
      "lanes 0 call and lanes 1-31 of the same path do not");
}

}  // namespace
}  // namespace ptxmma::test
