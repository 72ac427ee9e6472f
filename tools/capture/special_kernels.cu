// special_check's device side: each special-function instruction (inline PTX) over a range of
// inputs or a list of them. Plain C entry points so the host side builds with the project's C++20.
#include <cuda_runtime.h>

#include <cstdint>

#include "tools/capture/special_kernels.hpp"

namespace {

template <int Op>
__device__ std::uint32_t eval(std::uint32_t x) {
  std::uint32_t r;
#define F32(N, INS) \
  if constexpr (Op == N) asm volatile(INS " %0, %1;" : "=f"(*reinterpret_cast<float*>(&r)) : "f"(__uint_as_float(x)));
#define F16(N, INS)                                                \
  if constexpr (Op == N) {                                         \
    unsigned short h;                                              \
    asm volatile(INS " %0, %1;" : "=h"(h) : "h"((unsigned short)x)); \
    r = h;                                                         \
  }
#define X2(N, INS) \
  if constexpr (Op == N) asm volatile(INS " %0, %1;" : "=r"(r) : "r"(x));
  F32(kRcpFtz, "rcp.approx.ftz.f32")
  F32(kRcp, "rcp.approx.f32")
  F32(kRsqrtFtz, "rsqrt.approx.ftz.f32")
  F32(kRsqrt, "rsqrt.approx.f32")
  F32(kSqrtFtz, "sqrt.approx.ftz.f32")
  F32(kSqrt, "sqrt.approx.f32")
  F32(kEx2Ftz, "ex2.approx.ftz.f32")
  F32(kEx2, "ex2.approx.f32")
  F16(kEx2F16, "ex2.approx.f16")
  F16(kEx2Bf16, "ex2.approx.ftz.bf16")
  F16(kTanhF16, "tanh.approx.f16")
  F16(kTanhBf16, "tanh.approx.bf16")
  X2(kEx2F16x2, "ex2.approx.f16x2")
  X2(kEx2Bf16x2, "ex2.approx.ftz.bf16x2")
  X2(kTanhF16x2, "tanh.approx.f16x2")
  X2(kTanhBf16x2, "tanh.approx.bf16x2")
#undef F32
#undef F16
#undef X2
  return r;
}

template <int Op>
__global__ void run(std::uint32_t base, const std::uint32_t* in, std::uint32_t n, std::uint32_t* out) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = eval<Op>(in ? in[i] : base + i);
}

template <int... Ops>
struct Table {
  static constexpr void (*k[])(std::uint32_t, const std::uint32_t*, std::uint32_t, std::uint32_t*) = {run<Ops>...};
};
using All = Table<kRcpFtz, kRcp, kRsqrtFtz, kRsqrt, kSqrtFtz, kSqrt, kEx2Ftz, kEx2, kEx2F16, kEx2Bf16, kTanhF16,
                  kTanhBf16, kEx2F16x2, kEx2Bf16x2, kTanhF16x2, kTanhBf16x2>;

}  // namespace

// Inputs base .. base + n - 1 (in == nullptr) or in[0 .. n-1]; results into host memory `out`.
extern "C" const char* special_gpu_eval(int op, std::uint64_t base, const std::uint32_t* in, std::uint64_t n,
                                        std::uint32_t* out) {
  constexpr std::uint64_t kChunk = 1ull << 28;
  static std::uint32_t *d_out = nullptr, *d_in = nullptr;
  if (!d_out && (cudaMalloc(&d_out, kChunk * 4) != cudaSuccess || cudaMalloc(&d_in, kChunk * 4) != cudaSuccess))
    return "cudaMalloc failed";
  for (std::uint64_t b = 0; b < n; b += kChunk) {
    const auto m = static_cast<std::uint32_t>(n - b < kChunk ? n - b : kChunk);
    if (in) cudaMemcpy(d_in, in + b, m * 4ull, cudaMemcpyHostToDevice);
    All::k[op]<<<8192, 256>>>(static_cast<std::uint32_t>(base + b), in ? d_in : nullptr, m, d_out);
    if (cudaMemcpy(out + b, d_out, m * 4ull, cudaMemcpyDeviceToHost) != cudaSuccess) return cudaGetErrorString(cudaGetLastError());
  }
  return cudaDeviceSynchronize() == cudaSuccess ? nullptr : "kernel failed";
}

extern "C" void* special_host_alloc(std::uint64_t bytes) {
  void* p = nullptr;
  return cudaHostAlloc(&p, bytes, cudaHostAllocDefault) == cudaSuccess ? p : nullptr;
}
