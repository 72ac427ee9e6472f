// The kernel checks, named as compute-sanitizer's tools (docs/kernel-checks.md). Every finding of
// one goes through Machine::report: a located warning "<check>: ..." in RunSummary::warnings (an
// error under --strict), at most once per instruction and check.
#pragma once
#include <cstdint>

namespace ptxmma {

enum class KernelCheck : std::uint8_t { memcheck, initcheck, racecheck, synccheck };

[[nodiscard]] constexpr const char* name(KernelCheck c) {
  switch (c) {
    case KernelCheck::memcheck: return "memcheck";
    case KernelCheck::initcheck: return "initcheck";
    case KernelCheck::racecheck: return "racecheck";
    case KernelCheck::synccheck: return "synccheck";
  }
  return "";
}

}  // namespace ptxmma
