// A wgmma.mma_async instruction case of a test-vector file (docs/test-vectors.md): A (64 x K; a
// sparse A its logical 64 x K) and B (K x N) as matrices, placed in shared memory through the
// case's descriptors or the default layout of its swizzle (tools/vectors/wgmma_operands), or A in
// the threads' registers through the A codec; C, scale-d and the immediates; the expected D.
// Everything is checked when the file loads.
#pragma once
#include <array>
#include <memory>
#include <string_view>
#include <string>

#include "sim/util/yaml_file.hpp"
#include "tools/vectors/ptx_state.hpp"

namespace ptxmma {

struct WgmmaVectorCase;  // wgmma_vector.cpp

// The keys only a wgmma case takes.
inline constexpr std::array<std::string_view, 9> kWgmmaCaseKeys = {
    "a_source", "desc_a", "desc_b", "swizzle", "scale_d", "imm_scale_a", "imm_scale_b", "imm_trans_a", "imm_trans_b"};

// Case `n` (its 'instruction' a wgmma.mma_async) on `target`; located errors.
std::shared_ptr<const WgmmaVectorCase> load_wgmma_case(const YamlFile& f, const YAML::Node& n, const std::string& name,
                                                       const std::string& target, ExactWork& work);

// Runs it: "" when D is as expected, else the differing cells.
std::string run_wgmma_case(const WgmmaVectorCase& c);

}  // namespace ptxmma
