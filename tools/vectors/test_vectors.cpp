#include "tools/vectors/test_vectors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "isa/wmma_instruction.hpp"
#include "isa/ptx_parser.hpp"
#include "sim/error.hpp"
#include "sim/exec/interpreter.hpp"
#include "sim/exec/mma.hpp"
#include "sim/model/model.hpp"
#include "sim/numeric/packing.hpp"
#include "sim/util/budget.hpp"
#include "sim/util/input_file.hpp"
#include "tools/vectors/data_file.hpp"
#include "tools/vectors/matrix_operands.hpp"
#include "tools/vectors/parallel.hpp"
#include "tools/vectors/ptx_state.hpp"
#include "tools/vectors/value_text.hpp"
#include "tools/vectors/vector_matrix.hpp"
#include "tools/vectors/wgmma_vector.hpp"

namespace ptxmma {

// Expected bits of one register on some lanes.
struct RegExpect {
  int reg = -1;
  std::string name;
  std::uint32_t lanes = 0;
  std::array<std::uint64_t, 32> bits{};
};

struct VectorCase {
  std::string name;
  std::string target;
  bool is_mma = false;
  // mma instruction case
  MmaInstruction ins;
  const MatrixVariant* v = nullptr;
  const Model* model = nullptr;
  std::vector<std::uint32_t> a, b, c, meta;  // meta: a sparse A's metadata words (selector 0)
  ScaleWords scales;                          // block-scaled: scale-a-data, scale-b-data words
  std::vector<std::uint64_t> d;  // expected, row-major
  // wgmma instruction case
  std::shared_ptr<const WgmmaVectorCase> wgmma;
  // snippet case
  std::shared_ptr<const ptx::Program> program;
  std::shared_ptr<const PtxState> state;
  std::uint64_t max_steps = 1'000'000;
  bool strict = false;
  std::vector<RegExpect> regs;
  // Warnings the run must give (each text a part of one), for a kernel that really does what they
  // say; every other warning is reported.
  std::vector<std::string> warnings;
  struct MemExpect {
    std::string space;  // "global" or "shared"
    MemoryBlock block;
  };
  std::vector<MemExpect> memory;
};

namespace {

constexpr int kMaxReported = 64;

std::string scalar_of(const YamlFile& f, const YAML::Node& n, const char* what) {
  if (!n.IsScalar()) f.fail(n, fmt::format("'{}' takes a single value", what));
  return n.Scalar();
}

std::uint32_t parse_lanes(const YamlFile& f, const YAML::Node& n) {
  const std::string s = n.IsScalar() ? n.Scalar() : std::string();
  std::string compact = s;  // white space is allowed anywhere in a YAML lane list
  std::erase_if(compact, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  const auto mask = lane_mask(compact);
  if (!mask) f.fail(n, fmt::format("bad lane list '{}' (e.g. 0-3,8)", s));
  return *mask;
}

// ---- matrices ----

// The matrix a case gives for one operand of an mma.
MatrixSpec matrix_spec(const MatrixVariant& v, Operand o) {
  const RegisterCodec codec = v.codec(o);
  const Type t = codec.type();
  // A sparse A is given as its logical M x K matrix.
  const int cols = o == Operand::a && v.sparse != Sparsity::dense ? v.shape.k : codec.cols();
  return {std::string(name(o)), t, in_container(t) ? info(t).bits : codec.bits(), codec.rows(), cols};
}

// ---- registers of a snippet ----

std::uint64_t reg_value(const YamlFile& f, const YAML::Node& n, int width, ptx::PtxType t, int lane, ExactWork& work) {
  if (!n.IsScalar()) f.fail(n, "expected a value");
  if (n.Scalar() == "lane") return static_cast<std::uint64_t>(lane);
  work.charge(f, n, decimal_units(n.Scalar()));
  try {
    return parse_value_text(n.Scalar(), width, t);
  } catch (const Error& e) {
    f.fail(n, e.what());
  }
}

std::vector<RegExpect> parse_expected_registers(const YamlFile& f, const YAML::Node& regs, const ptx::Program& p,
                                               ExactWork& work) {
  if (!regs.IsMap()) f.fail(regs, "'registers' is a map from register name to value");
  std::vector<RegExpect> out;
  for (const auto& kv : regs) {
    RegExpect e;
    e.name = kv.first.Scalar();
    e.reg = p.find_register(e.name);
    if (e.reg < 0) f.fail(kv.first, fmt::format("register {} is not declared in the snippet", e.name));
    const ptx::PtxType t = p.registers[static_cast<std::size_t>(e.reg)].type;
    const int w = ptx::bits(t);
    const YAML::Node& v = kv.second;
    const auto part = [&](const YAML::Node& pn) {
      f.check_keys(pn, {"lanes", "value"}, "a lane group");
      if (!pn["lanes"] || !pn["value"]) f.fail(pn, "expected {lanes: ..., value: ...}");
      const std::uint32_t lanes = parse_lanes(f, pn["lanes"]);
      for (int lane = 0; lane < 32; ++lane)
        if ((lanes >> lane) & 1U) e.bits[static_cast<std::size_t>(lane)] = reg_value(f, pn["value"], w, t, lane, work);
      e.lanes |= lanes;
    };
    if (v.IsScalar()) {
      for (int lane = 0; lane < 32; ++lane) e.bits[static_cast<std::size_t>(lane)] = reg_value(f, v, w, t, lane, work);
      e.lanes = 0xffffffffU;
    } else if (v.IsSequence() && v.size() > 0 && v[0].IsMap()) {
      for (const auto& pn : v) {
        if (!pn.IsMap()) f.fail(pn, "expected {lanes: ..., value: ...}");
        part(pn);
      }
    } else if (v.IsSequence()) {
      if (v.size() != 32) f.fail(v, fmt::format("a list of values per lane needs 32 entries, found {}", v.size()));
      for (int lane = 0; lane < 32; ++lane)
        e.bits[static_cast<std::size_t>(lane)] = reg_value(f, v[static_cast<std::size_t>(lane)], w, t, lane, work);
      e.lanes = 0xffffffffU;
    } else if (v.IsMap()) {
      part(v);
    } else {
      f.fail(v, "expected a value, a list of 32 values, or {lanes: ..., value: ...}");
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string resolve(const std::string& file, const std::string& rel) {
  const std::filesystem::path p(rel);
  if (p.is_absolute()) return rel;
  return (std::filesystem::path(file).parent_path() / p).lexically_normal().string();
}

std::shared_ptr<const VectorCase> load_case(const YamlFile& f, const YAML::Node& n, const std::string& file_target,
                                            const std::string& name, const std::vector<std::string>& lines,
                                            ExactWork& work) {
  auto c = std::make_shared<VectorCase>();
  c->name = name;
  f.check_keys(n,
             {"name", "target", "instruction", "A", "B", "C", "expect", "snippet", "snippet_file", "init", "init_file",
              "entry", "max_steps", "strict", "scale_A", "scale_B", "a_source", "desc_a", "desc_b", "swizzle", "scale_d",
              "imm_scale_a", "imm_scale_b", "imm_trans_a", "imm_trans_b"},
             "a case");
  c->target = n["target"] ? scalar_of(f, n["target"], "target") : file_target;
  const bool ins = static_cast<bool>(n["instruction"]);
  const bool snip = n["snippet"] || n["snippet_file"];
  if (ins == snip) f.fail(n, fmt::format("case '{}' needs exactly one of 'instruction', 'snippet', 'snippet_file'", name));
  if (n["snippet"] && n["snippet_file"]) f.fail(n["snippet_file"], "give 'snippet' or 'snippet_file', not both");
  const YAML::Node ex = n["expect"];
  if (!ex) f.fail(n, fmt::format("case '{}' has no 'expect'", name));
  if (!ex.IsMap()) f.fail(ex, "'expect' is a map (D: matrix, or registers: ...)");
  if (ins) {
    for (const char* k : {"snippet", "snippet_file", "init", "init_file", "entry", "max_steps", "strict"})
      if (n[k]) f.fail(n[k], fmt::format("'{}' belongs to snippet cases, not to an instruction case", k));
    f.check_keys(ex, {"D"}, "'expect' of an instruction case");
    const std::string text = scalar_of(f, n["instruction"], "instruction");
    if (text.starts_with("wgmma")) {
      c->wgmma = load_wgmma_case(f, n, name, c->target, work);
      return c;
    }
    if (!text.starts_with("mma") && !text.starts_with("wmma.mma"))
      f.fail(n["instruction"], fmt::format("unknown instruction '{}': an instruction case takes an mma, a "
                                           "wmma.mma or a wgmma.mma_async; run anything else as a snippet", text));
    for (const std::string_view k : kWgmmaCaseKeys)
      if (n[std::string(k)]) f.fail(n[std::string(k)], fmt::format("'{}' belongs to wgmma instruction cases", k));
    try {
      c->ins = parse_warp_mma(text, c->target);
    } catch (const Error& e) {
      f.fail(n["instruction"], e.what());
    }
    c->v = c->ins.variant;
    try {
      c->model = &models_for(c->target).select(c->v->family, c->v->a, c->v->d);
    } catch (const Error& e) {
      f.fail(n["target"] ? n["target"] : n["instruction"], e.what());
    }
    for (const char* k : {"A", "B"})
      if (!n[k]) f.fail(n, fmt::format("case '{}' needs matrix {}", name, k));
    if (!ex["D"]) f.fail(ex, fmt::format("case '{}': 'expect' needs matrix D", name));
    const MatrixVariant& v = *c->v;
    const auto values = [&](const YAML::Node& m, const MatrixSpec& spec) { return parse_matrix(f, m, spec, work); };
    const std::vector<std::uint64_t> a = values(n["A"], matrix_spec(v, Operand::a));
    if (v.sparse == Sparsity::dense) {
      c->a = operand_words(v, Operand::a, a);
    } else {
      try {
        SparseA sa = sparse_a_words(v, a);
        c->a = std::move(sa.a);
        c->meta = std::move(sa.meta);
      } catch (const Error& e) {
        f.fail(n["A"], fmt::format("A: {}", e.what()));
      }
    }
    c->b = operand_words(v, Operand::b, values(n["B"], matrix_spec(v, Operand::b)));
    c->c = n["C"] ? operand_words(v, Operand::c, values(n["C"], matrix_spec(v, Operand::c)))
                  : std::vector<std::uint32_t>(v.codec(Operand::c).words(), 0);
    if (v.block_scale) {
      for (const char* k : {"scale_A", "scale_B"})
        if (!n[k])
          f.fail(n, fmt::format("case '{}': {} is block-scaled and needs scale_A ({} x {}) and scale_B ({} x {}) of {}",
                                name, text, v.shape.m, v.scale_vec, v.scale_vec, v.shape.n, ptxmma::name(*v.stype)));
      const int sbits = info(*v.stype).bits;
      c->scales = scale_words(v, values(n["scale_A"], {"scale_A", *v.stype, sbits, v.shape.m, v.scale_vec}),
                              values(n["scale_B"], {"scale_B", *v.stype, sbits, v.scale_vec, v.shape.n}));
    } else {
      for (const char* k : {"scale_A", "scale_B"})
        if (n[k]) f.fail(n[k], fmt::format("{}: {} is not block-scaled", k, text));
    }
    c->d = parse_matrix(f, ex["D"], matrix_spec(v, Operand::d), work);
    c->is_mma = true;
    return c;
  }
  for (const char* k : {"A", "B", "C", "scale_A", "scale_B"})
    if (n[k]) f.fail(n[k], fmt::format("matrix {} belongs to an instruction case; a snippet takes 'init'", k));
  for (const std::string_view k : kWgmmaCaseKeys)
    if (n[std::string(k)]) f.fail(n[std::string(k)], fmt::format("'{}' belongs to wgmma instruction cases", k));
  f.check_keys(ex, {"registers", "global", "shared", "warnings"}, "'expect' of a snippet case");
  if (!ex["registers"] && !ex["global"] && !ex["shared"])
    f.fail(ex, fmt::format("case '{}': 'expect' needs 'registers', 'global' or 'shared'", name));
  if (n["strict"]) {
    const std::string v = scalar_of(f, n["strict"], "strict");
    if (v != "true" && v != "false") f.fail(n["strict"], fmt::format("'strict' takes true or false, found '{}'", v));
    c->strict = v == "true";
  }
  if (n["init"] && n["init_file"]) f.fail(n["init_file"], "give 'init' or 'init_file', not both");
  ptx::ParseOptions po;
  if (!c->target.empty()) po.default_target = c->target;  // a snippet without .target runs on the case's
  if (n["entry"]) {
    po.entry = scalar_of(f, n["entry"], "entry");
    po.entry_file = f.path;
    po.entry_loc = {n["entry"].Mark().line + 1, n["entry"].Mark().column + 1};
  }
  // A missing file is named where the case names it.
  const auto input_file = [&](const char* key) {
    const std::string p = resolve(f.path, scalar_of(f, n[key], key));
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) f.fail(n[key], fmt::format("{} {}: no such file", key, p));
    return p;
  };
  if (n["max_steps"]) {
    try {
      c->max_steps = parse_value_text(scalar_of(f, n["max_steps"], "max_steps"), 64, ptx::PtxType::u64);
    } catch (const Error& e) {
      f.fail(n["max_steps"], fmt::format("max_steps: {}", e.what()));
    }
  }
  try {
    if (n["snippet"]) {
      const YAML::Node s = n["snippet"];
      const std::string text = scalar_of(f, s, "snippet");
      // Line numbers of the snippet's errors are those of the vector file: a block scalar's text
      // starts on the line after its '|'.
      const YAML::Mark mk = s.Mark();
      int first = mk.line;
      if (!mk.is_null() && static_cast<std::size_t>(mk.line) < lines.size()) {
        const std::string& l = lines[static_cast<std::size_t>(mk.line)];
        const std::size_t col = static_cast<std::size_t>(mk.column);
        if (col < l.size() && (l[col] == '|' || l[col] == '>')) first = mk.line + 1;
      }
      c->program = std::make_shared<const ptx::Program>(
          ptx::parse_ptx(std::string(static_cast<std::size_t>(std::max(first, 0)), '\n') + text, f.path, po));
    } else {
      c->program = std::make_shared<const ptx::Program>(
          ptx::parse_ptx_file(input_file("snippet_file"), po));
    }
  } catch (const Error& e) {
    // A kernel missing under the case's `entry:` is located there already, which names the case;
    // "the snippet does not parse" would be wrong besides.
    const auto* pe = dynamic_cast<const ptx::PtxError*>(&e);
    if (pe && pe->diagnostics().size() == 1 && !po.entry_file.empty()) {
      const ptx::Diagnostic& d = pe->diagnostics()[0];
      if (d.file == po.entry_file && d.loc.line == po.entry_loc.line && d.loc.col == po.entry_loc.col) throw;
    }
    throw Error(fmt::format("{}\n{}: case '{}': the snippet does not parse", e.what(), f.path, name));
  }
  if (n["init"]) c->state = std::make_shared<const PtxState>(PtxState::from_node(f.path, n["init"]));
  else if (n["init_file"])
    c->state = std::make_shared<const PtxState>(PtxState::load(input_file("init_file")));
  else c->state = std::make_shared<const PtxState>();
  if (ex["registers"]) c->regs = parse_expected_registers(f, ex["registers"], *c->program, work);
  if (const YAML::Node w = ex["warnings"]) {
    if (!w.IsSequence()) f.fail(w, "'warnings' takes a list of texts, each a part of one warning the run must give");
    for (const YAML::Node& t : w) c->warnings.push_back(scalar_of(f, t, "warnings"));
  }
  for (const char* space : {"global", "shared"})
    if (ex[space])
      for (MemoryBlock& b : memory_blocks(f, ex[space], work)) c->memory.push_back({space, std::move(b)});
  try {
    (void)models_for(c->target);
  } catch (const Error& e) {
    f.fail(n["target"] ? n["target"] : n, e.what());
  }
  return c;
}

std::string run_mma(const VectorCase& c) {
  const MmaExecutor x(*c.v, *c.model, MmaOptions{c.ins.rounding.value_or(Rounding::rn), c.ins.satfinite});
  const auto wpl = [&](Operand o) { return c.v->codec(o).words_per_thread(); };
  std::vector<std::uint32_t> d(c.v->codec(Operand::d).words(), 0);
  x.run({c.a, wpl(Operand::a)}, {c.b, wpl(Operand::b)}, {c.c, wpl(Operand::c)}, d, {c.meta, 0},
        {c.scales.a, c.scales.b});
  return matrix_differences(c.v->codec(Operand::d), c.d, d, c.ins.text);
}

// Whether every expected value matched, and the details (warnings, then the differences).
std::pair<bool, std::string> run_snippet(const VectorCase& c, int grid_jobs) {
  InterpreterOptions io;
  io.jobs = grid_jobs;
  io.arch = c.target;
  io.max_steps = c.max_steps;
  io.strict = c.strict;
  // Only expected registers and shared memory are read from the CTAs after the run.
  io.keep_ctas = !c.regs.empty() || std::any_of(c.memory.begin(), c.memory.end(),
                                                 [](const VectorCase::MemExpect& e) { return e.space == "shared"; });
  c.state->configure(io);
  Machine m = c.state->machine(*c.program, io);
  c.state->apply(m);
  const RunSummary sum = m.run();
  std::string out;
  int bad = 0;
  // Expected registers hold in every warp that ran, in every CTA.
  for (int cta = 0; cta < m.ctas(); ++cta)
    for (int t = 0; t < m.threads(); ++t)
      for (const RegExpect& e : c.regs) {
        const int lane = t % 32;
        if (!((e.lanes >> lane) & 1U)) continue;
        const std::uint64_t w = e.bits[static_cast<std::size_t>(lane)], g = m.reg(t, e.reg, cta);
        if (w == g) continue;
        if (++bad > kMaxReported) continue;
        const auto& decl = c.program->registers[static_cast<std::size_t>(e.reg)];
        const int width = ptx::bits(decl.type);
        const ValueView view = default_view(decl.type);
        out += fmt::format("  {}lane {} {}: expected {} ({}), got {} ({})\n",
                           m.warps() > 1 || m.grid().ctas() > 1 ? m.warp_name(cta, t / 32) + " " : "", lane, e.name,
                           hex_text(w, width), typed_text(w, width, view), hex_text(g, width), typed_text(g, width, view));
      }
  int bad_mem = 0;
  // Expected shared memory holds in every CTA; global memory is the grid's.
  for (int cta = 0; cta < m.ctas(); ++cta)
    for (const auto& [space, b] : c.memory) {
      if (space == "global" && cta > 0) continue;
      const Memory& mem = space == "global" ? m.global() : m.shared(cta);
      const auto width = static_cast<std::size_t>(b.width);
      for (std::size_t i = 0; i + width <= b.bytes.size(); i += width) {
        const std::uint64_t addr = b.address + i;
        std::uint64_t want = 0;
        for (std::size_t k = 0; k < width; ++k) want |= static_cast<std::uint64_t>(b.bytes[i + k]) << (8 * k);
        const bool defined = mem.defined(addr, width) && (!mem.is_dense() || addr + width <= mem.size());
        const std::uint64_t got = defined ? mem.load(addr, static_cast<int>(width)) : 0;
        if (defined && got == want) continue;
        if (++bad_mem > kMaxReported) continue;
        const bool outside = mem.is_dense() && (addr > mem.size() || width > mem.size() - addr);
        out += fmt::format("  {} {:#x}: expected {}, got {}\n", space, addr, hex_text(want, 8 * b.width),
                           defined   ? hex_text(got, 8 * b.width)
                           : outside ? fmt::format("nothing (outside {} memory [0, {:#x}))", space, mem.size())
                                     : std::string("nothing (never written)"));
      }
    }
  bad += bad_mem;
  if (bad > kMaxReported) out += fmt::format("  ... and {} more\n", bad - kMaxReported);
  if (bad)
    out = fmt::format("  {} {}value{}\n", bad, bad_mem ? "" : "register ", bad == 1 ? " differs" : "s differ") + out;
  std::string warnings;
  std::vector<bool> seen(c.warnings.size(), false);
  for (const auto& w : sum.warnings) {
    const std::string text = w.text();
    bool expected = false;
    for (std::size_t i = 0; i < c.warnings.size(); ++i)
      if (text.find(c.warnings[i]) != std::string::npos) seen[i] = expected = true;
    if (!expected) warnings += "  " + text + "\n";
  }
  for (std::size_t i = 0; i < c.warnings.size(); ++i)
    if (!seen[i]) {
      ++bad;
      warnings += fmt::format("  expected a warning containing '{}', none came\n", c.warnings[i]);
    }
  return {bad == 0, warnings + out};
}

}  // namespace

VectorFile VectorFile::load(const std::string& path, const std::string& target) {
  std::string text = read_input_file(path);
  if (path.ends_with(".xz")) {  // large captured vectors (tests/kernels) are kept compressed
    const std::vector<std::uint8_t> plain = decode_data_file(text, path, budget().input_bytes);
    text.assign(plain.begin(), plain.end());
  }
  return parse(text, path, target);
}

VectorFile VectorFile::parse(const std::string& text, const std::string& path, const std::string& target) {
  VectorFile vf;
  vf.path = path;
  vf.target = target;
  vf.yaml = YamlFile::parse(text, path);
  const YamlFile& f = vf.yaml;
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  f.check_unique_keys();
  const YAML::Node& r = f.root;
  if (!r || !r.IsMap()) f.fail(r, "a vector file is a map: target, description, cases");
  f.check_keys(r, {"target", "description", "cases"}, "the file");
  if (r["target"]) vf.target = scalar_of(f, r["target"], "target");
  const YAML::Node cs = r["cases"];
  if (!cs) f.fail(r, "missing key 'cases'");
  if (!cs.IsSequence() || cs.size() == 0) f.fail(cs, "'cases' takes a non-empty list of cases");
  std::set<std::string> names;
  ExactWork work;
  f.located([&] {
    for (std::size_t i = 0; i < cs.size(); ++i) {
      const YAML::Node n = cs[i];
      if (!n.IsMap()) f.fail(n, "a case is a map (name, instruction or snippet, ..., expect)");
      const std::string nm = n["name"] ? scalar_of(f, n["name"], "name") : fmt::format("case {}", i + 1);
      if (!names.insert(nm).second) f.fail(n["name"] ? n["name"] : n, fmt::format("duplicate case name '{}'", nm));
      vf.cases.push_back(load_case(f, n, vf.target, nm, lines, work));
    }
  });
  return vf;
}

std::string VectorFile::case_name(std::size_t i) const { return cases.at(i)->name; }

CaseResult run_vector_case(const VectorFile& f, std::size_t i, int grid_jobs) {
  CaseResult r;
  r.file = f.path;
  const VectorCase& c = *f.cases.at(i);
  r.name = c.name;
  try {
    if (c.is_mma || c.wgmma) {
      r.detail = c.wgmma ? run_wgmma_case(*c.wgmma) : run_mma(c);
      r.passed = r.detail.empty();
    } else {
      std::tie(r.passed, r.detail) = run_snippet(c, grid_jobs);
    }
  } catch (const std::exception& e) {
    r.passed = false;
    r.detail = fmt::format("  error: {}\n", e.what());
  }
  return r;
}

std::vector<CaseResult> run_vector_files(const std::vector<std::string>& paths, int jobs, const std::string& target) {
  std::vector<VectorFile> files;
  std::vector<std::pair<std::size_t, std::size_t>> work;  // (file, case), or (file, npos) for a load error
  std::vector<std::string> load_errors(paths.size());
  files.reserve(paths.size());
  for (std::size_t fi = 0; fi < paths.size(); ++fi) {
    try {
      files.push_back(VectorFile::load(paths[fi], target));
      for (std::size_t ci = 0; ci < files.back().cases.size(); ++ci) work.emplace_back(fi, ci);
    } catch (const std::exception& e) {
      files.emplace_back();
      files.back().path = paths[fi];
      load_errors[fi] = e.what();
      work.emplace_back(fi, std::string::npos);
    }
  }
  std::vector<CaseResult> results(work.size());
  jobs = std::clamp(jobs, 1, 64);
  const int grid_jobs = std::max(1, jobs / static_cast<int>(std::max<std::size_t>(work.size(), 1)));
  parallel_for(work.size(), jobs, [&](std::size_t k) {
    const auto [fi, ci] = work[k];
    if (ci == std::string::npos) {
      std::string detail;
      std::istringstream in(load_errors[fi]);
      for (std::string l; std::getline(in, l);) detail += "  " + l + "\n";
      results[k] = CaseResult{paths[fi], "(file)", false, detail};
    } else {
      results[k] = run_vector_case(files[fi], ci, grid_jobs);
    }
  });
  return results;
}

}  // namespace ptxmma
