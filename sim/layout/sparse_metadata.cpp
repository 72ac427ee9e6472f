#include "sim/layout/sparse_metadata.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>

#include "sim/error.hpp"
#include "sim/layout/expr.hpp"
#include "sim/util/yaml_file.hpp"

namespace ptxmma {

std::string_view name(SparsePattern p) {
  return p == SparsePattern::two_of_four ? "2:4" : p == SparsePattern::one_of_two ? "1:2" : "4:8";
}
int chunk_columns(SparsePattern p) { return p == SparsePattern::two_of_four ? 4 : p == SparsePattern::one_of_two ? 2 : 8; }
int stored_per_chunk(SparsePattern p) {
  return p == SparsePattern::two_of_four ? 2 : p == SparsePattern::one_of_two ? 1 : 4;
}

const char* chunk_columns(SparsePattern p, unsigned nibble, bool ordered, int* cols) {
  if (p == SparsePattern::one_of_two) {
    if (nibble != 0b0100 && nibble != 0b1110) return "a tf32 nibble must be 0b0100 or 0b1110";
    cols[0] = nibble == 0b0100 ? 0 : 1;
    return nullptr;
  }
  const int idx0 = static_cast<int>(nibble & 3), idx1 = static_cast<int>(nibble >> 2);
  if (idx0 == idx1) return "both indices are the same";
  if (ordered && idx0 > idx1) return "sp::ordered_metadata needs the first index below the second";
  if (p == SparsePattern::two_of_four) {
    cols[0] = idx0, cols[1] = idx1;
  } else {  // 4:8: stored elements 0-1 fill pair idx0, 2-3 pair idx1
    cols[0] = 2 * idx0, cols[1] = 2 * idx0 + 1, cols[2] = 2 * idx1, cols[3] = 2 * idx1 + 1;
  }
  return nullptr;
}

int covering_nibble(SparsePattern p, unsigned needed) {
  int cols[4];
  for (unsigned nibble = 0; nibble < 16; ++nibble) {
    if (chunk_columns(p, nibble, true, cols) != nullptr) continue;
    unsigned kept = 0;
    for (int s = 0; s < stored_per_chunk(p); ++s) kept |= 1U << cols[s];
    if ((needed & ~kept) == 0) return static_cast<int>(nibble);
  }
  return -1;
}

void SparseMetadata::place(int sel, int lane, int n, int row, int chunk, std::vector<bool>& seen) {
  if (row < 0 || row >= rows || chunk < 0 || chunk >= chunks)
    throw Error(fmt::format("metadata {}: selector {}, lane {}, nibble {} -> (row {}, chunk {}) is outside {} x {}",
                            name, sel, lane, n, row, chunk, rows, chunks));
  const auto at = static_cast<std::size_t>((sel * rows + row) * chunks + chunk);
  if (seen[at]) {
    const Source& s = sources_[at];
    throw Error(fmt::format("metadata {}: selector {}: lane {} nibble {} and lane {} nibble {} both describe row {}, chunk {}",
                            name, sel, s.lane, s.nibble, lane, n, row, chunk));
  }
  seen[at] = true;
  sources_[at] = Source{static_cast<std::uint8_t>(lane), static_cast<std::uint8_t>(n)};
}

void SparseMetadata::check_complete(const std::vector<bool>& seen) const {
  for (std::size_t at = 0; at < seen.size(); ++at)
    if (!seen[at]) {
      const auto per_sel = static_cast<std::size_t>(rows * chunks);
      throw Error(fmt::format("metadata {}: selector {}: no nibble describes row {}, chunk {}", name, at / per_sel,
                              at % per_sel / static_cast<std::size_t>(chunks), at % static_cast<std::size_t>(chunks)));
    }
}

void SparseMetadata::undefined(SparsePattern p, const Source& src, unsigned nibble, int row, int chunk,
                               const char* why) const {
  const int w = chunk_columns(p);
  throw Error(fmt::format("sparse metadata: lane {} nibble {} = {:#06b} (A row {}, K columns {}-{}): {}; the "
                          "result is undefined",
                          src.lane, src.nibble, nibble, row, chunk * w, chunk * w + w - 1, why));
}

void SparseMetadata::row_columns(SparsePattern p, bool ordered, std::span<const std::uint32_t> meta, int sel, int row,
                                 int* cols) const {
  columns_of_row(p, ordered, meta, sel, row, cols);
}

void SparseMetadata::all_columns(SparsePattern p, bool ordered, std::span<const std::uint32_t> meta, int sel,
                                 int* cols) const {
  const int per_row = chunks * stored_per_chunk(p);
  for (int row = 0; row < rows; ++row) columns_of_row(p, ordered, meta, sel, row, cols + row * per_row);
}

inline void SparseMetadata::columns_of_row(SparsePattern p, bool ordered, std::span<const std::uint32_t> meta, int sel,
                                           int row, int* cols) const {
  // Locals, and one loop per pattern: the stores to cols could otherwise change what the loop
  // reads (GCC reloaded the table and recomputed each source's index per chunk).
  const int count = chunks;
  const Source* src = sources_.data() + static_cast<std::size_t>((sel * rows + row) * count);
  const std::uint32_t* words = meta.data();
  const auto nibble_of = [&](int c) { return (words[src[c].lane] >> (4 * src[c].nibble)) & 0xFU; };
  const auto check = [&](int c, unsigned nibble) {
    int unused[4];
    if (const char* why = chunk_columns(p, nibble, ordered, unused)) undefined(p, src[c], nibble, row, c, why);
  };
  if (p == SparsePattern::one_of_two) {
    for (int c = 0; c < count; ++c) {
      const unsigned nibble = nibble_of(c);
      if (nibble != 0b0100 && nibble != 0b1110) check(c, nibble);
      cols[c] = 2 * c + (nibble == 0b1110 ? 1 : 0);
    }
    return;
  }
  for (int c = 0; c < count; ++c) {
    const unsigned nibble = nibble_of(c);
    const int idx0 = static_cast<int>(nibble & 3), idx1 = static_cast<int>(nibble >> 2);
    if (idx0 == idx1 || (ordered && idx0 > idx1)) check(c, nibble);
    if (p == SparsePattern::two_of_four) {
      cols[2 * c] = 4 * c + idx0;
      cols[2 * c + 1] = 4 * c + idx1;
    } else {  // 4:8: stored elements 0-1 fill pair idx0, 2-3 pair idx1
      int* at = cols + 4 * c;
      at[0] = 8 * c + 2 * idx0, at[1] = 8 * c + 2 * idx0 + 1, at[2] = 8 * c + 2 * idx1, at[3] = 8 * c + 2 * idx1 + 1;
    }
  }
}

SparseMetadata::Compressed SparseMetadata::compress(SparsePattern p, std::span<const std::uint64_t> logical, int k,
                                                    int sel, int first_row) const {
  const int w = chunk_columns(p), per = stored_per_chunk(p);
  if (k != chunks * w || logical.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(k))
    throw Error(fmt::format("sparse A: expected {} x {} elements, got {}", rows, chunks * w, logical.size()));
  Compressed out{std::vector<std::uint64_t>(logical.size() / 2), std::vector<std::uint32_t>(32, 0)};
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < chunks; ++c) {
      const std::uint64_t* chunk = &logical[static_cast<std::size_t>(r * k + c * w)];
      unsigned needed = 0;
      for (int i = 0; i < w; ++i) needed |= (chunk[i] != 0 ? 1U : 0U) << i;
      const int nibble = covering_nibble(p, needed);
      if (nibble < 0) {
        const std::string held =
            p == SparsePattern::four_of_eight
                ? fmt::format("nonzero elements in {} pairs of columns; 4:8 sparsity keeps two pairs",
                              std::popcount((needed | needed >> 1) & 0x55U))
                : fmt::format("{} nonzero elements; {} sparsity keeps {}", std::popcount(needed), ptxmma::name(p), per);
        throw Error(fmt::format("sparse A: row {}, columns {}-{} hold {}", first_row + r, c * w, c * w + w - 1, held));
      }
      int cols[4];
      chunk_columns(p, static_cast<unsigned>(nibble), true, cols);
      for (int s = 0; s < per; ++s) out.stored[static_cast<std::size_t>(r * k / 2 + c * per + s)] = chunk[cols[s]];
      const Source& src = source(sel, r, c);
      out.meta[src.lane] |= static_cast<std::uint32_t>(nibble) << (4 * src.nibble);
    }
  return out;
}

SparseLibrary SparseLibrary::load(const std::string& path) {
  const YamlFile f = YamlFile::load(path);
  f.check_unique_keys();
  SparseLibrary lib;
  f.check_keys(f.root, {"patterns", "metadata"}, "the file");
  const YAML::Node classes = f.root["metadata"];
  f.check_keys(f.root["patterns"], {"2:4", "1:2", "4:8"}, "'patterns'");
  for (const char* p : {"2:4", "1:2", "4:8"}) {
    const YAML::Node n = f.root["patterns"][p];
    const SparsePattern sp = p[0] == '2' ? SparsePattern::two_of_four : p[0] == '1' ? SparsePattern::one_of_two
                                                                                    : SparsePattern::four_of_eight;
    if (!n || f.get<int>(n, "chunk") != chunk_columns(sp) || f.get<int>(n, "stored") != stored_per_chunk(sp))
      f.fail(n ? n : f.root["patterns"], fmt::format("pattern {} is {{chunk: {}, stored: {}}}", p, chunk_columns(sp),
                                                     stored_per_chunk(sp)));
  }
  if (!classes || !classes.IsMap()) f.fail(f.root, "'metadata' maps a class name to its description");
  static constexpr std::array<std::string_view, 5> kVars = {"lane", "g", "t", "n", "sel"};
  for (const auto& kv : classes) {
    const YAML::Node& d = kv.second;
    SparseMetadata m;
    m.name = kv.first.as<std::string>();
    f.check_keys(d, {"selectors", "rows", "chunks", "lane", "row", "chunk"}, "metadata " + m.name);
    m.selectors = f.get<int>(d, "selectors");
    m.rows = f.get<int>(d, "rows");
    m.chunks = f.get<int>(d, "chunks");
    if (m.selectors < 1 || m.selectors > 4 || m.rows < 1 || m.rows > 64 || m.chunks < 1 || m.chunks > 64)
      f.fail(d, fmt::format("metadata {}: selectors 1-4, rows and chunks 1-64", m.name));
    try {
      const Expr lane = Expr::compile(f.get<std::string>(d, "lane"), kVars);
      const Expr row = Expr::compile(f.get<std::string>(d, "row"), kVars);
      const Expr chunk = Expr::compile(f.get<std::string>(d, "chunk"), kVars);
      m.build([&](int l, int n, int sel, int* r, int* c) {
        const std::array<std::int64_t, 5> v = {l, l >> 2, l % 4, n, sel};
        if (lane.eval(v) == 0) return false;
        *r = static_cast<int>(row.eval(v));
        *c = static_cast<int>(chunk.eval(v));
        return true;
      });
    } catch (const Error& e) {
      f.fail(kv.first, e.what());
    }
    lib.classes_.emplace(m.name, std::move(m));
  }
  return lib;
}

const SparseMetadata* SparseLibrary::find(std::string_view name) const {
  const auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : &it->second;
}

}  // namespace ptxmma
