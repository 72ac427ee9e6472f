// Decoders of the warp-collective and control instructions: mma, wmma.mma, wgmma fences, shfl, vote,
// activemask, barriers, memory fences, bra, ret, exit, trap.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "isa/ptx_decode.hpp"

namespace ptxmma::ptx::decode {
namespace {

void sync_aligned(const Instruction& ins, Quals& q, bool aligned_required) {
  if (!q.take("sync")) fail(ins, fmt::format("'{}' needs .sync", ins.text));
  const bool aligned = q.take("aligned");
  if (aligned_required && !aligned) fail(ins, fmt::format("'{}' needs .aligned", ins.text));
}

// The registers of one mma operand: a vector of `n` registers of `bits` bits.
void fragment(const Program& p, const Instruction& ins, Operand& op, int n, int width, std::string_view what) {
  if (op.kind != Operand::Kind::vec)
    fail(op.loc, fmt::format("operand {} of '{}' must be a vector of {} registers {{...}}", what, ins.opcode, n));
  if (static_cast<int>(op.elems.size()) != n)
    fail(op.loc, fmt::format("operand {} of '{}' needs {} registers, found {}", what, ins.text, n, op.elems.size()));
  for (Operand& e : op.elems) {
    if (e.kind != Operand::Kind::reg)
      fail(e.loc, fmt::format("operand {} of '{}': '{}' is not a register", what, ins.opcode, e.text));
    const RegisterDecl& r = p.registers.at(static_cast<std::size_t>(e.reg));
    if (bits(r.type) != width || r.type == PtxType::pred)
      fail(e.loc, fmt::format("type mismatch: operand {} of '{}' takes {}-bit registers; {} is declared .{}", what,
                              ins.opcode, width, r.source, name(r.type)));
  }
}

void dec_mma(Instruction& ins, const DecodeContext& cx) {
  MmaInstruction m;
  try {
    m = parse_warp_mma(ins.text, cx.target);
  } catch (const Error& e) {
    fail(ins, e.what());
  }
  const MatrixVariant& v = *m.variant;
  const bool sparse = v.sparse != Sparsity::dense;
  // d, a, b, c[, e, f][, scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}]
  const std::size_t scales_at = sparse ? 6 : 4;
  count(ins, scales_at + (v.block_scale ? 4 : 0));
  const ptxmma::Operand which[] = {ptxmma::Operand::d, ptxmma::Operand::a, ptxmma::Operand::b, ptxmma::Operand::c};
  for (int i = 0; i < 4; ++i) {
    const ptxmma::Operand o = which[i];
    const int width = v.type(o) == Type::f64 ? 64 : 32;
    fragment(cx.program, ins, ins.ops[static_cast<std::size_t>(i)], v.regs(o), width, name(o));
  }
  if (sparse) {  // e: the metadata register; f: the sparsity selector, a constant as ptxas demands
    reg(cx.program, ins, ins.ops[4], PtxType::b32, "e (metadata)");
    if (ins.ops[5].kind != Operand::Kind::imm)
      fail(ins.ops[5].loc, fmt::format("'{}': the sparsity selector must be an integer constant", ins.text));
    const std::int64_t sel = integer(ins, ins.ops[5], "sparsity selector");
    if (sel < 0 || sel >= v.metadata->selectors)
      fail(ins.ops[5].loc, fmt::format("'{}': sparsity selector {} is out of range (0..{})", ins.text, sel,
                                       v.metadata->selectors - 1));
    ins.d.mode = static_cast<int>(sel);
  }
  if (v.block_scale) {
    int sel[4];
    for (int i = 0; i < 2; ++i) {
      const std::size_t at = scales_at + 2 * static_cast<std::size_t>(i);
      const char* which = i == 0 ? "a" : "b";
      reg(cx.program, ins, ins.ops[at], PtxType::b32, fmt::format("scale-{}-data", which));
      Operand& ids = ins.ops[at + 1];
      if (ids.kind != Operand::Kind::vec || ids.elems.size() != 2)
        fail(ids.loc, fmt::format("'{}': expected {{byte-id-{}, thread-id-{}}}", ins.text, which, which));
      for (int j = 0; j < 2; ++j) {
        const std::string what = fmt::format("{}-id-{}", j == 0 ? "byte" : "thread", which);
        const std::int64_t x = integer(ins, ids.elems[static_cast<std::size_t>(j)], what + " (this simulator takes constants)");
        sel[2 * i + j] = static_cast<int>(std::clamp<std::int64_t>(x, -1, 4));
      }
    }
    try {
      v.scales->check(v.scale_vec, sel[0], sel[1], sel[2], sel[3]);
    } catch (const Error& e) {
      fail(ins, fmt::format("'{}': {}", ins.text, e.what()));
    }
  }
  ins.d.mma = std::make_shared<const MmaInstruction>(std::move(m));
  ins.d.sync = ins.d.aligned = true;
}

// wmma.mma like mma; wmma.load and wmma.store are memory instructions.
void dec_wmma(Instruction& ins, const DecodeContext& cx) {
  if (!ins.quals.empty() && ins.quals[0] == "mma")
    dec_mma(ins, cx);
  else
    dec_wmma_transfer(ins, cx);
}

// wgmma.mma_async[.sp] d, a-desc | {a0..a3}, b-desc[, sp-meta, sp-sel], scale-d, imm...: the variant from the catalogue
// (isa/wgmma_instruction), the operands checked here against it.
void dec_mma_async(Instruction& ins, const DecodeContext& cx) {
  auto call = std::make_shared<WgmmaCall>();
  try {
    call->ins = parse_wgmma(ins.text, cx.target);
  } catch (const Error& e) {
    fail(ins, e.what());
  }
  const MatrixVariant& v = *call->ins.variant;
  const Program& p = cx.program;
  call->operands.a_source = ins.ops.size() > 1 && ins.ops[1].kind == Operand::Kind::vec ? ASource::registers
                                                                                        : ASource::descriptor;
  const std::vector<std::string> names = wgmma_operand_names(v, call->operands.a_source);
  if (ins.ops.size() != names.size())
    fail(ins, fmt::format("'{}' with A from {} takes {} operands ({}), found {}", ins.text,
                          call->operands.a_source == ASource::descriptor ? "a descriptor" : "registers", names.size(),
                          fmt::join(names, ", "), ins.ops.size()));
  fragment(p, ins, ins.ops[0], v.regs(ptxmma::Operand::d), 32, "d");
  if (call->operands.a_source == ASource::registers) fragment(p, ins, ins.ops[1], v.regs(ptxmma::Operand::a), 32, "a");
  else reg(p, ins, ins.ops[1], PtxType::b64, "a-desc");
  reg(p, ins, ins.ops[2], PtxType::b64, "b-desc");
  if (v.is_sparse()) {
    reg(p, ins, ins.ops[3], PtxType::b32, "sp-meta");
    if (ins.ops[4].kind != Operand::Kind::imm)
      fail(ins.ops[4].loc, fmt::format("'{}': sp-sel must be an integer constant", ins.text));
    const std::int64_t sel = integer(ins, ins.ops[4], "sp-sel");
    if (sel < 0 || sel >= v.metadata->selectors)
      fail(ins.ops[4].loc, fmt::format("'{}': sp-sel {} is out of range (0..{})", ins.text, sel, v.metadata->selectors - 1));
    call->sp_sel = static_cast<int>(sel);
    call->scale_d = 5;
  }
  Operand& sd = ins.ops[static_cast<std::size_t>(call->scale_d)];
  if (sd.kind == Operand::Kind::imm) {
    const std::int64_t c = integer(ins, sd, "scale-d");
    if (c != 0 && c != 1) fail(sd.loc, fmt::format("'{}': the constant scale-d must be 0 or 1, found {}", ins.text, c));
  } else {
    pred(p, ins, sd, "scale-d", false);
  }
  for (std::size_t i = static_cast<std::size_t>(call->scale_d) + 1; i < names.size(); ++i) {
    const auto c = static_cast<int>(std::clamp<std::int64_t>(integer(ins, ins.ops[i], names[i]), -1000, 1000));
    if (names[i] == "imm-scale-a") call->operands.imm_scale_a = c;
    else if (names[i] == "imm-scale-b") call->operands.imm_scale_b = c;
    else if (names[i] == "imm-trans-a") call->operands.imm_trans_a = c;
    else call->operands.imm_trans_b = c;
  }
  try {
    check_wgmma_operands(v, call->operands);
  } catch (const Error& e) {
    fail(ins, e.what());
  }
  ins.d.wgmma = std::move(call);
}

void dec_wgmma(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const std::string_view op = q.take_one({"fence", "commit_group", "wait_group", "mma_async"}, "wgmma operation");
  if (op.empty()) fail(ins, fmt::format("unknown instruction '{}'", ins.text));
  if (op == "mma_async") {
    dec_mma_async(ins, cx);
    ins.d.sync = ins.d.aligned = true;
    ins.d.mode = static_cast<int>(WgmmaOp::mma_async);
    ins.d.collective = Collective::warpgroup;
    ins.d.unit = AsyncUnit::wgmma;
    ins.d.step = AsyncStep::issue;
    return;
  }
  sync_aligned(ins, q, true);
  q.finish();
  ins.d.sync = ins.d.aligned = true;
  ins.d.mode = static_cast<int>(op == "fence" ? WgmmaOp::fence : op == "commit_group" ? WgmmaOp::commit_group
                                                                                        : WgmmaOp::wait_group);
  ins.d.unit = AsyncUnit::wgmma;
  ins.d.step = op == "fence" ? AsyncStep::fence : op == "commit_group" ? AsyncStep::commit : AsyncStep::wait;
  if (op == "wait_group") {
    count(ins, 1);
    const std::int64_t n = integer(ins, ins.ops[0], "the group count");
    if (n < 0 || n > 7) fail(ins.ops[0].loc, fmt::format("'{}': the group count must be 0..7", ins.text));
    ins.d.groups = static_cast<int>(n);
  } else {
    count(ins, 0);
  }
}

void dec_shfl(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  if (!q.take("sync")) fail(ins, fmt::format("'{}': shfl without .sync is not supported (sm_70 and later)", ins.text));
  const std::string_view m = q.take_one({"up", "down", "bfly", "idx"}, "shuffle mode");
  if (m.empty()) fail(ins, fmt::format("'{}' needs .up, .down, .bfly or .idx", ins.text));
  const auto ts = q.types();
  if (ts.size() != 1 || ts[0] != PtxType::b32) fail(ins, fmt::format("'{}' needs the type .b32", ins.text));
  q.finish();
  ins.d.type = PtxType::b32;
  ins.d.sync = true;
  ins.d.mode = static_cast<int>(m == "up" ? ShflMode::up : m == "down" ? ShflMode::down : m == "bfly" ? ShflMode::bfly
                                                                                                       : ShflMode::idx);
  count(ins, 5);
  const Program& p = cx.program;
  Operand& dst = ins.ops[0];
  if (dst.kind == Operand::Kind::vec && dst.text == "|") {
    reg(p, ins, dst.elems[0], PtxType::b32, "the destination");
    pred(p, ins, dst.elems[1], "the predicate destination", false);
  } else {
    reg(p, ins, dst, PtxType::b32, "the destination");
  }
  value(p, ins, ins.ops[1], PtxType::b32, "operand a");
  value(p, ins, ins.ops[2], PtxType::b32, "operand b (the lane)");
  value(p, ins, ins.ops[3], PtxType::b32, "operand c (clamp and segment mask)");
  value(p, ins, ins.ops[4], PtxType::b32, "the member mask");
}

void dec_vote(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  if (!q.take("sync")) fail(ins, fmt::format("'{}': vote without .sync is not supported (sm_70 and later)", ins.text));
  const std::string_view m = q.take_one({"all", "any", "uni", "ballot"}, "vote mode");
  if (m.empty()) fail(ins, fmt::format("'{}' needs .all, .any, .uni or .ballot", ins.text));
  const auto ts = q.types();
  const PtxType want = m == "ballot" ? PtxType::b32 : PtxType::pred;
  if (ts.size() != 1 || ts[0] != want) fail(ins, fmt::format("'{}' needs the type .{}", ins.text, name(want)));
  q.finish();
  ins.d.type = want;
  ins.d.mode = static_cast<int>(m == "all" ? VoteMode::all : m == "any" ? VoteMode::any : m == "uni" ? VoteMode::uni
                                                                                                    : VoteMode::ballot);
  count(ins, 3);
  const Program& p = cx.program;
  if (want == PtxType::pred)
    pred(p, ins, ins.ops[0], "the destination", false);
  else
    reg(p, ins, ins.ops[0], PtxType::b32, "the destination");
  pred(p, ins, ins.ops[1], "operand a", true);
  value(p, ins, ins.ops[2], PtxType::b32, "the member mask");
}

// elect.sync d|p, membermask: d (or _) the leader's lane, p (or _) true in the leader.
void dec_elect(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  if (!q.take("sync")) fail(ins, fmt::format("'{}' needs .sync", ins.text));
  q.finish();
  ins.d.sync = true;
  count(ins, 2);
  const Program& p = cx.program;
  Operand& dst = ins.ops[0];
  if (dst.kind != Operand::Kind::vec || dst.text != "|")
    fail(dst.loc, fmt::format("'{}' needs the destinations d|p (either may be _), not '{}'", ins.text, dst.text));
  if (dst.elems[0].kind != Operand::Kind::sink) reg(p, ins, dst.elems[0], PtxType::b32, "the destination");
  if (dst.elems[1].kind != Operand::Kind::sink) pred(p, ins, dst.elems[1], "the predicate destination", false);
  if (dst.elems[1].kind == Operand::Kind::imm)
    fail(dst.elems[1].loc, fmt::format("the predicate destination of '{}' must be a register or _", ins.text));
  value(p, ins, ins.ops[1], PtxType::b32, "the member mask");
}

// setmaxnreg.inc|dec.sync.aligned.u32 n: a register-count hint for the warpgroup (no effect on
// results), n a constant in 24..256 and a multiple of 8, as the PTX ISA requires.
void dec_setmaxnreg(Instruction& ins, const DecodeContext&) {
  Quals q(ins);
  if (q.take_one({"inc", "dec"}, "direction").empty()) fail(ins, fmt::format("'{}' needs .inc or .dec", ins.text));
  sync_aligned(ins, q, true);
  const auto ts = q.types();
  if (ts.size() != 1 || ts[0] != PtxType::u32) fail(ins, fmt::format("'{}' needs the type .u32", ins.text));
  q.finish();
  ins.d.sync = ins.d.aligned = true;
  count(ins, 1);
  if (ins.ops[0].kind != Operand::Kind::imm)
    fail(ins.ops[0].loc, fmt::format("'{}': the register count must be an integer constant", ins.text));
  const std::int64_t n = integer(ins, ins.ops[0], "the register count");
  if (n < 24 || n > 256 || n % 8 != 0)
    fail(ins.ops[0].loc, fmt::format("'{}': a register count of {}; it must be a multiple of 8 in 24..256", ins.text, n));
}

// brkpt: a breakpoint (the run stops there with a located error).
void dec_brkpt(Instruction& ins, const DecodeContext&) {
  Quals q(ins);
  q.finish();
  count(ins, 0);
}

// griddepcontrol.launch_dependents / .wait (programmatic dependent launch) and nanosleep.u32 t:
// scheduling hints with no effect on results (one grid, no timing).
void dec_no_effect(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  if (ins.opcode == "griddepcontrol") {
    if (q.take_one({"launch_dependents", "wait"}, "griddepcontrol operation").empty())
      fail(ins, fmt::format("'{}' needs .launch_dependents or .wait", ins.text));
    q.finish();
    count(ins, 0);
    return;
  }
  const auto ts = q.types();
  if (ts.size() != 1 || ts[0] != PtxType::u32) fail(ins, fmt::format("'{}' needs the type .u32", ins.text));
  q.finish();
  count(ins, 1);
  value(cx.program, ins, ins.ops[0], PtxType::u32, "the time");
}

void dec_activemask(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const auto ts = q.types();
  if (ts.size() != 1 || ts[0] != PtxType::b32) fail(ins, fmt::format("'{}' needs the type .b32", ins.text));
  q.finish();
  count(ins, 1);
  reg(cx.program, ins, ins.ops[0], PtxType::b32, "the destination");
}

// bar{.cta}.sync / bar{.cta}.arrive / bar.warp.sync / barrier{.cta}.sync{.aligned} / barrier{.cta}.arrive{.aligned}
// barrier.cluster.arrive{.release|.relaxed}{.aligned} (d.mode 4) / barrier.cluster.wait{.acquire}{.aligned} (5)
void dec_bar(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const Program& p = cx.program;
  if (ins.opcode == "barrier" && q.take("cluster")) {
    const std::string_view what = q.take_one({"arrive", "wait"}, "barrier operation");
    if (what.empty()) fail(ins, fmt::format("'{}' needs .arrive or .wait", ins.text));
    const std::string_view sem = q.take_one({"release", "relaxed", "acquire"}, "memory ordering");
    if ((what == "arrive" && sem == "acquire") || (what == "wait" && !sem.empty() && sem != "acquire"))
      fail(ins, fmt::format("'{}': barrier.cluster.{} takes {}", ins.text, what,
                            what == "arrive" ? ".release or .relaxed" : ".acquire"));
    ins.d.aligned = q.take("aligned");
    q.finish();
    count(ins, 0);
    ins.d.mode = what == "arrive" ? 4 : 5;
    if (what == "wait") ins.d.collective = Collective::cluster_barrier;
    return;
  }
  if (ins.opcode == "bar" && q.take("warp")) {
    if (!q.take("sync")) fail(ins, fmt::format("'{}': expected bar.warp.sync", ins.text));
    q.finish();
    ins.d.mode = 2;
    count(ins, 1);
    value(p, ins, ins.ops[0], PtxType::b32, "the member mask");
    return;
  }
  (void)q.take("cta");
  const std::string_view what = q.take_one({"sync", "arrive", "red"}, "barrier operation");
  if (what.empty()) fail(ins, fmt::format("'{}' needs .sync, .arrive or .red", ins.text));
  if (what == "red") {  // bar.red.popc.u32 d, a{, b}, {!}c; bar.red.and|or.pred p, a{, b}, {!}c
    const std::string_view op = q.take_one({"popc", "and", "or"}, "reduction");
    if (op.empty()) fail(ins, fmt::format("'{}' needs .popc, .and or .or", ins.text));
    ins.d.aligned = ins.opcode == "bar" || q.take("aligned");
    const auto ts = q.types();
    const PtxType want = op == "popc" ? PtxType::u32 : PtxType::pred;
    if (ts.size() != 1 || ts[0] != want)
      fail(ins, fmt::format("'{}': .{} needs the type .{}", ins.text, op, name(want)));
    q.finish();
    ins.d.mode = 3;
    ins.d.mode2 = op == "popc" ? 0 : op == "and" ? 1 : 2;
    ins.d.collective = Collective::cta_barrier;
    count(ins, 3, 4);
    if (want == PtxType::pred)
      pred(p, ins, ins.ops[0], "the destination", false);
    else
      reg(p, ins, ins.ops[0], PtxType::u32, "the destination");
    value(p, ins, ins.ops[1], PtxType::b32, "the barrier");
    if (ins.ops[1].kind == Operand::Kind::imm && ins.ops[1].value > 15)
      fail(ins.ops[1].loc, fmt::format("'{}': barriers are numbered 0..15", ins.text));
    if (ins.ops.size() == 4) value(p, ins, ins.ops[2], PtxType::b32, "the thread count");
    pred(p, ins, ins.ops.back(), "the predicate", true);
    return;
  }
  ins.d.aligned = ins.opcode == "bar" || q.take("aligned");
  q.finish();
  ins.d.mode = what == "sync" ? 0 : 1;
  if (what == "sync") ins.d.collective = Collective::cta_barrier;
  count(ins, 1, 2);
  value(p, ins, ins.ops[0], PtxType::b32, "the barrier");
  if (ins.ops[0].kind == Operand::Kind::imm && ins.ops[0].value > 15)
    fail(ins.ops[0].loc, fmt::format("'{}': barriers are numbered 0..15", ins.text));
  if (ins.ops.size() == 2) value(p, ins, ins.ops[1], PtxType::b32, "the thread count");
  // The count is of whole warps, at most a block's 1024 threads.
  if (ins.ops.size() == 2 && ins.ops[1].kind == Operand::Kind::imm &&
      (ins.ops[1].value == 0 || ins.ops[1].value % 32 != 0 || ins.ops[1].value > 1024))
    fail(ins.ops[1].loc, fmt::format("'{}': a thread count of {}; it must be a multiple of 32 in 32..1024", ins.text,
                                     ins.ops[1].value));
}

void dec_fence(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  if (ins.opcode == "membar") {
    if (q.take_one({"cta", "gl", "sys", "proxy"}, "membar level").empty())
      fail(ins, fmt::format("'{}' needs .cta, .gl or .sys", ins.text));
    (void)q.take("alias");
  } else {
    (void)q.take_one({"sc", "acq_rel", "acquire", "release"}, "ordering");
    (void)q.take_one({"cta", "cluster", "gpu", "sys"}, "scope");
    if (q.take("proxy")) {
      // fence.proxy.tensormap::generic.acquire.scope [addr], 128: the map at addr (no effect: the
      // machine has one proxy).
      if (q.take("tensormap::generic")) {
        q.finish();
        if (ins.ops.empty()) return;
        count(ins, 2);
        address(cx.program, ins, ins.ops[0], Space::generic);
        if (ins.ops[1].kind != Operand::Kind::imm || ins.ops[1].value != 128)
          fail(ins.ops[1].loc, fmt::format("'{}': the size is 128 (a tensor map)", ins.text));
        return;
      }
      const std::string_view proxy = q.take_one({"alias", "async", "tensormap", "generic"}, "proxy kind");
      const std::string_view space = q.take_one({"global", "shared::cta", "shared::cluster", "shared"}, "state space");
      if (proxy == "async" && space != "global") ins.d.mode = static_cast<int>(FenceKind::proxy_async_shared);
    }
    (void)q.take("mbarrier_init");
    (void)q.take("op_restrict");
  }
  q.finish();
  count(ins, 0);
}

void dec_bra(Instruction& ins, const DecodeContext&) {
  Quals q(ins);
  ins.d.mode = q.take("uni") ? 1 : 0;  // 1: bra.uni, whose lanes must all go the same way
  q.finish();
  count(ins, 1);
  if (ins.ops[0].kind != Operand::Kind::label)
    fail(ins.ops[0].loc, fmt::format("'{}' needs a label, not '{}'", ins.text, ins.ops[0].text));
}

// call{.uni} [(rets),] name [, (args)]: the parser shapes the operands and resolves the name when
// the file ends (Decoded::mode: the function's index).
void dec_call(Instruction& ins, const DecodeContext&) {
  Quals q(ins);
  (void)q.take("uni");
  q.finish();
  for (const std::size_t k : {0, 2})
    for (Operand& e : ins.ops[k].elems) {
      if (e.kind != Operand::Kind::symbol)
        fail(e.loc, fmt::format("'{}': a call passes .param variables, not '{}'", ins.text, e.text));
      e.type = PtxType::b64;
    }
}

void dec_exit(Instruction& ins, const DecodeContext&) {
  Quals q(ins);
  if (ins.opcode == "ret") (void)q.take("uni");
  q.finish();
  count(ins, 0);
}

}  // namespace

void register_warp(std::vector<OpcodeSpec>& t) {
  t.push_back({"mma", dec_mma});
  t.push_back({"wmma", dec_wmma});
  t.push_back({"wgmma", dec_wgmma});
  t.push_back({"shfl", dec_shfl});
  t.push_back({"vote", dec_vote});
  t.push_back({"activemask", dec_activemask});
  t.push_back({"elect", dec_elect});
  t.push_back({"griddepcontrol", dec_no_effect});
  t.push_back({"nanosleep", dec_no_effect});
  t.push_back({"setmaxnreg", dec_setmaxnreg});
  t.push_back({"brkpt", dec_brkpt});
  t.push_back({"bar", dec_bar});
  t.push_back({"barrier", dec_bar});
  t.push_back({"fence", dec_fence});
  t.push_back({"membar", dec_fence});
  t.push_back({"bra", dec_bra, Flow::branch});
  t.push_back({"call", dec_call, Flow::call});
  t.push_back({"ret", dec_exit, Flow::exit});
  t.push_back({"exit", dec_exit, Flow::exit});
  t.push_back({"trap", dec_exit});
}

}  // namespace ptxmma::ptx::decode
