// The instructions special_check runs on the GPU (special_kernels.cu) and its C entry points.
#pragma once
#include <cstdint>

enum SpecialOp : int {
  kRcpFtz, kRcp, kRsqrtFtz, kRsqrt, kSqrtFtz, kSqrt, kEx2Ftz, kEx2, kEx2F16, kEx2Bf16, kTanhF16, kTanhBf16,
  kEx2F16x2, kEx2Bf16x2, kTanhF16x2, kTanhBf16x2,
};

extern "C" const char* special_gpu_eval(int op, std::uint64_t base, const std::uint32_t* in, std::uint64_t n,
                                        std::uint32_t* out);
extern "C" void* special_host_alloc(std::uint64_t bytes);
