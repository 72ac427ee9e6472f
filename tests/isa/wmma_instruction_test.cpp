// wmma: the catalogue's fragment layouts are the ones the H200 loads and stores (the capture of
// tools/capture/wmma_layout_capture.cu), and the instruction texts decode or fail as the PTX ISA
// and ptxas 13.0 say.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "isa/wmma_instruction.hpp"
#include "sim/error.hpp"
#include "tests/paths.hpp"

namespace ptxmma {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// Each line of the capture: "load|store <instruction> <rows> <cols> <layout> <stride>: <numbers>",
// for a load the element (row * cols + col) of every lane's slots in lane order, for a store the
// slot (lane * slots + slot) of every element.
TEST(WmmaLayouts, MatchTheCapture) {
  std::ifstream in(std::string(kPtxmmaSourceDir) + "/tests/data/wmma-sm90-layouts.txt");
  ASSERT_TRUE(in);
  int forms = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(':');
    std::istringstream head(line.substr(0, colon)), body(line.substr(colon + 1));
    std::string kind, ptx, layout, stride;
    int rows = 0, cols = 0;
    head >> kind >> ptx >> rows >> cols >> layout >> stride;
    std::vector<int> nums;
    for (int v = 0; body >> v;) nums.push_back(v);
    const WmmaTransfer x = parse_wmma_transfer(ptx, "sm_90a");
    const FragmentLayout& f = *x.fragment;
    ASSERT_EQ(f.rows, rows) << ptx;
    ASSERT_EQ(f.cols, cols) << ptx;
    const int slots = f.regs * f.elems_per_reg;
    ASSERT_EQ(nums.size(), static_cast<std::size_t>(kind == "load" ? 32 * slots : rows * cols)) << ptx;
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < f.regs; ++r)
        for (int e = 0; e < f.elems_per_reg; ++e) {
          const FragmentCoord& c = f.coord(lane, r, e);
          const int slot = lane * slots + r * f.elems_per_reg + e, element = c.row * cols + c.col;
          if (kind == "load") {
            ASSERT_EQ(nums[static_cast<std::size_t>(slot)], element) << ptx << " lane " << lane << " reg " << r;
          } else if (r < f.distinct()) {  // a store reads the first copy
            ASSERT_EQ(nums[static_cast<std::size_t>(element)], slot) << ptx << " lane " << lane << " reg " << r;
          }
        }
    ++forms;
  }
  EXPECT_EQ(forms, 114);
}

TEST(WmmaInstruction, SpellingsOfEveryType) {
  EXPECT_EQ(parse_wmma("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16").variant->ptx,
            "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16");
  EXPECT_EQ(parse_wmma("wmma.mma.sync.aligned.col.row.m8n8k4.rz.f64.f64.f64.f64").rounding, Rounding::rz);
  // nvcc's spelling: the rounding after the types.
  EXPECT_EQ(parse_wmma("wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rm").rounding, Rounding::rm);
  EXPECT_NE(error_of([] { (void)parse_wmma("wmma.mma.sync.aligned.row.col.m8n8k4.rn.f64.f64.f64.f64.rz"); })
                .find("the rounding is given twice"),
            std::string::npos);
  EXPECT_EQ(parse_wmma("wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32").variant->bitop, BitOp::and_popc);
  EXPECT_TRUE(parse_wmma("wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32.satfinite").variant->satfinite);
  const MatrixVariant& mixed = *parse_wmma("wmma.mma.sync.aligned.row.row.m32n8k16.f16.f32").variant;
  EXPECT_EQ(mixed.accumulate, Type::f32);
  EXPECT_EQ(mixed.layout(Operand::b).copies, 4);
  EXPECT_EQ(parse_warp_mma("wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32").variant->family, "wmma_tf32");
  EXPECT_EQ(parse_warp_mma("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32").variant->family, "hmma");
}

TEST(WmmaInstruction, IllegalFormsAreNamed) {
  // ptxas 13.0 refuses both (docs/hardware/wmma-sm90.md).
  EXPECT_NE(error_of([] { (void)parse_wmma("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite"); })
                .find(".satfinite applies only to"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)parse_wmma("wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.u8.s32"); })
                .find("does not take s8 A with u8 B"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)parse_wmma("wmma.mma.sync.aligned.col.col.m8n8k32.s32.s4.s4.s32"); }).find("only .row.col"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)parse_wmma("wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32", "sm_75"); })
                .find("needs sm_80"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)parse_wmma("wmma.mma.sync.aligned.row.col.m16n8k16.f32.f32"); }).find("unknown shape"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)parse_wmma("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16.f16.f32"); })
                .find(".dtype.ctype only"),
            std::string::npos);
}

// Each form's first target, as the PTX ISA's wmma notes give it (docs/hardware/wmma-layouts-published.md):
// legal there, refused on the target before it. The integer forms' sm_72 is not a ptxmma target,
// so sm_75 is their first.
TEST(WmmaInstruction, FirstTargetsFollowThePtxIsa) {
  struct Form {
    const char* ptx;
    const char* first;
    const char* before;
  };
  const Form forms[] = {
      {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16", "sm_70", nullptr},
      {"wmma.mma.sync.aligned.row.col.m32n8k16.f16.f16", "sm_70", nullptr},
      {"wmma.mma.sync.aligned.col.row.m8n32k16.f32.f32", "sm_70", nullptr},
      {"wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32", "sm_75", "sm_70"},
      {"wmma.mma.sync.aligned.row.row.m32n8k16.s32.u8.u8.s32.satfinite", "sm_75", "sm_70"},
      {"wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32", "sm_75", "sm_70"},
      {"wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", "sm_75", "sm_70"},
      {"wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", "sm_80", "sm_75"},
      {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32", "sm_80", "sm_75"},
      {"wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32", "sm_80", "sm_75"},
      {"wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64", "sm_80", "sm_75"},
  };
  for (const Form& f : forms) {
    EXPECT_EQ(error_of([&] { (void)parse_wmma(f.ptx, f.first); }), "no error") << f.ptx;
    if (f.before) {
      EXPECT_NE(error_of([&] { (void)parse_wmma(f.ptx, f.before); }).find(std::string("needs ") + f.first),
                std::string::npos)
          << f.ptx << " on " << f.before;
    }
  }
}

TEST(WmmaTransfer, FragmentsAndAddressing) {
  const WmmaTransfer a = parse_wmma_transfer("wmma.load.a.sync.aligned.col.m16n16k16.shared.f16");
  EXPECT_EQ(a.fragment->regs, 8);
  EXPECT_EQ(a.fragment->copies, 2);
  EXPECT_EQ(a.space, "shared");
  EXPECT_EQ(a.default_stride(), 16);
  EXPECT_EQ(a.offset(2, 3, 16), 3U * 16 + 2);
  EXPECT_EQ(a.fragment_bytes(), 32);
  const WmmaTransfer c = parse_wmma_transfer("wmma.store.d.sync.aligned.row.m8n8k4.f64");
  EXPECT_EQ(c.operand, Operand::d);
  EXPECT_EQ(c.fragment->regs, 2);
  EXPECT_EQ(c.space, "");
  EXPECT_NE(error_of([] { (void)parse_wmma_transfer("wmma.load.a.sync.aligned.col.m8n8k32.s4"); }).find("loaded .row only"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)parse_wmma_transfer("wmma.load.c.sync.aligned.row.m16n16k16.bf16"); })
                .find("C of m16n16k16 is"),
            std::string::npos);
  EXPECT_NE(error_of([] { (void)parse_wmma_transfer("wmma.load.a.sync.aligned.row.m16n16k16.bf16", "sm_75"); })
                .find("needs sm_80"),
            std::string::npos);
}

}  // namespace
}  // namespace ptxmma
