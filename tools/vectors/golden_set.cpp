#include "tools/vectors/golden_set.hpp"

#include <fmt/format.h>

#include <spdlog/spdlog.h>

#include <filesystem>

#include "sim/error.hpp"
#include "tools/vectors/data_file.hpp"
#include "tools/vectors/manifest_json.hpp"

namespace ptxmma {
namespace {

using manifest::field;
using manifest::json;

int count(const json& j, const char* key, const std::string& where, int lo, int hi) {
  return static_cast<int>(manifest::integer(j, key, where, lo, hi));
}

}  // namespace

GoldenSet read_golden_set(const std::string& dir) {
  return parse_golden_manifest(manifest::read(dir), dir);
}

GoldenSet parse_golden_manifest(const std::string& text, const std::string& dir) {
  GoldenSet s;
  const json j = manifest::parse_header(text, dir, "ptxmma-golden-regs-v1", s);
  const std::string& m = s.manifest;
  std::uint64_t cases = 0;
  for (std::size_t i = 0; i < j["variants"].size(); ++i) {
    const json& e = j["variants"][i];
    GoldenVariant v;
    v.index = static_cast<int>(i);
    const std::string where = fmt::format("{}: variants[{}]", m, i);
    v.ptx = field<std::string>(e, "ptx", where);
    const std::string w2 = fmt::format("{}: variants[{}] ({})", m, i, v.ptx);
    const auto file = field<std::string>(e, "file", w2);
    if (file.empty() || file.find('/') != std::string::npos || file.find("..") != std::string::npos)
      throw Error(fmt::format("{}: 'file' must be a plain file name, not '{}'", w2, file));
    v.file = (std::filesystem::path(dir) / file).string();
    v.cases = count(e, "cases", w2, 1, 1 << 20);
    count_golden_cases(cases, v.cases, w2);
    const json words = e.contains("words") ? e["words"] : json();
    v.words = OperandWords{count(words, "a", w2 + ": words", 0, 64), count(words, "b", w2 + ": words", 0, 64),
                           count(words, "c", w2 + ": words", 0, 64), count(words, "d", w2 + ": words", 1, 64)};
    if (e.contains("sparse")) {
      v.selector = count(e["sparse"], "selector", w2 + ": sparse", 0, 3);
      v.words.e = count(words, "e", w2 + ": words", 1, 1);
    } else if (words.is_object() && words.contains("e")) {
      throw Error(fmt::format("{}: words: 'e' (metadata) belongs to a sparse entry, which names its \"sparse\": "
                              "{{\"selector\": S}}", w2));
    }
    v.types = manifest::types(e, {"a", "b", "c", "d"}, w2);
    s.variants.push_back(std::move(v));
  }
  spdlog::debug("{}: set {} from {} ({}), {} variants", s.manifest, s.set, s.device, s.sm, s.variants.size());
  return s;
}

std::uint64_t golden_file_bytes(const GoldenVariant& v) {
  return static_cast<std::uint64_t>(v.cases) * 32 * static_cast<std::uint64_t>(v.words.total()) * 4;
}

std::vector<GoldenCase> read_golden_cases(const GoldenVariant& v) {
  return split_golden_cases(v, read_golden_file(v.file, golden_file_bytes(v)), resolve_data_file(v.file));  // or its .xz
}

std::vector<GoldenCase> split_golden_cases(const GoldenVariant& v, std::span<const std::uint8_t> bytes,
                                           const std::string& file) {
  const auto size = static_cast<std::uint64_t>(bytes.size());
  const std::uint64_t lane_words = static_cast<std::uint64_t>(v.words.total());
  const std::uint64_t expected = static_cast<std::uint64_t>(v.cases) * 32 * lane_words * 4;
  if (size != expected)
    throw Error(fmt::format("{}: {} bytes, but the manifest's {} cases x 32 lanes x {} words need {}{}", file, size, v.cases, lane_words, expected,
                            size < expected ? " (truncated?)" : ""));
  std::vector<std::uint32_t> all(static_cast<std::size_t>(expected / 4));
  for (std::size_t i = 0; i < all.size(); ++i)  // little-endian words, whatever the host
    all[i] = bytes[4 * i] | (bytes[4 * i + 1] << 8) | (bytes[4 * i + 2] << 16) |
             (static_cast<std::uint32_t>(bytes[4 * i + 3]) << 24);
  std::vector<GoldenCase> cases(static_cast<std::size_t>(v.cases));
  const auto* p = all.data();
  for (auto& c : cases) {
    for (int lane = 0; lane < 32; ++lane) {
      c.a.insert(c.a.end(), p, p + v.words.a);
      p += v.words.a;
      c.b.insert(c.b.end(), p, p + v.words.b);
      p += v.words.b;
      c.c.insert(c.c.end(), p, p + v.words.c);
      p += v.words.c;
      c.e.insert(c.e.end(), p, p + v.words.e);
      p += v.words.e;
      c.d.insert(c.d.end(), p, p + v.words.d);
      p += v.words.d;
    }
  }
  return cases;
}

}  // namespace ptxmma
