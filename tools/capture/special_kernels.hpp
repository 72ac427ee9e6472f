// The instructions special_check runs on the GPU (special_kernels.cu) and its C entry points.
#pragma once
#include <cstdint>

enum SpecialOp : int {
  kRcpFtz, kRcp, kRsqrtFtz, kRsqrt, kSqrtFtz, kSqrt, kEx2Ftz, kEx2, kEx2F16, kEx2Bf16, kTanhF16, kTanhBf16,
  kEx2F16x2, kEx2Bf16x2, kTanhF16x2, kTanhBf16x2, kLg2Ftz, kLg2, kTanhF32, kSinFtz, kCosFtz, kSin, kCos,
};
// Two-input f32 instructions (special_gpu_eval2).
enum SpecialOp2 : int { kDivApproxFtz, kDivApprox, kDivFullFtz, kDivFull };
// f64 instructions over high words (special_gpu_eval64).
enum SpecialOp64 : int { kRcpFtzF64, kRsqrtFtzF64 };

extern "C" const char* special_gpu_eval(int op, std::uint64_t base, const std::uint32_t* in, std::uint64_t n,
                                        std::uint32_t* out);
// out[i] = OP(a[i], b[i]).
extern "C" const char* special_gpu_eval2(int op, const std::uint32_t* a, const std::uint32_t* b, std::uint64_t n,
                                         std::uint32_t* out);
// For high words base .. base + n - 1: out[i] = the result's high word for the input
// (high << 32 | low(i)), low(i) a pseudo-random word; *low_or = the OR of every result's low word.
extern "C" const char* special_gpu_eval64(int op, std::uint64_t base, std::uint64_t n, std::uint32_t* out,
                                          std::uint32_t* low_or);
// rsqrt.approx.f64 on whole registers: out[i] = rsqrt.approx.f64(in[i]).
extern "C" const char* special_gpu_rsqrt_f64(const std::uint64_t* in, std::uint64_t n, std::uint64_t* out);
extern "C" void* special_host_alloc(std::uint64_t bytes);
