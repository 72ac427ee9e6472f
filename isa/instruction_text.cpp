#include "isa/instruction_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "sim/error.hpp"
#include "sim/numeric/rounding.hpp"
#include "sim/numeric/type.hpp"
#include "sim/util/suggest.hpp"

namespace ptxmma {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t p = 0;
  for (;;) {
    const std::size_t q = s.find(sep, p);
    out.push_back(s.substr(p, q == std::string_view::npos ? std::string_view::npos : q - p));
    if (q == std::string_view::npos) return out;
    p = q + 1;
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == ';')) s.remove_suffix(1);
  return s;
}

Fail fail_with(const std::string& text) {
  return [&text](const std::string& what) { throw Error(fmt::format("{}: {}", text, what)); };
}

bool take_shape(std::string_view t, Shape& shape, bool& seen, bool types_started, const Fail& fail) {
  const auto s = parse_shape(t);
  if (!s) return false;
  if (seen) fail(fmt::format("two shapes: .{} and .{}", shape_name(shape), t));
  if (types_started) fail(fmt::format("the shape '.{}' must come before the types", t));
  shape = *s;
  seen = true;
  return true;
}

std::vector<std::string_view> instruction_tokens(std::string_view raw, std::string& out, const InstructionForm& form) {
  out = std::string(trim(raw));
  const std::string_view text = out;
  if (text.empty()) throw Error(fmt::format("empty {} instruction", form.opcode));
  if (std::any_of(text.begin(), text.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
    throw Error(fmt::format("{}: expected the instruction without operands (no spaces), e.g. {}", text, form.example));
  std::vector<std::string_view> tok = split(text);
  if (tok[0] != form.opcode) throw Error(fmt::format("{}: not {}", text, form.expected));
  return tok;
}

std::string one_of(const std::vector<std::string>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + v[i];
  return out;
}

std::string all_of(const std::vector<std::string>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i == 0 ? "" : ", ") + v[i];
  return out;
}

void add_unique(std::vector<std::string>& v, std::string s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

void rethrow_suggesting(const Error& e, std::string_view text, const MatrixCatalog& catalog) {
  const std::string_view written = trim(text);
  // Only a qualifier that no variant uses and that is no type or rounding is a misspelling; an
  // illegal combination of known ones (bf16 into f16 D, f64 for wgmma, a target too old) has its
  // own message, and so has bad syntax (operands, empty qualifiers).
  if (written.find_first_of(" \t") != std::string_view::npos) throw e;
  std::set<std::string_view> words;
  for (const MatrixVariant& v : catalog.variants())
    for (const std::string_view w : split(v.ptx)) words.insert(w);
  bool misspelt = false;
  for (const std::string_view w : split(written)) {
    if (w.empty()) throw e;
    misspelt = misspelt || (!words.contains(w) && !parse_type(w) && !parse_rounding(w));
  }
  if (!misspelt) throw e;
  std::vector<std::string> names;
  for (const MatrixVariant& v : catalog.variants()) add_unique(names, v.ptx);
  throw Error(std::string(e.what()) + did_you_mean(written, names));
}

}  // namespace ptxmma
