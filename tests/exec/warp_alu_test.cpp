// The prepared ALU forms (sim/exec/warp_alu.hpp) against the semantic functions they stand in
// for (sim/exec/sem_*.cpp), lane by lane: on the same registers (random words, and for f32 zeros,
// subnormals, infinities, NaNs and values whose sums cancel or round to a tie) and random lane
// masks, every register word of the warp ends the same.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "isa/ptx_opcodes.hpp"
#include "isa/ptx_parser.hpp"
#include "sim/exec/interpreter.hpp"
#include "sim/exec/ptx_semantics.hpp"
#include "sim/exec/warp_alu.hpp"

namespace ptxmma {
namespace {

// Register words: random bits, or a special value of their type (f32: signed zeros, subnormals,
// the smallest normals, infinities, NaNs, 1, values near 2^24 where 1 more is a tie).
std::uint64_t word(std::mt19937_64& rng, int bits, bool f32) {
  static constexpr std::uint64_t kF32[] = {0,          0x80000000, 1,          0x807fffff, 0x00800000, 0x80800000,
                                           0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffffffff, 0x3f800000,
                                           0xbf800000, 0x4b800000, 0x4b800001, 0x7f7fffff, 0x3f000000, 0x33800000};
  static constexpr std::uint64_t kInt[] = {0, 1, 31, 32, 33, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff, ~0ULL,
                                           0x8000000000000000ULL};
  const std::uint64_t mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
  switch (rng() % 4) {
    case 0: return (f32 ? kF32[rng() % std::size(kF32)] : kInt[rng() % std::size(kInt)]) & mask;
    case 1: return rng() % 40;  // shift counts, small numbers
    default: return rng() & mask;
  }
}

// Every register of warp 0 as the semantic function leaves it and as the prepared form does.
void compare(const std::string& line) {
  SCOPED_TRACE(line);
  const std::string text = R"(
    .reg .pred %p<4>;
    .reg .b16 %h<4>;
    .reg .b32 %r<4>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<4>;
    )" + line + "\n";
  const ptx::Program prog = ptx::parse_ptx(text, "warp_alu.ptx");
  const ptx::Instruction& ins = prog.code.at(0);
  std::vector<int> widths;
  for (const auto& r : prog.registers) widths.push_back(ptx::bits(r.type));
  const exec::WarpAlu alu = exec::prepare_warp_alu(ins, widths);
  ASSERT_NE(alu.fn, nullptr) << "not a prepared form";
  std::vector<exec::SemanticSpec> table;
  exec::register_integer(table);
  exec::register_convert(table);
  exec::SemanticFn fn = nullptr;
  for (const auto& s : table)
    if (s.opcode == ptx::opcode_table()[static_cast<std::size_t>(ins.family)].opcode) fn = s.fn;
  ASSERT_NE(fn, nullptr);
  std::mt19937_64 rng(std::hash<std::string>{}(line));
  for (int round = 0; round < 200; ++round) {
    Machine lane_by_lane(prog), warp(prog);
    for (std::size_t r = 0; r < prog.registers.size(); ++r)
      for (int t = 0; t < Machine::kLanes; ++t) {
        const std::uint64_t v = word(rng, widths[r], prog.registers[r].type == ptx::PtxType::f32);
        lane_by_lane.set_reg(t, static_cast<int>(r), v);
        warp.set_reg(t, static_cast<int>(r), v);
      }
    const auto lanes = round == 0 ? 0xffffffffU : static_cast<std::uint32_t>(rng());
    exec::Exec x(lane_by_lane, lanes, 0, 0);
    fn(x, ins, lanes);
    alu.fn(alu, warp.cta(0).regs, 0, lanes);
    for (std::size_t r = 0; r < prog.registers.size(); ++r)
      for (int t = 0; t < Machine::kLanes; ++t)
        ASSERT_EQ(warp.reg(t, static_cast<int>(r)), lane_by_lane.reg(t, static_cast<int>(r)))
            << prog.registers[r].source << " lane " << t << " round " << round;
  }
}

TEST(WarpAlu, IntegerFormsAsLaneByLane) {
  for (const char* line :
       {"add.s32 %r0, %r1, %r2;", "add.u64 %rd0, %rd1, 5;", "sub.u32 %r0, 7, %r1;", "add.s16 %h0, %h1, %h2;",
        "mul.lo.s32 %r0, %r1, %r2;", "mul.lo.u64 %rd0, %rd1, %rd2;", "mad.lo.s32 %r0, %r1, %r2, %r3;",
        "mul.wide.s32 %rd0, %r1, %r2;", "mul.wide.u32 %rd0, %r1, -3;", "mad.wide.s32 %rd0, %r1, %r2, %rd3;",
        "mad.wide.u32 %rd0, %r1, %r2, %rd3;", "min.s32 %r0, %r1, %r2;", "max.u32 %r0, %r1, %r2;",
        "min.u64 %rd0, %rd1, %rd2;", "max.s64 %rd0, %rd1, %rd2;", "neg.s32 %r0, %r1;", "abs.s32 %r0, %r1;",
        "abs.s64 %rd0, %rd1;", "shl.b32 %r0, %r1, %r2;", "shl.b64 %rd0, %rd1, %r2;", "shr.u32 %r0, %r1, %r2;",
        "shr.s32 %r0, %r1, %r2;", "shr.s64 %rd0, %rd1, %r2;", "shr.b16 %h0, %h1, %r2;", "shr.s32 %r0, %r1, 31;",
        "and.b32 %r0, %r1, %r2;", "or.b64 %rd0, %rd1, %rd2;", "xor.b32 %r0, %r1, 0x5555;", "not.b32 %r0, %r1;",
        "and.pred %p0, %p1, %p2;", "or.pred %p0, %p1, %p2;", "xor.pred %p0, %p1, %p0;", "not.pred %p0, %p1;",
        "mov.u32 %r0, %r1;", "mov.b64 %rd0, 0x123456789;", "mov.f32 %f0, 0f3F800000;", "mov.pred %p0, %p1;",
        "mov.u32 %r0, %r0;", "mov.b32 {%h0, %h1}, %r1;", "mov.b32 %r0, {%h1, %h2};", "mov.b64 {%r0, %r1}, %rd1;",
        "mov.b64 %rd0, {%r1, %r2};", "mov.b32 {%h0, %h0}, %r1;", "mov.b32 %r0, {%h1, 0x3c00};", "selp.b32 %r0, %r1, %r2, %p0;", "selp.u64 %rd0, %rd1, 7, %p1;",
        "selp.f32 %f0, %f1, %f2, !%p1;", "setp.lt.s32 %p0, %r1, %r2;", "setp.ge.u32 %p0, %r1, 100;",
        "setp.eq.b32 %p0, %r1, %r2;", "setp.ne.u64 %p0, %rd1, %rd2;", "setp.hi.u32 %p0, %r1, %r2;",
        "setp.ls.u32 %p0, %r1, %r2;", "setp.gt.s64 %p0|%p1, %rd1, %rd2;", "setp.le.s32.and %p0, %r1, %r2, %p3;",
        "setp.lo.u32.or %p0|%p1, %r1, %r2, !%p3;", "setp.hs.u32.xor %p0, %r1, %r2, %p0;",
        "setp.lt.s16 %p0, %h1, %h2;", "cvt.u64.u32 %rd0, %r1;", "cvt.s64.s32 %rd0, %r1;", "cvt.u32.u64 %r0, %rd1;",
        "cvt.s32.s64 %r0, %rd1;", "cvt.s32.s16 %r0, %h1;", "cvt.u16.u32 %h0, %r1;", "cvt.s16.u32 %h0, %r1;",
        "cvt.u32.s16 %r0, %h1;", "cvt.s64.s16 %rd0, %h1;", "cvt.u32.u32 %r0, %r1;"})
    compare(line);
}

TEST(WarpAlu, F32FormsAsLaneByLane) {
  for (const char* line : {"add.rn.f32 %f0, %f1, %f2;", "add.f32 %f0, %f1, 0f3F800000;", "sub.rn.f32 %f0, %f1, %f2;",
                           "mul.rn.f32 %f0, %f1, %f2;", "mul.f32 %f0, %f1, %f1;", "fma.rn.f32 %f0, %f1, %f2, %f3;",
                           "fma.rn.f32 %f0, %f0, %f0, %f0;", "mad.rn.f32 %f0, %f1, %f2, %f3;",
                           "setp.lt.f32 %p0, %f1, %f2;", "setp.eq.f32 %p0|%p1, %f1, %f2;", "setp.ne.f32 %p0, %f1, %f2;",
                           "setp.le.f32 %p0, %f1, 0f00000000;", "setp.gt.f32 %p0, %f1, %f2;", "setp.ge.f32 %p0, %f1, %f2;",
                           "setp.equ.f32 %p0, %f1, %f2;", "setp.neu.f32 %p0, %f1, %f2;", "setp.ltu.f32 %p0, %f1, %f2;",
                           "setp.leu.f32 %p0, %f1, %f2;", "setp.gtu.f32 %p0, %f1, %f2;", "setp.geu.f32 %p0, %f1, %f2;",
                           "setp.num.f32 %p0, %f1, %f2;", "setp.nan.f32.and %p0, %f1, %f2, !%p2;",
                           "setp.lt.f32.or %p0|%p1, %f1, %f2, %p2;"})
    compare(line);
}

// What stays with the semantic functions: specials, vectors, saturation, flushing, other roundings.
TEST(WarpAlu, OtherFormsAreNotPrepared) {
  for (const char* line : {"mov.u32 %r0, %tid.x;", "add.sat.s32 %r0, %r1, %r2;", "add.ftz.f32 %f0, %f1, %f2;",
                           "add.rz.f32 %f0, %f1, %f2;", "mul.hi.u32 %r0, %r1, %r2;", "fma.rn.sat.f32 %f0, %f1, %f2, %f3;",
                           "min.f32 %f0, %f1, %f2;", "setp.lt.ftz.f32 %p0, %f1, %f2;", "max.relu.s32 %r0, %r1, %r2;",
                           "cvt.sat.s16.s32 %h0, %r1;", "cvt.rn.f32.s32 %f0, %r1;"}) {
    const ptx::Program prog = ptx::parse_ptx(std::string(".reg .pred %p<4>;\n.reg .b16 %h<4>;\n.reg .b32 %r<4>;\n"
                                                         ".reg .f32 %f<4>;\n") + line + "\n",
                                             "warp_alu.ptx");
    std::vector<int> widths;
    for (const auto& r : prog.registers) widths.push_back(ptx::bits(r.type));
    EXPECT_EQ(exec::prepare_warp_alu(prog.code.at(0), widths).fn, nullptr) << line;
  }
}

}  // namespace
}  // namespace ptxmma
