// Decoders of tensormap.* (sm_90's forms; what ptxas 13.0 takes for sm_90a, docs/ptx-interpreter.md):
//   tensormap.replace.tile.FIELD{.global|.shared::cta}.b1024.TYPE [map], {ord,} new_val
//     .global_address (.b64), .rank (.b32): new_val a register or an immediate;
//     .box_dim, .global_dim, .element_stride (.b32), .global_stride (.b64): ord an immediate 0..4,
//     new_val a register or an immediate;
//     .elemtype (0..12), .interleave_layout (0..2), .swizzle_mode (0..3), .fill_mode (0..1) (.b32):
//     new_val an immediate in that range (the larger ones are sm_100's).
//   Without a state space [map] is a generic address.
//   tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.SCOPE.sync.aligned [dst], [src], 128
//     (SCOPE .cta, .cluster, .gpu or .sys): the 128 bytes at the shared src copied to the global dst.
#include <fmt/format.h>

#include <algorithm>

#include "isa/ptx_decode.hpp"

namespace ptxmma::ptx::decode {
namespace {

void dec_replace(Instruction& ins, const DecodeContext& cx, Quals& q) {
  const Program& p = cx.program;
  Decoded& d = ins.d;
  if (!q.take("tile")) fail(ins, fmt::format("'{}' needs .tile (tensormap.replace's only mode)", ins.text));
  if (q.take("swizzle_atomicity")) fail(ins, fmt::format("'{}': .swizzle_atomicity is sm_100's", ins.text));
  int field = -1;
  for (int f = 0; f <= static_cast<int>(TensormapField::fill_mode); ++f)
    if (q.take(name(static_cast<TensormapField>(f)))) {
      if (field >= 0) fail(ins, fmt::format("'{}' names two fields", ins.text));
      field = f;
    }
  if (field < 0)
    fail(ins, fmt::format("'{}' needs a field (.global_address .rank .box_dim .global_dim .global_stride "
                          ".element_stride .elemtype .interleave_layout .swizzle_mode .fill_mode)",
                          ins.text));
  const auto f = static_cast<TensormapField>(field);
  d.mode = field;
  const std::string_view space = q.take_one({"global", "shared::cta", "shared"}, "state space");
  if (space == "shared") fail(ins, fmt::format("'{}': the map is .global or .shared::cta (or generic)", ins.text));
  d.space = space == "global" ? Space::global : space == "shared::cta" ? Space::shared : Space::generic;
  if (!q.take("b1024")) fail(ins, fmt::format("'{}' needs .b1024 (the map's size)", ins.text));
  const auto ts = q.types();
  const bool wide = f == TensormapField::global_address || f == TensormapField::global_stride;
  const PtxType t = wide ? PtxType::b64 : PtxType::b32;
  if (ts.size() != 1 || ts[0] != t)
    fail(ins, fmt::format("'{}': .{} takes the type .{}", ins.text, name(f), name(t)));
  d.type = t;
  q.finish();
  const bool ordinal = f == TensormapField::box_dim || f == TensormapField::global_dim ||
                       f == TensormapField::global_stride || f == TensormapField::element_stride;
  count(ins, ordinal ? 3 : 2);
  address(p, ins, ins.ops[0], d.space);
  if (ordinal) {
    const std::int64_t ord = integer(ins, ins.ops[1], "the ordinal");
    if (ord < 0 || ord > 4)
      fail(ins.ops[1].loc, fmt::format("'{}': the ordinal {} is outside 0..4 (a dimension)", ins.text, ord));
  }
  Operand& v = ins.ops.back();
  int most = -1;  // the largest immediate of the fields that take one
  switch (f) {
    case TensormapField::elemtype: most = 12; break;
    case TensormapField::interleave_layout: most = 2; break;
    case TensormapField::swizzle_mode: most = 3; break;
    case TensormapField::fill_mode: most = 1; break;
    default: break;
  }
  if (most < 0) {
    value(p, ins, v, t, "the new value");
    return;
  }
  const std::int64_t n = integer(ins, v, "the new value");
  if (n < 0 || n > most)
    fail(v.loc, fmt::format("'{}': the new value {} is outside 0..{}{}", ins.text, n, most,
                            f == TensormapField::elemtype || f == TensormapField::swizzle_mode ? " (the rest are sm_100's)"
                                                                                                 : ""));
}

void dec_cp_fenceproxy(Instruction& ins, const DecodeContext& cx, Quals& q) {
  Decoded& d = ins.d;
  const auto at = [&](std::string_view s) { return std::find(ins.quals.begin(), ins.quals.end(), s); };
  if (!q.take("global") || !q.take("shared::cta") || at("global") > at("shared::cta"))
    fail(ins, fmt::format("'{}' copies .global.shared::cta (to global from shared memory)", ins.text));
  if (!q.take("tensormap::generic") || !q.take("release"))
    fail(ins, fmt::format("'{}' needs .tensormap::generic.release", ins.text));
  if (q.take_one({"cta", "cluster", "gpu", "sys"}, "scope").empty())
    fail(ins, fmt::format("'{}' needs a scope (.cta .cluster .gpu .sys)", ins.text));
  if (!q.take("sync") || !q.take("aligned")) fail(ins, fmt::format("'{}' needs .sync.aligned", ins.text));
  q.finish();
  d.sync = d.aligned = true;
  count(ins, 3);
  address(cx.program, ins, ins.ops[0], Space::global);
  address(cx.program, ins, ins.ops[1], Space::shared);
  if (ins.ops[2].kind != Operand::Kind::imm || ins.ops[2].value != 128)
    fail(ins.ops[2].loc, fmt::format("'{}': the size is 128 (a tensor map)", ins.text));
}

void dec_tensormap(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  if (q.take("replace")) {
    ins.d.mode2 = static_cast<int>(TensormapOp::replace);
    dec_replace(ins, cx, q);
  } else if (q.take("cp_fenceproxy")) {
    ins.d.mode2 = static_cast<int>(TensormapOp::cp_fenceproxy);
    dec_cp_fenceproxy(ins, cx, q);
  } else {
    fail(ins, fmt::format("unknown instruction '{}' (tensormap.replace, tensormap.cp_fenceproxy)", ins.text));
  }
}

}  // namespace

void register_tensormap(std::vector<OpcodeSpec>& t) { t.push_back({"tensormap", dec_tensormap}); }

}  // namespace ptxmma::ptx::decode
