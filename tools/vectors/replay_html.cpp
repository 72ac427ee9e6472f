#include "tools/vectors/replay_html.hpp"

#include <fmt/format.h>

#include "sim/error.hpp"
#include "sim/exec/mma.hpp"
#include "tools/vectors/element_mismatch.hpp"
#include "tools/vectors/output_file.hpp"
#include "tools/vectors/word_format.hpp"

namespace ptxmma {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// One register (two words for f64): "0x... (values)" as hex, then the values in small type.
std::string cell_text(const FailedCase& f, const std::vector<std::uint32_t>& words) {
  const std::string text = format_words(f.d, f.container, words);
  const std::size_t paren = text.find(" (");
  return escape(text.substr(0, paren)) + "<br><small>" + escape(text.substr(paren + 1)) + "</small>";
}

std::string failure_table(const VariantReplay& v) {
  const FailedCase& f = v.first;
  std::string out = fmt::format("<h2 id=\"first-failure\">First failure: {} case {}</h2>\n", escape(v.ptx), f.index);
  out += "<p>Each cell: expected (the GPU) above, computed (ptxmma) below; differing registers are marked.</p>\n";
  const int per = element_bits(f.d, f.container) == 64 ? 2 : 1;  // words per register
  out += "<table class=\"lanes\">\n<tr><th>" + std::string(f.threads > 32 ? "thread" : "lane") + "</th>";
  for (int r = 0; r < f.words / per; ++r) out += fmt::format("<th>d{}</th>", r);
  out += "</tr>\n";
  for (int t = 0; t < f.threads; ++t) {
    out += fmt::format("<tr><th>{}</th>", t);
    for (int r = 0; r < f.words / per; ++r) {
      const auto at = f.want.begin() + t * f.words + r * per;
      const std::vector<std::uint32_t> want(at, at + per);
      const std::vector<std::uint32_t> got(f.got.begin() + (at - f.want.begin()), f.got.begin() + (at - f.want.begin()) + per);
      out += fmt::format("<td class=\"{}\">{}<hr>{}</td>", want != got ? "bad" : "ok", cell_text(f, want),
                         cell_text(f, got));
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// Every differing element of a variant's first failing case, with its explain command.
std::string element_table(const VariantReplay& v, std::size_t index) {
  const FailedCase& f = v.first;
  std::string out = fmt::format("<h2 id=\"v{}\">{}{}: case {}, {} of {} D elements differ</h2>\n", index, escape(v.ptx),
                                v.selector >= 0 ? fmt::format(" selector {}", v.selector) : "", f.index,
                                f.elements.size(), f.codec->rows() * f.codec->cols());
  out += fmt::format("<table class=\"elements\">\n<tr><th>element</th><th>{}</th><th>register</th><th>element</th>"
                     "<th>expected (GPU)</th><th>got (ptxmma)</th><th>distance</th>{}</tr>\n",
                     f.threads > 32 ? "thread" : "lane", v.explain.empty() ? "" : "<th>explain</th>");
  for (const ElementMismatch& m : f.elements) {
    const nlohmann::json j = mismatch_json(*f.codec, m);
    out += fmt::format("<tr><td>D[{}][{}]</td><td>{}</td><td>{}</td><td>{}</td><td>{}<br><small>{}</small></td>"
                       "<td class=\"got\">{}<br><small>{}</small></td><td>{}</td>",
                       m.row, m.col, m.thread, m.reg, m.elem, escape(j["expected"]["hex"]), escape(j["expected"]["value"]),
                       escape(j["got"]["hex"]), escape(j["got"]["value"]),
                       m.ulps ? fmt::format("{} {}", *m.ulps, info(f.d).is_float ? "ulp" : "off") : "NaN");
    if (!v.explain.empty()) out += "<td><code>" + escape(explain_command(v.explain, f, m)) + "</code></td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string replay_html(const ReplayReport& r) {
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>ptxmma replay " + escape(r.set) +
      "</title>\n<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse}"
      "td,th{border:1px solid #999;padding:2px 6px;font-family:monospace;font-size:12px}"
      "td.bad,td.got{background:#f8c0c0}tr.fail td{background:#fde0e0}tr.unsupported td{background:#eee}"
      "small{color:#444}hr{margin:1px 0;border:0;border-top:1px dotted #999}</style></head><body>\n";
  out += fmt::format("<h1>ptxmma replay: {}</h1>\n<p>device {}, {}; model {}: <b>{} passed, {} failed</b></p>\n",
                     escape(r.set), escape(r.device), escape(r.sm), escape(r.arch), r.passed_cases, r.failed_cases);
  out += "<table class=\"variants\">\n<tr><th>instruction</th><th>family</th><th>cases</th><th>failed</th>"
         "<th>mismatched values</th><th>note</th></tr>\n";
  for (std::size_t i = 0; i < r.variants.size(); ++i) {
    const VariantReplay& v = r.variants[i];
    const std::string name = escape(v.ptx) + (v.selector >= 0 ? fmt::format(" (selector {})", v.selector) : "");
    out += fmt::format("<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       !v.supported ? "unsupported" : v.failed_cases ? "fail" : "pass",
                       v.first.index >= 0 ? fmt::format("<a href=\"#v{}\">{}</a>", i, name) : name, escape(v.family),
                       v.cases, v.failed_cases, v.mismatched_values, escape(v.error));
  }
  out += "</table>\n";
  for (std::size_t i = 0; i < r.variants.size(); ++i)
    if (r.variants[i].first.index >= 0) out += element_table(r.variants[i], i);
  for (const auto& v : r.variants)
    if (v.first.index >= 0) {
      out += failure_table(v);
      break;
    }
  return out + "</body></html>\n";
}

void write_html(const ReplayReport& r, const std::string& path) {
  write_output_file(path, replay_html(r));
}

}  // namespace ptxmma
