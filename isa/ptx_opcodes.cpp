#include "isa/ptx_opcodes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <span>
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
    decode::register_tcgen05(t);
    decode::register_tensormap(t);
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
    if (spec.opcode != opcode) continue;
    out.emplace_back(spec.opcode);
    if (spec.forms.empty()) continue;
    for (const std::string& quals : expand_qualifier_axes(spec.forms))
      if (!quals.empty()) out.push_back(std::string(spec.opcode) + quals);
  }
  return out;
}

namespace {

// An opcode's qualified forms, sorted (closest() reuses the work of the prefix sorted neighbours
// share), and the qualifiers they use: made once for every opcode, since cvt alone has 43,000.
struct QualifiedForms {
  std::vector<std::string> forms;
  std::set<std::string, std::less<>> used;
};

const QualifiedForms& qualified_forms(std::string_view opcode) {
  static const std::map<std::string_view, QualifiedForms> all = [] {
    std::map<std::string_view, QualifiedForms> m;
    for (const OpcodeSpec& spec : opcode_table()) {
      if (m.contains(spec.opcode)) continue;
      QualifiedForms& q = m[spec.opcode];
      q.forms = instruction_forms(spec.opcode);
      q.forms.erase(q.forms.begin());  // the bare opcode
      std::ranges::sort(q.forms);
      for (const std::string& f : q.forms)
        for (std::size_t i = f.find('.'); i != std::string::npos;) {
          const std::size_t j = f.find('.', i + 1);
          q.used.insert(f.substr(i + 1, j == std::string::npos ? std::string::npos : j - i - 1));
          i = j;
        }
    }
    return m;
  }();
  return all.at(opcode);
}

}  // namespace

std::string form_like(std::string_view text, std::string_view opcode) {
  std::string best;
  std::size_t best_d = 0;
  std::set<std::string_view> seen;
  for (const OpcodeSpec& spec : opcode_table()) {
    if (!within_reach(opcode, spec.opcode) || !seen.insert(spec.opcode).second) continue;
    const std::vector<std::string>& forms = qualified_forms(spec.opcode).forms;
    const std::string bare(spec.opcode);
    for (const std::span<const std::string> candidates : {std::span<const std::string>(forms), std::span<const std::string>(&bare, 1)})
      if (const std::optional<Nearest> n = nearest(text, candidates); n && (best.empty() || n->distance < best_d))
        best = candidates[n->index], best_d = n->distance;
  }
  return best;
}

std::string suggest_form(const Instruction& ins) {
  const QualifiedForms& q = qualified_forms(opcode_table()[static_cast<std::size_t>(ins.family)].opcode);
  // An opcode without a forms column: its forms are not known here.
  if (q.forms.empty()) return "";
  // The forms column lists the common forms, not every one (cvt's newer types): a qualifier that
  // is a PTX type is no misspelling.
  for (const std::string& qual : ins.quals)
    if (!q.used.contains(qual) && !parse_ptx_type(qual)) return did_you_mean(ins.text, q.forms);
  return "";
}

int find_opcode(std::string_view opcode) {
  const auto t = opcode_table();
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i].opcode == opcode) return static_cast<int>(i);
  return -1;
}

}  // namespace ptxmma::ptx
