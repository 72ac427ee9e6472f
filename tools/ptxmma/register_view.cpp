#include "tools/ptxmma/register_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "sim/error.hpp"

namespace ptxmma::cli {
namespace {

// Whether register `r` matches a --regs/--as pattern: its name, its source name, a vector
// register's name (all components), or a prefix ending in '*'.
bool matches(const ptx::RegisterDecl& r, const std::string& pat) {
  if (!pat.empty() && pat.back() == '*') {
    const std::string pre = pat.substr(0, pat.size() - 1);
    return r.name.starts_with(pre) || r.source.starts_with(pre);
  }
  if (r.name == pat || r.source == pat) return true;
  const std::size_t dot = r.source.rfind('.');
  return dot != std::string::npos && r.source.substr(0, dot) == pat;
}

}  // namespace

std::vector<std::string> split_commas(const std::vector<std::string>& in) {
  std::vector<std::string> out;
  for (const auto& s : in) {
    std::size_t p = 0;
    while (p <= s.size()) {
      std::size_t q = s.find(',', p);
      if (q == std::string::npos) q = s.size();
      if (q > p) out.push_back(s.substr(p, q - p));
      p = q + 1;
    }
  }
  return out;
}

RegisterView::RegisterView(const ptx::Program& p, const std::vector<std::string>& regs, const std::vector<std::string>& as)
    : p_(p) {
  const auto pats = split_commas(regs);
  for (std::size_t r = 0; r < p.registers.size(); ++r) {
    bool keep = pats.empty();
    for (const auto& pat : pats) keep = keep || matches(p.registers[r], pat);
    if (keep) shown_.push_back(static_cast<int>(r));
  }
  for (const auto& pat : pats) {
    bool any = false;
    for (const auto& r : p.registers) any = any || matches(r, pat);
    if (!any) throw Error(fmt::format("--regs: no register '{}' in {}", pat, p.file));
  }
  for (const int r : shown_) views_.emplace(r, default_view(p.registers[static_cast<std::size_t>(r)].type));
  for (const auto& spec : split_commas(as)) {
    const std::size_t eq = spec.find('=');
    if (eq == std::string::npos) throw Error(fmt::format("--as: expected REG=TYPE, found '{}'", spec));
    const std::string pat = spec.substr(0, eq), type = spec.substr(eq + 1);
    bool any = false;
    for (std::size_t r = 0; r < p.registers.size(); ++r) {
      if (!matches(p.registers[r], pat)) continue;
      any = true;
      try {
        views_[static_cast<int>(r)] = parse_view(type, ptx::bits(p.registers[r].type));
      } catch (const Error& e) {
        throw Error(fmt::format("--as {}: {}", spec, e.what()));
      }
    }
    if (!any) throw Error(fmt::format("--as: no register '{}' in {}", pat, p.file));
  }
  for (const int r : shown_) {
    name_width_ = std::max(name_width_, p.registers[static_cast<std::size_t>(r)].name.size());
    type_width_ = std::max(type_width_, views_.at(r).name.size() + 1);
  }
}

std::string RegisterView::lines(const Machine& m, int thread, int cta) const {
  std::string out;
  for (const int r : shown_) {
    const auto& decl = p_.registers[static_cast<std::size_t>(r)];
    const int w = ptx::bits(decl.type);
    const std::uint64_t v = m.reg(thread, r, cta);
    const ValueView& view = views_.at(r);
    if (decl.type == ptx::PtxType::pred)
      out += fmt::format("  {:<{}}  {:<{}}  {}\n", decl.name, name_width_, ".pred", type_width_, v & 1U);
    else
      out += fmt::format("  {:<{}}  {:<{}}  {:<{}}  {}\n", decl.name, name_width_, "." + view.name, type_width_,
                         hex_text(v, w), (w + 3) / 4 + 2, typed_text(v, w, view));
  }
  return out;
}

nlohmann::json RegisterView::json(const Machine& m, int thread, int cta) const {
  nlohmann::json out = nlohmann::json::object();
  for (const int r : shown_) {
    const auto& decl = p_.registers[static_cast<std::size_t>(r)];
    const int w = ptx::bits(decl.type);
    const std::uint64_t v = m.reg(thread, r, cta);
    const ValueView& view = views_.at(r);
    out[decl.name] = decl.type == ptx::PtxType::pred
                         ? nlohmann::json{{"type", "pred"}, {"value", (v & 1U) != 0}}
                         : nlohmann::json{{"type", view.name}, {"hex", hex_text(v, w)}, {"value", typed_text(v, w, view)}};
  }
  return out;
}

std::string hex_dump(const Memory& mem, std::uint64_t offset, std::uint64_t length) {
  std::vector<std::uint8_t> bytes(length);
  mem.read(offset, bytes.data(), bytes.size());
  std::string out = fmt::format("{} [{:#x}, {:#x})\n", mem.space(), offset, offset + length);
  for (std::uint64_t i = 0; i < length; i += 16) {
    out += fmt::format("  {:06x}:", offset + i);
    for (std::uint64_t k = i; k < std::min(length, i + 16); ++k) out += fmt::format(" {:02x}", bytes[k]);
    out += "\n";
  }
  return out;
}

TmemRegion parse_tmem_region(const std::string& text, const std::string& option) {
  const auto range = [](std::string_view t, int limit, int& a, int& b) {
    const std::size_t dash = t.find('-');
    const std::string_view first = t.substr(0, dash), last = dash == std::string_view::npos ? first : t.substr(dash + 1);
    const auto [e1, ec1] = std::from_chars(first.data(), first.data() + first.size(), a);
    const auto [e2, ec2] = std::from_chars(last.data(), last.data() + last.size(), b);
    return !first.empty() && !last.empty() && ec1 == std::errc() && ec2 == std::errc() &&
           e1 == first.data() + first.size() && e2 == last.data() + last.size() && a >= 0 && a <= b && b < limit;
  };
  const std::size_t colon = text.find(':');
  TmemRegion r;
  if (colon == std::string::npos ||
      !range(std::string_view(text).substr(0, colon), TensorMemory::kLanes, r.lane0, r.lane1) ||
      !range(std::string_view(text).substr(colon + 1), TensorMemory::kColumns, r.col0, r.col1))
    throw Error(fmt::format("{}: expected LANES:COLUMNS (lanes 0-127, columns 0-511, e.g. 0-31:0-7), found '{}'", option,
                            text));
  return r;
}

std::string tmem_dump(const TensorMemory& tm, const TmemRegion& r) {
  std::string alloc;
  for (const TensorMemory::Allocation& a : tm.allocations())
    alloc += fmt::format("{}columns {}-{}", alloc.empty() ? "" : ", ", a.column, a.column + a.columns - 1);
  std::string out = fmt::format("tensor memory lanes {}-{}, columns {}-{} (allocated: {})\n", r.lane0, r.lane1, r.col0,
                                r.col1, alloc.empty() ? "none" : alloc);
  for (int lane = r.lane0; lane <= r.lane1; ++lane)
    for (int c = r.col0; c <= r.col1; c += 8) {
      out += fmt::format("  lane {:3} col {:3}:", lane, c);
      for (int k = c; k <= std::min(r.col1, c + 7); ++k)
        out += tm.defined(lane, k) ? fmt::format(" {:08x}", tm.get(lane, k)) : std::string(" --------");
      out += "\n";
    }
  return out;
}

nlohmann::json tmem_json(const TensorMemory& tm, const TmemRegion& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (int lane = r.lane0; lane <= r.lane1; ++lane) {
    nlohmann::json words = nlohmann::json::array();
    for (int k = r.col0; k <= r.col1; ++k)
      words.push_back(tm.defined(lane, k) ? nlohmann::json(tm.get(lane, k)) : nlohmann::json(nullptr));
    rows.push_back({{"lane", lane}, {"column", r.col0}, {"words", std::move(words)}});
  }
  return rows;
}

std::pair<std::uint64_t, std::uint64_t> parse_range(const std::string& text, const std::string& option,
                                                    std::uint64_t max_length) {
  const auto num = [](std::string_view t, std::uint64_t& out) {
    int base = 10;
    if (t.starts_with("0x")) t.remove_prefix(2), base = 16;
    const auto [e, ec] = std::from_chars(t.data(), t.data() + t.size(), out, base);
    return !t.empty() && ec == std::errc() && e == t.data() + t.size();
  };
  const std::size_t colon = text.find(':');
  std::uint64_t off = 0, len = 0;
  if (colon == std::string::npos || !num(std::string_view(text).substr(0, colon), off) ||
      !num(std::string_view(text).substr(colon + 1), len) || len > max_length)
    throw Error(fmt::format("{}: expected OFFSET:LENGTH (at most {} bytes), found '{}'", option, max_length, text));
  return {off, len};
}

}  // namespace ptxmma::cli
