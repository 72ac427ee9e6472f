#include "sim/state/warp.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/error.hpp"

namespace ptxmma {

std::string_view name(RegKind k) {
  switch (k) {
    case RegKind::b16: return "b16";
    case RegKind::b32: return "b32";
    case RegKind::b64: return "b64";
    case RegKind::pred: return "pred";
  }
  return "?";
}

int bits(RegKind k) {
  switch (k) {
    case RegKind::b16: return 16;
    case RegKind::b32: return 32;
    case RegKind::b64: return 64;
    case RegKind::pred: return 1;
  }
  return 0;
}

std::optional<RegKind> kind_from_name(std::string_view reg) {
  if (reg.empty() || reg.front() != '%') return std::nullopt;
  reg.remove_prefix(1);
  const auto letters = reg.substr(0, reg.find_first_of("0123456789"));
  if (letters == "rd" || letters == "fd") return RegKind::b64;
  if (letters == "r" || letters == "f") return RegKind::b32;
  if (letters == "h" || letters == "rs") return RegKind::b16;
  if (letters == "p") return RegKind::pred;
  return std::nullopt;
}

void Warp::declare(const std::string& r, RegKind k) {
  const auto it = regs_.find(r);
  if (it != regs_.end()) {
    if (it->second.kind != k)
      throw Error(fmt::format("register {} is already declared as .{}, not .{}", r, name(it->second.kind), name(k)));
    return;
  }
  regs_.emplace(r, Reg{k, {}, static_cast<int>(regs_.size())});
}

const Warp::Reg& Warp::reg(const std::string& r) const {
  const auto it = regs_.find(r);
  if (it == regs_.end()) throw Error(fmt::format("register {} is not declared", r));
  return it->second;
}

RegKind Warp::kind(const std::string& r) const { return reg(r).kind; }

std::uint64_t Warp::get(int lane, const std::string& r) const { return reg(r).value.at(static_cast<std::size_t>(lane)); }

void Warp::set(int lane, const std::string& r, std::uint64_t v) {
  const auto it = regs_.find(r);
  if (it == regs_.end()) throw Error(fmt::format("register {} is not declared", r));
  const int w = bits(it->second.kind);
  it->second.value.at(static_cast<std::size_t>(lane)) = w == 64 ? v : v & ((1ULL << w) - 1);
}

std::vector<std::string> Warp::register_names() const {
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [n, r] : regs_) order.emplace_back(r.order, n);
  std::sort(order.begin(), order.end());
  std::vector<std::string> names;
  for (auto& [i, n] : order) names.push_back(std::move(n));
  return names;
}

}  // namespace ptxmma
