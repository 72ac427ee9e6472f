// tcgen05 (sm_100a) tensor memory in the interpreter: alloc / dealloc / relinquish_alloc_permit,
// tcgen05.ld / st for every shape with the registers' TMEM cells written out here from the PTX
// ISA's figures (in the form of CUTLASS's SM100_TMEM_LOAD DstLayouts), not from
// configs/tcgen05/tmem_copy.yaml; .num, .pack::16b / .unpack::16b, immHalfSplitoff; the hazards,
// access rules, blocking allocations and malformed forms; and the decoder against ptxas's word on
// every form of tests/data/tcgen05-ptxas/forms.tsv.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "sim/exec/descriptor.hpp"
#include "sim/exec/instr_descriptor.hpp"
#include "sim/numeric/rounding.hpp"
#include "tests/paths.hpp"
#include "tests/ptx/ptx_test_util.hpp"

namespace ptxmma::test {
namespace {

// The kernel of tools/tcgen05/ptxas_sweep.py around one instruction.
std::string in_sweep_kernel(const std::string& ins) {
  return ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<300>;\n"
         ".reg .b64 %rd<4>;\n.reg .pred %p<4>;\n.shared .align 16 .b32 slot;\n" +
         ins + "\nret;\n}\n";
}

TEST(Tcgen05, DecoderAgreesWithPtxas) {
  std::ifstream in(std::string(kPtxmmaSourceDir) + "/tests/data/tcgen05-ptxas/forms.tsv");
  ASSERT_TRUE(in) << "tests/data/tcgen05-ptxas/forms.tsv";
  std::string line;
  int accepted = 0, refused = 0;
  std::vector<std::string> not_simulated;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const bool ok = line.substr(0, tab) == "accepted";
    const std::string ins = line.substr(tab + 1);
    std::string error;
    try {
      (void)ptx::parse_ptx(in_sweep_kernel(ins), "sweep.ptx");
    } catch (const Error& e) {
      error = e.what();
    }
    if (ok && error.find("is not simulated") != std::string::npos) {
      not_simulated.push_back(ins);  // legal PTX that ptxmma does not run: refused, saying so
      continue;
    }
    if (ok) {
      EXPECT_EQ(error, "") << "ptxas accepts " << ins;
      ++accepted;
    } else {
      EXPECT_NE(error, "") << "ptxas refuses " << ins;
      ++refused;
    }
  }
  EXPECT_GT(accepted, 150);
  EXPECT_GT(refused, 80);
  // CTA pairs, and the mma operands and kinds not simulated yet.
  const std::vector<std::string> expected = {
      "tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;",
      "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%r1], 32;",
      "tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r1, 32;",
      "tcgen05.mma.cta_group::1.kind::i8 [%r1], %rd1, %rd2, %r2, %p1, 3;",
      "tcgen05.mma.cta_group::2.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;",
      "tcgen05.commit.cta_group::2.mbarrier::arrive::one.b64 [%rd1];",
      "tcgen05.cp.cta_group::1.128x256b.b8x16.b6x16_p32 [%r1], %rd1;",
      "tcgen05.cp.cta_group::1.128x256b.b8x16.b4x16_p64 [%r1], %rd1;",
      "tcgen05.cp.cta_group::2.128x256b [%r1], %rd1;",
      "tcgen05.shift.cta_group::2.down [%r1];",
  };
  EXPECT_EQ(not_simulated, expected);
}

// ---- data movement -------------------------------------------------------------------------

// Where register R of lane t of SHAPE.xN lies, relative to the address: the PTX ISA's figures of
// the shapes, as CUTLASS's DstLayouts of SM100_TMEM_LOAD_<shape><N>x give them (evaluated by hand).
struct Cell {
  int row, col;
};
Cell cell_of(const std::string& shape, int t, int R, int split) {
  if (shape == "32x32b") return {t, R};
  if (shape == "16x64b") return {t / 4 + 8 * (t & 1), ((t >> 1) & 1) + 2 * R};
  if (shape == "16x128b") return {t / 4 + 8 * (R % 2), (t & 3) + 4 * (R / 2)};
  if (shape == "16x256b") return {t / 4 + 8 * ((R % 4) / 2), 2 * (t & 3) + (R & 1) + 8 * (R / 4)};
  return {t & 15, R + (t >= 16 ? split : 0)};  // 16x32bx2
}
int regs_of(const std::string& shape) { return shape == "16x128b" ? 2 : shape == "16x256b" ? 4 : 1; }

// A fill of lanes 0-31, columns 0-511 of the tensor memory: each cell a different word whose low
// half also tells lane and column apart (for .pack::16b).
std::uint32_t fill_word(int lane, int col) {
  return (static_cast<std::uint32_t>(0xA0 + lane) << 16) | (static_cast<std::uint32_t>(lane) << 9) |
         static_cast<std::uint32_t>(col);
}

std::string vector_of(int first, int n) {
  std::string v = "{";
  for (int i = 0; i < n; ++i) v += (i ? ", %r" : "%r") + std::to_string(first + i);
  return v + "}";
}

// A kernel: allocate all 512 columns, store fill_word into lanes 0-31 a column at a time
// (32x32b.x1: lane t, column c), then `body`, then free them.
std::string filled(const std::string& body) {
  return R"(.version 8.7
.target sm_100a
.address_size 64
.visible .entry k()
{
.reg .b32 %r<300>;
.reg .pred %p;
.shared .align 16 .b32 slot;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 512;
ld.shared.b32 %r1, [slot];
mov.u32 %r2, %laneid;
add.u32 %r3, %r2, 0xA0;
shl.b32 %r3, %r3, 16;
shl.b32 %r4, %r2, 9;
or.b32 %r3, %r3, %r4;
mov.u32 %r5, 0;
$fill:
or.b32 %r6, %r3, %r5;
add.u32 %r7, %r1, %r5;
tcgen05.st.sync.aligned.32x32b.x1.b32 [%r7], {%r6};
add.u32 %r5, %r5, 1;
setp.lt.u32 %p, %r5, 512;
@%p bra $fill;
tcgen05.wait::st.sync.aligned;
)" + body + R"(
tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 512;
ret;
}
)";
}

TEST(Tcgen05, LoadEveryShapeNumAndPack) {
  const int at = 8;  // the load's first column
  for (const std::string shape : {"32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"})
    for (const int num : {1, 2, 4, 16})
      for (const bool pack : {false, true}) {
        const int n = regs_of(shape) * num;
        const int split = shape == "16x32bx2" ? num * (pack ? 2 : 1) + 3 : 0;
        const std::string ld = "add.u32 %r8, %r1, " + std::to_string(at) + ";\ntcgen05.ld.sync.aligned." + shape +
                               ".x" + std::to_string(num) + (pack ? ".pack::16b" : "") + ".b32 " + vector_of(100, n) +
                               ", [%r8]" + (split ? ", " + std::to_string(split) : "") + ";\ntcgen05.wait::ld.sync.aligned;";
        SCOPED_TRACE(ld);
        const Ran r = run_ptx(filled(ld));
        EXPECT_EQ(warnings(r), "");
        for (int t = 0; t < 32; ++t)
          for (int R = 0; R < n; ++R) {
            // Packed: register R's cell (in 32-bit columns) is two 16-bit columns.
            const Cell c = cell_of(shape, t, R, 0);
            const int half1 = shape == "16x32bx2" && t >= 16 ? split : 0;
            const std::uint32_t want =
                pack ? (fill_word(c.row, at + half1 + 2 * c.col) & 0xFFFFU) |
                           ((fill_word(c.row, at + half1 + 2 * c.col + 1) & 0xFFFFU) << 16)
                     : fill_word(cell_of(shape, t, R, split).row, at + cell_of(shape, t, R, split).col);
            ASSERT_EQ(r.reg(t, "%r" + std::to_string(100 + R)), want) << "lane " << t << " register " << R;
          }
      }
}

TEST(Tcgen05, StoreEveryShapeNumAndUnpack) {
  const int at = 4;
  for (const std::string shape : {"32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"})
    for (const int num : {1, 2, 8})
      for (const bool unpack : {false, true}) {
        const int n = regs_of(shape) * num;
        const int split = shape == "16x32bx2" ? num * (unpack ? 2 : 1) : 0;
        // Register R of lane t: (t << 24) | (R << 8) | 0x5A, its halves told apart.
        std::string body = "shl.b32 %r9, %r2, 24;\n";
        for (int R = 0; R < n; ++R)
          body += "or.b32 %r" + std::to_string(100 + R) + ", %r9, " + std::to_string((R << 8) | 0x5A) + ";\n";
        body += "add.u32 %r8, %r1, " + std::to_string(at) + ";\ntcgen05.st.sync.aligned." + shape + ".x" +
                std::to_string(num) + (unpack ? ".unpack::16b" : "") + ".b32 [%r8]" +
                (split ? ", " + std::to_string(split) : "") + ", " + vector_of(100, n) + ";\ntcgen05.wait::st.sync.aligned;\n";
        // Keep the cells: no dealloc at the end of this kernel (its leak is a warning).
        std::string text = filled(body);
        text.replace(text.find("tcgen05.dealloc"), text.find('\n', text.find("tcgen05.dealloc")) - text.find("tcgen05.dealloc"), "");
        SCOPED_TRACE(body);
        const Ran r = run_ptx(text);
        const TensorMemory& tm = r.machine->cta(0).tmem;
        std::vector<std::uint32_t> want(32 * 512);
        for (int l = 0; l < 32; ++l)
          for (int c = 0; c < 512; ++c) want[static_cast<std::size_t>(l * 512 + c)] = fill_word(l, c);
        for (int t = 0; t < 32; ++t)
          for (int R = 0; R < n; ++R) {
            const std::uint32_t v = (static_cast<std::uint32_t>(t) << 24) | (static_cast<std::uint32_t>(R) << 8) | 0x5A;
            const Cell c = cell_of(shape, t, R, 0);
            const int half1 = shape == "16x32bx2" && t >= 16 ? split : 0;
            if (unpack) {
              want[static_cast<std::size_t>(c.row * 512 + at + half1 + 2 * c.col)] = v & 0xFFFFU;
              want[static_cast<std::size_t>(c.row * 512 + at + half1 + 2 * c.col + 1)] = v >> 16;
            } else {
              want[static_cast<std::size_t>(c.row * 512 + at + half1 + c.col)] = v;
            }
          }
        for (int l = 0; l < 32; ++l)
          for (int c = 0; c < 512; ++c)
            ASSERT_EQ(tm.get(l, c), want[static_cast<std::size_t>(l * 512 + c)]) << "lane " << l << " column " << c;
      }
}

// ---- allocation, access rules, hazards -------------------------------------------------------

const char* kHead = ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n"
                    ".reg .b32 %r<300>;\n.reg .pred %p;\n.shared .align 16 .b32 slot[4];\n";

InterpreterOptions warps(int n) {
  InterpreterOptions o;
  o.ntid = {32 * n, 1, 1};
  return o;
}

// Warp 0 takes 256 columns and then 128 (at 256), and waits on an mbarrier; warp 1 arrives on it
// and asks for 512 columns, which it gets (at 0) once warp 0 has freed both; every address lands
// in shared memory.
TEST(Tcgen05, AllocationsPlaceAndWait) {
  const std::string text = std::string(kHead) + R"(
.shared .align 8 .b64 bar;
mov.u32 %r1, %tid.x;
setp.ge.u32 %p, %r1, 32;
@%p bra $second;
mbarrier.init.shared.b64 [bar], 32;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 256;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot+4], 128;
bar.sync 0;
$wait:
mbarrier.try_wait.parity.shared.b64 %p, [bar], 0;
@!%p bra $wait;
ld.shared.b32 %r2, [slot];
ld.shared.b32 %r3, [slot+4];
tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r2, 256;
tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, 128;
bra $end;
$second:
bar.sync 0;
mbarrier.arrive.shared.b64 _, [bar];
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot+8], 512;
ld.shared.b32 %r4, [slot+8];
tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, 512;
$end:
ret;
}
)";
  const Ran r = run_ptx(text, {}, warps(2));
  EXPECT_EQ(warnings(r), "");
  EXPECT_EQ(r.reg(0, "%r2"), 0U);
  EXPECT_EQ(r.reg(0, "%r3"), 256U);
  EXPECT_EQ(r.reg(32, "%r4"), 0U);
  EXPECT_FALSE(r.machine->cta(0).tmem.permit());
  EXPECT_TRUE(r.machine->cta(0).tmem.allocations().empty());
}

TEST(Tcgen05, AnAllocationNobodyFreesIsADeadlock) {
  const std::string text = std::string(kHead) + R"(
mov.u32 %r1, %tid.x;
setp.ge.u32 %p, %r1, 32;
@%p bra $second;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 512;
bar.sync 0;
bra $end;
$second:
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot+4], 32;
bar.sync 0;
$end:
ret;
}
)";
  const std::string e = error_of(text, warps(2));
  EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
  EXPECT_NE(e.find("warp 1 at line 17 (tcgen05.alloc"), std::string::npos) << e;
  EXPECT_NE(e.find("waiting for free tensor-memory columns; allocated: columns 0-511"), std::string::npos) << e;
  EXPECT_NE(e.find("a tcgen05.alloc a tcgen05.dealloc that frees columns"), std::string::npos) << e;
}

// Each error names its line and what is wrong.
TEST(Tcgen05, MisusesAreLocatedErrors) {
  const auto prog = [](const std::string& body) {
    return std::string(kHead) + "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 64;\n"
                                "ld.shared.b32 %r1, [slot];\n" + body + "\nret;\n}\n";
  };
  // Warp 1 (lanes 32-63) reads lane 0.
  std::string e = error_of(prog("mov.u32 %r5, %tid.x;\nsetp.lt.u32 %p, %r5, 32;\n@%p bra $x;\n"
                                "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r2}, [%r1];\n$x:"),
                           warps(2));
  EXPECT_NE(e.find("test.ptx:14:1: "), std::string::npos) << e;
  // (each warp allocated 64 columns: warp 1's are 64-127)
  EXPECT_NE(e.find("warp 1 (warp 1 of its warpgroup) reaches tensor-memory lanes 32-63 only; address 0x00000040 "
                   "names lanes 0-31"),
            std::string::npos)
      << e;
  // A 16-lane shape at lane 24 crosses into lanes 32-39.
  e = error_of(prog("add.u32 %r3, %r1, 0x180000;\ntcgen05.ld.sync.aligned.16x64b.x1.b32 {%r2}, [%r3];"));
  EXPECT_NE(e.find("names lanes 24-39"), std::string::npos) << e;
  // Columns 64 and on were not allocated.
  e = error_of(prog("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r2, %r3}, [%r1+63];"));
  EXPECT_NE(e.find("column 64 is not allocated"), std::string::npos) << e;
  e = error_of(prog("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;"));
  EXPECT_NE(e.find("columns 0-31 are not an allocation of this CTA's tensor memory (allocated: columns 0-63)"),
            std::string::npos)
      << e;
  e = error_of(prog("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
                    "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;"));
  EXPECT_NE(e.find("test.ptx:12:1: "), std::string::npos) << e;
  EXPECT_NE(e.find("relinquish_alloc_permit"), std::string::npos) << e;
  e = error_of(prog("mov.u32 %r2, 48;\ntcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], %r2;"));
  EXPECT_NE(e.find("48 columns: an allocation is a power of two from 32 to 512 columns"), std::string::npos) << e;
  e = error_of(prog("mov.u32 %r5, %laneid;\nsetp.lt.u32 %p, %r5, 4;\n"
                    "@%p tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r2}, [%r1];"));
  EXPECT_NE(e.find("needs all 32 lanes of the warp"), std::string::npos) << e;
  e = error_of(prog("mov.u32 %r5, %laneid;\nadd.u32 %r5, %r1, %r5;\ntcgen05.ld.sync.aligned.32x32b.x1.b32 {%r2}, [%r5];"));
  EXPECT_NE(e.find("differs between lanes"), std::string::npos) << e;
  // Decoding: the target, a shape, a count of registers.
  e = error_of(".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<4>;\n"
               "tcgen05.wait::ld.sync.aligned;\nret;\n}\n");
  EXPECT_NE(e.find("test.ptx:7:1: error: 'tcgen05.wait::ld.sync.aligned' is a Blackwell instruction: needs sm_100a"),
            std::string::npos)
      << e;
  e = error_of(prog("tcgen05.ld.sync.aligned.16x256b.x2.b32 {%r2, %r3}, [%r1];"));
  EXPECT_NE(e.find("moves 8 registers a thread (4 of .16x256b times 2), found 2"), std::string::npos) << e;
  e = error_of(prog("tcgen05.ld.sync.aligned.16x256b.x64.b32 {%r2}, [%r1];"));
  EXPECT_NE(e.find(".x64 is not a .num of .16x256b (.x1 to .x32, powers of two)"), std::string::npos) << e;
}

TEST(Tcgen05, HazardsAndLeaksAreWarningsOrStrictErrors) {
  const std::string text = std::string(kHead) + R"(
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
ld.shared.b32 %r1, [slot];
tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r1};
tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r2}, [%r1];
add.u32 %r3, %r2, 1;
tcgen05.wait::ld.sync.aligned;
add.u32 %r4, %r2, 1;
ret;
}
)";
  const Ran r = run_ptx(text);
  EXPECT_EQ(warnings(r),
            "test.ptx:14:1: warning: warp 0: %r2 is a destination of the tcgen05.ld at line 13, which is still in "
            "flight (tcgen05.wait::ld before using it)\n"
            "test.ptx:10:1: warning: CTA (0, 0, 0): tensor-memory columns 0-31 allocated here are not deallocated when "
            "the CTA ends (tcgen05.dealloc before exit)\n");
  InterpreterOptions strict;
  strict.strict = true;
  EXPECT_NE(error_of(text, strict).find("test.ptx:14:1: error: warp 0: %r2 is a destination of the tcgen05.ld"),
            std::string::npos);
}

// ---- tcgen05.mma -----------------------------------------------------------------------------

// A K-major, no-swizzle sm_100 descriptor: 8-row core matrices of 16 bytes, LBO between them
// along K, SBO along M/N (the canonical layout; PTX ISA "Shared Memory Descriptor").
std::uint64_t smem_desc(std::uint64_t start, std::uint64_t lbo, std::uint64_t sbo) {
  return (start >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (1ULL << 46);
}
// The byte of element (x, k) of 2-byte elements in that layout.
std::uint64_t smem_at(std::uint64_t start, int x, int k) {
  return start + static_cast<std::uint64_t>(x / 8) * 256 + static_cast<std::uint64_t>(k / 8) * 128 +
         static_cast<std::uint64_t>(x % 8) * 16 + static_cast<std::uint64_t>(k % 8) * 2;
}

// kind::f16, M = 64, N = 16: A has a 1 at k = m mod 16, B[n][k] = k + n, so D[m][n] = m mod 16 + n
// (+ 100 where C is kept: the second MMA accumulates). The canonical sequence: mma, commit,
// mbarrier wait, fence::after_thread_sync, ld, wait::ld.
TEST(Tcgen05, MmaF16FromDescriptorsIntoTensorMemory) {
  const int M = 64, N = 16, K = 16;
  const std::uint64_t a0 = 0x400, b0 = 0x1000;
  const std::uint64_t da = smem_desc(a0, 128, 256), db = smem_desc(b0, 128, 256);
  const std::uint32_t idesc = (1U << 4) | (static_cast<std::uint32_t>(N >> 3) << 17) | (static_cast<std::uint32_t>(M >> 4) << 24);
  const std::string text = std::string(kHead) + R"(
.reg .b64 %rd<4>;
.shared .align 8 .b64 bar;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
ld.shared.b32 %r1, [slot];
mbarrier.init.shared.b64 [bar], 1;
tcgen05.fence::before_thread_sync;
tcgen05.fence::after_thread_sync;
mov.u32 %r9, %laneid;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, 0;
@%p tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];
$wait:
mbarrier.try_wait.parity.shared.b64 %p, [bar], 0;
@!%p bra $wait;
tcgen05.fence::after_thread_sync;
tcgen05.ld.sync.aligned.32x32b.x16.b32 {%r100, %r101, %r102, %r103, %r104, %r105, %r106, %r107, %r108, %r109, %r110, %r111, %r112, %r113, %r114, %r115}, [%r1];
tcgen05.wait::ld.sync.aligned;
tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;
ret;
}
)";
  InterpreterOptions o;
  o.arch = "sm_100a";
  const Ran r = run_ptx(
      text,
      [&](Ran& run) {
        Memory& sh = run.machine->shared(0);
        for (int m = 0; m < M; ++m)
          for (int k = 0; k < K; ++k) sh.store(smem_at(a0, m, k), 2, k == m % 16 ? 0x3C00 : 0);
        for (int n = 0; n < N; ++n)
          for (int k = 0; k < K; ++k)
            sh.store(smem_at(b0, n, k), 2, convert(Type::f32, std::bit_cast<std::uint32_t>(static_cast<float>(k + n)),
                                                    Type::f16, ConvertFlags{Rounding::rn}));
        set_all(run, "%rd1", da);
        set_all(run, "%rd2", db);
        set_all(run, "%r2", idesc);
      },
      o);
  // M = 64 leaves lanes 16-31 of the quarter alone: the 32-lane load reads them unwritten.
  EXPECT_EQ(warnings(r), "test.ptx:25:1: warning: initcheck: tensor memory lane 16 column 0 is read before anything "
                         "wrote it (a fresh allocation's contents are unspecified)\n");
  const TensorMemory& tm = r.machine->cta(0).tmem;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      const int lane = m % 16 + 32 * (m / 16);  // M = 64: the first 16 lanes of each quarter
      ASSERT_EQ(tm.get(lane, n), std::bit_cast<std::uint32_t>(static_cast<float>(m % 16 + n))) << m << ", " << n;
    }
  // Warp 0's load: its lanes 0-15 hold rows 0-15.
  for (int t = 0; t < 16; ++t)
    for (int n = 0; n < N; ++n)
      ASSERT_EQ(r.reg(t, "%r" + std::to_string(100 + n)), std::bit_cast<std::uint32_t>(static_cast<float>(t + n)));
}

// Negated A (idesc bit 13) and an MN-major B (bit 16: n contiguous; no swizzle: element (n, k)
// at start + (k / 8) * LBO + (k % 8) * 16 + 2n for N = 8): D = -(A B) = -(m mod 16 + n), +0 for
// a zero sum (docs/tcgen05.md §3.1).
TEST(Tcgen05, MmaNegatedAAndMnMajorB) {
  const int M = 64, N = 8, K = 16;
  const std::uint64_t a0 = 0x400, b0 = 0x1000;
  const std::uint32_t idesc = (1U << 4) | (1U << 13) | (1U << 16) | (1U << 17) | (4U << 24);
  const std::string text = std::string(kHead) + R"(
.reg .b64 %rd<4>;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
ld.shared.b32 %r1, [slot];
mov.u32 %r9, %laneid;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, 0;
tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;
ret;
}
)";
  InterpreterOptions o;
  o.arch = "sm_100a";
  const Ran r = run_ptx(
      text,
      [&](Ran& run) {
        Memory& sh = run.machine->shared(0);
        for (int m = 0; m < M; ++m)
          for (int k = 0; k < K; ++k) sh.store(smem_at(a0, m, k), 2, k == m % 16 ? 0x3C00 : 0);
        for (int n = 0; n < N; ++n)
          for (int k = 0; k < K; ++k)
            sh.store(b0 + static_cast<std::uint64_t>(k / 8) * 128 + static_cast<std::uint64_t>(k % 8) * 16 + 2 * n, 2,
                     convert(Type::f32, std::bit_cast<std::uint32_t>(static_cast<float>(k + n)), Type::f16,
                             ConvertFlags{Rounding::rn}));
        set_all(run, "%rd1", smem_desc(a0, 128, 256));
        set_all(run, "%rd2", smem_desc(b0, 128, 256));
        set_all(run, "%r2", idesc);
      },
      o);
  // (no commit: the end of the CTA says so)
  EXPECT_EQ(warnings(r), "test.ptx:15:5: warning: warp 0 lane 0: this tcgen05.mma is still in flight when the CTA "
                         "ends (no tcgen05.commit tracked its completion)\n");
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      ASSERT_EQ(r.machine->cta(0).tmem.get(m % 16 + 32 * (m / 16), n),  // an exact zero sum is +0
                m % 16 + n == 0 ? 0U : std::bit_cast<std::uint32_t>(-static_cast<float>(m % 16 + n)))
          << m << ", " << n;
}

// disable-output-lane and scale-input-d: M = 128 (row m in TMEM lane m), A has a 1 at k = m mod 16,
// B[n][k] = k + n. The first MMA writes D = m mod 16 + n; the second, D = A B + D * 2^-1 =
// 1.5 (m mod 16 + n), except in the lanes whose bit is set ({lanes 0-15, 100, 127}), which keep
// the first D. A D that 2^-s cannot scale exactly is an error.
TEST(Tcgen05, MmaDisableOutputLaneAndScaleInputD) {
  const int M = 128, N = 8, K = 16;
  const std::uint64_t a0 = 0x400, b0 = 0x2000;
  const std::uint32_t idesc = (1U << 4) | (static_cast<std::uint32_t>(N >> 3) << 17) | (static_cast<std::uint32_t>(M >> 4) << 24);
  const std::string text = std::string(kHead) + R"(
.reg .b64 %rd<4>;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
ld.shared.b32 %r1, [slot];
mov.u32 %r9, %laneid;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, 0;
@%p tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, {%r20, 0, 0, %r23}, 1, SCALE;
tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;
ret;
}
)";
  const auto run = [&](int scale, std::uint32_t b_value_bits) {
    std::string program = text;
    program.replace(program.find("SCALE"), 5, std::to_string(scale));
    InterpreterOptions o;
    o.arch = "sm_100a";
    return run_ptx(
        program,
        [&](Ran& run) {
          Memory& sh = run.machine->shared(0);
          for (int m = 0; m < M; ++m)
            for (int k = 0; k < K; ++k) sh.store(smem_at(a0, m, k), 2, k == m % 16 ? 0x3C00 : 0);
          for (int n = 0; n < N; ++n)
            for (int k = 0; k < K; ++k)
              sh.store(smem_at(b0, n, k), 2,
                       b_value_bits ? b_value_bits
                                    : convert(Type::f32, std::bit_cast<std::uint32_t>(static_cast<float>(k + n)),
                                              Type::f16, ConvertFlags{Rounding::rn}));
          set_all(run, "%rd1", smem_desc(a0, 128, 256));
          set_all(run, "%rd2", smem_desc(b0, 128, 256));
          set_all(run, "%r2", idesc);
          set_all(run, "%r20", 0x0000FFFFU);
          set_all(run, "%r23", 0x80000010U);  // lanes 100 and 127
        },
        o);
  };
  const Ran r = run(1, 0);
  for (int m = 0; m < M; ++m) {
    const bool disabled = m < 16 || m == 100 || m == 127;
    for (int n = 0; n < N; ++n) {
      const float first = static_cast<float>(m % 16 + n);
      ASSERT_EQ(r.machine->cta(0).tmem.get(m, n), std::bit_cast<std::uint32_t>(disabled ? first : 1.5F * first))
          << m << ", " << n;
    }
  }
  // D = 3 * 2^-149 (an f32 subnormal, stored by tcgen05.st) halved is not an f32: an error.
  const std::string tiny = std::string(kHead) + R"(
.reg .b64 %rd<4>;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
ld.shared.b32 %r1, [slot];
mov.u32 %r30, 3;
tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r30};
mov.u32 %r9, %laneid;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, 1, 1;
ret;
}
)";
  std::string e;
  try {
    InterpreterOptions o;
    o.arch = "sm_100a";
    (void)run_ptx(
        tiny,
        [&](Ran& run) {
          set_all(run, "%rd1", smem_desc(a0, 128, 256));
          set_all(run, "%rd2", smem_desc(b0, 128, 256));
          set_all(run, "%r2", idesc);
        },
        o);
  } catch (const Error& x) {
    e = x.what();
  }
  EXPECT_NE(e.find("test.ptx:17:5: error: 'tcgen05.mma.cta_group::1.kind::f16': scale-input-d 1: D at tensor-memory lane 0 column 0 (f32 0x3) times 2^-1 is "
                   "not exact in f32, and the PTX ISA does not say how the scaled D rounds"),
            std::string::npos)
      << e;
}

// A from tensor memory ([a-tmem]): row m in lane m (M = 128), f16 elements two a cell, k = 2j in
// the low half of column j. The four warps store A[m][k] = (k == m mod 16) into columns 0-7; B in
// shared memory is B[n][k] = k + n; D (columns 8-15) = m mod 16 + n.
TEST(Tcgen05, MmaAFromTensorMemory) {
  const int M = 128, N = 8, K = 16;
  const std::uint64_t b0 = 0x1000;
  const std::uint32_t idesc = (1U << 4) | (static_cast<std::uint32_t>(N >> 3) << 17) | (static_cast<std::uint32_t>(M >> 4) << 24);
  const std::string text = std::string(kHead) + R"(
.reg .b64 %rd<4>;
mov.u32 %r9, %tid.x;
setp.lt.u32 %p, %r9, 32;
@%p tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
bar.sync 0;
ld.shared.b32 %r1, [slot];
shr.u32 %r8, %r9, 5;
shl.b32 %r8, %r8, 21;
add.u32 %r8, %r1, %r8;
tcgen05.st.sync.aligned.32x32b.x8.b32 [%r8], {%r100, %r101, %r102, %r103, %r104, %r105, %r106, %r107};
tcgen05.wait::st.sync.aligned;
tcgen05.fence::before_thread_sync;
bar.sync 0;
tcgen05.fence::after_thread_sync;
add.u32 %r3, %r1, 8;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.mma.cta_group::1.kind::f16 [%r3], [%r1], %rd2, %r2, 0;
ret;
}
)";
  InterpreterOptions o = warps(4);
  o.arch = "sm_100a";
  const Ran r = run_ptx(
      text,
      [&](Ran& run) {
        Memory& sh = run.machine->shared(0);
        for (int n = 0; n < N; ++n)
          for (int k = 0; k < K; ++k)
            sh.store(smem_at(b0, n, k), 2, convert(Type::f32, std::bit_cast<std::uint32_t>(static_cast<float>(k + n)),
                                                    Type::f16, ConvertFlags{Rounding::rn}));
        for (int t = 0; t < 128; ++t) {
          for (int j = 0; j < 8; ++j) {  // thread t stores lane t: row m = t
            const std::uint32_t lo = 2 * j == t % 16 ? 0x3C00U : 0, hi = 2 * j + 1 == t % 16 ? 0x3C00U : 0;
            run.machine->set_reg(t, run.index("%r" + std::to_string(100 + j)), lo | (hi << 16));
          }
          run.machine->set_reg(t, run.index("%rd2"), smem_desc(b0, 128, 256));
          run.machine->set_reg(t, run.index("%r2"), idesc);
        }
      },
      o);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      ASSERT_EQ(r.machine->cta(0).tmem.get(m, 8 + n), std::bit_cast<std::uint32_t>(static_cast<float>(m % 16 + n)))
          << m << ", " << n;
}

// ---- tcgen05.cp and tcgen05.shift ------------------------------------------------------------

// Shared memory holds word(r, w) = 0x10000 * (r + 1) + w at row r, 32-bit word w of the canonical
// K-major no-swizzle layout (8-row core matrices of 16 bytes: byte 4w of row r at
// 0x400 + (r / 8) * SBO + (w / 4) * LBO + (r % 8) * 16 + (w % 4) * 4, LBO 128 and SBO 256). Each
// shape's copy lands at column 8 (taddr's lane 0, or 60 for .4x256b); the TMEM lane of row r is
// written out here from the PTX ISA's description of each multicast.
TEST(Tcgen05, CpEveryShapeAndShift) {
  const std::uint64_t s0 = 0x400;
  const auto word = [](int r, int w) { return 0x10000U * static_cast<std::uint32_t>(r + 1) + static_cast<std::uint32_t>(w); };
  struct Case {
    std::string shape;
    int rows, words, lane0;
    std::function<std::vector<int>(int)> lanes;  // the TMEM lanes of row r
  };
  const std::vector<Case> cases = {
      {"128x256b", 128, 8, 0, [](int r) { return std::vector<int>{r}; }},
      {"4x256b", 4, 8, 60, [](int r) { return std::vector<int>{60 + r}; }},
      {"128x128b", 128, 4, 0, [](int r) { return std::vector<int>{r}; }},
      {"64x128b.warpx2::02_13", 64, 4, 0, [](int r) { return std::vector<int>{r % 32 + 32 * (r / 32), r % 32 + 32 * (r / 32 + 2)}; }},
      {"64x128b.warpx2::01_23", 64, 4, 0, [](int r) { return std::vector<int>{r % 32 + 64 * (r / 32), r % 32 + 64 * (r / 32) + 32}; }},
      {"32x128b.warpx4", 32, 4, 0, [](int r) { return std::vector<int>{r, r + 32, r + 64, r + 96}; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.shape);
    const std::string text = std::string(kHead) + R"(
.reg .b64 %rd<4>;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
ld.shared.b32 %r1, [slot];
add.u32 %r1, %r1, )" + std::to_string((c.lane0 << 16) + 8) + R"(;
mov.u32 %r9, %laneid;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.cp.cta_group::1.)" + c.shape + R"( [%r1], %rd1;
ret;
}
)";
    InterpreterOptions o;
    o.arch = "sm_100a";
    const Ran r = run_ptx(
        text,
        [&](Ran& run) {
          Memory& sh = run.machine->shared(0);
          for (int row = 0; row < c.rows; ++row)
            for (int w = 0; w < c.words; ++w)
              sh.store(s0 + static_cast<std::uint64_t>(row / 8) * 256 + static_cast<std::uint64_t>(w / 4) * 128 +
                           static_cast<std::uint64_t>(row % 8) * 16 + static_cast<std::uint64_t>(w % 4) * 4,
                       4, word(row, w));
          set_all(run, "%rd1", smem_desc(s0, 128, 256));
        },
        o);
    const TensorMemory& tm = r.machine->cta(0).tmem;
    int written = 0;
    for (int row = 0; row < c.rows; ++row)
      for (const int lane : c.lanes(row))
        for (int w = 0; w < c.words; ++w) {
          ASSERT_TRUE(tm.defined(lane, 8 + w)) << row << ", " << w;
          ASSERT_EQ(tm.get(lane, 8 + w), word(row, w)) << row << " -> lane " << lane << ", word " << w;
          ++written;
        }
    int defined = 0;
    for (int lane = 0; lane < TensorMemory::kLanes; ++lane)
      for (int col = 0; col < 32; ++col) defined += tm.defined(lane, col) ? 1 : 0;
    EXPECT_EQ(defined, written);  // nothing else
  }

  // shift.down at lane 32: 128x256b fills lanes 0-127, then lanes 32..126 move one down.
  const std::string text = std::string(kHead) + R"(
.reg .b64 %rd<4>;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
ld.shared.b32 %r1, [slot];
mov.u32 %r9, %laneid;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.cp.cta_group::1.128x256b [%r1], %rd1;
add.u32 %r2, %r1, 0x200000;
@%p tcgen05.shift.cta_group::1.down [%r2];
ret;
}
)";
  InterpreterOptions o;
  o.arch = "sm_100a";
  const Ran r = run_ptx(
      text,
      [&](Ran& run) {
        Memory& sh = run.machine->shared(0);
        for (int row = 0; row < 128; ++row)
          for (int w = 0; w < 8; ++w)
            sh.store(s0 + static_cast<std::uint64_t>(row / 8) * 256 + static_cast<std::uint64_t>(w / 4) * 128 +
                         static_cast<std::uint64_t>(row % 8) * 16 + static_cast<std::uint64_t>(w % 4) * 4,
                     4, word(row, w));
        set_all(run, "%rd1", smem_desc(s0, 128, 256));
      },
      o);
  const TensorMemory& tm = r.machine->cta(0).tmem;
  for (int lane = 0; lane < 128; ++lane)
    for (int w = 0; w < 8; ++w)
      ASSERT_EQ(tm.get(lane, w), word(lane <= 32 ? lane : lane - 1, w)) << lane << ", " << w;

  // A shape's multicast is checked when decoding; the lanes and columns when it runs.
  EXPECT_NE(error_of(std::string(kHead) + "tcgen05.cp.cta_group::1.64x128b [%r1], 0;\nret;\n}\n", o)
                .find("'tcgen05.cp.cta_group::1.64x128b': .64x128b takes .warpx2::02_13 or .warpx2::01_23"),
            std::string::npos);
}

// D read before the MMA's completion is observed: with no commit, and after the commit before its
// mbarrier's phase completes; after the wait, nothing. --strict makes it an error.
TEST(Tcgen05, ReadingDBeforeTheMmaCompletesIsAHazard) {
  const std::string text = std::string(kHead) + R"(
.reg .b64 %rd<4>;
.shared .align 8 .b64 bar;
tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
ld.shared.b32 %r1, [slot];
mbarrier.init.shared.b64 [bar], 2;
mov.u32 %r9, %laneid;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, 0;
tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r10}, [%r1+7];
@%p tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];
tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r11}, [%r1+6];
tcgen05.wait::ld.sync.aligned;
@%p mbarrier.arrive.shared.b64 _, [bar];
$wait:
mbarrier.try_wait.parity.shared.b64 %p, [bar], 0;
@!%p bra $wait;
tcgen05.fence::after_thread_sync;
tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r12}, [%r1];
tcgen05.wait::ld.sync.aligned;
tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;
ret;
}
)";
  InterpreterOptions o;
  o.arch = "sm_100a";
  const auto setup = [](Ran& run) {
    set_all(run, "%rd1", smem_desc(0x400, 128, 256));
    set_all(run, "%rd2", smem_desc(0x1000, 128, 256));
    set_all(run, "%r2", (1U << 4) | (1U << 17) | (8U << 24));  // M 128, N 8, f16 -> f32
  };
  const Ran r = run_ptx(text, setup, o);
  EXPECT_EQ(warnings(r),
            "test.ptx:18:1: warning: warp 0: tensor-memory lanes 0-127, columns 0-7 are D of the tcgen05.mma at line 17, "
            "which is still in flight (no tcgen05.commit of its thread yet, nor a wait on that mbarrier; then "
            "tcgen05.fence::after_thread_sync)\n"
            "test.ptx:20:1: warning: warp 0: tensor-memory lanes 0-127, columns 0-7 are D of the tcgen05.mma at line 17, "
            "which is still in flight (its tcgen05.commit's mbarrier phase has not completed; then "
            "tcgen05.fence::after_thread_sync)\n");
  o.strict = true;
  std::string e;
  try {
    (void)run_ptx(text, setup, o);
  } catch (const Error& x) {
    e = x.what();
  }
  EXPECT_NE(e.find("test.ptx:18:1: error: warp 0: tensor-memory lanes 0-127, columns 0-7 are D"), std::string::npos) << e;
}

TEST(Tcgen05, InstructionDescriptorFieldsAreChecked) {
  const std::uint32_t ok = (1U << 4) | (2U << 17) | (8U << 24);  // f16 x f16 -> f32, M 128, N 16
  const InstrDescriptor d = InstrDescriptor::decode(ok | (1U << 13) | (1U << 16), Tcgen05Kind::f16);
  EXPECT_EQ(d.text(), "M 128, N 16, A -f16, B f16, D f32, A K-major, B MN-major");
  EXPECT_EQ(InstrDescriptor::decode((2U << 7) | (2U << 10) | (1U << 4) | (32U << 17) | (4U << 24), Tcgen05Kind::tf32).text(),
            "M 64, N 256, A tf32, B tf32, D f32, A K-major, B K-major");
  const auto error = [](std::uint32_t raw, Tcgen05Kind k) {
    try {
      (void)InstrDescriptor::decode(raw, k);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error(ok | 4, Tcgen05Kind::f16), "instruction descriptor 0x08040014: bits 2:0 (sparsity) are 4; dense tcgen05.mma has 0");
  EXPECT_EQ(error(ok | (1U << 7), Tcgen05Kind::f16),
            "instruction descriptor 0x08040090: A is bf16 and B f16; the PTX ISA does not say that kind::f16 mixes them");
  EXPECT_EQ(error((ok & ~(1U << 4)) | (1U << 7) | (1U << 10), Tcgen05Kind::f16),
            "instruction descriptor 0x08040480: D type 0 (bits 5:4); kind::f16 accumulates in f32 (1), or f16 (0) with f16 A and B");
  EXPECT_EQ(error(ok, Tcgen05Kind::tf32), "instruction descriptor 0x08040010: A type 0 (bits 9:7); kind::tf32 takes 2 (tf32)");
  EXPECT_EQ(error((1U << 4) | (2U << 17) | (2U << 24), Tcgen05Kind::f16),
            "instruction descriptor 0x02040010: M = 32 (bits 28:24 = 2); .cta_group::1 takes M 64 or 128");
  EXPECT_EQ(error((1U << 4) | (8U << 24), Tcgen05Kind::f16),
            "instruction descriptor 0x08000010: N = 0 (bits 22:17 = 0); N is 8 to 256 in steps of 8");
  EXPECT_EQ(error(ok | (1U << 30), Tcgen05Kind::f16),
            "instruction descriptor 0x48040010: bits 31:30 (the B-reuse shift of .ws) are 1; 0 without .ws");
  // kind::f8f6f4: A and B independently, f16 or f32 D; kind::i8: s32 D, saturate, no negation,
  // N past 32 in steps of 16.
  EXPECT_EQ(InstrDescriptor::decode((5U << 7) | (4U << 10) | (2U << 17) | (8U << 24), Tcgen05Kind::f8f6f4).text(),
            "M 128, N 16, A e2m1, B e3m2, D f16, A K-major, B K-major");
  EXPECT_EQ(error(ok | (2U << 7), Tcgen05Kind::f8f6f4),
            "instruction descriptor 0x08040110: A type 2 (bits 9:7); kind::f8f6f4 takes 0 (e4m3), 1 (e5m2), 3 (e2m3), "
            "4 (e3m2) or 5 (e2m1)");
  const std::uint32_t i8 = (1U << 3) | (2U << 4) | (1U << 7) | (4U << 17) | (8U << 24);  // s8 x u8, N 32
  EXPECT_EQ(InstrDescriptor::decode(i8, Tcgen05Kind::i8).text(),
            "M 128, N 32, A s8, B u8, D s32 (saturating), A K-major, B K-major");
  EXPECT_EQ(error(ok, Tcgen05Kind::i8), "instruction descriptor 0x08040010: D type 1 (bits 5:4); kind::i8 accumulates in s32 (2)");
  EXPECT_EQ(error(i8 | (1U << 14), Tcgen05Kind::i8),
            "instruction descriptor 0x080840a8: bit 14 (negate B) is 1; kind::i8 does not negate");
  EXPECT_EQ(error((i8 & ~(63U << 17)) | (5U << 17), Tcgen05Kind::i8),
            "instruction descriptor 0x080a00a8: N = 40 (bits 22:17 = 5); kind::i8 takes N 8, 16, 24, then steps of 16");
  EXPECT_EQ(error(i8, Tcgen05Kind::f8f6f4), "instruction descriptor 0x080800a8: bit 3 (saturate) is for kind::i8, not kind::f8f6f4");
}

TEST(Tcgen05, SharedMemoryDescriptorOfSm100) {
  const MatrixDescriptor d = MatrixDescriptor::decode_tcgen05(smem_desc(0x400, 128, 256) | (2ULL << 61) | (3ULL << 49));
  EXPECT_EQ(d.start, 0x400U);
  EXPECT_EQ(d.lbo, 128U);
  EXPECT_EQ(d.sbo, 256U);
  EXPECT_EQ(d.base_offset, 3);
  EXPECT_EQ(d.swizzle, Swizzle::b128);
  EXPECT_EQ(MatrixDescriptor::decode_tcgen05(smem_desc(0, 16, 16) | (6ULL << 61)).swizzle, Swizzle::b32);
  EXPECT_THROW((void)MatrixDescriptor::decode_tcgen05(smem_desc(0, 16, 16) & ~(1ULL << 46)), Error);  // wgmma's
  EXPECT_THROW((void)MatrixDescriptor::decode_tcgen05(smem_desc(0, 16, 16) | (1ULL << 61)), Error);   // 32B atoms
  EXPECT_THROW((void)MatrixDescriptor::decode_tcgen05(smem_desc(0, 16, 16) | (3ULL << 61)), Error);   // undefined
  EXPECT_THROW((void)MatrixDescriptor::decode_tcgen05(smem_desc(0, 16, 16) | (1ULL << 52)), Error);   // sm_103a
}

// MMA-Sim's tcgen05.mma cases (tests/data/mmasim-tcgen05: one output element each, a row of A,
// a column of B, C and D) run through the interpreter's tcgen05.mma, 128 at a time on the
// diagonal of an M = 128, N = 128 MMA: case i's row in A's row i, its column in B's column i, its
// C stored into tensor memory (lane i, column i) by warp i / 32's tcgen05.st; D read back by
// tcgen05.ld. Every case's D must be MMA-Sim's.
struct MmaSimCase {
  std::vector<std::uint64_t> a, b;
  std::uint64_t c = 0, d = 0;
};
std::vector<MmaSimCase> mmasim_cases(const std::string& file) {
  std::ifstream in(std::string(kPtxmmaSourceDir) + "/tests/data/mmasim-tcgen05/" + file);
  std::vector<MmaSimCase> out;
  std::string line;
  std::getline(in, line);  // the header: row,a,b,c_src_f32,c,d
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    MmaSimCase c;
    for (const int which : {1, 2}) {
      std::stringstream codes(f[static_cast<std::size_t>(which)]);
      for (std::string x; codes >> x;) (which == 1 ? c.a : c.b).push_back(std::stoull(x, nullptr, 16));
    }
    c.c = std::stoull(f[4], nullptr, 16);
    c.d = std::stoull(f[5], nullptr, 16);
    out.push_back(std::move(c));
  }
  return out;
}

// The cases (each a row of A and a column of B as element codes, C and the expected D) through one
// kind; `types`: idesc's bits below N (D, A and B types, saturate). `bytes`: of an element in
// shared memory.
void run_diagonal(const std::vector<MmaSimCase>& cases, const std::string& file, const char* kind, std::uint32_t types,
                  int bytes, const std::function<std::uint64_t(std::uint64_t)>& to_memory = nullptr) {
  const int K = static_cast<int>(cases[0].a.size());
  const std::uint64_t a0 = 0x1000, b0 = 0x2000;
  const auto at = [&](std::uint64_t start, int x, int k) {  // K-major, no swizzle, LBO 128, SBO 256
    return start + static_cast<std::uint64_t>(x / 8) * 256 + static_cast<std::uint64_t>(k * bytes / 16) * 128 +
           static_cast<std::uint64_t>(x % 8) * 16 + static_cast<std::uint64_t>(k * bytes % 16);
  };
  const std::uint32_t idesc = types | (16U << 17) | (8U << 24);
  const std::string text = std::string(kHead) + R"(
.reg .b64 %rd<4>;
.shared .align 8 .b64 bar;
mov.u32 %r9, %tid.x;
setp.lt.u32 %p, %r9, 32;
@%p tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 128;
@%p mbarrier.init.shared.b64 [bar], 1;
bar.sync 0;
ld.shared.b32 %r1, [slot];
shr.u32 %r8, %r9, 5;
shl.b32 %r8, %r8, 21;
add.u32 %r8, %r1, %r8;
tcgen05.st.sync.aligned.32x32b.x128.b32 [%r8], )" + vector_of(100, 128) + R"(;
tcgen05.wait::st.sync.aligned;
tcgen05.fence::before_thread_sync;
bar.sync 0;
tcgen05.fence::after_thread_sync;
setp.eq.u32 %p, %r9, 0;
@%p tcgen05.mma.cta_group::1.KIND [%r1], %rd1, %rd2, %r2, 1;
@%p tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [bar];
$wait:
mbarrier.try_wait.parity.shared.b64 %p, [bar], 0;
@!%p bra $wait;
tcgen05.fence::after_thread_sync;
tcgen05.ld.sync.aligned.32x32b.x128.b32 )" + vector_of(100, 128) + R"(, [%r8];
tcgen05.wait::ld.sync.aligned;
bar.sync 0;
setp.lt.u32 %p, %r9, 32;
@%p tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 128;
ret;
}
)";
  const std::string program = std::string(text).replace(text.find("KIND"), 4, kind);
  InterpreterOptions o = warps(4);
  o.arch = "sm_100a";
  int checked = 0;
  for (std::size_t first = 0; first < cases.size(); first += 128) {
    const Ran r = run_ptx(
        program,
        [&](Ran& run) {
          Memory& sh = run.machine->shared(0);
          for (int i = 0; i < 128; ++i) {
            const MmaSimCase& c = cases[std::min(first + static_cast<std::size_t>(i), cases.size() - 1)];
            for (int k = 0; k < K; ++k) {
              const auto put = [&](std::uint64_t code) { return to_memory ? to_memory(code) : code; };
              sh.store(at(a0, i, k), bytes, put(c.a[static_cast<std::size_t>(k)]));
              sh.store(at(b0, i, k), bytes, put(c.b[static_cast<std::size_t>(k)]));
            }
            // Thread i (lane i % 32 of warp i / 32) stores row i: C on the diagonal, 0 elsewhere.
            for (int n = 0; n < 128; ++n) run.machine->set_reg(i, run.index("%r" + std::to_string(100 + n)), n == i ? c.c : 0);
          }
          set_all(run, "%rd1", smem_desc(a0, 128, 256));
          set_all(run, "%rd2", smem_desc(b0, 128, 256));
          set_all(run, "%r2", idesc);
          for (int t = 32; t < 128; ++t) {
            run.machine->set_reg(t, run.index("%rd1"), smem_desc(a0, 128, 256));
            run.machine->set_reg(t, run.index("%rd2"), smem_desc(b0, 128, 256));
            run.machine->set_reg(t, run.index("%r2"), idesc);
          }
        },
        o);
    EXPECT_EQ(warnings(r), "");
    for (std::size_t i = 0; i < 128 && first + i < cases.size(); ++i, ++checked)
      ASSERT_EQ(r.reg(static_cast<int>(i), "%r" + std::to_string(100 + i)), cases[first + i].d)
          << file << " case " << first + i;
  }
  EXPECT_EQ(checked, static_cast<int>(cases.size()));
}

void run_mmasim_file(const std::string& file, const char* kind, std::uint32_t a_code, std::uint32_t b_code,
                     std::uint32_t d_code) {
  const std::vector<MmaSimCase> cases = mmasim_cases(file);
  ASSERT_EQ(cases.size(), 400U) << file;
  const int bytes = 32 / static_cast<int>(cases[0].a.size());  // 16 f16, 8 tf32, 32 FP8: 32 bytes a row
  run_diagonal(cases, file, kind, (d_code << 4) | (a_code << 7) | (b_code << 10), bytes);
}

TEST(Tcgen05, MmaAgreesWithMmaSimF16ToF32) { run_mmasim_file("f16/fp16_f32.csv", "kind::f16", 0, 0, 1); }
TEST(Tcgen05, MmaAgreesWithMmaSimBf16ToF32) { run_mmasim_file("f16/bf16_f32.csv", "kind::f16", 1, 1, 1); }
TEST(Tcgen05, MmaAgreesWithMmaSimF16ToF16) { run_mmasim_file("f16/fp16_f16.csv", "kind::f16", 0, 0, 0); }
TEST(Tcgen05, MmaAgreesWithMmaSimTf32) { run_mmasim_file("tf32/tf32_f32.csv", "kind::tf32", 2, 2, 1); }

// kind::f8f6f4: the eight files of e4m3 / e5m2 A and B (idesc codes 0, 1), f32 D (1) and f16 D (0).
TEST(Tcgen05, MmaAgreesWithMmaSimF8f6f4) {
  const std::pair<const char*, std::uint32_t> fmts[] = {{"e4m3", 0}, {"e5m2", 1}};
  for (const auto& [a, ac] : fmts)
    for (const auto& [b, bc] : fmts)
      for (const auto& [d, dc] : {std::pair<const char*, std::uint32_t>{"f32", 1}, {"f16", 0}})
        run_mmasim_file(fmt::format("f8f6f4/{}_{}_{}.csv", a, b, d), "kind::f8f6f4", ac, bc, dc);
}

// The FP6/FP4 formats of kind::f8f6f4, which MMA-Sim does not run: small values whose products
// and sums are exact in f32 (the block's F = 25 cuts nothing), so D is the exact sum, computed
// here from the formats' definition. Each element sits in a byte of shared memory: e2m1 in bits
// 5:2, e2m3 and e3m2 in bits 5:0.
struct MiniFloat {
  const char* name;
  std::uint32_t code;  // idesc's
  int exp_bits, man_bits, bias;
};
double minifloat_value(const MiniFloat& f, std::uint64_t c) {
  const int e = static_cast<int>(c >> f.man_bits) & ((1 << f.exp_bits) - 1);
  const double m = static_cast<double>(c & ((1U << f.man_bits) - 1)) / (1 << f.man_bits);
  const double mag = e == 0 ? std::ldexp(m, 1 - f.bias) : std::ldexp(1 + m, e - f.bias);
  return (c >> (f.exp_bits + f.man_bits)) & 1 ? -mag : mag;
}
TEST(Tcgen05, MmaF8f6f4SubByteFormatsAreExactSums) {
  const MiniFloat e2m1{"e2m1", 5, 2, 1, 1}, e2m3{"e2m3", 3, 2, 3, 1}, e3m2{"e3m2", 4, 3, 2, 3};
  std::mt19937 rng(7);
  for (const auto& [fa, fb] : {std::pair{e2m1, e2m3}, std::pair{e3m2, e2m1}, std::pair{e2m3, e3m2}}) {
    const int bits_a = 1 + fa.exp_bits + fa.man_bits, bits_b = 1 + fb.exp_bits + fb.man_bits;
    std::vector<MmaSimCase> cases(128);
    for (MmaSimCase& c : cases) {
      double sum = 0;
      for (int k = 0; k < 32; ++k) {
        c.a.push_back(rng() & ((1U << bits_a) - 1));
        c.b.push_back(rng() & ((1U << bits_b) - 1));
        sum += minifloat_value(fa, c.a.back()) * minifloat_value(fb, c.b.back());
      }
      c.c = 0;
      c.d = sum == 0 ? 0U : std::bit_cast<std::uint32_t>(static_cast<float>(sum));  // +0 for a zero sum
    }
    // A and B have their own containers: the shared-memory byte is the test's, per operand.
    for (MmaSimCase& c : cases)
      for (std::size_t k = 0; k < 32; ++k) {
        c.a[k] <<= fa.code == 5 ? 2 : 0;
        c.b[k] <<= fb.code == 5 ? 2 : 0;
      }
    run_diagonal(cases, fmt::format("{} x {}", fa.name, fb.name), "kind::f8f6f4", (1U << 4) | (fa.code << 7) | (fb.code << 10), 1);
  }
}

// kind::i8: s8 / u8 in any pairing, the exact sum in s32 (wrapping), or clamped with idesc's
// saturate bit; C near the ends of s32.
TEST(Tcgen05, MmaI8IsTheExactSumSaturatingOnRequest) {
  std::mt19937 rng(3);
  for (const std::uint32_t a_signed : {0U, 1U})
    for (const std::uint32_t b_signed : {0U, 1U})
      for (const bool saturate : {false, true}) {
        std::vector<MmaSimCase> cases(128);
        for (std::size_t i = 0; i < cases.size(); ++i) {
          MmaSimCase& c = cases[i];
          std::int64_t sum = 0;
          for (int k = 0; k < 32; ++k) {
            c.a.push_back(rng() & 0xFF);
            c.b.push_back(rng() & 0xFF);
            const auto value = [](std::uint64_t code, bool sgn) {
              return sgn ? static_cast<std::int64_t>(static_cast<std::int8_t>(code)) : static_cast<std::int64_t>(code);
            };
            sum += value(c.a.back(), a_signed != 0) * value(c.b.back(), b_signed != 0);
          }
          const std::int32_t cs[] = {0, INT32_MAX - 1000, INT32_MIN + 1000, static_cast<std::int32_t>(rng())};
          const std::int32_t cv = cs[i % 4];
          sum += cv;
          c.c = static_cast<std::uint32_t>(cv);
          c.d = saturate ? static_cast<std::uint32_t>(std::clamp<std::int64_t>(sum, INT32_MIN, INT32_MAX))
                         : static_cast<std::uint32_t>(sum);
        }
        run_diagonal(cases, fmt::format("i8 {}{}", a_signed, b_signed), "kind::i8",
                     (saturate ? 1U << 3 : 0U) | (2U << 4) | (a_signed << 7) | (b_signed << 10), 1);
      }
}

}  // namespace
}  // namespace ptxmma::test
