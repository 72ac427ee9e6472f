// The run's budget (sim/util/budget.hpp, docs/robustness.md "Budgets"): each crossing is a located
// error naming the budget and the option that raises it, raised before the allocation or the work;
// and the hostile inputs of issue 24 that once hung, blew up or passed silently.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "isa/ptx_parser.hpp"
#include "sim/exec/interpreter.hpp"
#include "tests/malformed/malformed.hpp"
#include "tests/paths.hpp"
#include "tools/vectors/golden_vectors.hpp"
#include "tools/vectors/ptx_state.hpp"
#include "tools/vectors/test_vectors.hpp"

namespace ptxmma::malformed {
namespace {

const std::string kSource = kPtxmmaSourceDir;

std::string ptx_error(const std::string& text) {
  return error_of([&] { (void)ptx::parse_ptx(text, "k.ptx"); });
}

TEST(Malformed, PtxBudgets) {
  {
    const BudgetScope b(&Budget::ptx_line_bytes, 40);
    EXPECT_EQ(ptx_error(".reg .b32 %r1;\nmov.u32 %r1, 1; mov.u32 %r1, 2; mov.u32 %r1, 3;\n"),
              "k.ptx:2:41: error: the line is longer than the budget of 40 bytes (raise it with --max-line-length)");
  }
  {
    const BudgetScope b(&Budget::ptx_statements, 3);
    EXPECT_EQ(ptx_error(".reg .b32 %r1;\nmov.u32 %r1, 1;\nmov.u32 %r1, 2;\nmov.u32 %r1, 3;\n"),
              "k.ptx:4:15: error: 4 statements, more than the budget of 3 (raise it with --max-statements)");
  }
  // 40,000 statements on one 600 KB line: each instruction once kept a copy of the whole line
  // (24 GB); now the line is kept once.
  std::string line = ".reg .b32 %r1;\n";
  for (int i = 0; i < 40000; ++i) line += "add.u32 %r1, %r1, 1; ";
  const ptx::Program p = ptx::parse_ptx(line, "k.ptx");
  EXPECT_EQ(p.code.size(), 40000U);
  EXPECT_EQ(p.lines.size(), 2U);
  EXPECT_EQ(p.line_text(2).substr(0, 21), "add.u32 %r1, %r1, 1; ");
  // One label in each of 20,000 blocks (the fuzz seed regress-block-labels): each label's unique
  // name was once found by trying name#2, name#3, ... in turn, quadratic in the blocks (a 4 MiB
  // file within the default budgets would have run for hours).
  std::string blocks;
  for (int i = 0; i < 20000; ++i) blocks += "{ L:\nret; }\n";
  const ptx::Program q = ptx::parse_ptx(blocks, "k.ptx");
  EXPECT_EQ(q.labels.size(), 20000U);
  EXPECT_EQ(q.labels.at("L#20000"), 19999);
}

TEST(Malformed, PtxKernels) {
  const std::vector<Bad> bad = {
      {"two bodies of one name", ".visible .entry k()\n{\nret;\n}\n.visible .entry k()\n{\nexit;\n}\n",
       "k.ptx:5:17: error: kernel 'k' is already defined at line 1"},
      {".reqntid 0", ".visible .entry k() .reqntid 0\n{\nret;\n}\n",
       "k.ptx:1:30: error: .reqntid of 0 threads; a block has 1 to 1024"},
      {".reqntid past 32 bits", ".visible .entry k() .reqntid 4294967328\n{\nret;\n}\n",
       "k.ptx:1:30: error: .reqntid of more than 1024 threads; a block has 1 to 1024"},
      {".maxntid of more than a block", ".visible .entry k() .maxntid 64, 32, 1\n{\nret;\n}\n",
       "k.ptx:1:34: error: .maxntid of more than 1024 threads; a block has 1 to 1024"},
      {"bar.sync of 300 threads", "bar.sync 0, 300;\n",
       "k.ptx:1:13: error: 'bar.sync': a thread count of 300; it must be a multiple of 32 in 32..1024"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    EXPECT_EQ(ptx_error(b.input), b.error);
  }
}

TEST(Malformed, MachineBudgets) {
  // registers x threads, located at the declaration that crosses the budget.
  const ptx::Program p = ptx::parse_ptx(".reg .b32 %r<100>;\nret;\n", "k.ptx");
  InterpreterOptions o;
  o.ntid = {1024, 1, 1};
  {
    const BudgetScope b(&Budget::register_words, 50 * 1024);
    EXPECT_EQ(error_of([&] { const Machine m(p, o); }),
              "k.ptx:1:11: error: 102400 register words (100 registers x 1024 threads), more than the budget of 51200 "
              "(raise it with --max-register-words)");
  }
  // Sparse stores: a page each.
  const ptx::Program sparse = ptx::parse_ptx(
      ".reg .b64 %a;\n.reg .b32 %r;\nmov.u64 %a, 0;\nL:\nst.global.u32 [%a], %r;\nadd.u64 %a, %a, 4096;\nbra L;\n", "k.ptx");
  const BudgetScope b(&Budget::memory_pages, 8);
  EXPECT_EQ(error_of([&] {
              Machine m(sparse, {});
              (void)m.run();
            }),
            "k.ptx:5:1: error: 'st.global.u32': lane 0: global memory: a store at 0x8000 touches a new page: 9 pages of 4 KiB, "
            "more than the budget of 8 (raise it with --max-memory-pages)");
}

TEST(Malformed, DivergentUniformBranch) {
  const ptx::Program p = ptx::parse_ptx(
      ".reg .b32 %r;\n.reg .pred %p;\nmov.u32 %r, %laneid;\nsetp.lt.u32 %p, %r, 4;\n@%p bra.uni L;\nL: ret;\n", "k.ptx");
  EXPECT_EQ(error_of([&] {
              Machine m(p, {});
              (void)m.run();
            }),
            "k.ptx:5:5: error: 'bra.uni': lanes 0-3 branch and lanes 4-31 do not; .uni promises that all go the same way");
}

TEST(Malformed, ExactArithmeticOfValues) {
  // An 8 KB STATE.yaml once took 100 s: aliased lists of 4000-digit decimals.
  const TempDir dir;
  const std::string digits = "0." + std::string(3998, '7');
  std::string text = "shared:\n  - {address: 0, type: f32, values: &v [" + digits + ", " + digits + ", " + digits + "]}\n";
  for (int i = 0; i < 10; ++i) text += "  - {address: 0, type: f32, values: *v}\n";
  const std::string path = dir.write("state.yaml", text);
  const ptx::Program p = ptx::parse_ptx(".reg .b32 %r;\nret;\n", "k.ptx");
  EXPECT_EQ(error_of([&] {
              const PtxState s = PtxState::load(path);
              Machine m(p, {});
              s.apply(m);
            }),
            path + ":2:8045: 1078656 units of exact decimal arithmetic in the file, more than the budget of 1048576 "
                   "(raise it with --max-exact-work)");
}

TEST(Malformed, YamlAliases) {
  const TempDir dir;
  std::string laughs = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  for (char c = 'b'; c <= 'i'; ++c)
    laughs += fmt::format("{0}: &{0} [{1}]\n", c, fmt::join(std::vector<std::string>(10, std::string("*") + char(c - 1)), ", "));
  const std::vector<Bad> bad = {
      // Once a hang: every walk went round the cycle for ever.
      {"alias cycle in a state", "registers: &a\n  \"%r0\": *a\n", "FILE:2:10: an alias inside the node its anchor names (a cycle)"},
      {"alias cycle in a vector file", "cases: &c\n  - *c\n", "FILE:2:5: an alias inside the node its anchor names (a cycle)"},
      // Once past a minute: 10^9 nodes to walk.
      {"billion laughs", laughs, "FILE:6:40: 1123462 YAML nodes (aliases expanded), more than the budget of 1048576 (raise it with --max-yaml-nodes)"},
      {"second document", "ntid: [64]\n---\nntid: [2048]\n", "FILE:2:1: a second YAML document (after '---' or '...'): a file holds one"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    const std::string path = dir.write("f.yaml", b.input);
    std::string want = b.error;
    want.replace(0, 4, path);
    EXPECT_EQ(error_of([&] { (void)PtxState::load(path); }), want);
  }
  // The duplicate-key check walks an aliased node once: 1.2 million nodes written as 6 lines.
  const BudgetScope nodes(&Budget::yaml_nodes, 1ULL << 30);
  laughs.resize(laughs.find("g:"));
  const std::string path = dir.write("f.yaml", laughs + "f: 1\n");
  EXPECT_EQ(error_of([&] { (void)PtxState::load(path); }), path + ":7:1: duplicate key 'f'");
  // One such file no longer stops `ptxmma test` from reporting the others.
  const std::string cycle = dir.write("cycle.test.yaml", "cases: &c\n  - *c\n");
  const std::string ok = kSource + "/examples/snippet_ldmatrix_mma.test.yaml";
  const Cli test = ptxmma("test " + cycle + " " + ok, dir);
  EXPECT_EQ(test.status, 1);
  EXPECT_NE(test.out.find("FAIL " + cycle + ": (file)\n  " + cycle + ":2:5: an alias inside"), std::string::npos) << test.out;
  EXPECT_NE(test.out.find(" passed, 1 failed\n"), std::string::npos) << test.out;
  // A compressed vector file: a broken stream, and one that expands past the input-bytes budget.
  const std::string cut = dir.write("cut.test.yaml.xz", kXz1408.substr(0, 40));
  EXPECT_EQ(error_of([&] { (void)VectorFile::load(cut); }), cut + ": not a valid xz file (truncated, liblzma error 10)");
  const BudgetScope input(&Budget::input_bytes, 1024);
  const std::string bomb = dir.write("bomb.test.yaml.xz", kXz1408);
  EXPECT_EQ(error_of([&] { (void)VectorFile::load(bomb); }), bomb + ": more than 1024 bytes when decompressed, the most it may hold");
}

TEST(Malformed, CommandLineOptions) {
  const TempDir dir;
  const std::string ptx = dir.write("k.ptx", ".reg .b32 %r;\nmov.u32 %r, 1;\n");
  // "-1" once wrapped to 2^64 - 1 steps.
  const Cli wrap = ptxmma("run " + ptx + " --max-steps -1", dir);
  EXPECT_EQ(wrap.status, 105);
  EXPECT_NE(wrap.err.find("--max-steps: Value -1 not in range 1 to 4611686018427387904"), std::string::npos) << wrap.err;
  EXPECT_EQ(ptxmma("run " + ptx + " --max-yaml-nodes 0", dir).status, 105);
  // --arch is a name, never a path, and it is checked even when the program has no mma.
  EXPECT_EQ(ptxmma("run " + ptx + " --arch ../../x", dir).err.substr(0, 47), "ptxmma: error: unknown architecture '../../x' (");
  EXPECT_EQ(ptxmma("run " + ptx + " --arch sm_999", dir).err.substr(0, 46), "ptxmma: error: unknown architecture 'sm_999' (");
  // Conversions PTX's cvt does not have (once accepted).
  for (const char* c : {"f64 1.5 --to e4m3", "s32 1 --to e4m3", "f32 1 --to ue4m3", "e4m3 0x38 --to f32"}) {
    const std::string args(c);
    EXPECT_EQ(ptxmma("format " + args + " --satfinite --arch sm_100a", dir).err,
              "ptxmma: error: format: PTX has no cvt from " + args.substr(0, args.find(' ')) + " to " +
                  args.substr(args.rfind(' ') + 1) + "\n");
  }
  EXPECT_EQ(ptxmma("bench --seconds nan", dir).err, "ptxmma: error: --seconds: nan is not in [0.01, 3600]\n");
  EXPECT_EQ(ptxmma("layout wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 --trans-a 2", dir).status, 105);
  // A script that never ends, or a folder.
  EXPECT_EQ(ptxmma("debug " + ptx + " --commands /dev/zero", dir).err, "ptxmma: error: /dev/zero: not a regular file\n");
  EXPECT_EQ(ptxmma("debug " + ptx + " --commands " + dir.path(""), dir).err,
            "ptxmma: error: " + dir.path("") + ": not a regular file\n");
  // A budget option also after the subcommand.
  const Cli lines = ptxmma("run " + ptx + " --max-line-length 10", dir);
  EXPECT_EQ(lines.status, 1);
  EXPECT_EQ(lines.err, ptx + ":1:11: error: the line is longer than the budget of 10 bytes (raise it with --max-line-length)\n");
}

TEST(Malformed, GoldenRecordLists) {
  // Digits that are no index list were once taken as part of the folder's name ("cannot open").
  EXPECT_EQ(error_of([] { (void)parse_golden_records("no-such-set:0:0-99999999999"); }),
            "no-such-set:0:0-99999999999: bad index list '0-99999999999' (indices 0..1048575 such as 0,3-5, low before high)");
  EXPECT_EQ(error_of([] { (void)parse_golden_records("no-such-set:5-3"); }),
            "no-such-set:5-3: bad index list '5-3' (indices 0..1048575 such as 0,3-5, low before high)");
  // A list repeated on the command line costs no more than once (it was 2^20 ints a repeat).
  std::string all = "0-1048575";
  for (int i = 0; i < 200; ++i) all += ",0-1048575";
  const GoldenRecords r = parse_golden_records("set:" + all + ":7,3,3");
  EXPECT_EQ(r.entries.size(), 1U << 20);
  EXPECT_EQ(r.cases, (std::vector<int>{3, 7}));
}

TEST(Malformed, OutputFiles) {
  const TempDir dir;
  const std::string set = kSource + "/tests/data/wgmma-sm90";
  // A full disk is an error, not exit 0 with nothing written.
  const Cli full = ptxmma("replay " + set + " --json /dev/full", dir);
  EXPECT_EQ(full.status, 1);
  EXPECT_EQ(full.err, "ptxmma: error: /dev/full: cannot write (No space left on device)\n");
  EXPECT_EQ(ptxmma("replay " + set + " --html /dev/full", dir).status, 1);
  EXPECT_EQ(ptxmma("bench mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 --seconds 0.01 --json /dev/full", dir).status, 1);
  // Nothing writes inside a golden set, its manifest least of all; refused before the replay runs.
  const Cli own = ptxmma("replay " + set + " --json " + set + "/manifest.json", dir);
  EXPECT_EQ(own.status, 1);
  EXPECT_EQ(own.out, "");
  EXPECT_EQ(own.err, "ptxmma: error: " + set + "/manifest.json: " + set +
                         " holds a golden set (manifest.json); ptxmma does not write there\n");
  for (const std::string& option : {"--json " + set + "/r.json", "--html " + set + "/r.html"}) {
    const Cli inside = ptxmma("replay " + set + " " + option, dir);
    EXPECT_EQ(inside.status, 1);
    EXPECT_EQ(inside.out, "") << option;
  }
  EXPECT_EQ(ptxmma("golden " + set + ":0:0 --to-test " + set + "/x.test.yaml", dir).err,
            "ptxmma: error: " + set + "/x.test.yaml: " + set + " holds a golden set (manifest.json); ptxmma does not write there\n");
  // A written file is whole, and replaces the old one.
  const std::string json = dir.write("r.json", "old");
  EXPECT_EQ(ptxmma("replay " + set + " --json " + json, dir).status, 0);
  std::ifstream in(json);
  std::stringstream got;
  got << in.rdbuf();
  EXPECT_EQ(got.str().substr(0, 2), "{\n");
  EXPECT_EQ(got.str().back(), '\n');
}

}  // namespace
}  // namespace ptxmma::malformed
