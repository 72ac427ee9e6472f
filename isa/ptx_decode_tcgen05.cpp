// Decoders of tcgen05.* (Blackwell's tensor memory, sm_100a; PTX ISA 8.6 §9.7.16), the forms
// ptxmma runs (docs/tcgen05.md §6):
//   tcgen05.alloc.cta_group::1.sync.aligned{.shared::cta}.b32 [dst], nCols
//   tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, nCols
//   tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned
//   tcgen05.ld.sync.aligned.shape.num{.pack::16b}.b32 {r...}, [taddr]{, immHalfSplitoff}
//   tcgen05.st.sync.aligned.shape.num{.unpack::16b}.b32 [taddr]{, immHalfSplitoff}, {r...}
//   tcgen05.wait::ld.sync.aligned, tcgen05.wait::st.sync.aligned
//   tcgen05.mma.cta_group::1.kind::{f16|tf32|f8f6f4|i8}{.collector::a::*} [d-tmem], a-desc|[a-tmem], b-desc, idesc,
//       {disable-output-lane,} enable-input-d{, scale-input-d}
//   tcgen05.commit.cta_group::1.mbarrier::arrive::one{.shared::cluster}.b64 [mbar]
//   tcgen05.fence::before_thread_sync, tcgen05.fence::after_thread_sync
//   tcgen05.cp.cta_group::1.{128x256b|4x256b|128x128b|64x128b.warpx2::{02_13|01_23}|32x128b.warpx4} [taddr], s-desc
//   tcgen05.shift.cta_group::1.down [taddr]
// (ld and st: .aligned optional.) shape: .32x32b .16x64b .16x128b .16x256b .16x32bx2 (immHalfSplitoff with it alone); num: .x1 ..
// .x128, powers of two, at most 128 registers. The qualifiers may come in any order (ptxas takes
// them so). What ptxas refuses is refused here (tools/tcgen05/ptxas_sweep.py, tests/data/tcgen05-ptxas);
// .cta_group::2 (a CTA pair) is legal PTX that ptxmma does not run.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>

#include "isa/ptx_decode.hpp"
#include "sim/util/target.hpp"

namespace ptxmma::ptx::decode {
namespace {

void require_target(const Instruction& ins, const DecodeContext& cx) {
  try {
    if (const auto why = target_shortfall(Targets{"sm_100a", true}, cx.target))
      fail(ins, fmt::format("'{}' is a Blackwell instruction: {}", ins.text, *why));
  } catch (const Error& e) {
    fail(ins, e.what());
  }
}

// ld and st take .sync without .aligned (ptxas does); the others need both.
void sync_aligned(const Instruction& ins, Quals& q, bool aligned_optional = false) {
  if (!q.take("sync")) fail(ins, fmt::format("'{}' needs .sync{}", ins.text, aligned_optional ? "" : ".aligned"));
  if (!q.take("aligned") && !aligned_optional) fail(ins, fmt::format("'{}' needs .sync.aligned", ins.text));
}

void cta_group(const Instruction& ins, Quals& q) {
  const std::string_view g = q.take_one({"cta_group::1", "cta_group::2"}, "CTA group");
  if (g.empty()) fail(ins, fmt::format("'{}' needs .cta_group::1 or .cta_group::2", ins.text));
  if (g == "cta_group::2")
    fail(ins, fmt::format("'{}': .cta_group::2 (tensor memory of a CTA pair) is not simulated; ptxmma runs "
                          ".cta_group::1",
                          ins.text));
}

void b32_type(const Instruction& ins, Quals& q) {
  const auto ts = q.types();
  if (ts.size() != 1 || ts[0] != PtxType::b32) fail(ins, fmt::format("'{}' needs the type .b32", ins.text));
}

// nCols: a register, or a constant that ptxas takes: alloc a power of two in 32..512, dealloc
// any multiple of 32 (a size no allocation has is an error when it runs).
void columns(const Program& p, const Instruction& ins, Operand& op, bool power_of_two) {
  value(p, ins, op, PtxType::b32, "nCols");
  if (op.kind != Operand::Kind::imm) return;
  const std::uint64_t n = op.value;
  if (power_of_two ? n < 32 || n > 512 || !std::has_single_bit(n) : n % 32 != 0)
    fail(op.loc, fmt::format("'{}': nCols {} is not {}", ins.text, n,
                             power_of_two ? "a power of two from 32 to 512" : "a multiple of 32"));
}

// [taddr]: a 32-bit register with an optional offset.
void tmem_address(const Program& p, const Instruction& ins, Operand& op) {
  if (op.kind != Operand::Kind::addr || op.elems.empty() || op.elems[0].kind != Operand::Kind::reg)
    fail(op.loc, fmt::format("'{}': the tensor-memory address is [register] with an optional +offset, not '{}'",
                             ins.text, op.text));
  reg(p, ins, op.elems[0], PtxType::b32, "the tensor-memory address");
}

void dec_alloc(Instruction& ins, const DecodeContext& cx, Quals& q, Tcgen05Op op) {
  const Program& p = cx.program;
  cta_group(ins, q);
  sync_aligned(ins, q);
  Decoded& d = ins.d;
  d.sync = d.aligned = true;
  d.mode = static_cast<int>(op);
  if (op == Tcgen05Op::relinquish_alloc_permit) {
    q.finish();
    count(ins, 0);
    return;
  }
  if (op == Tcgen05Op::alloc) {
    const std::string_view space = q.take_one({"shared::cta"}, "state space");
    d.space = space.empty() ? Space::generic : Space::shared;
  }
  b32_type(ins, q);
  q.finish();
  d.type = PtxType::b32;
  count(ins, 2);
  if (op == Tcgen05Op::alloc) {
    address(p, ins, ins.ops[0], d.space);
  } else {
    reg(p, ins, ins.ops[0], PtxType::b32, "taddr");
  }
  columns(p, ins, ins.ops[1], op == Tcgen05Op::alloc);
}

// ".x16" -> 16, or 0.
int num_of(std::string_view q) {
  if (q.size() < 2 || q[0] != 'x') return 0;
  int n = 0;
  const auto [ptr, ec] = std::from_chars(q.data() + 1, q.data() + q.size(), n);
  return ec == std::errc() && ptr == q.data() + q.size() ? n : 0;
}

void dec_copy(Instruction& ins, const DecodeContext& cx, Quals& q, Tcgen05Op op) {
  const Program& p = cx.program;
  const bool load = op == Tcgen05Op::ld;
  sync_aligned(ins, q, true);
  auto c = std::make_shared<TmemCopy>();
  const TmemCopyLayouts& layouts = tmem_copy_layouts();
  for (const std::string& s : ins.quals)
    if (const TmemCopyShape* shape = layouts.find(s)) {
      if (c->shape) fail(ins, fmt::format("two shapes in '{}': .{} and .{}", ins.text, c->shape->name, s));
      c->shape = shape;
      (void)q.take(s);
    }
  if (!c->shape) {
    std::string names;
    for (const TmemCopyShape& s : layouts.shapes()) names += (names.empty() ? "." : ", .") + s.name;
    fail(ins, fmt::format("'{}' needs a shape ({})", ins.text, names));
  }
  for (const std::string& s : ins.quals)
    if (const int n = num_of(s)) {
      if (c->num > 1 || (c->regs != 0)) fail(ins, fmt::format("two .num qualifiers in '{}'", ins.text));
      if (!std::has_single_bit(static_cast<unsigned>(n)) || n > c->shape->max_num())
        fail(ins, fmt::format("'{}': .{} is not a .num of .{} (.x1 to .x{}, powers of two)", ins.text, s,
                              c->shape->name, c->shape->max_num()));
      c->num = n;
      c->regs = n * c->shape->regs;
      (void)q.take(s);
    }
  if (c->regs == 0) fail(ins, fmt::format("'{}' needs .num (.x1 to .x{})", ins.text, c->shape->max_num()));
  c->pack = q.take(load ? "pack::16b" : "unpack::16b");
  b32_type(ins, q);
  q.finish();
  Decoded& d = ins.d;
  d.type = PtxType::b32;
  d.sync = d.aligned = true;
  d.mode = static_cast<int>(op);
  const bool split = c->shape->halves;
  count(ins, split ? 3 : 2);
  Operand& regs = ins.ops[load ? 0 : ins.ops.size() - 1];
  Operand& taddr = ins.ops[load ? 1 : 0];
  tmem_address(p, ins, taddr);
  if (split) {
    Operand& imm = ins.ops[load ? 2 : 1];
    const std::int64_t s = integer(ins, imm, "immHalfSplitoff");
    // ptxas takes any offset; columns past the allocation are an error when it runs.
    if (s < 0 || s > 0xFFFF) fail(imm.loc, fmt::format("'{}': immHalfSplitoff {} is not a column offset", ins.text, s));
    c->split = static_cast<int>(s);
  }
  if (regs.kind != Operand::Kind::vec)
    fail(regs.loc, fmt::format("'{}' moves a vector of {} registers {{...}}, not '{}'", ins.text, c->regs, regs.text));
  if (static_cast<int>(regs.elems.size()) != c->regs)
    fail(regs.loc, fmt::format("'{}' moves {} registers a thread ({} of .{} times {}), found {}", ins.text, c->regs,
                               c->shape->regs, c->shape->name, c->num, regs.elems.size()));
  for (Operand& e : regs.elems) {
    if (load || e.kind == Operand::Kind::reg)
      reg(p, ins, e, PtxType::b32, load ? "a destination" : "a source");
    else
      value(p, ins, e, PtxType::b32, "a source");
  }
  d.tmem = std::move(c);
  if (load) {
    d.unit = AsyncUnit::tmem_ld;
    d.step = AsyncStep::issue;
  }
}

void dec_wait(Instruction& ins, Quals& q, Tcgen05Op op) {
  sync_aligned(ins, q);
  q.finish();
  count(ins, 0);
  ins.d.sync = ins.d.aligned = true;
  ins.d.mode = static_cast<int>(op);
  if (op == Tcgen05Op::wait_ld) {
    ins.d.unit = AsyncUnit::tmem_ld;
    ins.d.step = AsyncStep::wait_all;
  }
}

[[noreturn]] void not_simulated(const Instruction& ins, std::string_view what) {
  fail(ins, fmt::format("'{}': {} is not simulated", ins.text, what));
}

// The forms ptxmma runs: A from a descriptor or tensor memory ([a-tmem]); disable-output-lane (four b32 values, one bit a
// TMEM lane); scale-input-d (a constant 0..15) under kind::f16 and kind::tf32, as the PTX ISA gives
// it (ptxas also takes it under kind::i8, where the ISA does not say what it does: not simulated).
//   [d-tmem], a-desc|[a-tmem], b-desc, idesc{, disable-output-lane}, enable-input-d{, scale-input-d}
void dec_mma(Instruction& ins, const DecodeContext& cx, Quals& q) {
  const Program& p = cx.program;
  for (const std::string_view s : {"ws", "sp", "ashift", "block_scale"})
    if (q.take(s)) not_simulated(ins, fmt::format(".{}", s));
  cta_group(ins, q);
  const std::string_view kind = q.take_one({"kind::f16", "kind::tf32", "kind::f8f6f4", "kind::i8", "kind::mxf8f6f4",
                                            "kind::mxf4", "kind::mxf4nvf4"},
                                           "kind");
  if (kind.empty()) fail(ins, fmt::format("'{}' needs .kind", ins.text));
  // d.mode2: the kind, in the order of Tcgen05Kind (sim/exec/instr_descriptor.hpp).
  static constexpr std::string_view kRun[] = {"kind::f16", "kind::tf32", "kind::f8f6f4", "kind::i8"};
  const auto run = std::find(std::begin(kRun), std::end(kRun), kind);
  if (run == std::end(kRun))
    not_simulated(ins, fmt::format(".{} (ptxmma runs kind::f16, kind::tf32, kind::f8f6f4 and kind::i8)", kind));
  (void)q.take_one({"collector::a::discard", "collector::a::lastuse", "collector::a::fill", "collector::a::use"},
                   "collector usage");  // a hint about reusing A: nothing to simulate
  q.finish();
  Decoded& d = ins.d;
  d.mode = static_cast<int>(Tcgen05Op::mma);
  d.mode2 = static_cast<int>(run - std::begin(kRun));
  count(ins, 5, 7);
  const bool masked = ins.ops[4].kind == Operand::Kind::vec;
  const std::size_t enable_at = masked ? 5 : 4;
  if (ins.ops.size() < enable_at + 1) fail(ins, fmt::format("'{}' needs enable-input-d after disable-output-lane", ins.text));
  if (ins.ops.size() > enable_at + 2) fail(ins, fmt::format("'{}' has {} operands, one too many", ins.text, ins.ops.size()));
  tmem_address(p, ins, ins.ops[0]);
  if (ins.ops[1].kind == Operand::Kind::addr)
    tmem_address(p, ins, ins.ops[1]);  // [a-tmem]
  else
    reg(p, ins, ins.ops[1], PtxType::b64, "a-desc");
  reg(p, ins, ins.ops[2], PtxType::b64, "b-desc");
  value(p, ins, ins.ops[3], PtxType::b32, "idesc");
  if (masked) {
    Operand& lanes = ins.ops[4];
    if (lanes.elems.size() != 4)
      fail(lanes.loc, fmt::format("'{}': disable-output-lane of .cta_group::1 is 4 registers of 32 lanes, not {}",
                                  ins.text, lanes.elems.size()));
    for (Operand& e : lanes.elems) value(p, ins, e, PtxType::b32, "disable-output-lane");  // ptxas takes constants too
  }
  Operand& enable = ins.ops[enable_at];
  if (enable.kind == Operand::Kind::imm) {
    (void)integer(ins, enable, "enable-input-d");  // ptxas takes any integer: not 0 is true
  } else {
    pred(p, ins, enable, "enable-input-d", false);
  }
  if (ins.ops.size() == enable_at + 2) {
    const Operand& scale = ins.ops.back();
    if (kind != "kind::f16" && kind != "kind::tf32") {
      if (kind == "kind::i8") not_simulated(ins, "scale-input-d under kind::i8 (the PTX ISA gives it to kind::f16 and kind::tf32)");
      fail(scale.loc, fmt::format("'{}': scale-input-d is for kind::f16 and kind::tf32", ins.text));
    }
    if (scale.kind != Operand::Kind::imm)
      fail(scale.loc, fmt::format("'{}': scale-input-d is a constant 0..15, not '{}'", ins.text, scale.text));
    const std::int64_t s = integer(ins, scale, "scale-input-d");
    if (s < 0 || s > 15) fail(scale.loc, fmt::format("'{}': scale-input-d {} is outside 0..15", ins.text, s));
  }
}

// tcgen05.cp.cta_group::1.shape{.multicast} [taddr], s-desc: the shapes with the multicast each
// takes, as ptxas does (.64x128b needs .warpx2::02_13 or ::01_23, .32x128b needs .warpx4, the
// others none). The decompressions (.b8x16.b6x16_p32, .b8x16.b4x16_p64) are not simulated.
void dec_cp(Instruction& ins, const DecodeContext& cx, Quals& q) {
  const Program& p = cx.program;
  cta_group(ins, q);
  static constexpr std::string_view kShapes[] = {"128x256b", "4x256b", "128x128b", "64x128b", "32x128b"};
  const std::string_view shape = q.take_one({kShapes[0], kShapes[1], kShapes[2], kShapes[3], kShapes[4]}, "shape");
  if (shape.empty()) fail(ins, fmt::format("'{}' needs a shape (.128x256b, .4x256b, .128x128b, .64x128b, .32x128b)", ins.text));
  const std::string_view cast = q.take_one({"warpx2::02_13", "warpx2::01_23", "warpx4"}, "multicast");
  const std::string_view wants = shape == "64x128b" ? ".warpx2::02_13 or .warpx2::01_23"
                                 : shape == "32x128b" ? ".warpx4"
                                                      : "no multicast";
  const bool fits = shape == "64x128b"   ? cast.starts_with("warpx2")
                    : shape == "32x128b" ? cast == "warpx4"
                                         : cast.empty();
  if (!fits)
    fail(ins, fmt::format("'{}': .{} takes {}{}", ins.text, shape, wants,
                          cast.empty() ? std::string() : fmt::format(", not .{}", cast)));
  if (q.take("b8x16")) {
    if (q.take("b6x16_p32") || q.take("b4x16_p64")) not_simulated(ins, "decompression (.b8x16.b6x16_p32 / .b4x16_p64)");
    fail(ins, fmt::format("'{}': .b8x16 needs .b6x16_p32 or .b4x16_p64", ins.text));
  }
  q.finish();
  count(ins, 2);
  tmem_address(p, ins, ins.ops[0]);
  value(p, ins, ins.ops[1], PtxType::b64, "s-desc");  // ptxas takes a constant too
  Tcgen05CpShape s = Tcgen05CpShape::r128x256b;
  if (shape == "4x256b") s = Tcgen05CpShape::r4x256b;
  if (shape == "128x128b") s = Tcgen05CpShape::r128x128b;
  if (shape == "64x128b") s = cast == "warpx2::02_13" ? Tcgen05CpShape::r64x128b_02_13 : Tcgen05CpShape::r64x128b_01_23;
  if (shape == "32x128b") s = Tcgen05CpShape::r32x128b_x4;
  ins.d.mode = static_cast<int>(Tcgen05Op::cp);
  ins.d.mode2 = static_cast<int>(s);
}

// tcgen05.shift.cta_group::1.down [taddr]
void dec_shift(Instruction& ins, const DecodeContext& cx, Quals& q) {
  cta_group(ins, q);
  if (!q.take("down")) fail(ins, fmt::format("'{}' needs .down", ins.text));
  q.finish();
  count(ins, 1);
  tmem_address(cx.program, ins, ins.ops[0]);
  ins.d.mode = static_cast<int>(Tcgen05Op::shift);
}

void dec_commit(Instruction& ins, const DecodeContext& cx, Quals& q) {
  cta_group(ins, q);
  if (!q.take("mbarrier::arrive::one")) fail(ins, fmt::format("'{}' needs .mbarrier::arrive::one", ins.text));
  if (q.take("multicast::cluster")) not_simulated(ins, ".multicast::cluster");
  const bool cluster = q.take("shared::cluster");
  const auto ts = q.types();
  if (ts.size() != 1 || ts[0] != PtxType::b64) fail(ins, fmt::format("'{}' needs the type .b64", ins.text));
  q.finish();
  count(ins, 1);
  ins.d.mode = static_cast<int>(Tcgen05Op::commit);
  ins.d.type = PtxType::b64;
  ins.d.space = cluster ? Space::shared_cluster : Space::generic;
  address(cx.program, ins, ins.ops[0], ins.d.space);
}

void dec_tcgen05(Instruction& ins, const DecodeContext& cx) {
  Quals q(ins);
  const std::string_view op = q.take_one({"alloc", "dealloc", "relinquish_alloc_permit", "ld", "st", "wait::ld",
                                          "wait::st", "mma", "commit", "fence::before_thread_sync",
                                          "fence::after_thread_sync", "cp", "shift"},
                                         "tcgen05 operation");
  if (op.empty())
    fail(ins, fmt::format("unknown instruction '{}' (ptxmma runs tcgen05.alloc, dealloc, relinquish_alloc_permit, ld, "
                          "st, wait::ld, wait::st, mma, commit, fence::*, cp, shift)",
                          ins.text));
  require_target(ins, cx);
  if (op == "cp") return dec_cp(ins, cx, q);
  if (op == "shift") return dec_shift(ins, cx, q);
  if (op == "mma") return dec_mma(ins, cx, q);
  if (op == "commit") return dec_commit(ins, cx, q);
  if (op.starts_with("fence::")) {
    // The interpreter runs each thread's tcgen05 operations in order: nothing to order.
    q.finish();
    count(ins, 0);
    ins.d.mode = static_cast<int>(Tcgen05Op::fence);
    return;
  }
  if (op == "alloc") return dec_alloc(ins, cx, q, Tcgen05Op::alloc);
  if (op == "dealloc") return dec_alloc(ins, cx, q, Tcgen05Op::dealloc);
  if (op == "relinquish_alloc_permit") return dec_alloc(ins, cx, q, Tcgen05Op::relinquish_alloc_permit);
  if (op == "ld") return dec_copy(ins, cx, q, Tcgen05Op::ld);
  if (op == "st") return dec_copy(ins, cx, q, Tcgen05Op::st);
  dec_wait(ins, q, op == "wait::ld" ? Tcgen05Op::wait_ld : Tcgen05Op::wait_st);
}

}  // namespace

void register_tcgen05(std::vector<OpcodeSpec>& t) { t.push_back({"tcgen05", dec_tcgen05}); }

}  // namespace ptxmma::ptx::decode
