// Decoders of atom and red, with the operation/type pairs ptxas 13.0 accepts for sm_90:
//   atom{.sem}{.scope}{.space}.op{.L2::cache_hint}.type d, [a], b{, c (cas)}{, cache-policy}
//   red{.sem}{.scope}{.space}.op{.L2::cache_hint}.type [a], b{, cache-policy}
// .add: .u32 .s32 .u64 .f32 .f64, and .noftz with .f16 .f16x2 .bf16 .bf16x2; .min/.max: .u32 .s32
// .u64 .s64; .inc/.dec: .u32; .and/.or/.xor: .b32 .b64; .exch: .b32 .b64; .cas: .b16 .b32 .b64
// (atom only, as .exch). .sem (.relaxed .acquire .release .acq_rel) and .scope (.cta .cluster
// .gpu .sys) are accepted: the machine runs one thread at a time. Vector (.v2/.v4/.v8) and .b128
// forms are refused.
#include <fmt/format.h>

#include <algorithm>

#include "isa/ptx_decode.hpp"

namespace ptxmma::ptx::decode {
namespace {

struct AtomRow {
  AtomOp op;
  std::initializer_list<PtxType> types;
};

const AtomRow kRows[] = {
    {AtomOp::add, {PtxType::u32, PtxType::s32, PtxType::u64, PtxType::f32, PtxType::f64, PtxType::f16,
                          PtxType::f16x2, PtxType::bf16, PtxType::bf16x2}},
    {AtomOp::min, {PtxType::u32, PtxType::s32, PtxType::u64, PtxType::s64}},
    {AtomOp::max, {PtxType::u32, PtxType::s32, PtxType::u64, PtxType::s64}},
    {AtomOp::inc, {PtxType::u32}},
    {AtomOp::dec, {PtxType::u32}},
    {AtomOp::and_, {PtxType::b32, PtxType::b64}},
    {AtomOp::or_, {PtxType::b32, PtxType::b64}},
    {AtomOp::xor_, {PtxType::b32, PtxType::b64}},
    {AtomOp::exch, {PtxType::b32, PtxType::b64}},
    {AtomOp::cas, {PtxType::b16, PtxType::b32, PtxType::b64}},
};

void dec_atom(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const Program& p = cx.program;
  Decoded& d = ins.d;
  const bool red = ins.opcode == "red";
  (void)q.take_one({"relaxed", "acquire", "release", "acq_rel"}, "memory ordering");
  (void)q.take_one({"cta", "cluster", "gpu", "sys"}, "scope");
  const std::string_view space =
      q.take_one({"global", "shared", "shared::cta", "shared::cluster"}, "state space");
  d.space = space.empty()               ? Space::generic
            : space == "global"          ? Space::global
            : space == "shared::cluster" ? Space::shared_cluster
                                         : Space::shared;
  const AtomRow* row = nullptr;
  for (const AtomRow& r : kRows)
    if (q.take(name(r.op))) {
      if (row) fail(ins, fmt::format("two operations in '{}': .{} and .{}", ins.text, name(row->op), name(r.op)));
      row = &r;
    }
  if (!row) fail(ins, fmt::format("'{}' needs an operation (.add, .min, .max, .inc, .dec, .and, .or, .xor, .exch, .cas)",
                                  ins.text));
  if (red && (row->op == AtomOp::cas || row->op == AtomOp::exch))
    fail(ins, fmt::format("'{}': red has no .{} (atom has)", ins.text, name(row->op)));
  const bool noftz = q.take("noftz");
  const bool hint = q.take("L2::cache_hint");
  if (!q.take_one({"v2", "v4", "v8"}, "vector").empty())
    fail(ins, fmt::format("'{}': vector atomics are not supported yet", ins.text));
  const auto ts = q.types();
  q.finish();
  if (ts.size() != 1) fail(ins, fmt::format("'{}' needs exactly one type, found {}", ins.text, ts.size()));
  const PtxType t = ts[0];
  if (std::find(row->types.begin(), row->types.end(), t) == row->types.end()) {
    std::string list;
    for (const PtxType x : row->types) list += fmt::format("{}.{}", list.empty() ? "" : " ", name(x));
    fail(ins, fmt::format("'{}': .{} takes {}, not .{}", ins.text, name(row->op), list, name(t)));
  }
  const bool half = t == PtxType::f16 || t == PtxType::f16x2 || t == PtxType::bf16 || t == PtxType::bf16x2;
  if (half != noftz)
    fail(ins, half ? fmt::format("'{}': .add of .{} needs .noftz", ins.text, name(t))
                   : fmt::format("'{}': .noftz applies to .f16, .f16x2, .bf16 and .bf16x2 only", ins.text));
  d.type = t;
  d.mode = static_cast<int>(row->op);
  d.mode2 = red ? 1 : 0;
  const std::size_t values = row->op == AtomOp::cas ? 2 : 1;
  const std::size_t first = red ? 0 : 1;  // the address's operand
  count(ins, first + 1 + values + (hint ? 1 : 0));
  if (!red) reg(p, ins, ins.ops[0], t, "the destination");
  address(p, ins, ins.ops[first], d.space);
  for (std::size_t i = 0; i < values; ++i)
    value(p, ins, ins.ops[first + 1 + i], t, values == 2 ? (i == 0 ? "operand b (compare)" : "operand c (swap)")
                                                         : "operand b");
  if (hint) reg(p, ins, ins.ops.back(), PtxType::b64, "the cache policy");
}

}  // namespace

void register_atomic(std::vector<OpcodeSpec>& t) {
  t.push_back({"atom", dec_atom});
  t.push_back({"red", dec_atom});
}

}  // namespace ptxmma::ptx::decode
