// The PTX interpreter: runs a parsed Program (isa/ptx_program.hpp) on a grid of CTAs, each on its
// warps, lane by lane, with an active mask.
//
// Grid: the clusters run one after another in the linear order of %clusterid (x fastest, then y,
// then z; a CTA alone is a cluster of one, so without clusters CTAs run in rank order), each to
// its end; the CTAs of a cluster run together, their warps interleaved by one scheduler, so that
// they can wait for each other (barrier.cluster, mbarriers other CTAs arrive on) and reach each
// other's shared memory (.shared::cluster addresses: kClusterRankShift). Global, const and param
// memory are shared, each CTA has its own shared memory and registers (sim/state/cta.hpp).
// Clusters that do not synchronise cannot tell the order apart; the order makes the global side
// effects of those that race on it defined. With InterpreterOptions::jobs > 1, run() runs clusters
// on that many threads and gives what that order gives (run_parallel: each cluster on an overlay
// of global memory, committed in order; a cluster that read what an earlier one committed after
// it had read it runs again).
//
// SIMT model: a reconvergence stack per warp (the classic immediate-post-dominator scheme). Each
// entry holds a PC, a reconvergence PC and a lane mask; the top entry executes. A branch whose
// lanes disagree replaces the top entry's PC by the branch's immediate post-dominator and pushes
// the fall-through and the taken paths, each to run until it reaches that post-dominator, where
// the entry pops and the lanes join again. Post-dominators come from the control-flow graph of
// the program (iterative dataflow, no recursion). ret/exit retire lanes from every entry.
//
// Warps: each runs alone until it finishes or reaches a collective of several warps — a CTA
// barrier (bar.sync / barrier.sync), wgmma.mma_async (the four warps of a warpgroup) or
// barrier.cluster.wait (every thread of the cluster). The warps of a cluster's CTAs take turns in
// CTA rank order (%cluster_ctarank), warp 0 first. When no warp can go on, the collectives whose
// participants have all arrived complete (the wgmma runs on the four warps' registers) and their
// warps go on; if none can, the cluster is deadlocked and the run stops with an error. The order is deterministic, so a program with a data race runs the
// same way every time; the kernel checks (sim/exec/kernel_check.hpp) report shared-memory races.
//
// wgmma's asynchronous semantics (sim/exec/wgmma_async.hpp): a wgmma.mma_async writes its
// accumulators when it runs, but until a wgmma.wait_group retires its group, any other use of
// those registers (or of its A registers) is reported as a diagnostic, as are a wgmma.mma_async
// without an earlier wgmma.fence, descriptors that differ between threads, and groups never
// waited for. Diagnostics are warnings in RunSummary, or errors under InterpreterOptions::strict.
//
// Dispatch: a table of (opcode, semantic function) rows, parallel to the decoder table of
// isa/ptx_opcodes.hpp; each instruction's function is looked up once, before the run. A program
// whose opcode has no semantic function is refused before anything runs. The common ALU forms
// are prepared instead as a WarpAlu (sim/exec/warp_alu.hpp), which runs a warp's 32 lanes in one
// loop over the register file.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/ptx_program.hpp"
#include "sim/util/budget.hpp"
#include "sim/exec/async_copy.hpp"
#include "sim/exec/bulk_copy.hpp"
#include "sim/exec/kernel_check.hpp"
#include "sim/exec/mbarrier.hpp"
#include "sim/exec/race_shadow.hpp"
#include "sim/exec/tcgen05_async.hpp"
#include "sim/exec/tcgen05_mma.hpp"
#include "sim/exec/wgmma_async.hpp"
#include "sim/state/cta.hpp"
#include "sim/state/grid.hpp"
#include "sim/state/memory.hpp"
#include "sim/state/warp.hpp"

namespace ptxmma {

struct InterpreterOptions {
  std::uint64_t max_steps = budget().steps;  // instructions per thread before the run is stopped
  std::string arch = "sm_90a";          // rounding models of mma: configs/models/<arch>.yaml
  std::uint64_t shared_bytes = 0;       // shared memory size; 0: the program's static size + dynamic_shared,
                                        // at least Machine::kDefaultShared
  std::uint64_t dynamic_shared = 0;     // bytes for .extern .shared arrays
  std::array<int, 3> ntid = {0, 0, 0};  // block size; 0: .reqntid/.maxntid, else (32, 1, 1)
  int warpid = -1;                      // -1: every warp of the block runs; N: only warp N (%warpid, %tid)
  Dim3 nctaid = {1, 1, 1};              // the grid
  Dim3 cluster = {1, 1, 1};             // CTAs of a cluster (%cluster_*): each divides nctaid, at most 8 in all
  bool explicit_cluster = false;        // the launch names the cluster (%is_explicit_cluster)
  bool non_portable_cluster = false;    // up to 16 CTAs a cluster (cudaFuncAttributeNonPortableClusterSizeAllowed)
  // The CTAs that run, as inclusive ranges of ranks (GridShape::rank); empty: every CTA of the grid.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ctas;
  std::ostream* trace = nullptr;        // one line per executed instruction, when set
  std::ostream* print = nullptr;        // where device printf (vprintf) writes, besides RunSummary::printed
  // Called after each cluster (a CTA alone is one) ends: clusters done, clusters in all.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
  bool strict = false;                  // diagnostics (wgmma hazards) are errors, not warnings
  // Threads that run() runs the clusters on; the result and everything reported are those of
  // running them one after another for any number (1: they do, on the calling thread; with
  // `trace`, too). step() and next() run in order.
  int jobs = 1;
  // Each CTA's registers, shared and tensor memory stay after its cluster ends, for reg(),
  // shared() and cta() once the run is over. Off, they are freed then: memory and set-up follow the clusters that
  // run, not the grid (a whole grid whose result is global memory).
  bool keep_ctas = true;
};

// Where the run ended.
struct RunSummary {
  std::uint64_t warp_instructions = 0;        // instructions issued (any lane active), all warps
  std::vector<std::uint64_t> steps;           // instructions per thread (cta * threads() + thread)
  std::vector<std::uint32_t> exited;          // per warp (cta * warps() + warp): lanes that executed ret/exit
  std::vector<ptx::Diagnostic> warnings;      // diagnostics (not under strict: those are thrown)
  std::string printed;                        // what vprintf printed, in execution order
  // Of the clusters run ahead on other threads (InterpreterOptions::jobs), those whose run did not
  // stand and ran again in order: not part of the result, which is the same for any jobs.
  std::uint64_t reruns = 0;
};

class Machine {
 public:
  static constexpr int kLanes = 32;
  // Shared-memory window of generic addresses (cvta.shared / generic ld and st).
  static constexpr std::uint64_t kSharedWindow = 0x00007e0000000000ULL;
  // Local-memory window: the same generic address is each thread's own local memory.
  static constexpr std::uint64_t kLocalWindow = 0x00007d0000000000ULL;
  // Kernel-parameter window: cvta.param's generic addresses (a __grid_constant__ tensor map).
  static constexpr std::uint64_t kParamWindow = 0x00007c0000000000ULL;
  // A .shared::cluster address: below 2^24 the executing CTA's shared offset (a .shared::cta
  // address is one), else ((rank + 1) << kClusterRankShift) | offset, the offset in the shared
  // memory of the CTA of that %cluster_ctarank (what mapa gives). In the generic shared window too.
  static constexpr int kClusterRankShift = 24;
  // Portable cluster size, and the most CTAs a cluster may have with the non-portable attribute.
  static constexpr int kPortableCluster = 8;
  static constexpr int kMaxCluster = 16;
  // Calls deeper than this are an error (a runaway recursion).
  static constexpr std::size_t kMaxCallDepth = 64;
  // Shared memory when neither the program nor the options ask for more: 48 KiB, the static
  // limit of a CTA.
  static constexpr std::uint64_t kDefaultShared = 48 * 1024;

  // Sets up the grid: the CTAs that run, the registers (zero) and shared memory (zero) each starts
  // with (initial_cta()), and the grid's memories (.global/.const initializers, the parameter
  // space); Error if a rounding model or an opcode's semantics are missing, the block has more than
  // 1024 threads, or the registers and shared memory of all the CTAs that run would cross the
  // budget (sim/util/budget.hpp), whether or not they are kept.
  Machine(const ptx::Program& program, InterpreterOptions options = {});

  [[nodiscard]] const ptx::Program& program() const { return prog_; }
  [[nodiscard]] const InterpreterOptions& options() const { return opts_; }
  [[nodiscard]] const GridShape& grid() const { return grid_.shape; }

  // The CTAs that run, in the order they run (c = 0 .. ctas() - 1). A CTA's registers and shared
  // memory are made as initial_cta() holds them when its cluster starts, or when cta(c) first asks
  // for them; without InterpreterOptions::keep_ctas they are freed when its cluster ends, and
  // asking for them then is an Error. The const cta(c) gives a CTA as it is: its id and rank, its
  // registers and shared memory only once made (reg() and shared() read initial_cta()'s before).
  [[nodiscard]] int ctas() const { return static_cast<int>(ctas_.size()); }
  [[nodiscard]] Cta& cta(int c) {
    if (held_[static_cast<std::size_t>(c)] != Held::own) make(c);
    return ctas_[static_cast<std::size_t>(c)];
  }
  [[nodiscard]] const Cta& cta(int c) const { return ctas_[static_cast<std::size_t>(c)]; }
  // The registers and shared memory every CTA starts with (an initial state sets them here).
  [[nodiscard]] Cta& initial_cta() { return initial_; }

  // The warps that run in each CTA: every warp of the block, or the one of InterpreterOptions::warpid.
  [[nodiscard]] int warps() const { return warps_; }
  [[nodiscard]] int threads() const { return warps_ * kLanes; }
  // %warpid of the w-th warp run.
  [[nodiscard]] int warp_id(int w) const { return first_warp_ + w; }

  // Registers by index in program().registers, per thread = 32 * w + lane of the w-th warp run
  // (thread = lane when one warp runs) of CTA c; values masked to the declared width.
  [[nodiscard]] std::uint64_t reg(int thread, int r, int c = 0) const { return held(c).regs.get(thread, r); }
  void set_reg(int thread, int r, std::uint64_t v, int c = 0) { cta(c).regs.set(thread, r, v); }
  [[nodiscard]] int reg_bits(int r) const { return widths_[static_cast<std::size_t>(r)]; }

  // Memories: shared per CTA, the others the grid's.
  [[nodiscard]] Memory& shared(int c = 0) { return cta(c).shared; }
  [[nodiscard]] const Memory& shared(int c = 0) const { return held(c).shared; }
  [[nodiscard]] Memory& global() { return grid_.global; }
  [[nodiscard]] const Memory& global() const { return grid_.global; }
  [[nodiscard]] Memory& param() { return grid_.param; }
  [[nodiscard]] const Memory& param() const { return grid_.param; }
  [[nodiscard]] Memory& constant() { return grid_.constant; }
  [[nodiscard]] const Memory& constant() const { return grid_.constant; }
  // "warp 3", or "CTA (1, 0, 0) warp 3" when the grid has several CTAs: who a message is about.
  [[nodiscard]] std::string warp_name(int c, int w) const;

  // Runs to the end (from where step() left it). Runtime errors (a step limit, an out-of-range
  // address, an mma with lanes inactive, a deadlock...) are thrown as ptx::PtxError located at
  // the instruction.
  RunSummary run();

  // Stepping, for the debugger: step() executes one instruction of one warp (completing the
  // collectives whose warps have all arrived when no warp can go on); false once every warp has
  // finished. next() is the instruction the next step() executes (it advances the scheduler to
  // it: warps that reach a collective wait there, and a wgmma.mma_async whose warpgroup has
  // arrived runs then; each warp then steps past it).
  struct Position {
    int cta = 0;              // the c-th CTA run
    int warp = 0;             // the w-th warp run
    int pc = 0;               // index in program().code
    std::uint32_t lanes = 0;  // lanes on its path
  };
  void start();  // prepares the warps (step(), next() and run() call it when needed)
  bool step();
  [[nodiscard]] std::optional<Position> next();
  [[nodiscard]] bool finished() const { return finished_; }
  [[nodiscard]] const RunSummary& summary() const { return sum_; }

  // What warp w of the CTA that runs now is doing, for the debugger's `info warps` and `finish`
  // (read only: it does not advance the scheduler as next() does).
  struct WarpState {
    enum class Is : std::uint8_t { ready, waiting, parked, finished };
    Is is = Is::finished;
    int pc = -1;                // the next instruction, the collective or wait it is at; -1 when finished
    std::uint32_t lanes = 0;    // lanes on its path
    std::uint32_t exited = 0;   // lanes that executed ret/exit
    int depth = 0;              // calls in progress
    std::uint64_t mbarrier = 0; // parked: the shared address of the mbarrier it waits on
  };
  // Of CTA c (default: the one that runs now).
  [[nodiscard]] WarpState warp_state(int w, int c = -1) const;
  // The c-th CTA run that runs now (the last once the grid has finished).
  [[nodiscard]] int running_cta() const { return cur_cta_; }
  enum class CtaIs : std::uint8_t { not_started, running, finished };
  [[nodiscard]] CtaIs cta_state(int c) const;

  // Clusters. The CTA (c-th run) of %cluster_ctarank `rank` in CTA c's cluster; Error when the
  // rank is outside the cluster or that CTA has exited (its shared memory is gone).
  [[nodiscard]] int cluster_cta(int c, std::uint64_t rank) const;
  [[nodiscard]] std::uint32_t cluster_rank(int c) const;
  [[nodiscard]] std::uint32_t cluster_size() const;
  // The asynchronous units and mbarrier activity of running CTA c, for an instruction of another
  // CTA of its cluster that reaches its shared memory.
  struct Units {
    AsyncCopies* copies = nullptr;
    BulkCopies* bulk = nullptr;
    MbarrierActivity* mbar = nullptr;
  };
  [[nodiscard]] Units units(int c);
  // The CTA (c-th run) whose shared memory `mem` is, among CTA c's cluster; -1 if none.
  [[nodiscard]] int shared_owner(int c, const Memory* mem) const;
  // bar.arrive by a warp of CTA c at barrier `id` (0..15) that completes at `threads` threads: the
  // warp counts towards the barrier's current phase without waiting for it.
  void bar_arrive(int c, std::uint32_t id, std::uint32_t threads);
  // barrier.cluster.arrive by thread t of CTA c: Error if it has arrived and not yet waited.
  void cluster_arrive(int c, int thread);
  // barrier.cluster.wait by thread t of CTA c, once its phase has completed: the arrival is used.
  void cluster_waited(int c, int thread);

  // The register file of the w-th warp run of CTA c as a Warp (declared-order named registers;
  // .b8/.b16 as b16, .pred as pred).
  [[nodiscard]] Warp to_warp(int w = 0, int c = 0) const;

  // Special registers of a thread of CTA c (as in reg()).
  [[nodiscard]] std::uint32_t special(ptx::Special s, int thread, int c = 0) const;

  // A diagnostic of the running instruction: a warning in summary(), or thrown under strict.
  void diagnose(const ptx::Instruction& ins, const std::string& what);
  // A finding of a kernel check (docs/kernel-checks.md): diagnosed as "<check>: what", the first
  // time only for this instruction and check.
  void report(KernelCheck check, const ptx::Instruction& ins, const std::string& what);
  // Whether `check` has already reported at this instruction (a caller can skip formatting).
  [[nodiscard]] bool reported(KernelCheck check, const ptx::Instruction& ins) const;

  // A thread's frame (its .local variables, then its call parameters) in its CTA's local memory:
  // thread * frame_bytes() onward (Cta::local, made when the CTA starts).
  [[nodiscard]] std::uint64_t frame_bytes() const { return frame_bytes_; }
  // Text printed by vprintf (also written to InterpreterOptions::print when set).
  void print(const std::string& text);
  // The executor of the tcgen05.mma at instruction `pc`, made at its first execution with the
  // models of InterpreterOptions::arch (Error if they lack the kind's).
  Tcgen05Mma& tcgen05_mma(int pc, Tcgen05Kind kind);

 private:
  struct Prepared;
  // Whose registers and shared memory CTA c has: none yet (initial_'s stand for them), its own,
  // or none any more (freed when its cluster ended).
  enum class Held : std::uint8_t { initial, own, freed };
  void make(int c);  // CTA c's own, from initial_; Error once freed
  void free_cta(int c);
  // CTA c's registers and shared memory as reg() and shared() read them; Error once freed.
  [[nodiscard]] const Cta& held(int c) const {
    return held_[static_cast<std::size_t>(c)] == Held::own ? ctas_[static_cast<std::size_t>(c)] : not_own(c);
  }
  [[nodiscard]] const Cta& not_own(int c) const;  // held() of a CTA not made, or freed
  // One warp's SIMT state.
  struct WarpRun {
    struct Entry {
      int pc, rpc;
      std::uint32_t mask;
      int end;  // the end of the code it runs in (the kernel's or a function's): reaching it pops
    };
    // A call in progress: the callee's entries are stack[base..]; the caller waits below them at
    // the instruction after the call `pc`; `lanes` called.
    struct Frame {
      std::size_t base;
      int pc;
      std::uint32_t lanes;
    };
    std::vector<Entry> stack;
    std::vector<Frame> frames;
    std::uint32_t launch = 0, exited = 0;
    int waiting = -1;       // pc of the collective it waits at
    bool released = false;  // the collective at `waiting` has completed: step past it
    // An mbarrier wait at park_pc found its phase incomplete: the warp yields until a phase
    // completes (MbarrierActivity::completions moves past park_completions) or nothing else runs.
    bool parked = false;
    int park_pc = -1;
    int resume_pc = -1;  // where it was parked when the parked warps were last resumed
    std::uint64_t park_addr = 0, park_completions = 0;
    // Parked at a tcgen05.alloc that found no free columns: it goes on once an allocation is
    // freed (park_completions counts TensorMemory::frees() then).
    bool park_alloc = false;
    WgmmaAsync async;
    // The destination registers of the tcgen05.ld operations not yet waited for
    // (tcgen05.wait::ld), and the last one's pc.
    std::vector<int> tmem_loads;
    int tmem_load_pc = -1;
    // No lane of the warp has executed more instructions than this: the step limit is checked
    // lane by lane only once it reaches the limit.
    std::uint64_t most_steps = 0;
  };
  // A CTA's scheduler state: its warps' control state, its cp.async in flight, its mbarrier
  // activity; `arrived`: per thread, 1 + the cluster barrier phase it arrived in (0: none).
  struct CtaRun {
    std::vector<WarpRun> warps;
    std::optional<AsyncCopies> copies;
    std::optional<BulkCopies> bulk;
    MbarrierActivity mbar;
    Tcgen05InFlight umma;  // its tcgen05.mma operations whose completion is not yet observed
    std::vector<std::uint64_t> arrived;
    CtaIs is = CtaIs::not_started;
    std::optional<RaceShadow> race;  // racecheck's record of its shared memory, while it runs (several warps)
    std::uint32_t barriers = 0;      // CTA barriers completed
    // Per barrier number: warps that arrived by bar.arrive in its current phase.
    std::array<std::uint32_t, 16> bar_arrivals{};
  };
  // racecheck's synchronisation epoch of CTA c: its barriers, mbarrier phases and cluster barrier
  // phases completed so far.
  [[nodiscard]] std::uint32_t sync_epoch(int c) const;
  // What a parked warp of CTA c waits to change: the mbarrier phases completed, or for a
  // tcgen05.alloc, the tensor-memory allocations freed.
  [[nodiscard]] std::uint64_t park_progress(int c, const WarpRun& r) const;
  // A cluster: its CTAs (c-th run) by %cluster_ctarank, the phases of its barrier completed.
  // `resumed`: the parked warps were resumed because nothing else could run, when the mbarriers
  // had seen `resumed_changes` changes; if all park again where they were then, with no change
  // since, it is a deadlock.
  struct ClusterRun {
    std::vector<int> ctas;
    std::uint64_t phase = 0;
    bool resumed = false;
    std::uint64_t resumed_changes = 0;
  };
  // What completing the collectives of one CTA did.
  struct CtaProgress {
    bool moved = false;      // a collective completed, a parked warp can go on, or the CTA ended
    int parked = 0;          // warps parked at an mbarrier wait
    bool park_moved = false; // one of them waits elsewhere than when they were last resumed
  };

  // The Machine that runs cluster `cluster` of `grid` on another thread with `options`: the
  // cluster's CTAs as `grid` would start them (made here, on that thread), copies of its const
  // and param memory, its global memory as an overlay (Memory::overlay, under `lock`), `prep`
  // (executors of the thread's own).
  Machine(Machine& grid, const InterpreterOptions& options, int cluster, std::shared_ptr<const Prepared> prep,
          std::shared_mutex& lock);
  // run() on opts_.jobs threads.
  RunSummary run_parallel();
  // The Prepared of another thread: prep_ with mma and wgmma executors of its own (their scratch
  // space is per thread).
  [[nodiscard]] std::shared_ptr<const Prepared> prepared_copy() const;
  // An instruction's mma and wgmma executors (none where it has none) appended to `prep`.
  void add_executors(const ptx::Instruction& ins, Prepared& prep) const;
  // The result of worker machine w, which ran cluster `cluster` to its end or to an error: its
  // global stores, registers, shared memory, steps, warnings, kernel-check reports and printed text.
  void adopt(Machine& w, int cluster);
  void reset();  // the summary and scheduler state of a run that starts (start() without a cluster)

  // Whether warp w has an instruction to execute now (false: finished, or waiting at a collective
  // of several warps, which it then records).
  bool ready(int w);
  void execute(int w);  // the next instruction of a ready warp
  bool settle();        // makes cur_ a ready warp; false when every warp has finished
  void complete_collectives();
  void barrier_synccheck(const std::vector<int>& waiters, std::uint32_t arrived);
  CtaProgress complete_cta();         // the collectives of the CTA cur_cta_
  bool complete_cluster_barrier();    // the cluster barrier's phase and its waiting warps
  [[noreturn]] void deadlock();
  void run_wgmma(int group);
  void begin_cluster();
  void begin_cta();
  void finish_cta();
  void call(int w, const ptx::Instruction& ins, int pc, std::uint32_t lanes);
  // " in CTA (x, y, z) warp w", the warp an error comes from, when there are several.
  [[nodiscard]] std::string who(int w) const;
  void return_from(int w, const WarpRun::Frame& f);
  [[nodiscard]] int line_of(int pc) const { return prog_.code[static_cast<std::size_t>(pc)].loc.line; }

  const ptx::Program& prog_;
  InterpreterOptions opts_;
  int warps_ = 1, first_warp_ = 0;
  std::int64_t block_threads_ = 32;
  std::vector<int> widths_;
  std::uint64_t frame_bytes_ = 0;
  Grid grid_;
  std::vector<Cta> ctas_;
  std::vector<Held> held_;  // parallel to ctas_
  Cta initial_;
  std::shared_ptr<const Prepared> prep_;
  std::vector<CtaRun> runs_;  // parallel to ctas_
  std::vector<ClusterRun> clusters_;  // in the order they run
  std::vector<int> cluster_of_;       // per CTA run: its index in clusters_
  RunSummary sum_;
  std::vector<std::uint8_t> reported_;  // per instruction, a bit per KernelCheck that has reported there
  std::vector<std::unique_ptr<Tcgen05Mma>> tcgen05_mma_;  // per instruction, once it has run
  int cur_cluster_ = 0;  // the cluster that runs
  int cur_member_ = 0;   // its CTA that runs (index in ClusterRun::ctas)
  int cur_cta_ = 0;      // that CTA (c-th run)
  int cur_ = 0;          // its warp that runs
  bool started_ = false, finished_ = false;
};

}  // namespace ptxmma
