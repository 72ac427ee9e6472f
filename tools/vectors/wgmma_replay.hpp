// Replays a wgmma golden set (ptxmma-golden-wgmma-v1) through the simulator: each case's shared
// image goes into a warpgroup's shared memory at its base address, A/B are read through the
// recorded descriptors (or A from the recorded registers), and every D word is compared bit for bit.
#pragma once
#include <string>

#include "tools/vectors/replay.hpp"
#include "tools/vectors/wgmma_golden.hpp"

namespace ptxmma {

// One VariantReplay per manifest entry (ptx = the entry's label, family = the machine path);
// entries run on `jobs` threads and the report is the same whatever the number of jobs.
ReplayReport replay_wgmma(const WgmmaGoldenSet& set, const std::string& arch, int jobs = 1);

}  // namespace ptxmma
