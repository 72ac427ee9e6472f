#include "sim/util/target.hpp"

#include <fmt/format.h>

#include <array>

#include "sim/error.hpp"

namespace ptxmma {

namespace {

constexpr std::array<std::string_view, 9> kTargets = {"sm_70", "sm_75",  "sm_80",   "sm_86",  "sm_89",
                                                       "sm_90", "sm_90a", "sm_100a", "sm_120a"};

}  // namespace

std::span<const std::string_view> known_targets() { return kTargets; }

std::optional<int> target_rank(std::string_view target) {
  for (std::size_t i = 0; i < kTargets.size(); ++i)
    if (kTargets[i] == target) return static_cast<int>(i);
  return std::nullopt;
}

std::string unknown_target(std::string_view target) {
  return fmt::format("unknown target '{}' (known: {})", target, fmt::join(kTargets, ", "));
}

int require_target(std::string_view target) {
  if (auto r = target_rank(target)) return *r;
  throw Error(unknown_target(target));
}

std::optional<std::string> target_shortfall(std::string_view need, std::string_view target) {
  const int rank = require_target(need);
  if (require_target(target) >= rank) return std::nullopt;
  return fmt::format("needs {}; the target is {}", targets_text({std::string(need), false}), target);
}

std::string targets_text(const Targets& t) {
  const bool last = require_target(t.first) + 1 == static_cast<int>(kTargets.size());
  return t.only || last ? t.first : t.first + " or later";
}

std::optional<std::string> target_shortfall(const Targets& need, std::string_view target) {
  if (!need.only) return target_shortfall(need.first, target);
  if (require_target(target) == require_target(need.first)) return std::nullopt;
  return fmt::format("needs {}; the target is {}", need.first, target);
}

}  // namespace ptxmma
