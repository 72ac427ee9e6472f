// Decoders of ld, st, ldmatrix, stmatrix, movmatrix, cp.async, wmma.load and wmma.store.
#include <fmt/format.h>

#include <algorithm>

#include "isa/ptx_decode.hpp"

namespace ptxmma::ptx::decode {

void address(const Program& p, const Instruction& ins, Operand& op, Space space) {
  if (op.kind != Operand::Kind::addr)
    fail(op.loc, fmt::format("'{}' needs an address operand [...], not '{}'", ins.text, op.text));
  if (op.elems.empty()) return;
  if (op.elems.size() > 1)
    fail(op.elems[1].loc, fmt::format("'{}' takes an address, not a tensor map with coordinates", ins.text));
  Operand& base = op.elems[0];
  if (base.kind == Operand::Kind::reg) {
    const RegisterDecl& r = p.registers.at(static_cast<std::size_t>(base.reg));
    const TypeClass c = type_class(r.type);
    if ((bits(r.type) != 32 && bits(r.type) != 64) || c == TypeClass::floating || c == TypeClass::pred)
      fail(base.loc, fmt::format("the address register {} of '{}' is .{}; addresses are 32- or 64-bit integers",
                                 r.source, ins.text, name(r.type)));
    return;
  }
  if (base.kind == Operand::Kind::symbol) {
    const Variable* v = p.find_param(base.text);
    Space vs = Space::param;
    if (!v)
      for (const Variable& x : p.variables)
        if (x.name == base.text) v = &x, vs = x.space;
    // A .shared variable's address is also its .shared::cluster address in the executing CTA.
    if (v && space != Space::generic && vs != space && !(space == Space::shared_cluster && vs == Space::shared))
      fail(base.loc, fmt::format("'{}' is a .{} variable; '{}' accesses .{}", base.text, name(vs), ins.text, name(space)));
    return;
  }
  fail(base.loc, fmt::format("'{}': an address is [register], [symbol] or [constant], with an optional +offset", ins.text));
}

namespace {

Space take_space(const Instruction&, Quals& q) {
  const std::string_view s = q.take_one(
      {"shared", "shared::cta", "shared::cluster", "global", "param", "param::entry", "local", "const"}, "state space");
  if (s.empty()) return Space::generic;
  if (s == "shared::cluster") return Space::shared_cluster;
  if (s.starts_with("shared")) return Space::shared;
  if (s == "global") return Space::global;
  if (s.starts_with("param")) return Space::param;
  if (s == "const") return Space::constant;
  return Space::local;
}

// Memory-model and cache qualifiers have no effect on a single warp's results; accept them.
bool take_ignored(const Instruction& ins, Quals& q) {
  (void)q.take_one({"weak", "volatile", "relaxed", "acquire", "release", "mmio"}, "memory ordering");
  (void)q.take_one({"cta", "cluster", "gpu", "sys"}, "scope");
  (void)q.take_one({"ca", "cg", "cs", "lu", "cv", "wb", "wt"}, "cache operator");
  (void)q.take("nc");
  bool hint = false;
  for (const std::string& s : ins.quals)
    if (s.starts_with("L1::") || s.starts_with("L2::")) {
      if (s == "L2::cache_hint") hint = true;
      (void)q.take(s);
    }
  return hint;
}

int take_vec(Quals& q) {
  const std::string_view v = q.take_one({"v2", "v4", "v8"}, "vector");
  return v.empty() ? 1 : v[1] - '0';
}

constexpr std::initializer_list<PtxType> kLdTypes = {
    PtxType::b8,  PtxType::b16, PtxType::b32, PtxType::b64, PtxType::u8,  PtxType::u16,   PtxType::u32,
    PtxType::u64, PtxType::s8,  PtxType::s16, PtxType::s32, PtxType::s64, PtxType::f16,   PtxType::f16x2,
    PtxType::bf16, PtxType::bf16x2, PtxType::f32, PtxType::f64};

PtxType ld_type(const Instruction& ins, Quals& q) {
  const auto ts = q.types();
  if (ts.size() != 1) fail(ins, fmt::format("'{}' needs exactly one type, found {}", ins.text, ts.size()));
  for (const PtxType t : kLdTypes)
    if (t == ts[0]) return t;
  fail(ins, fmt::format("'{}': .{} is not a type of {}", ins.text, name(ts[0]), ins.opcode));
}

void data(const Program& p, const Instruction& ins, Operand& op, PtxType t, int vec, bool is_store) {
  const std::string what = is_store ? "the value" : "the destination";
  // ptxas takes a one-element vector as the scalar it holds (Triton writes `ld.global.b32 { %r1 }`).
  if (vec == 1 && op.kind == Operand::Kind::vec && op.elems.size() == 1) op = Operand(op.elems[0]);
  if (vec == 1) {
    if (is_store)
      value(p, ins, op, t, what, true);
    else
      reg(p, ins, op, t, what, true);
    return;
  }
  if (op.kind != Operand::Kind::vec || static_cast<int>(op.elems.size()) != vec)
    fail(op.loc, fmt::format("{} of '{}' must be a vector of {} registers {{...}}", what, ins.text, vec));
  for (Operand& e : op.elems) {
    if (e.kind == Operand::Kind::sink && !is_store) continue;
    if (is_store)
      value(p, ins, e, t, "an element of " + what, true);
    else
      reg(p, ins, e, t, "an element of " + what, true);
  }
}

void dec_ld(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  Decoded& d = ins.d;
  d.space = take_space(ins, q);
  const bool hint = take_ignored(ins, q);
  d.vec = take_vec(q);
  d.type = ld_type(ins, q);
  q.finish();
  count(ins, hint ? 3 : 2);
  data(cx.program, ins, ins.ops[0], d.type, d.vec, false);
  address(cx.program, ins, ins.ops[1], d.space);
  if (hint) reg(cx.program, ins, ins.ops[2], PtxType::b64, "the cache policy");
}

void dec_st(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  Decoded& d = ins.d;
  d.space = take_space(ins, q);
  if (d.space == Space::constant) fail(ins, fmt::format("'{}': .const memory is read-only", ins.text));
  // st.param writes call parameters; a kernel parameter is read-only.
  if (d.space == Space::param && !ins.ops.empty() && ins.ops[0].kind == Operand::Kind::addr &&
      !ins.ops[0].elems.empty() && ins.ops[0].elems[0].kind == Operand::Kind::symbol &&
      ins.ops[0].elems[0].value < Program::kCallParamBase)
    fail(ins, fmt::format("'{}': kernel parameters are read-only", ins.text));
  const bool hint = take_ignored(ins, q);
  d.vec = take_vec(q);
  d.type = ld_type(ins, q);
  q.finish();
  count(ins, hint ? 3 : 2);
  address(cx.program, ins, ins.ops[0], d.space);
  data(cx.program, ins, ins.ops[1], d.type, d.vec, true);
  if (hint) reg(cx.program, ins, ins.ops[2], PtxType::b64, "the cache policy");
}

// A tensor operand [map, {c0, ...}]: the map's address (a 64-bit register, or a kernel parameter
// or global/const variable by name) and `rank` 32-bit coordinates.
void tensor_operand(const Program& p, const Instruction& ins, Operand& op, int rank) {
  if (op.kind != Operand::Kind::addr || op.elems.size() != 2)
    fail(op.loc, fmt::format("'{}' needs the tensor map and its coordinates [map, {{c0, ...}}], not '{}'", ins.text,
                             op.text));
  Operand& base = op.elems[0];
  if (base.kind == Operand::Kind::reg) reg(p, ins, base, PtxType::b64, "the tensor map's address");
  Operand& coords = op.elems[1];
  if (coords.kind != Operand::Kind::vec || static_cast<int>(coords.elems.size()) != rank)
    fail(coords.loc, fmt::format("'{}' needs {} coordinate{} {{...}}", ins.text, rank, rank == 1 ? "" : "s"));
  for (Operand& c : coords.elems) value(p, ins, c, PtxType::s32, "a coordinate");
}

// The im2col offsets {o...} of a tensor load or prefetch: rank - 2 16-bit values.
void im2col_offsets(const Program& p, const Instruction& ins, Operand& op, int rank) {
  if (op.kind != Operand::Kind::vec || static_cast<int>(op.elems.size()) != rank - 2)
    fail(op.loc, fmt::format("'{}' needs {} im2col offset{} {{...}} (16-bit) after the mbarrier", ins.text, rank - 2,
                             rank == 3 ? "" : "s"));
  for (Operand& o : op.elems) value(p, ins, o, PtxType::b16, "an im2col offset");
}

// Whether the first state space among the qualifiers is .global (a copy to global memory).
bool first_space_is_global(const Instruction& ins) {
  for (const std::string& s : ins.quals) {
    if (s == "global") return true;
    if (s == "shared::cluster" || s == "shared::cta") return false;
  }
  return false;
}

// The element type of cp.reduce.async.bulk with reduction `op`: the integer types with every
// reduction; of the floating-point ones what ptxas takes for sm_90 (docs/hardware/bulk-reduce-sm90.md):
// .add.f32, .add.f64, .add.noftz.f16/.bf16, .min/.max .f16/.bf16.
PtxType bulk_reduction_type(const Instruction& ins, Quals& q, AtomOp op) {
  const bool noftz = q.take("noftz");
  const auto ts = q.types();
  if (ts.size() != 1) fail(ins, fmt::format("'{}' needs one element type", ins.text));
  const PtxType t = ts[0];
  const bool half = t == PtxType::f16 || t == PtxType::bf16;
  if (t == PtxType::u32 || t == PtxType::s32 || t == PtxType::u64 || t == PtxType::s64 || t == PtxType::b32 ||
      t == PtxType::b64) {
    if (noftz) fail(ins, fmt::format("'{}': .noftz is for .add of .f16 and .bf16", ins.text));
    return t;
  }
  const bool legal = op == AtomOp::add ? (half ? noftz : (t == PtxType::f32 || t == PtxType::f64) && !noftz)
                                      : (op == AtomOp::min || op == AtomOp::max) && half && !noftz;
  if (!legal)
    fail(ins, fmt::format("'{}': the bulk reductions of floating-point types are .add.f32, .add.f64, .add.noftz.f16, "
                          ".add.noftz.bf16 and .min/.max of .f16 and .bf16",
                          ins.text));
  return t;
}

// The bulk-copy unit (docs/ptx-interpreter.md, "Bulk copies and TMA"):
//   cp.async.bulk.shared::cluster|shared::cta.global.mbarrier::complete_tx::bytes{.multicast::cluster}
//       {.L2::cache_hint} [dst], [src], size, [mbar]{, ctaMask}{, policy}
//   cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint} [dst], [src], size{, policy}
//   cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.op{.noftz}.type [dst], [src], size{, policy}
//   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.op{.tile}.bulk_group{.L2::cache_hint} [map, {c...}], [src]{, policy}
//   cp.async.bulk.tensor.Nd.shared::cluster|shared::cta.global{.tile}.mbarrier::complete_tx::bytes
//       {.multicast::cluster}{.L2::cache_hint} [dst], [map, {c...}], [mbar]{, ctaMask}{, policy}
//   cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group{.L2::cache_hint} [map, {c...}], [src]{, policy}
//   cp.async.bulk.prefetch{.tensor.Nd}.L2.global{.tile}{.L2::cache_hint} ... (no effect)
//   cp.async.bulk.commit_group; cp.async.bulk.wait_group{.read} N
// A .shared::cluster destination (and its mbarrier) may be another CTA's of the cluster
// (d.space = shared_cluster); .multicast::cluster (d.mode = 1) writes the same offsets in every CTA
// of the 16-bit ctaMask. The im2col mode (3d..5d, d.im2col): a load or prefetch is .im2col and takes
// the im2col offsets {o...} (rank - 2 16-bit values) after the mbarrier (before ctaMask and the
// cache policy), a store or reduction is .im2col_no_offs with the tile form's operands (what ptxas
// takes). sm_100's .im2col::w, .im2col::w::128 and gather/scatter modes are refused.
void dec_bulk(Instruction& ins, const DecodeContext& cx, Quals& q, bool reduce = false) {
  const Program& p = cx.program;
  Decoded& d = ins.d;
  d.unit = AsyncUnit::bulk;
  if (!reduce && q.take("commit_group")) {
    q.finish();
    count(ins, 0);
    d.step = AsyncStep::commit;
    return;
  }
  if (!reduce && q.take("wait_group")) {
    (void)q.take("read");  // the sources may be reused: completion is the same event here
    q.finish();
    count(ins, 1);
    if (ins.ops[0].kind != Operand::Kind::imm)
      fail(ins.ops[0].loc, fmt::format("'{}': the group count must be an integer constant", ins.text));
    const std::int64_t n = integer(ins, ins.ops[0], "the group count");
    if (n < 0 || n > 63) fail(ins.ops[0].loc, fmt::format("'{}': the group count {} is not 0..63", ins.text, n));
    d.step = AsyncStep::wait;
    d.groups = static_cast<int>(n);
    return;
  }
  const bool tensor = q.take("tensor");
  int rank = 0;
  if (tensor) {
    const std::string_view r = q.take_one({"1d", "2d", "3d", "4d", "5d"}, "dimension");
    if (r.empty()) fail(ins, fmt::format("'{}' needs a dimension .1d .. .5d", ins.text));
    rank = r[0] - '0';
    d.vec = rank;
    if (q.take("im2col::w") || q.take("im2col::w::128") || q.take("tile::gather4") || q.take("tile::scatter4"))
      fail(ins, fmt::format("'{}': the .im2col::w, .im2col::w::128 and gather/scatter modes are sm_100's", ins.text));
    const bool offsets = q.take("im2col"), no_offsets = q.take("im2col_no_offs");
    d.im2col = offsets || no_offsets;
    if (d.im2col && rank < 3) fail(ins, fmt::format("'{}': the im2col mode is for 3d, 4d and 5d tensors", ins.text));
    if (d.im2col && (q.take("tile") || (offsets && no_offsets)))
      fail(ins, fmt::format("'{}' names more than one load mode", ins.text));
    // A load or prefetch reads with the offsets; a store or reduction writes without them.
    const bool prefetch = std::find(ins.quals.begin(), ins.quals.end(), "prefetch") != ins.quals.end();
    const bool writes = reduce || (!prefetch && first_space_is_global(ins));
    if (offsets && writes)
      fail(ins, fmt::format("'{}': a store or reduction in the im2col mode is .im2col_no_offs", ins.text));
    if (no_offsets && !writes)
      fail(ins, fmt::format("'{}': a load or prefetch in the im2col mode is .im2col (with the im2col offsets)", ins.text));
    (void)q.take("tile");
  }
  const bool multicast = q.take("multicast::cluster");
  if (q.take_one({"cta_group::1", "cta_group::2"}, "CTA group") != "")
    fail(ins, fmt::format("'{}': .cta_group is sm_100's", ins.text));
  const bool hint = q.take("L2::cache_hint");
  std::size_t n = ins.ops.size();
  const auto policy = [&](std::size_t fixed) {
    if (hint) {
      if (n != fixed + 1) fail(ins, fmt::format("'{}': .L2::cache_hint needs a cache-policy operand", ins.text));
      reg(p, ins, ins.ops[fixed], PtxType::b64, "the cache policy");
    } else {
      count(ins, fixed);
    }
  };
  if (q.take("prefetch")) {
    if (!q.take("L2") || !q.take("global")) fail(ins, fmt::format("'{}': expected .prefetch.L2.global", ins.text));
    q.finish();
    d.mode2 = static_cast<int>(BulkKind::prefetch);
    if (tensor) {
      if (d.im2col && (ins.ops.size() < 2 || ins.ops[1].kind != Operand::Kind::vec))
        im2col_offsets(p, ins, ins.ops.back(), rank);
      policy(d.im2col ? 2 : 1);
      tensor_operand(p, ins, ins.ops[0], rank);
      if (d.im2col) im2col_offsets(p, ins, ins.ops[1], rank);
    } else {
      policy(2);
      address(p, ins, ins.ops[0], Space::global);
      value(p, ins, ins.ops[1], PtxType::u32, "the size");
    }
    return;
  }
  // The destination's space comes first, then the source's.
  std::string_view dst, src;
  for (const std::string& s : ins.quals)
    if (s == "shared::cluster" || s == "shared::cta" || s == "global") (dst.empty() ? dst : src) = s;
  if (!dst.empty()) (void)q.take(dst);
  if (!src.empty()) (void)q.take(src);
  const bool to_shared = dst.starts_with("shared");
  if (dst.empty() || src.empty() || to_shared == (src == "shared::cta"))
    fail(ins, fmt::format("'{}': a bulk copy goes .shared::cluster/.shared::cta.global or .global.shared::cta", ins.text));
  if (multicast && dst != "shared::cluster")
    fail(ins, fmt::format("'{}': .multicast::cluster copies into .shared::cluster", ins.text));
  d.space = dst == "shared::cluster" ? Space::shared_cluster : Space::shared;
  d.mode = multicast ? 1 : 0;
  // ctaMask: after the fixed operands, before the cache policy.
  const auto cta_mask = [&](std::size_t at) {
    if (!multicast) return;
    if (ins.ops.size() <= at) fail(ins, fmt::format("'{}': .multicast::cluster needs a ctaMask operand", ins.text));
    value(p, ins, ins.ops[at], PtxType::b16, "the ctaMask");
  };
  if (to_shared) {
    if (reduce) fail(ins, fmt::format("'{}': reductions go to global memory here (.global.shared::cta)", ins.text));
    if (!q.take("mbarrier::complete_tx::bytes"))
      fail(ins, fmt::format("'{}': a copy into shared memory completes on an mbarrier (.mbarrier::complete_tx::bytes)",
                            ins.text));
  } else if (!q.take("bulk_group")) {
    fail(ins, fmt::format("'{}': a copy to global memory completes in a bulk group (.bulk_group)", ins.text));
  }
  if (reduce) {
    // The reductions are AtomOp's operations add .. xor.
    int op = -1;
    for (int i = 0; i <= static_cast<int>(AtomOp::xor_); ++i)
      if (q.take(name(static_cast<AtomOp>(i)))) op = i;
    if (op < 0) fail(ins, fmt::format("'{}' needs a reduction (.add .min .max .inc .dec .and .or .xor)", ins.text));
    d.mode = op;
    // A tensor reduction's element type is its tensor map's (checked when it runs).
    if (!tensor) d.type = bulk_reduction_type(ins, q, static_cast<AtomOp>(op));
  }
  q.finish();
  d.step = AsyncStep::issue;
  if (tensor) {
    d.mode2 = static_cast<int>(to_shared ? BulkKind::tensor_load : reduce ? BulkKind::tensor_reduce : BulkKind::tensor_store);
    if (to_shared) {
      const std::size_t fixed = d.im2col ? 4 : 3;
      if (d.im2col && (ins.ops.size() < 4 || ins.ops[3].kind != Operand::Kind::vec))
        im2col_offsets(p, ins, ins.ops.size() < 4 ? ins.ops.back() : ins.ops[3], rank);
      policy(multicast ? fixed + 1 : fixed);
      cta_mask(fixed);
      address(p, ins, ins.ops[0], d.space);
      tensor_operand(p, ins, ins.ops[1], rank);
      address(p, ins, ins.ops[2], d.space);
      if (d.im2col) im2col_offsets(p, ins, ins.ops[3], rank);
    } else {
      policy(2);
      tensor_operand(p, ins, ins.ops[0], rank);
      address(p, ins, ins.ops[1], Space::shared);
    }
    return;
  }
  d.mode2 = static_cast<int>(to_shared ? BulkKind::load : reduce ? BulkKind::reduce : BulkKind::store);
  policy(to_shared ? (multicast ? 5 : 4) : 3);
  if (to_shared) cta_mask(4);
  address(p, ins, ins.ops[0], to_shared ? d.space : Space::global);
  address(p, ins, ins.ops[1], to_shared ? Space::global : Space::shared);
  value(p, ins, ins.ops[2], PtxType::u32, "the size");
  if (ins.ops[2].kind == Operand::Kind::imm && (ins.ops[2].value == 0 || ins.ops[2].value % 16 != 0))
    fail(ins.ops[2].loc, fmt::format("'{}': a size of {} bytes; bulk copies move a positive multiple of 16", ins.text,
                                     ins.ops[2].value));
  if (to_shared) address(p, ins, ins.ops[3], d.space);
}

// cp.async.ca.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [dst], [src], cp-size
//   {, src-size | , ignore-src}{, cache-policy}   (.ca: 4, 8 or 16 bytes; .cg: 16)
// cp.async.commit_group; cp.async.wait_group N; cp.async.wait_all; cp.async.mbarrier.arrive{.noinc}.
// d.vec: cp-size; d.mode 1: ops[3] is the src-size (u32), 2: the ignore-src predicate.
void dec_cp(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const Program& p = cx.program;
  const bool reduce = q.take("reduce");
  if (!q.take("async")) fail(ins, fmt::format("unknown instruction '{}'", ins.text));
  if (reduce && !q.take("bulk")) fail(ins, fmt::format("'{}': expected cp.reduce.async.bulk", ins.text));
  if (reduce) {
    dec_bulk(ins, cx, q, true);
    return;
  }
  Decoded& d = ins.d;
  if (q.take("bulk")) {
    dec_bulk(ins, cx, q);
    return;
  }
  d.unit = AsyncUnit::copy;
  if (q.take("mbarrier")) {  // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
    if (!q.take("arrive")) fail(ins, fmt::format("'{}': expected cp.async.mbarrier.arrive", ins.text));
    d.mode = q.take("noinc") ? 1 : 0;
    d.space = q.take_one({"shared", "shared::cta"}, "state space").empty() ? Space::generic : Space::shared;
    const auto ts = q.types();
    if (ts.size() != 1 || ts[0] != PtxType::b64) fail(ins, fmt::format("'{}' needs the type .b64", ins.text));
    q.finish();
    count(ins, 1);
    address(p, ins, ins.ops[0], d.space);
    d.step = AsyncStep::arrive;
    return;
  }
  const std::string_view bare = q.take_one({"commit_group", "wait_all"}, "group operation");
  if (!bare.empty()) {
    q.finish();
    count(ins, 0);
    d.step = bare == "wait_all" ? AsyncStep::wait_all : AsyncStep::commit;
    return;
  }
  if (q.take("wait_group")) {
    q.finish();
    count(ins, 1);
    if (ins.ops[0].kind != Operand::Kind::imm)
      fail(ins.ops[0].loc, fmt::format("'{}': the group count must be an integer constant, not '{}'", ins.text,
                                       ins.ops[0].text));
    const std::int64_t n = integer(ins, ins.ops[0], "the group count");
    if (n < 0 || n > (1 << 20)) fail(ins.ops[0].loc, fmt::format("'{}': the group count {} is not 0..2^20", ins.text, n));
    d.step = AsyncStep::wait;
    d.groups = static_cast<int>(n);
    return;
  }
  const std::string_view cache = q.take_one({"ca", "cg"}, "cache operator");
  if (cache.empty())
    fail(ins, fmt::format("'{}': expected cp.async.ca, .cg, .bulk, .commit_group, .wait_group or .wait_all", ins.text));
  if (q.take_one({"shared", "shared::cta"}, "destination space").empty())
    fail(ins, fmt::format("'{}': the destination is .shared or .shared::cta", ins.text));
  if (!q.take("global")) fail(ins, fmt::format("'{}': the source is .global", ins.text));
  const bool hint = q.take("L2::cache_hint");
  (void)q.take_one({"L2::64B", "L2::128B", "L2::256B"}, "prefetch size");
  q.finish();
  d.step = AsyncStep::issue;
  d.space = Space::shared;
  count(ins, 3, hint ? 5 : 4);
  address(p, ins, ins.ops[0], Space::shared);
  address(p, ins, ins.ops[1], Space::global);
  const std::int64_t size = integer(ins, ins.ops[2], "the copy size");
  if (cache == "cg" ? size != 16 : size != 4 && size != 8 && size != 16)
    fail(ins.ops[2].loc, fmt::format("'{}': a copy of {} bytes; .ca copies 4, 8 or 16, .cg 16", ins.text, size));
  d.vec = static_cast<int>(size);
  std::size_t n = ins.ops.size();
  if (hint) {
    if (n == 3) fail(ins, fmt::format("'{}': .L2::cache_hint needs a cache-policy operand", ins.text));
    reg(p, ins, ins.ops[n - 1], PtxType::b64, "the cache policy");
    --n;
  }
  if (n == 4) {
    Operand& extra = ins.ops[3];
    const bool is_pred = extra.kind == Operand::Kind::reg &&
                         p.registers.at(static_cast<std::size_t>(extra.reg)).type == PtxType::pred;
    d.mode = is_pred ? 2 : 1;
    if (is_pred) {
      pred(p, ins, extra, "ignore-src", false);
    } else {
      value(p, ins, extra, PtxType::u32, "the source size");
      if (extra.kind == Operand::Kind::imm && extra.value > static_cast<std::uint64_t>(size))
        fail(extra.loc, fmt::format("'{}': a source size of {} is more than the copy's {} bytes", ins.text,
                                    extra.value, size));
    }
  }
}

// The fragment registers of ldmatrix/stmatrix: {r0[, r1[, r2, r3]]} (x1 also a bare register).
void fragments(const Program& p, const Instruction& ins, Operand& op, int n, std::string_view what) {
  if (op.kind == Operand::Kind::reg && n == 1) {
    reg(p, ins, op, PtxType::b32, what);
    return;
  }
  if (op.kind != Operand::Kind::vec || static_cast<int>(op.elems.size()) != n)
    fail(op.loc, fmt::format("{} of '{}' must be {} register{} {{...}}", what, ins.text, n, n == 1 ? "" : "s"));
  for (Operand& e : op.elems) reg(p, ins, e, PtxType::b32, what);
}

void matrix_quals(Instruction& ins, Quals& q, bool needs_num) {
  if (!q.take("sync") || !q.take("aligned"))
    fail(ins, fmt::format("'{}' must be .sync.aligned", ins.text));
  const std::string_view shape = q.take_one({"m8n8", "m16n16", "m16n8", "m8n16"}, "shape");
  if (shape.empty()) fail(ins, fmt::format("'{}' needs a shape (.m8n8)", ins.text));
  if (shape != "m8n8")
    fail(ins, fmt::format("'{}': only the .m8n8 shape with .b16 elements is supported", ins.text));
  ins.d.trans = q.take("trans");
  if (needs_num) {
    const std::string_view num = q.take_one({"x1", "x2", "x4"}, "count");
    if (num.empty()) fail(ins, fmt::format("'{}' needs .x1, .x2 or .x4", ins.text));
    ins.d.vec = num[1] - '0';
    const std::string_view s = q.take_one({"shared", "shared::cta"}, "state space");
    (void)s;
    ins.d.space = Space::shared;
  }
  const auto ts = q.types();
  if (ts.size() != 1 || ts[0] != PtxType::b16)
    fail(ins, fmt::format("'{}': only the .b16 element type is supported", ins.text));
  ins.d.type = PtxType::b16;
  ins.d.sync = ins.d.aligned = true;
  q.finish();
}

void dec_ldmatrix(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  matrix_quals(ins, q, true);
  count(ins, 2);
  fragments(cx.program, ins, ins.ops[0], ins.d.vec, "the destination");
  address(cx.program, ins, ins.ops[1], Space::shared);
}

void dec_stmatrix(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  matrix_quals(ins, q, true);
  count(ins, 2);
  address(cx.program, ins, ins.ops[0], Space::shared);
  fragments(cx.program, ins, ins.ops[1], ins.d.vec, "the source");
}

void dec_movmatrix(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  matrix_quals(ins, q, false);
  if (!ins.d.trans) fail(ins, fmt::format("'{}' needs .trans", ins.text));
  count(ins, 2);
  reg(cx.program, ins, ins.ops[0], PtxType::b32, "the destination");
  reg(cx.program, ins, ins.ops[1], PtxType::b32, "the source");
}

// prefetch{.global|.local}.L1|.L2 [a], prefetch{.global}.L2::evict_last|evict_normal [a],
// prefetch{.const|.param|.global}.tensormap [a], prefetchu.L1 [a]: no effect on results.
void dec_prefetch(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const std::string_view s = q.take_one({"global", "local", "const", "param"}, "state space");
  const std::string_view level =
      q.take_one({"L1", "L2", "L2::evict_last", "L2::evict_normal", "tensormap"}, "level");
  if (level.empty()) fail(ins, fmt::format("'{}' needs .L1, .L2 or .tensormap", ins.text));
  q.finish();
  count(ins, 1);
  address(cx.program, ins, ins.ops[0],
          s == "global" ? Space::global : s == "local" ? Space::local : s == "const" ? Space::constant
                        : s == "param" ? Space::param : Space::generic);
}

}  // namespace

// wmma.load.<a|b|c>... {r...}, [p][, stride] and wmma.store.d... [p], {r...}[, stride]: the
// fragment registers (f64: 64-bit, else 32-bit), the address, and the stride (.u32, elements).
void dec_wmma_transfer(Instruction& ins, const DecodeContext& cx) {
  WmmaTransfer x;
  try {
    x = parse_wmma_transfer(ins.text, cx.target);
  } catch (const Error& e) {
    fail(ins, e.what());
  }
  const bool load = x.operand != ptxmma::Operand::d;
  count(ins, 2, 3);
  Operand& regs = ins.ops[load ? 0 : 1];
  const int n = x.fragment->regs;
  const PtxType width = x.bits == 64 ? PtxType::b64 : PtxType::b32;
  if (regs.kind != Operand::Kind::vec || static_cast<int>(regs.elems.size()) != n)
    fail(regs.loc, fmt::format("'{}' moves {} registers {{...}}, found {}", ins.text, n,
                               regs.kind == Operand::Kind::vec ? fmt::format("{}", regs.elems.size()) : "one operand"));
  for (Operand& e : regs.elems) reg(cx.program, ins, e, width, "a fragment register");
  ins.d.space = x.space.empty() ? Space::generic : x.space == "global" ? Space::global : Space::shared;
  address(cx.program, ins, ins.ops[load ? 1 : 0], ins.d.space);
  if (ins.ops.size() == 3) value(cx.program, ins, ins.ops[2], PtxType::u32, "the stride");
  ins.d.wmma = std::make_shared<const WmmaTransfer>(std::move(x));
  ins.d.sync = ins.d.aligned = true;
}

// mapa{.shared::cluster}.u32|u64 d, a, b: a's address in the CTA of cluster rank b.
// getctarank{.shared::cluster}.u32|u64 d, a: the cluster rank of the CTA a's address is in (d .u32).
// Without .shared::cluster the addresses are generic (64-bit).
void dec_cluster_address(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const Program& p = cx.program;
  const bool cluster = q.take("shared::cluster");
  const auto ts = q.types();
  if (ts.size() != 1 || (ts[0] != PtxType::u32 && ts[0] != PtxType::u64))
    fail(ins, fmt::format("'{}' needs the type .u32 or .u64", ins.text));
  const PtxType t = ts[0];
  q.finish();
  if (!cluster && t != PtxType::u64)
    fail(ins, fmt::format("'{}': generic addresses are .u64 (or name .shared::cluster)", ins.text));
  ins.d.type = t;
  ins.d.space = cluster ? Space::shared_cluster : Space::generic;
  const bool mapa = ins.opcode == "mapa";
  count(ins, mapa ? 3 : 2);
  reg(p, ins, ins.ops[0], mapa ? t : PtxType::u32, "the destination");
  value(p, ins, ins.ops[1], t, "the address");
  if (mapa) value(p, ins, ins.ops[2], PtxType::u32, "the CTA rank");
}

void register_memory(std::vector<OpcodeSpec>& t) {
  t.push_back({"mapa", dec_cluster_address});
  t.push_back({"getctarank", dec_cluster_address});
  t.push_back({"prefetch", dec_prefetch});
  t.push_back({"prefetchu", dec_prefetch});
  t.push_back({"ld", dec_ld});
  t.push_back({"st", dec_st});
  t.push_back({"ldmatrix", dec_ldmatrix});
  t.push_back({"stmatrix", dec_stmatrix});
  t.push_back({"movmatrix", dec_movmatrix});
  t.push_back({"cp", dec_cp});
}

}  // namespace ptxmma::ptx::decode
