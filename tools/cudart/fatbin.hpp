// The PTX inside an nvcc fatbinary: what a CUDA program registers with the runtime for each of its
// translation units (__cudaRegisterFatBinary). The container's layout is not documented by NVIDIA;
// docs/cuda-programs.md describes the fields this reader relies on, as nvcc 13.0 writes them.
#pragma once
#include <string>

#include "sim/error.hpp"

namespace ptxmma::cudart {

// The PTX text of the entry for the highest virtual architecture not above `sm` (90 for sm_90a).
// Error (saying how to compile instead) when the fatbinary is malformed, holds only machine code
// (SASS), holds PTX only for later architectures, or holds it compressed.
std::string fatbin_ptx(const void* wrapper, int sm);

}  // namespace ptxmma::cudart
