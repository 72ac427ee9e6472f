#include "tools/vectors/wgmma_golden.hpp"

#include <fmt/format.h>

#include <spdlog/spdlog.h>

#include <climits>
#include <filesystem>

#include "sim/error.hpp"
#include "tools/vectors/data_file.hpp"
#include "tools/vectors/manifest_json.hpp"

namespace ptxmma {
namespace {

using manifest::field;
using manifest::json;

long long count(const json& j, const char* key, const std::string& where, long long lo, long long hi) {
  return manifest::integer(j, key, where, lo, hi);
}

int one_of(const json& j, const char* key, const std::string& where, std::initializer_list<int> allowed) {
  const auto v = count(j, key, where, LLONG_MIN, LLONG_MAX);
  for (int a : allowed)
    if (v == a) return a;
  std::string list;
  for (int a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
  throw Error(fmt::format("{}: '{}' = {} is not one of {}", where, key, v, list));
}

}  // namespace

std::string golden_format(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "manifest.json").string();
  return field<std::string>(manifest::parse(manifest::read(dir), path), "format", path);
}

std::string WgmmaGoldenEntry::label() const {
  std::string out = ptx + (operands.a_source == ASource::registers ? " [RS" : " [SS");
  if (operands.imm_scale_a != 1) out += fmt::format(", scale-a {}", operands.imm_scale_a);
  if (operands.imm_scale_b != 1) out += fmt::format(", scale-b {}", operands.imm_scale_b);
  if (operands.imm_trans_a) out += ", trans-a";
  if (operands.imm_trans_b) out += ", trans-b";
  return out + "]";
}

std::string WgmmaGoldenSet::family_of(int entry, int case_index) const {
  if (families.empty()) return "";
  return families[static_cast<std::size_t>(case_index + entry) % families.size()];
}

WgmmaGoldenSet read_wgmma_golden_set(const std::string& dir) {
  return parse_wgmma_golden_manifest(manifest::read(dir), dir);
}

WgmmaGoldenSet parse_wgmma_golden_manifest(const std::string& text, const std::string& dir) {
  WgmmaGoldenSet s;
  const json j = manifest::parse_header(text, dir, kWgmmaGoldenFormat, s);
  const std::string& m = s.manifest;
  s.smem_alloc_bytes = static_cast<std::uint32_t>(count(j, "smem_alloc_bytes", m, 1, 256 * 1024));
  std::uint64_t cases = 0;
  for (std::size_t i = 0; i < j["variants"].size(); ++i) {
    const json& e = j["variants"][i];
    WgmmaGoldenEntry v;
    v.index = static_cast<int>(i);
    v.ptx = field<std::string>(e, "ptx", fmt::format("{}: variants[{}]", m, i));
    const std::string w = fmt::format("{}: variants[{}] ({})", m, i, v.ptx);
    v.n = static_cast<int>(count(e, "n", w, 8, 256));
    const auto source = field<std::string>(e, "a_source", w);
    if (source == "descriptor") v.operands.a_source = ASource::descriptor;
    else if (source == "registers") v.operands.a_source = ASource::registers;
    else throw Error(fmt::format("{}: 'a_source' is '{}', not descriptor or registers", w, source));
    v.operands.imm_scale_a = one_of(e, "imm_scale_a", w, {1, -1});
    v.operands.imm_scale_b = one_of(e, "imm_scale_b", w, {1, -1});
    v.operands.imm_trans_a = one_of(e, "imm_trans_a", w, {0, 1});
    v.operands.imm_trans_b = one_of(e, "imm_trans_b", w, {0, 1});
    const auto file = field<std::string>(e, "file", w);
    if (file.empty() || file.find('/') != std::string::npos || file.find("..") != std::string::npos)
      throw Error(fmt::format("{}: 'file' must be a plain file name, not '{}'", w, file));
    v.file = (std::filesystem::path(dir) / file).string();
    v.cases = static_cast<int>(count(e, "cases", w, 1, 1 << 20));
    count_golden_cases(cases, v.cases, w);
    v.smem_bytes = static_cast<std::uint32_t>(count(e, "smem_bytes", w, 0, 256 * 1024));
    if (!e.contains("words")) throw Error(fmt::format("{}: missing 'words'", w));
    const std::string ww = w + ": words";
    v.a_words = static_cast<int>(count(e["words"], "a", ww, 0, 4));
    v.c_words = static_cast<int>(count(e["words"], "c", ww, 0, 128));
    v.d_words = static_cast<int>(count(e["words"], "d", ww, 1, 128));
    if (e.contains("sparse")) {
      v.selector = static_cast<int>(count(e["sparse"], "selector", w + ": sparse", 0, 3));
      v.e_words = static_cast<int>(count(e["words"], "e", ww, 1, 1));
    }
    if ((v.a_words != 0) != (v.operands.a_source == ASource::registers))
      throw Error(fmt::format("{}: words a = {} does not fit a_source '{}'", w, v.a_words, source));
    v.types = manifest::types(e, {"a", "b", "d"}, w);
    s.entries.push_back(std::move(v));
  }
  spdlog::debug("{}: set {} from {} ({}), {} entries", s.manifest, s.set, s.device, s.sm, s.entries.size());
  return s;
}

std::uint64_t wgmma_golden_file_bytes(const WgmmaGoldenEntry& e) {
  const std::uint64_t per_case = 32 + static_cast<std::uint64_t>(e.smem_bytes) +
                                 128ULL * 4 * static_cast<std::uint64_t>(e.a_words + e.c_words + e.e_words + e.d_words);
  return static_cast<std::uint64_t>(e.cases) * per_case;
}

std::vector<WgmmaGoldenCase> read_wgmma_golden_cases(const WgmmaGoldenEntry& e) {
  return split_wgmma_golden_cases(e, read_golden_file(e.file, wgmma_golden_file_bytes(e)), resolve_data_file(e.file));
}

std::vector<WgmmaGoldenCase> split_wgmma_golden_cases(const WgmmaGoldenEntry& e, std::span<const std::uint8_t> bytes,
                                                      const std::string& file) {
  std::size_t off = 0;
  const auto word = [&](std::size_t at) {
    return static_cast<std::uint32_t>(bytes[at]) | (static_cast<std::uint32_t>(bytes[at + 1]) << 8) |
           (static_cast<std::uint32_t>(bytes[at + 2]) << 16) | (static_cast<std::uint32_t>(bytes[at + 3]) << 24);
  };
  const std::size_t per_thread = static_cast<std::size_t>(e.a_words + e.c_words + e.e_words + e.d_words);
  // Grown case by case: a manifest's count must not allocate before the file shows it holds them.
  std::vector<WgmmaGoldenCase> cases;
  for (int i = 0; i < e.cases; ++i) {
    const auto fail = [&](const std::string& what) -> void {
      throw Error(fmt::format("{}: case {} ({}): {}", file, i, e.label(), what));
    };
    const auto need = [&](std::size_t n, const char* part) {
      if (bytes.size() - off < n)
        fail(fmt::format("the file ends inside the {} ({} bytes left, {} needed; truncated?)", part, bytes.size() - off, n));
    };
    WgmmaGoldenCase& c = cases.emplace_back();
    need(32, "header");
    c.desc_a = word(off) | (static_cast<std::uint64_t>(word(off + 4)) << 32);
    c.desc_b = word(off + 8) | (static_cast<std::uint64_t>(word(off + 12)) << 32);
    const std::uint32_t scale_d = word(off + 16);
    c.smem_base = word(off + 20);
    const std::uint32_t smem_bytes = word(off + 24);
    const std::uint32_t reserved = word(off + 28);
    off += 32;
    if (scale_d > 1) fail(fmt::format("header scale_d is {}, not 0 or 1", scale_d));
    c.scale_d = scale_d == 1;
    if (reserved != 0) fail(fmt::format("header word 7 is {:#x}, not 0", reserved));
    if (smem_bytes != e.smem_bytes)
      fail(fmt::format("header smem_bytes {} differs from the manifest's {}", smem_bytes, e.smem_bytes));
    if (c.smem_base % 16 != 0 || static_cast<std::uint64_t>(c.smem_base) + smem_bytes > 256 * 1024)
      fail(fmt::format("header smem_base {:#x} with {} bytes is not a 16-byte aligned range below 256 KiB", c.smem_base,
                       smem_bytes));
    if (e.operands.a_source == ASource::registers && c.desc_a != 0)
      fail(fmt::format("A comes from registers, but the header's desc_a is {:#x} (expected 0)", c.desc_a));
    need(smem_bytes, "shared-memory image");
    c.image.assign(bytes.begin() + static_cast<std::ptrdiff_t>(off), bytes.begin() + static_cast<std::ptrdiff_t>(off + smem_bytes));
    off += smem_bytes;
    need(128 * per_thread * 4, "thread words");
    c.a.reserve(128 * static_cast<std::size_t>(e.a_words));
    c.c.reserve(128 * static_cast<std::size_t>(e.c_words));
    c.d.reserve(128 * static_cast<std::size_t>(e.d_words));
    for (int t = 0; t < 128; ++t) {
      for (int k = 0; k < e.a_words; ++k, off += 4) c.a.push_back(word(off));
      for (int k = 0; k < e.c_words; ++k, off += 4) c.c.push_back(word(off));
      for (int k = 0; k < e.e_words; ++k, off += 4) c.e.push_back(word(off));
      for (int k = 0; k < e.d_words; ++k, off += 4) c.d.push_back(word(off));
    }
  }
  if (off != bytes.size())
    throw Error(fmt::format("{}: {} bytes after the last of the manifest's {} cases ({})", file, bytes.size() - off,
                            e.cases, e.label()));
  return cases;
}

}  // namespace ptxmma
