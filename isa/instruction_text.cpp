#include "isa/instruction_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "sim/error.hpp"

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

}  // namespace ptxmma
