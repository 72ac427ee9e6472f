#include "tools/vectors/golden_vectors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>

#include "isa/wmma_instruction.hpp"
#include "isa/wgmma_instruction.hpp"
#include "sim/error.hpp"
#include "sim/exec/wgmma.hpp"
#include "sim/model/model.hpp"
#include "tools/vectors/golden_set.hpp"
#include "tools/vectors/matrix_operands.hpp"
#include "tools/vectors/value_text.hpp"
#include "tools/vectors/wgmma_golden.hpp"
#include "tools/vectors/wgmma_operands.hpp"

namespace ptxmma {

namespace {

constexpr int kMaxIndex = 1 << 20;  // no manifest has more entries or cases (golden-set counts)

// "0,3-5" -> {0, 3, 4, 5}, sorted, each index once (so that "0-1048575" repeated on a command
// line costs no more than once); nullopt when it is not such a list of indices below kMaxIndex.
std::optional<std::vector<int>> index_list(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::vector<bool> in(kMaxIndex);
  while (!s.empty()) {
    const std::size_t comma = s.find(',');
    const std::string_view part = s.substr(0, comma);
    s = comma == std::string_view::npos ? std::string_view() : s.substr(comma + 1);
    const std::size_t dash = part.find('-');
    int lo = 0, hi = 0;
    const auto num = [](std::string_view t, int& v) {
      const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      return !t.empty() && ec == std::errc() && p == t.data() + t.size() && v >= 0 && v < kMaxIndex;
    };
    if (!num(part.substr(0, dash), lo)) return std::nullopt;
    hi = lo;
    if (dash != std::string_view::npos && !num(part.substr(dash + 1), hi)) return std::nullopt;
    if (hi < lo) return std::nullopt;
    for (int i = lo; i <= hi; ++i) in[static_cast<std::size_t>(i)] = true;
  }
  std::vector<int> out;
  for (int i = 0; i < kMaxIndex; ++i)
    if (in[static_cast<std::size_t>(i)]) out.push_back(i);
  return out;
}

bool selected(const std::vector<int>& list, int i) { return list.empty() || std::binary_search(list.begin(), list.end(), i); }

// A selection must name what exists.
void check_selection(const std::vector<int>& list, int count, const std::string& what) {
  for (const int i : list)
    if (i >= count) throw Error(fmt::format("{} {} does not exist (there are {})", what, i, count));
}

std::string cell(std::uint64_t raw, int bits) { return bits == 1 ? std::string(raw ? "1" : "0") : hex_text(raw, bits); }

void emit_matrix(std::string& out, const char* key, std::span<const std::uint64_t> m, int rows, int cols, int bits,
                 const char* indent) {
  out += fmt::format("{}{}:\n", indent, key);
  for (int r = 0; r < rows; ++r) {
    std::string row;
    for (int c = 0; c < cols; ++c) {
      if (c && bits != 1) row += ' ';
      row += cell(m[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)], bits);
    }
    out += fmt::format("{}  - \"{}\"\n", indent, row);
  }
}

struct Emitted {
  std::string yaml;
  std::optional<std::string> skip;  // why the record is not written
};

// ---- mma ----

Emitted mma_record(const GoldenSet& s, const GoldenVariant& gv, const MatrixVariant& v, const GoldenCase& g, int ci,
                   const std::string& where) {
  Emitted e;
  if (v.block_scale) return {"", "block-scaled records carry no scale matrices in this format"};
  const auto same = [&](Operand o, std::span<const std::uint64_t> values, const std::vector<std::uint32_t>& words) {
    return operand_words(v, o, values) == words;
  };
  std::vector<std::uint64_t> a = operand_values(v, Operand::a, g.a);
  if (!same(Operand::a, a, g.a)) return {"", "A's words hold bits outside its elements"};
  if (v.sparse != Sparsity::dense) {
    std::vector<int> cols, cols2;
    std::vector<std::uint64_t> logical;
    try {
      logical = expand_sparse_a(v, a, g.e, gv.selector, &cols);
    } catch (const Error& err) {
      return {"", err.what()};
    }
    SparseA back;
    try {
      back = sparse_a_words(v, logical);
    } catch (const Error& err) {
      return {"", err.what()};
    }
    (void)expand_sparse_a(v, operand_values(v, Operand::a, back.a), back.meta, 0, &cols2);
    if (back.a != g.a || cols != cols2)
      return {"", "the logical A compresses (selector 0) to other stored elements or columns than the GPU read"};
    a = std::move(logical);
  }
  const std::vector<std::uint64_t> b = operand_values(v, Operand::b, g.b), c = operand_values(v, Operand::c, g.c),
                                   d = operand_values(v, Operand::d, g.d);
  if (!same(Operand::b, b, g.b) || !same(Operand::c, c, g.c)) return {"", "B's or C's words hold bits outside their elements"};
  const auto spec = [&](Operand o) {
    const RegisterCodec cd = v.codec(o);
    const Type t = cd.type();
    return std::pair{in_container(t) ? info(t).bits : cd.bits(), cd.rows()};
  };
  const int m = v.codec(Operand::a).rows(), k = v.shape.k, n = v.codec(Operand::b).cols();
  const int a_cols = v.sparse != Sparsity::dense ? k : v.codec(Operand::a).cols();  // m8n8k4: problems stacked
  std::string& out = e.yaml;
  out += fmt::format("  - name: \"{} {}:{} {}\"\n", s.set, gv.index, ci, gv.ptx);
  out += fmt::format("    # {} entry {} case {}{}, {} ({})\n", where, gv.index, ci,
                     s.families.empty() ? "" : fmt::format(" (family {})", s.families[static_cast<std::size_t>(ci) % s.families.size()]),
                     s.device, s.sm);
  if (gv.selector > 0) out += fmt::format("    # recorded with sparsity selector {}; the case's A is compressed for selector 0\n", gv.selector);
  out += fmt::format("    instruction: {}\n", gv.ptx);
  emit_matrix(out, "A", a, m, a_cols, spec(Operand::a).first, "    ");
  emit_matrix(out, "B", b, spec(Operand::b).second, n, spec(Operand::b).first, "    ");
  emit_matrix(out, "C", c, spec(Operand::c).second, n, spec(Operand::c).first, "    ");
  out += "    expect:\n";
  emit_matrix(out, "D", d, spec(Operand::d).second, n, spec(Operand::d).first, "      ");
  return e;
}

// ---- wgmma ----

Emitted wgmma_record(const WgmmaGoldenSet& s, const WgmmaGoldenEntry& ge, const WgmmaExecutor& x,
                     const WgmmaGoldenCase& g, int ci, const std::string& where) {
  const MatrixVariant& v = x.variant();
  const bool regs = ge.operands.a_source == ASource::registers;
  const int m = v.shape.m, n = v.shape.n, k = v.shape.k;
  SharedMemory smem;
  smem.write(g.smem_base, g.image, "the record's shared-memory image");
  const WgmmaInputs gpu{.shared = smem.bytes(), .desc_a = g.desc_a, .a = g.a, .desc_b = g.desc_b, .scale_d = true, .c = {},
                        .meta = g.e, .selector = ge.selector};
  std::vector<std::uint64_t> a, b;
  std::vector<int> cols;
  try {
    a = regs ? v.codec(Operand::a).gather(g.a) : read_shared_operand(smem, x.a_addressing(g.desc_a));
    b = transpose(read_shared_operand(smem, x.b_addressing(g.desc_b)), n, k);
    if (v.is_sparse()) a = expand_sparse_a(v, a, g.e, ge.selector, &cols);
  } catch (const Error& err) {
    return {"", err.what()};
  }
  // The case as ptxmma test builds it, read back through the executor.
  SharedImage image;
  SharedMemory mine;
  WgmmaInputs in = gpu;
  std::vector<std::uint32_t> a_words;
  try {
    std::vector<std::uint64_t> stored = a;
    if (v.is_sparse()) {
      SparseMetadata::Compressed sa = compress_sparse_a(v, a);
      std::vector<int> cols2;
      (void)expand_sparse_a(v, sa.stored, sa.meta, 0, &cols2);
      if (cols2 != cols) return {"", "the logical A compresses (selector 0) to other columns than the GPU read"};
      stored = std::move(sa.stored);
      in.meta = sa.meta;
      in.selector = 0;
    }
    if (regs) {
      a_words = v.codec(Operand::a).scatter(stored);
      in.a = a_words;
    } else {
      image.place(x.a_addressing(g.desc_a), stored, "A");
    }
    image.place(x.b_addressing(g.desc_b), transpose(b, k, n), "B");
    image.write_to(mine);
    in.shared = mine.bytes();
    const WgmmaExecutor::Operands want = x.fetch(gpu), got = x.fetch(in);
    if (want.a != got.a || want.b != got.b) return {"", "the case's placement reads other A or B elements than the GPU read"};
  } catch (const Error& err) {
    return {"", err.what()};
  }
  const RegisterCodec cd = v.codec(Operand::d);
  const int abits = element_bits(v.a), bbits = element_bits(v.b), dbits = element_bits(v.d);
  Emitted e;
  std::string& out = e.yaml;
  out += fmt::format("  - name: \"{} {}:{} {}\"\n", s.set, ge.index, ci, ge.label());
  out += fmt::format("    # {} entry {} case {}{}, {} ({})\n", where, ge.index, ci,
                     s.families.empty() ? "" : fmt::format(" (family {})", s.family_of(ge.index, ci)), s.device, s.sm);
  if (ge.selector > 0)
    out += fmt::format("    # recorded with sp-sel {}; the case's A is compressed for selector 0\n", ge.selector);
  out += fmt::format("    instruction: {}\n", ge.ptx);
  if (regs) out += "    a_source: registers\n";
  else out += fmt::format("    desc_a: {:#018x}    # {}\n", g.desc_a, MatrixDescriptor::decode(g.desc_a).text());
  out += fmt::format("    desc_b: {:#018x}    # {}\n", g.desc_b, MatrixDescriptor::decode(g.desc_b).text());
  if (!g.scale_d) out += "    scale_d: 0\n";
  if (ge.operands.imm_scale_a != 1) out += fmt::format("    imm_scale_a: {}\n", ge.operands.imm_scale_a);
  if (ge.operands.imm_scale_b != 1) out += fmt::format("    imm_scale_b: {}\n", ge.operands.imm_scale_b);
  if (ge.operands.imm_trans_a != 0) out += fmt::format("    imm_trans_a: {}\n", ge.operands.imm_trans_a);
  if (ge.operands.imm_trans_b != 0) out += fmt::format("    imm_trans_b: {}\n", ge.operands.imm_trans_b);
  emit_matrix(out, "A", a, m, k, abits, "    ");
  emit_matrix(out, "B", b, k, n, bbits, "    ");
  emit_matrix(out, "C", cd.gather(g.c), m, n, dbits, "    ");
  out += "    expect:\n";
  emit_matrix(out, "D", cd.gather(g.d), m, n, dbits, "      ");
  return e;
}

}  // namespace

GoldenRecords parse_golden_records(const std::string& text) {
  GoldenRecords r;
  r.dir = text;
  // Trailing ":LIST" parts, from the right (a folder name may itself hold a colon).
  std::vector<std::vector<int>> lists;
  while (lists.size() < 2) {
    const std::size_t colon = r.dir.rfind(':');
    if (colon == std::string::npos) break;
    const std::string_view tail = std::string_view(r.dir).substr(colon + 1);
    const auto list = index_list(tail);
    if (!list) {
      // Digits that are no list (3-1, 99999999999) would otherwise be read as part of a folder name.
      std::error_code ec;
      if (tail.find_first_not_of("0123456789,-") == std::string_view::npos && !std::filesystem::exists(r.dir, ec))
        throw Error(fmt::format("{}: bad index list '{}' (indices 0..{} such as 0,3-5, low before high)", text, tail,
                                kMaxIndex - 1));
      break;
    }
    lists.insert(lists.begin(), *list);
    r.dir.resize(colon);
  }
  if (!lists.empty()) r.entries = lists[0];
  if (lists.size() > 1) r.cases = lists[1];
  return r;
}

std::string list_golden_records(const GoldenRecords& r) {
  std::string out;
  if (golden_format(r.dir) == kWgmmaGoldenFormat) {
    const WgmmaGoldenSet s = read_wgmma_golden_set(r.dir);
    check_selection(r.entries, static_cast<int>(s.entries.size()), fmt::format("{}: entry", r.dir));
    for (const WgmmaGoldenEntry& ge : s.entries) {
      if (!selected(r.entries, ge.index)) continue;
      check_selection(r.cases, ge.cases, fmt::format("{}: entry {}: case", r.dir, ge.index));
      const std::vector<WgmmaGoldenCase> cases = read_wgmma_golden_cases(ge);
      for (int ci = 0; ci < ge.cases; ++ci) {
        if (!selected(r.cases, ci)) continue;
        const WgmmaGoldenCase& g = cases[static_cast<std::size_t>(ci)];
        const auto desc = [](std::uint64_t d) {
          try {
            return MatrixDescriptor::decode(d).text();
          } catch (const Error& e) {
            return std::string(e.what());
          }
        };
        out += fmt::format("{}:{}:{}  {}{}  family {}  {}B: {}  scale-d {}\n", r.dir, ge.index, ci, ge.label(),
                           ge.selector >= 0 ? fmt::format(" sp-sel {}", ge.selector) : "", s.family_of(ge.index, ci),
                           ge.operands.a_source == ASource::descriptor ? fmt::format("A: {}  ", desc(g.desc_a)) : "",
                           desc(g.desc_b), g.scale_d ? 1 : 0);
      }
    }
    return out;
  }
  const GoldenSet s = read_golden_set(r.dir);
  check_selection(r.entries, static_cast<int>(s.variants.size()), fmt::format("{}: entry", r.dir));
  for (const GoldenVariant& gv : s.variants) {
    if (!selected(r.entries, gv.index)) continue;
    check_selection(r.cases, gv.cases, fmt::format("{}: entry {}: case", r.dir, gv.index));
    for (int ci = 0; ci < gv.cases; ++ci)
      if (selected(r.cases, ci))
        out += fmt::format("{}:{}:{}  {}{}  family {}\n", r.dir, gv.index, ci, gv.ptx,
                           gv.selector >= 0 ? fmt::format(" selector {}", gv.selector) : "",
                           s.families.empty() ? "" : s.families[static_cast<std::size_t>(ci) % s.families.size()]);
  }
  return out;
}

GoldenVectors golden_to_vectors(const std::vector<GoldenRecords>& records, const std::string& target,
                                const std::string& command) {
  GoldenVectors out;
  std::string body;
  std::vector<std::string> sets;
  const auto take = [&](const std::string& at, Emitted e) {
    if (e.skip) {
      out.skipped.push_back(fmt::format("{}: {}", at, *e.skip));
      return;
    }
    body += e.yaml;
    ++out.cases;
  };
  const auto add_set = [&](std::string name) {
    if (std::find(sets.begin(), sets.end(), name) == sets.end()) sets.push_back(std::move(name));
  };
  for (const GoldenRecords& r : records) {
    if (golden_format(r.dir) == kWgmmaGoldenFormat) {
      const WgmmaGoldenSet s = read_wgmma_golden_set(r.dir);
      add_set(fmt::format("{} ({}, {})", s.set, s.device, s.sm));
      check_selection(r.entries, static_cast<int>(s.entries.size()), fmt::format("{}: entry", r.dir));
      for (const WgmmaGoldenEntry& ge : s.entries) {
        if (!selected(r.entries, ge.index)) continue;
        check_selection(r.cases, ge.cases, fmt::format("{}: entry {}: case", r.dir, ge.index));
        const MatrixVariant& v = *parse_wgmma(ge.ptx, target).variant;
        const WgmmaExecutor x(v, models_for(target).select(v.family, v.a, v.d), ge.operands);
        const std::vector<WgmmaGoldenCase> cases = read_wgmma_golden_cases(ge);
        for (int ci = 0; ci < ge.cases; ++ci)
          if (selected(r.cases, ci))
            take(fmt::format("{}:{}:{}", r.dir, ge.index, ci),
                 wgmma_record(s, ge, x, cases[static_cast<std::size_t>(ci)], ci, r.dir));
      }
      continue;
    }
    const GoldenSet s = read_golden_set(r.dir);
    add_set(fmt::format("{} ({}, {})", s.set, s.device, s.sm));
    check_selection(r.entries, static_cast<int>(s.variants.size()), fmt::format("{}: entry", r.dir));
    for (const GoldenVariant& gv : s.variants) {
      if (!selected(r.entries, gv.index)) continue;
      check_selection(r.cases, gv.cases, fmt::format("{}: entry {}: case", r.dir, gv.index));
      const MatrixVariant& v = *parse_warp_mma(gv.ptx, target).variant;
      const std::vector<GoldenCase> cases = read_golden_cases(gv);
      for (int ci = 0; ci < gv.cases; ++ci)
        if (selected(r.cases, ci))
          take(fmt::format("{}:{}:{}", r.dir, gv.index, ci),
               mma_record(s, gv, v, cases[static_cast<std::size_t>(ci)], ci, r.dir));
    }
  }
  if (out.cases == 0) throw Error("no record of the golden sets given could be written as a case");
  std::string sets_text;
  for (const auto& s : sets) sets_text += (sets_text.empty() ? "" : ", ") + s;
  out.yaml = fmt::format("# Test vectors from golden sets, written by\n#   {}\n# (docs/test-vectors.md, tests/data/README.md): "
                         "the operands each GPU took, as matrices, and its D.\n"
                         "description: \"instruction cases from golden sets: {}\"\ntarget: {}\ncases:\n",
                         command, sets_text, target) + body;
  return out;
}

}  // namespace ptxmma
