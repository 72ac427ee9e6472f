// Decoders of mbarrier.* (the forms of the PTX ISA for sm_90):
//   mbarrier.init{.shared{::cta}}.b64 [addr], count
//   mbarrier.inval{.shared{::cta}}.b64 [addr]
//   mbarrier.arrive{.noComplete | .expect_tx}{.sem}{.scope}{.space}.b64 state, [addr]{, count | , txCount}
//   mbarrier.arrive_drop{.noComplete | .expect_tx}{.sem}{.scope}{.space}.b64 state, [addr]{, count | , txCount}
//   mbarrier.expect_tx / complete_tx{.relaxed}{.scope}{.space}.b64 [addr], txCount
//   mbarrier.test_wait / try_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 waitComplete, [addr],
//       state | phaseParity {, suspendTimeHint (try_wait)}
//   mbarrier.pending_count.b64 count, state
// .sem: .release or .relaxed for arrivals, .acquire or .relaxed for waits; .scope: .cta or .cluster
// (accepted: warps take turns, nothing to order); .space: .shared, .shared::cta, .shared::cluster
// (an address of any CTA of the cluster, as mapa gives it; arrivals: state must be _), or none (a
// generic address).
#include <fmt/format.h>

#include "isa/ptx_decode.hpp"

namespace ptxmma::ptx::decode {
namespace {

void dec_mbarrier(Instruction& ins, const DecodeContext& cx) {
  namespace f = mbarrier_flag;
  Quals q(ins);
  const Program& p = cx.program;
  Decoded& d = ins.d;
  // The operation is the first qualifier (.expect_tx is also a variant of arrive).
  constexpr std::string_view kOps[] = {"init",     "inval",     "arrive",   "arrive_drop",  "expect_tx",
                                       "complete_tx", "test_wait", "try_wait", "pending_count"};
  std::string_view op;
  for (const std::string_view o : kOps)
    if (!ins.quals.empty() && ins.quals[0] == o) op = o;
  if (op.empty()) fail(ins, fmt::format("unknown instruction '{}'", ins.text));
  (void)q.take(op);
  const bool arrival = op == "arrive" || op == "arrive_drop";
  const bool wait = op == "test_wait" || op == "try_wait";
  int flags = 0;
  if (arrival) {
    if (op == "arrive_drop") flags |= f::drop;
    const std::string_view v = q.take_one({"expect_tx", "noComplete"}, "arrive variant");
    if (v == "expect_tx") flags |= f::expect_tx;
    if (v == "noComplete") flags |= f::no_complete;
  }
  if (wait && q.take("parity")) flags |= f::parity;
  const std::string_view sem = q.take_one({"release", "acquire", "relaxed"}, "memory ordering");
  if ((sem == "release" && !arrival) || (sem == "acquire" && !wait) ||
      (sem == "relaxed" && op != "expect_tx" && op != "complete_tx" && !arrival && !wait))
    fail(ins, fmt::format("'{}': .{} does not apply to mbarrier.{}", ins.text, sem, op));
  const std::string_view scope = q.take_one({"cta", "cluster"}, "scope");
  if (!scope.empty() && (op == "init" || op == "inval" || op == "pending_count"))
    fail(ins, fmt::format("'{}': mbarrier.{} takes no scope", ins.text, op));
  const std::string_view space = q.take_one({"shared", "shared::cta", "shared::cluster"}, "state space");
  if (space == "shared::cluster") {
    if (!arrival && op != "expect_tx" && op != "complete_tx")
      fail(ins, fmt::format("'{}': mbarrier.{} operates on .shared::cta only", ins.text, op));
    flags |= f::cluster;
  }
  if (op == "pending_count" && !space.empty()) fail(ins, fmt::format("'{}' takes no state space", ins.text));
  const auto ts = q.types();
  if (ts.size() != 1 || ts[0] != PtxType::b64) fail(ins, fmt::format("'{}' needs the type .b64", ins.text));
  q.finish();
  d.type = PtxType::b64;
  d.space = space.empty() ? Space::generic : space == "shared::cluster" ? Space::shared_cluster : Space::shared;

  if (op == "pending_count") {
    d.mode = static_cast<int>(MbarrierOp::pending_count);
    count(ins, 2);
    reg(p, ins, ins.ops[0], PtxType::b32, "the count");
    reg(p, ins, ins.ops[1], PtxType::b64, "the state");
    return;
  }
  if (op == "init" || op == "inval") {
    d.mode = static_cast<int>(op == "init" ? MbarrierOp::init : MbarrierOp::inval);
    count(ins, op == "init" ? 2 : 1);
    address(p, ins, ins.ops[0], d.space);
    if (op == "init") value(p, ins, ins.ops[1], PtxType::u32, "the count");
    d.mode2 = flags;
    return;
  }
  if (op == "expect_tx" || op == "complete_tx") {
    d.mode = static_cast<int>(op == "expect_tx" ? MbarrierOp::expect_tx : MbarrierOp::complete_tx);
    count(ins, 2);
    address(p, ins, ins.ops[0], d.space);
    value(p, ins, ins.ops[1], PtxType::u32, "the transaction count");
    d.mode2 = flags | f::has_count;
    return;
  }
  if (arrival) {
    d.mode = static_cast<int>(MbarrierOp::arrive);
    const bool needs_count = (flags & (f::expect_tx | f::no_complete)) != 0;
    count(ins, needs_count ? 3 : 2, 3);
    if (ins.ops.size() == 3) flags |= f::has_count;
    Operand& state = ins.ops[0];
    if (flags & f::cluster) {
      if (state.kind != Operand::Kind::sink)
        fail(state.loc, fmt::format("'{}': an arrive on .shared::cluster returns no state; its destination is _",
                                    ins.text));
    } else if (state.kind != Operand::Kind::sink) {
      reg(p, ins, state, PtxType::b64, "the state");
    }
    address(p, ins, ins.ops[1], d.space);
    if (ins.ops.size() == 3)
      value(p, ins, ins.ops[2], PtxType::u32, flags & f::expect_tx ? "the transaction count" : "the count");
    d.mode2 = flags;
    return;
  }
  // test_wait / try_wait
  d.mode = static_cast<int>(op == "test_wait" ? MbarrierOp::test_wait : MbarrierOp::try_wait);
  count(ins, 3, op == "try_wait" ? 4 : 3);
  pred(p, ins, ins.ops[0], "waitComplete", false);
  if (ins.ops[0].kind != Operand::Kind::reg)
    fail(ins.ops[0].loc, fmt::format("waitComplete of '{}' must be a predicate register", ins.text));
  address(p, ins, ins.ops[1], d.space);
  if (flags & f::parity)
    value(p, ins, ins.ops[2], PtxType::u32, "the phase parity");
  else
    reg(p, ins, ins.ops[2], PtxType::b64, "the state");
  if (ins.ops.size() == 4) value(p, ins, ins.ops[3], PtxType::u32, "the suspend-time hint");
  d.mode2 = flags;
}

}  // namespace

void register_mbarrier(std::vector<OpcodeSpec>& t) { t.push_back({"mbarrier", dec_mbarrier}); }

}  // namespace ptxmma::ptx::decode
