// A parsed PTX program: the kernel's registers, variables, parameters, labels and decoded
// instructions. isa/ptx_parser.hpp builds it; sim/exec/interpreter.hpp runs it.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "isa/wmma_instruction.hpp"
#include "isa/wgmma_instruction.hpp"
#include "isa/ptx_lexer.hpp"
#include "isa/ptx_types.hpp"
#include "sim/layout/tmem_copy_layout.hpp"
#include "sim/numeric/rounding.hpp"

namespace ptxmma::ptx {

// Special registers the interpreter provides (read-only).
enum class Special : std::uint8_t {
  laneid, warpid, nwarpid, tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z,
  ctaid_x, ctaid_y, ctaid_z, nctaid_x, nctaid_y, nctaid_z,
  lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt, lanemask_ge, warpsize,
  clusterid_x, clusterid_y, clusterid_z, nclusterid_x, nclusterid_y, nclusterid_z,
  cluster_ctaid_x, cluster_ctaid_y, cluster_ctaid_z, cluster_nctaid_x, cluster_nctaid_y, cluster_nctaid_z,
  cluster_ctarank, cluster_nctarank, is_explicit_cluster,
};
std::optional<Special> parse_special(std::string_view name);  // "%tid.x"
std::string_view name(Special s);

struct Operand {
  enum class Kind : std::uint8_t {
    reg,      // a declared register: `reg` is its index in Program::registers
    imm,      // an immediate: `value` holds its bits in the instruction's type
    special,  // %laneid, %tid.x, ...
    vec,      // {a, b, ...}: `elems`
    addr,     // [base + offset]: `elems` has the base (reg, or symbol) unless absolute
    label,    // a branch target: `target` is an instruction index
    symbol,   // a variable or parameter name used as a value (its address)
    sink,     // _
  };
  Kind kind = Kind::imm;
  SourceLoc loc;
  std::string text;          // as written (the register's source name for reg)
  int reg = -1;
  bool negated = false;      // !%p
  std::uint64_t value = 0;   // imm bits; symbol: its address; addr: the offset (two's complement)
  bool imm_float = false;    // written as a floating-point literal (1.5, 0f3F800000, 0d...)
  Special special = Special::laneid;
  int target = -1;           // label: the instruction index
  int block = 0;             // label: the parser's number of the { } block that names it
  std::vector<Operand> elems;
  PtxType type = PtxType::none;  // what the decoder checked it as (.pred for predicates)
  [[nodiscard]] std::int64_t offset() const { return static_cast<std::int64_t>(value); }
};

// State spaces of ld/st and variables.
// shared_cluster: a .shared::cluster address, the executing CTA's shared memory or, through mapa,
// another CTA's of its cluster (sim/exec/interpreter.hpp, Machine::kClusterRankShift).
enum class Space : std::uint8_t { none, reg, shared, global, param, local, constant, generic, shared_cluster };
std::string_view name(Space s);

// Family modes kept in Decoded::mode / mode2.
enum class MulMode : std::uint8_t { none, lo, hi, wide };
enum class CmpOp : std::uint8_t { eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class BoolOp : std::uint8_t { none, and_, or_, xor_ };
enum class ShflMode : std::uint8_t { up, down, bfly, idx };
enum class PrmtMode : std::uint8_t { none, f4e, b4e, rc8, ecl, ecr, rc16 };
enum class VoteMode : std::uint8_t { all, any, uni, ballot };
enum class WgmmaOp : std::uint8_t { fence, commit_group, wait_group, mma_async };
// fence / membar: proxy_async_shared orders the thread's generic-proxy accesses of shared memory
// with the async proxy's (fence.proxy.async, of shared memory or of every space).
enum class FenceKind : std::uint8_t { other, proxy_async_shared };
// atom/red operations (Decoded::mode; Decoded::mode2 is 1 for red, which returns nothing).
enum class AtomOp : std::uint8_t { add, min, max, inc, dec, and_, or_, xor_, exch, cas };
std::string_view name(AtomOp op);  // its qualifier: "add", ..., "and", "cas"
// mbarrier.* operations (Decoded::mode) and their variations (bits of Decoded::mode2).
enum class MbarrierOp : std::uint8_t { init, inval, arrive, expect_tx, complete_tx, test_wait, try_wait, pending_count };
namespace mbarrier_flag {
constexpr int parity = 1;       // test_wait/try_wait.parity: the operand is a phase parity, not a state
constexpr int expect_tx = 2;    // arrive.expect_tx: an expect-tx of the operand's bytes first
constexpr int drop = 4;         // arrive_drop: the expected count drops too
constexpr int no_complete = 8;  // arrive.noComplete
constexpr int cluster = 16;     // .shared::cluster
constexpr int has_count = 32;   // an explicit count (or tx count) operand
}  // namespace mbarrier_flag

// tcgen05.* operations (Decoded::mode; docs/tcgen05.md). mma: Decoded::mode2 0 for .kind::f16,
// 1 .kind::tf32, 2 .kind::f8f6f4, 3 .kind::i8 (the order of sim's Tcgen05Kind). cp: Decoded::mode2
// the Tcgen05CpShape.
enum class Tcgen05Op : std::uint8_t {
  alloc, dealloc, relinquish_alloc_permit, ld, st, wait_ld, wait_st, mma, commit, fence, cp, shift
};
// tcgen05.cp's shape with its multicast: .128x256b, .4x256b, .128x128b, .64x128b.warpx2::02_13,
// .64x128b.warpx2::01_23, .32x128b.warpx4.
enum class Tcgen05CpShape : std::uint8_t { r128x256b, r4x256b, r128x128b, r64x128b_02_13, r64x128b_01_23, r32x128b_x4 };
// tcgen05.ld / tcgen05.st: the shape's layout (configs/tcgen05/tmem_copy.yaml), .num, .pack::16b
// (ld) or .unpack::16b (st), immHalfSplitoff (.16x32bx2), and the registers each thread moves.
struct TmemCopy {
  const TmemCopyShape* shape = nullptr;
  int num = 1;
  bool pack = false;
  int split = 0;
  int regs = 0;  // shape->regs * num
};

// How an instruction takes part in the machine's synchronisation, set by its decoder: the
// interpreter's scheduler acts on these fields, never on opcode names.
// A collective the warp waits at until the others arrive: a CTA barrier (bar.sync), the four
// warps of a warpgroup (wgmma.mma_async), or the cluster barrier's phase (barrier.cluster.wait:
// every thread of the cluster has arrived).
enum class Collective : std::uint8_t { none, cta_barrier, warpgroup, cluster_barrier };
// A step of an asynchronous unit: an operation issued now and completed later, in groups that
// commit closes and wait retires (all but Decoded::groups most recent; wait_all commits first).
// tmem_ld: tcgen05.ld issues, tcgen05.wait::ld waits for all of the thread's.
enum class AsyncUnit : std::uint8_t { none, wgmma, copy, bulk, tmem_ld };
// The operations of the bulk-copy unit (cp.async.bulk*, cp.reduce.async.bulk: Decoded::mode2;
// a reduction's AtomOp in Decoded::mode, its type in Decoded::type; a tensor copy's rank in
// Decoded::vec). Operands: load [dst], [src], size, [mbar]; store and reduce [dst], [src], size;
// tensor_load [dst], [map, {coords}], [mbar]; tensor_store [map, {coords}], [src]; with
// Decoded::im2col a tensor_load's im2col offsets {o...} follow [mbar].
enum class BulkKind : std::uint8_t { load, store, reduce, tensor_load, tensor_store, tensor_reduce, prefetch };
// tensormap.replace's field (Decoded::mode): [map], {ord,} value; TensormapOp in Decoded::mode2.
enum class TensormapField : std::uint8_t {
  global_address, rank, box_dim, global_dim, global_stride, element_stride, elemtype, interleave_layout,
  swizzle_mode, fill_mode,
};
std::string_view name(TensormapField f);  // its qualifier: "global_address", ...
// tensormap.replace [map], ...; tensormap.cp_fenceproxy [dst], [src], 128 (global <- shared::cta).
enum class TensormapOp : std::uint8_t { replace, cp_fenceproxy };
// arrive: the unit's operations of the thread so far complete, then an arrive-on an mbarrier
// (cp.async.mbarrier.arrive).
enum class AsyncStep : std::uint8_t { none, fence, issue, commit, wait, wait_all, arrive };

// What the family decoders extract from the qualifiers, in one flat record (Spike-style: each
// family's semantic function reads the fields it knows).
// wgmma.mma_async: the catalogue's variant and the immediates (the registers are the operands).
struct WgmmaCall {
  WgmmaInstruction ins;
  WgmmaOperands operands;
  int scale_d = 3;  // scale-d's operand index (5 in wgmma.mma_async.sp, after sp-meta and sp-sel)
  int sp_sel = 0;   // wgmma.mma_async.sp: the sparsity selector
};

struct Contraction;  // isa/contraction.hpp

struct Decoded {
  PtxType type = PtxType::none;   // the instruction type (cvt: destination)
  PtxType type2 = PtxType::none;  // cvt: source type; setp/selp compare type ...
  std::optional<Rounding> rnd;    // .rn .rz .rm .rp .rna (float rounding)
  bool int_rnd = false;           // rnd is one of .rni .rzi .rmi .rpi (round to an integer)
  bool sat = false, ftz = false, relu = false, satfinite = false, approx = false;
  int mode = 0;                   // family specific: mul lo/hi/wide, shfl mode, prmt mode, cmp op ...
  int mode2 = 0;                  // setp: bool op; ...
  int vec = 1;                    // ld/st .v2/.v4, ldmatrix .x1/.x2/.x4 count
  bool trans = false;
  Space space = Space::none;
  bool aligned = false, sync = false;
  Collective collective = Collective::none;
  AsyncUnit unit = AsyncUnit::none;
  AsyncStep step = AsyncStep::none;
  int groups = 0;                 // AsyncStep::wait: the most recent groups that may stay pending
  bool im2col = false;            // cp.async.bulk.tensor, cp.reduce.async.bulk.tensor: the im2col mode
  std::shared_ptr<const MmaInstruction> mma;  // mma, wmma.mma: the validated variant
  std::shared_ptr<const WmmaTransfer> wmma;   // wmma.load, wmma.store: the fragment moved
  std::shared_ptr<const WgmmaCall> wgmma;     // wgmma.mma_async
  std::shared_ptr<const TmemCopy> tmem;       // tcgen05.ld, tcgen05.st
  // add/sub that ptxas fuses with the multiply of one of its operands (isa/contraction.hpp).
  std::shared_ptr<const Contraction> contraction;
};

struct Instruction {
  SourceLoc loc;                  // of the opcode
  std::string text;               // opcode with qualifiers, as written: "add.rn.f32"
  std::string opcode;             // first component: "add"
  std::vector<std::string> quals; // the rest, without dots: {"rn", "f32"}
  int family = -1;                // index in the opcode table (isa/ptx_opcodes.hpp)
  // Guard predicate @%p / @!%p; reg -1: none.
  int guard = -1;
  bool guard_negated = false;
  std::vector<Operand> ops;
  Decoded d;
};

struct RegisterDecl {
  std::string name;   // unique within the program (a name redeclared in an inner { } scope gets "name#2")
  std::string source; // as written
  PtxType type = PtxType::b32;
  SourceLoc loc;
};

// A .shared/.global/.const variable or an .entry parameter.
struct Variable {
  std::string name;
  Space space = Space::shared;
  PtxType type = PtxType::b8;
  int align = 1;
  std::uint64_t size = 0;        // bytes; extern shared arrays: 0
  bool external = false;         // .extern .shared ... name[] (dynamic shared memory)
  std::uint64_t address = 0;     // assigned by the parser: offset in its space
  std::vector<std::uint8_t> init; // initializer bytes (.global/.const), may be empty
  SourceLoc loc;
};

// A .func: its code [begin, end) in Program::code, its parameters and return parameters (indices
// in Program::call_params, in order). A declaration without a body (.extern, vprintf and
// __assertfail among them) has none.
struct Function {
  std::string name;
  SourceLoc loc;
  bool defined = false;
  int begin = 0, end = 0;
  std::vector<int> params, returns;
};

struct Program {
  // Call parameters (.param variables of functions and call sites) are per thread: at
  // kCallParamBase + offset in the param space, kernel parameters at [0, their size).
  static constexpr std::uint64_t kCallParamBase = 1ULL << 40;

  std::string file;
  std::string version;            // .version, "" if none
  std::string target = "sm_90a";  // .target (first token), or the default
  int address_size = 64;
  std::string entry;              // kernel name; "" for a bare snippet
  bool bare = false;              // a snippet without .entry around it
  std::vector<RegisterDecl> registers;
  std::vector<Variable> variables;   // shared, global, const (module and kernel scope)
  std::vector<Variable> params;      // kernel parameters, in order, with param-space offsets
  std::vector<Function> functions;   // .func definitions and declarations
  std::vector<Variable> call_params; // per-thread .param variables (address: kCallParamBase + offset)
  std::uint64_t call_param_bytes = 0;  // their bytes per thread
  std::uint64_t local_bytes = 0;       // .local variables' bytes per thread (Variable::address: offset)
  int entry_begin = 0, entry_end = 0;  // the kernel's (or bare snippet's) code in `code`
  std::map<std::string, int> labels; // label -> instruction index
  std::vector<Instruction> code;
  // The source text's lines, for traces (once: an instruction refers to its line by number).
  std::vector<std::string> lines;
  std::uint64_t shared_static_bytes = 0;  // end of the static .shared variables
  int reqntid[3] = {0, 0, 0};             // .reqntid / .maxntid, 0 if not given
  int reqnctapercluster[3] = {0, 0, 0};   // .reqnctapercluster, 0 if not given
  int maxclusterrank = 0;                 // .maxclusterrank, 0 if not given
  bool explicit_cluster = false;          // .explicitcluster (or .reqnctapercluster): launched in clusters
  [[nodiscard]] int find_register(std::string_view name) const;  // -1 if none (source or unique name)
  [[nodiscard]] const Variable* find_param(std::string_view name) const;
  // The text of source line `line` (1-based) without leading blanks; "" past the end.
  [[nodiscard]] std::string_view line_text(int line) const;
};

}  // namespace ptxmma::ptx
