// A warp's named registers, and mma executed on them.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "isa/mma_instruction.hpp"
#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "sim/state/warp.hpp"
#include "tests/paths.hpp"
#include "tools/vectors/golden_set.hpp"

namespace ptxmma {
namespace {

TEST(Warp, RegisterKindsFollowPtxNames) {
  EXPECT_EQ(kind_from_name("%r1"), RegKind::b32);
  EXPECT_EQ(kind_from_name("%f2"), RegKind::b32);
  EXPECT_EQ(kind_from_name("%rd3"), RegKind::b64);
  EXPECT_EQ(kind_from_name("%fd4"), RegKind::b64);
  EXPECT_EQ(kind_from_name("%h0"), RegKind::b16);
  EXPECT_EQ(kind_from_name("%p1"), RegKind::pred);
  EXPECT_FALSE(kind_from_name("r1").has_value());
}

TEST(Warp, ValuesKeepTheRegisterWidth) {
  Warp w;
  w.declare("%h0", RegKind::b16);
  w.declare("%p1", RegKind::pred);
  w.set(3, "%h0", 0x12345);
  w.set(3, "%p1", 2);
  EXPECT_EQ(w.get(3, "%h0"), 0x2345U);
  EXPECT_EQ(w.get(3, "%p1"), 0U);
  EXPECT_EQ(w.get(4, "%h0"), 0U);
  EXPECT_THROW((void)w.get(0, "%r9"), Error);
  EXPECT_THROW(w.declare("%h0", RegKind::b32), Error);
}

// The first case of the H200 set, loaded into named registers, gives the H200's D registers.
TEST(Warp, MmaOnNamedRegistersMatchesTheH200) {
  const GoldenSet set = read_golden_set(std::string(kPtxmmaSourceDir) + "/tests/data/mma-sm90-h200");
  for (const GoldenVariant& gv : set.variants) {
    if (gv.ptx != "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" &&
        gv.ptx != "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64")
      continue;
    const MmaInstruction ins = parse_mma(gv.ptx);
    const MatrixVariant& v = *ins.variant;
    const bool wide = v.a == Type::f64;
    const auto names = [&](const char* prefix, int n) {
      std::vector<std::string> r;
      for (int i = 0; i < n; ++i) r.push_back(fmt::format("%{}{}", prefix, i));
      return r;
    };
    const int per = wide ? 2 : 1;
    MmaRegisters regs{.d = names(wide ? "fd" : "f", gv.words.d / per), .a = names(wide ? "rda" : "ra", gv.words.a / per),
                      .b = names(wide ? "rdb" : "rb", gv.words.b / per), .c = names(wide ? "rdc" : "fc", gv.words.c / per)};
    Warp w;
    for (const auto* group : {&regs.a, &regs.b, &regs.c, &regs.d})
      for (const auto& r : *group) w.declare(r, wide ? RegKind::b64 : RegKind::b32);
    const GoldenCase c = read_golden_cases(gv)[0];
    const auto load = [&](const std::vector<std::string>& rs, const std::vector<std::uint32_t>& words, int n) {
      for (int lane = 0; lane < 32; ++lane)
        for (std::size_t i = 0; i < rs.size(); ++i) {
          const std::uint32_t* p = words.data() + lane * n + per * static_cast<int>(i);
          w.set(lane, rs[i], wide ? p[0] | (static_cast<std::uint64_t>(p[1]) << 32) : p[0]);
        }
    };
    load(regs.a, c.a, gv.words.a);
    load(regs.b, c.b, gv.words.b);
    load(regs.c, c.c, gv.words.c);
    const MmaExecutor exec(v, models_for("sm_90a").select(v.family, v.a, v.d), MmaOptions{});
    execute_mma(w, exec, regs);
    for (int lane = 0; lane < 32; ++lane)
      for (std::size_t i = 0; i < regs.d.size(); ++i) {
        const std::uint32_t* p = c.d.data() + lane * gv.words.d + per * static_cast<int>(i);
        const std::uint64_t want = wide ? p[0] | (static_cast<std::uint64_t>(p[1]) << 32) : p[0];
        EXPECT_EQ(w.get(lane, regs.d[i]), want) << gv.ptx << " lane " << lane << " " << regs.d[i];
      }
    w.set_active_mask(0x7fffffff);
    EXPECT_THROW(execute_mma(w, exec, regs), Error);
  }
}

TEST(Warp, MmaChecksRegisterCountsAndWidths) {
  const MmaInstruction ins = parse_mma("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
  const MatrixVariant& v = *ins.variant;
  const MmaExecutor exec(v, models_for("sm_90a").select(v.family, v.a, v.d), MmaOptions{});
  Warp w;
  for (const char* r : {"%r0", "%r1", "%r2", "%f0", "%f1", "%f2", "%f3", "%f4", "%f5", "%f6", "%f7"})
    w.declare(r, RegKind::b32);
  w.declare("%rd0", RegKind::b64);
  const std::vector<std::string> c4{"%f0", "%f1", "%f2", "%f3"}, d4{"%f4", "%f5", "%f6", "%f7"};
  try {
    execute_mma(w, exec, {.d = d4, .a = {"%r0"}, .b = {"%r2"}, .c = c4});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "operand A needs 2 registers, the instruction names 1");
  }
  try {
    execute_mma(w, exec, {.d = d4, .a = {"%r0", "%rd0"}, .b = {"%r2"}, .c = c4});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "operand A: register %rd0 is .b64, the instruction needs .b32 registers");
  }
}

}  // namespace
}  // namespace ptxmma
