// wmma.load and wmma.store in the interpreter: addressing (row and column major, strides,
// sub-byte elements), the copies of f16 fragments, and the located errors of bad operands.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>

#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

// C loaded row-major with stride `ls` and stored column-major with stride `ss` (m16n16k16 f32):
// global 0x1000 holds element (i, j) = i * 100 + j at i * ls + j; 0x8000 receives it at j * ss + i.
std::string transpose(int ls, int ss) {
  return fmt::format(R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
{{
  .reg .f32 %c<8>;
  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {{%c0,%c1,%c2,%c3,%c4,%c5,%c6,%c7}}, [0x1000], {};
  wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [0x8000], {{%c0,%c1,%c2,%c3,%c4,%c5,%c6,%c7}}, {};
  ret;
}}
)",
                     ls, ss);
}

// Global 0x1000 as the matrix (rows of `ls`), 0x8000 as 0xffffffff words.
void fill(Ran& x, int ls) {
  for (int w = 0; w < 16 * 17; ++w) x.machine->global().store(0x8000 + 4 * w, 4, 0xffffffffU);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < ls; ++j) x.machine->global().store(0x1000 + 4 * (i * ls + j), 4, static_cast<std::uint64_t>(i * 100 + j));
}

TEST(Wmma, LoadRowStoreColumnTransposes) {
  const Ran r = run_ptx(transpose(20, 17), [](Ran& x) { fill(x, 20); });
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      ASSERT_EQ(r.machine->global().load(0x8000 + 4 * (j * 17 + i), 4), static_cast<std::uint64_t>(i * 100 + j)) << i << "," << j;
  // Words between the columns (stride 17 > 16) are not written.
  EXPECT_EQ(r.machine->global().load(0x8000 + 4 * 16, 4), 0xffffffffU);
}

// f16 A of m16n16k16 fills both copies; s4 A packs eight elements a word from nibbles of memory.
TEST(Wmma, LoadsFillCopiesAndSubByteElements) {
  const Ran r = run_ptx(R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
{
  .reg .b32 %a<8>;
  .reg .b32 %s;
  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0,%a1,%a2,%a3,%a4,%a5,%a6,%a7}, [0x1000];
  wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%s}, [0x4000];
  ret;
}
)",
                        [](Ran& x) {
                          for (int e = 0; e < 256; ++e) x.machine->global().store(0x1000 + 2 * e, 2, static_cast<std::uint64_t>(e));
                          for (int b = 0; b < 128; ++b) x.machine->global().store(0x4000 + b, 1, static_cast<std::uint64_t>(b));
                        });
  // Lane 5 (g = 1, t = 1): a0, a1 = A(1, 2..3); registers 4..7 repeat 0..3.
  EXPECT_EQ(r.reg(5, "%a0"), (19U << 16) | 18U);
  for (int q = 0; q < 4; ++q) EXPECT_EQ(r.reg(5, fmt::format("%a{}", q + 4)), r.reg(5, fmt::format("%a{}", q)));
  // s4 row 1 (g = 1), columns 8t..8t+7 of lane 5: bytes 16 + 4 .. 16 + 7 of memory, low nibble first.
  EXPECT_EQ(r.reg(5, "%s"), 0x17161514U);
}

// f16 bits of a small integer (|n| <= 16): exact.
std::uint64_t f16_of(int n) {
  if (n == 0) return 0;
  const std::uint64_t sign = n < 0 ? 0x8000U : 0U;
  int m = n < 0 ? -n : n, e = 0;
  while ((m >> (e + 1)) != 0) ++e;
  return sign | static_cast<std::uint64_t>((e + 15) << 10) | static_cast<std::uint64_t>(((m << 10) >> e) & 0x3ff);
}

// On sm_70 (whose fragments ptxmma assumes from sm_90's, docs/hardware/wmma-layouts-published.md)
// a load / mma / store program still computes D = A B + C exactly: the result does not depend on
// the fragment layout. Small integers keep every product and sum exact.
TEST(Wmma, RoundTripOnSm70GivesTheExactProduct) {
  const Ran r = run_ptx(R"(
.version 6.0
.target sm_70
.address_size 64
.visible .entry k()
{
  .reg .b32 %a<8>;
  .reg .b32 %b<8>;
  .reg .f32 %c<8>;
  .reg .f32 %d<8>;
  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0,%a1,%a2,%a3,%a4,%a5,%a6,%a7}, [0x1000];
  wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%b0,%b1,%b2,%b3,%b4,%b5,%b6,%b7}, [0x2000];
  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%c0,%c1,%c2,%c3,%c4,%c5,%c6,%c7}, [0x3000];
  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%d0,%d1,%d2,%d3,%d4,%d5,%d6,%d7}, {%a0,%a1,%a2,%a3,%a4,%a5,%a6,%a7}, {%b0,%b1,%b2,%b3,%b4,%b5,%b6,%b7}, {%c0,%c1,%c2,%c3,%c4,%c5,%c6,%c7};
  wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [0x8000], {%d0,%d1,%d2,%d3,%d4,%d5,%d6,%d7};
  ret;
}
)",
                        [](Ran& x) {
                          for (int i = 0; i < 16; ++i)
                            for (int j = 0; j < 16; ++j) {
                              x.machine->global().store(0x1000 + 2 * (i * 16 + j), 2, f16_of((i + 2 * j) % 7 - 3));
                              x.machine->global().store(0x2000 + 2 * (j * 16 + i), 2, f16_of((3 * i + j) % 5 - 2));
                              const float c = static_cast<float>(i - j);
                              std::uint32_t bits = 0;
                              std::memcpy(&bits, &c, 4);
                              x.machine->global().store(0x3000 + 4 * (i * 16 + j), 4, bits);
                            }
                        });
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      int d = i - j;
      for (int k = 0; k < 16; ++k) d += ((i + 2 * k) % 7 - 3) * ((3 * k + j) % 5 - 2);  // B(k, j), column-major
      const auto bits = static_cast<std::uint32_t>(r.machine->global().load(0x8000 + 4 * (j * 16 + i), 4));
      float got = 0;
      std::memcpy(&got, &bits, 4);
      ASSERT_EQ(got, static_cast<float>(d)) << i << "," << j;
    }
}

TEST(Wmma, BadOperandsAreLocatedErrors) {
  const auto body = [](const std::string& lines) {
    return fmt::format(R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
{{
  .reg .f32 %c<8>;
  .reg .b32 %r;
  .reg .b64 %p;
  .reg .pred %q;
  mov.u32 %r, %laneid;
{}
  ret;
}}
)",
                       lines);
  };
  const std::string c = "{%c0,%c1,%c2,%c3,%c4,%c5,%c6,%c7}";
  EXPECT_NE(error_of(transpose(12, 16)).find("the stride 12 is less than the 16 elements of a row"), std::string::npos);
  EXPECT_NE(error_of(body("  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 " + c + ", [0x1002];")).find("alignment"),
            std::string::npos);
  EXPECT_NE(error_of(body("  cvt.u64.u32 %p, %r;\n  shl.b64 %p, %p, 6;\n  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 " +
                          c + ", [%p];"))
                .find("lane 1 gives the address 0x40, lane 0 0x0"),
            std::string::npos);
  EXPECT_NE(error_of(body("  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%c0,%c1}, [0x1000];"))
                .find("moves 8 registers"),
            std::string::npos);
  EXPECT_NE(error_of(body("  wmma.load.c.sync.aligned.row.m16n16k16.global.bf16 " + c + ", [0x1000];")).find("test.ptx:"),
            std::string::npos);
  EXPECT_NE(error_of(body("  setp.lt.u32 %q, %r, 16;\n  @%q wmma.load.c.sync.aligned.row.m16n16k16.global.f32 " + c +
                          ", [0x1000];"))
                .find("needs all 32 lanes"),
            std::string::npos);
}

// The PTX ISA's alignment (the fragment's 32 bytes) is a warning: the H200 ran 16-byte rows.
TEST(Wmma, StrideOffTheFragmentSizeIsAWarning) {
  const Ran r = run_ptx(transpose(20, 16), [](Ran& x) { fill(x, 20); });
  ASSERT_EQ(r.summary.warnings.size(), 1U);
  EXPECT_NE(r.summary.warnings[0].message.find("multiples of the fragment's 32 bytes"), std::string::npos);
}

}  // namespace
}  // namespace ptxmma::test
