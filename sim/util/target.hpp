// Compilation targets (the `.target` of PTX, `--arch` of the tools) and their order: what first
// came with one target is on every later one. The catalogues name a variant's first target, the
// PTX front end and `ptxmma format --arch` check an instruction against the target in use.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ptxmma {

std::span<const std::string_view> known_targets();  // sm_70 sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100a sm_120a
std::optional<int> target_rank(std::string_view target);
// "unknown target 'sm_91' (known: sm_70, ...)".
std::string unknown_target(std::string_view target);
// The rank, or Error unknown_target(target).
int require_target(std::string_view target);
// Why `target` lacks what first came with `need` ("needs sm_89 or later; the target is sm_80"), or
// nullopt where it has it; Error for an unknown target.
std::optional<std::string> target_shortfall(std::string_view need, std::string_view target);

// The targets that assemble an instruction variant: `first` and every later one, or with `only`
// `first` alone (an arch-specific feature that later targets dropped: wgmma is sm_90a's).
struct Targets {
  std::string first;
  bool only = false;
};
// "sm_80 or later" / "sm_90a".
std::string targets_text(const Targets& t);
// As above: why `target` cannot assemble it ("needs sm_90a; the target is sm_100a"), or nullopt.
std::optional<std::string> target_shortfall(const Targets& need, std::string_view target);

}  // namespace ptxmma
