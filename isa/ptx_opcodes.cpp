#include "isa/ptx_opcodes.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

#include "isa/ptx_decode.hpp"
#include "sim/error.hpp"
#include "sim/util/suggest.hpp"

namespace ptxmma::ptx {

std::span<const OpcodeSpec> opcode_table() {
  static const std::vector<OpcodeSpec> table = [] {
    std::vector<OpcodeSpec> t;
    decode::register_alu(t);
    decode::register_memory(t);
    decode::register_warp(t);
    decode::register_special(t);
    decode::register_mbarrier(t);
    decode::register_atomic(t);
    return t;
  }();
  return table;
}

std::vector<std::string> expand_qualifier_axes(std::string_view forms) {
  std::vector<std::string> out = {""};
  std::size_t i = 0;
  while (i < forms.size()) {
    if (forms[i] == ' ') {
      ++i;
      continue;
    }
    std::vector<std::string> alts;
    if (forms[i] == '{') {
      const std::size_t j = forms.find('}', i);
      if (j == std::string_view::npos) throw Error(fmt::format("qualifier axes '{}': unclosed '{{'", forms));
      std::string_view body = forms.substr(i + 1, j - i - 1);
      for (std::size_t a = 0;;) {
        const std::size_t b = body.find('|', a);
        alts.emplace_back(body.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
        if (b == std::string_view::npos) break;
        a = b + 1;
      }
      i = j + 1;
    } else {
      const std::size_t j = std::min(forms.find(' ', i), forms.size());
      alts.emplace_back(forms.substr(i, j - i));
      i = j;
    }
    std::vector<std::string> next;
    for (const std::string& o : out)
      for (const std::string& a : alts) next.push_back(a.empty() ? o : o + "." + a);
    out = std::move(next);
  }
  return out;
}

std::vector<std::string> instruction_forms(std::string_view opcode) {
  std::vector<std::string> out;
  for (const OpcodeSpec& spec : opcode_table()) {
    if (!opcode.empty() && spec.opcode != opcode) continue;
    out.emplace_back(spec.opcode);
    if (spec.forms.empty()) continue;
    for (const std::string& quals : expand_qualifier_axes(spec.forms))
      if (!quals.empty()) out.push_back(std::string(spec.opcode) + quals);
  }
  return out;
}

std::string suggest_form(const Instruction& ins) {
  std::vector<std::string> forms = instruction_forms(ins.opcode);
  // An opcode without a forms column: its forms are not known here.
  if (forms.size() < 2) return "";
  forms.erase(forms.begin());  // the bare opcode
  std::set<std::string_view> used;
  for (const std::string& f : forms)
    for (std::size_t i = f.find('.'); i != std::string::npos;) {
      const std::size_t j = f.find('.', i + 1);
      used.insert(std::string_view(f).substr(i + 1, j == std::string::npos ? std::string::npos : j - i - 1));
      i = j;
    }
  // The forms column lists the common forms, not every one (cvt's newer types): a qualifier that
  // is a PTX type is no misspelling.
  for (const std::string& q : ins.quals)
    if (!used.contains(q) && !parse_ptx_type(q)) return did_you_mean(ins.text, forms);
  return "";
}

int find_opcode(std::string_view opcode) {
  const auto t = opcode_table();
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i].opcode == opcode) return static_cast<int>(i);
  return -1;
}

}  // namespace ptxmma::ptx
