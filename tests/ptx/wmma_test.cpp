// wmma.load and wmma.store in the interpreter: addressing (row and column major, strides,
// sub-byte elements), the copies of f16 fragments, Volta's two holders, and the located errors of
// bad operands.
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

// f16 bits of a small integer (|n| < 2048): exact.
std::uint64_t f16_of(int n) {
  if (n == 0) return 0;
  const std::uint64_t sign = n < 0 ? 0x8000U : 0U;
  int m = n < 0 ? -n : n, e = 0;
  while ((m >> (e + 1)) != 0) ++e;
  return sign | static_cast<std::uint64_t>((e + 15) << 10) | static_cast<std::uint64_t>(((m << 10) >> e) & 0x3ff);
}

std::uint64_t f32_of(int n) {
  const auto f = static_cast<float>(n);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, 4);
  return bits;
}

// Small integers keep every product and sum exact, whatever the order and the accumulator.
int a_of(int i, int k) { return (i + 2 * k) % 7 - 3; }
int b_of(int k, int j) { return (3 * k + j) % 5 - 2; }
int d_of(int i, int j) {
  int d = i - j;
  for (int k = 0; k < 16; ++k) d += a_of(i, k) * b_of(k, j);
  return d;
}

// A load / mma / store program of m16n16k16 on `target`: A at 0x1000 (`al`), B at 0x2000 (`bl`),
// C at 0x3000 (row-major, type `c`), D stored column-major at 0x8000 (type `d`). Returns D(i, j)
// as stored, row-major. `between` runs after the loads.
std::vector<std::uint64_t> product(const std::string& target, const std::string& al, const std::string& bl,
                                   const std::string& d, const std::string& c, const std::string& between = {}) {
  const auto regs = [](const char* p, int n) {
    std::string s;
    for (int k = 0; k < n; ++k) s += fmt::format("{}%{}{}", k ? "," : "", p, k);
    return "{" + s + "}";
  };
  const int cn = c == "f16" ? 4 : 8, dn = d == "f16" ? 4 : 8;
  const std::string text = fmt::format(R"(
.version 6.0
.target {0}
.address_size 64
.visible .entry k()
{{
  .reg .b32 %a<8>;
  .reg .b32 %b<8>;
  .reg .b32 %c<8>;
  .reg .b32 %d<8>;
  .reg .b32 %lane;
  .reg .pred %p;
  wmma.load.a.sync.aligned.{1}.m16n16k16.global.f16 {3}, [0x1000];
  wmma.load.b.sync.aligned.{2}.m16n16k16.global.f16 {4}, [0x2000];
  wmma.load.c.sync.aligned.row.m16n16k16.global.{6} {5}, [0x3000];
  mov.u32 %lane, %laneid;
{9}
  wmma.mma.sync.aligned.{1}.{2}.m16n16k16.{8}.{6} {7}, {3}, {4}, {5};
  wmma.store.d.sync.aligned.col.m16n16k16.global.{8} [0x8000], {7};
  ret;
}}
)",
                                       target, al, bl, regs("a", 8), regs("b", 8), regs("c", cn), c, regs("d", dn), d,
                                       between);
  const int cb = c == "f16" ? 2 : 4, db = d == "f16" ? 2 : 4;
  const Ran r = run_ptx(text, [&](Ran& x) {
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        x.machine->global().store(0x1000 + 2 * (al == "row" ? i * 16 + j : j * 16 + i), 2, f16_of(a_of(i, j)));
        x.machine->global().store(0x2000 + 2 * (bl == "row" ? i * 16 + j : j * 16 + i), 2, f16_of(b_of(i, j)));
        x.machine->global().store(0x3000 + cb * (i * 16 + j), cb, c == "f16" ? f16_of(i - j) : f32_of(i - j));
      }
  });
  std::vector<std::uint64_t> out;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) out.push_back(r.machine->global().load(0x8000 + db * (j * 16 + i), db));
  return out;
}

// On sm_70 the fragments are Volta's as GPGPU-Sim publishes them (A and B held by two lanes each,
// their registers depending on .row / .col: docs/hardware/wmma-layouts-published.md); a load / mma
// / store program computes D = A B + C exactly as on sm_90a, for every memory layout and
// accumulator type.
TEST(Wmma, RoundTripOnSm70GivesTheExactProduct) {
  for (const char* al : {"row", "col"})
    for (const char* bl : {"row", "col"})
      for (const char* d : {"f16", "f32"})
        for (const char* c : {"f16", "f32"}) {
          const std::vector<std::uint64_t> got = product("sm_70", al, bl, d, c);
          for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) {
              const int want = d_of(i, j);
              ASSERT_EQ(got[static_cast<std::size_t>(i * 16 + j)], std::string(d) == "f16" ? f16_of(want) : f32_of(want))
                  << al << "." << bl << " " << d << "." << c << " D(" << i << ", " << j << ")";
            }
          EXPECT_EQ(got, product("sm_90a", al, bl, d, c));
        }
}

// On sm_70 wmma.load fills both holders of an A element (lanes 0 and 8 hold row 0, all k, from
// .row memory), and the product reads one of them: GPGPU-Sim's choice, k >= 8 from the lane whose
// bit 3 is set. Zeroing lane 8's register 4 (A(0, 8..9)) changes D's row 0; zeroing lane 0's, not.
TEST(Wmma, Sm70LoadsBothHoldersAndTheProductReadsOne) {
  const auto zeroing = [](int lane) {
    return fmt::format("  setp.eq.u32 %p, %lane, {};\n  @%p mov.b32 %a4, 0;", lane);
  };
  const std::vector<std::uint64_t> plain = product("sm_70", "row", "col", "f32", "f32");
  EXPECT_EQ(product("sm_70", "row", "col", "f32", "f32", zeroing(0)), plain);
  const std::vector<std::uint64_t> changed = product("sm_70", "row", "col", "f32", "f32", zeroing(8));
  for (int j = 0; j < 16; ++j) {
    const int want = d_of(0, j) - a_of(0, 8) * b_of(8, j) - a_of(0, 9) * b_of(9, j);
    EXPECT_EQ(changed[static_cast<std::size_t>(j)], f32_of(want)) << "D(0, " << j << ")";
  }
  for (std::size_t x = 16; x < plain.size(); ++x) EXPECT_EQ(changed[x], plain[x]) << x;

  const Ran r = run_ptx(R"(
.version 6.0
.target sm_70
.address_size 64
.visible .entry k()
{
  .reg .b32 %a<8>;
  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0,%a1,%a2,%a3,%a4,%a5,%a6,%a7}, [0x1000];
  ret;
}
)",
                        [](Ran& x) {
                          for (int e = 0; e < 256; ++e) x.machine->global().store(0x1000 + 2 * e, 2, static_cast<std::uint64_t>(e));
                        });
  for (int q = 0; q < 8; ++q) {
    const std::string a = fmt::format("%a{}", q);
    EXPECT_EQ(r.reg(0, a), r.reg(8, a)) << a;
    EXPECT_EQ(r.reg(17, a), (static_cast<std::uint64_t>(5 * 16 + 2 * q + 1) << 16) | (5 * 16 + 2 * q)) << a;  // row 5
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
