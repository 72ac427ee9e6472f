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
  F32(kLg2Ftz, "lg2.approx.ftz.f32")
  F32(kLg2, "lg2.approx.f32")
  F32(kTanhF32, "tanh.approx.f32")
  F32(kSinFtz, "sin.approx.ftz.f32")
  F32(kCosFtz, "cos.approx.ftz.f32")
  F32(kSin, "sin.approx.f32")
  F32(kCos, "cos.approx.f32")
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
                  kTanhBf16, kEx2F16x2, kEx2Bf16x2, kTanhF16x2, kTanhBf16x2, kLg2Ftz, kLg2, kTanhF32, kSinFtz, kCosFtz, kSin, kCos>;

template <int Op>
__device__ std::uint32_t eval2(std::uint32_t a, std::uint32_t b) {
  float r;
  const float fa = __uint_as_float(a), fb = __uint_as_float(b);
  if constexpr (Op == kDivApproxFtz) asm volatile("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(fa), "f"(fb));
  if constexpr (Op == kDivApprox) asm volatile("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(fa), "f"(fb));
  if constexpr (Op == kDivFullFtz) asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(fa), "f"(fb));
  if constexpr (Op == kDivFull) asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(fa), "f"(fb));
  return __float_as_uint(r);
}

template <int Op>
__global__ void run2(const std::uint32_t* a, const std::uint32_t* b, std::uint32_t n, std::uint32_t* out) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = eval2<Op>(a[i], b[i]);
}

__host__ __device__ std::uint32_t low_word(std::uint32_t high) { return high * 0x9e3779b9u ^ (high >> 7); }

template <int Op>
__global__ void run64(std::uint32_t base, std::uint32_t n, std::uint32_t* out, std::uint32_t* low_or) {
  std::uint32_t lows = 0;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t h = base + i;
    const double x = __hiloint2double(static_cast<int>(h), static_cast<int>(low_word(h)));
    double r;
    if constexpr (Op == kRcpFtzF64) asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    if constexpr (Op == kRsqrtFtzF64) asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    out[i] = static_cast<std::uint32_t>(__double_as_longlong(r) >> 32);
    lows |= static_cast<std::uint32_t>(__double_as_longlong(r));
  }
  if (lows) atomicOr(low_or, lows);
}

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

extern "C" const char* special_gpu_eval2(int op, const std::uint32_t* a, const std::uint32_t* b, std::uint64_t n,
                                         std::uint32_t* out) {
  constexpr std::uint64_t kChunk = 1ull << 26;
  static std::uint32_t *d_a = nullptr, *d_b = nullptr, *d_out = nullptr;
  static void (*const k[])(const std::uint32_t*, const std::uint32_t*, std::uint32_t, std::uint32_t*) = {
      run2<kDivApproxFtz>, run2<kDivApprox>, run2<kDivFullFtz>, run2<kDivFull>};
  if (!d_a && (cudaMalloc(&d_a, kChunk * 4) != cudaSuccess || cudaMalloc(&d_b, kChunk * 4) != cudaSuccess ||
               cudaMalloc(&d_out, kChunk * 4) != cudaSuccess))
    return "cudaMalloc failed";
  for (std::uint64_t s = 0; s < n; s += kChunk) {
    const auto m = static_cast<std::uint32_t>(n - s < kChunk ? n - s : kChunk);
    cudaMemcpy(d_a, a + s, m * 4ull, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b + s, m * 4ull, cudaMemcpyHostToDevice);
    k[op]<<<8192, 256>>>(d_a, d_b, m, d_out);
    if (cudaMemcpy(out + s, d_out, m * 4ull, cudaMemcpyDeviceToHost) != cudaSuccess) return cudaGetErrorString(cudaGetLastError());
  }
  return cudaDeviceSynchronize() == cudaSuccess ? nullptr : "kernel failed";
}

extern "C" const char* special_gpu_eval64(int op, std::uint64_t base, std::uint64_t n, std::uint32_t* out,
                                          std::uint32_t* low_or) {
  constexpr std::uint64_t kChunk = 1ull << 28;
  static std::uint32_t *d_out = nullptr, *d_or = nullptr;
  static void (*const k[])(std::uint32_t, std::uint32_t, std::uint32_t*, std::uint32_t*) = {run64<kRcpFtzF64>,
                                                                                          run64<kRsqrtFtzF64>};
  if (!d_out && (cudaMalloc(&d_out, kChunk * 4) != cudaSuccess || cudaMalloc(&d_or, 4) != cudaSuccess))
    return "cudaMalloc failed";
  cudaMemset(d_or, 0, 4);
  for (std::uint64_t s = 0; s < n; s += kChunk) {
    const auto m = static_cast<std::uint32_t>(n - s < kChunk ? n - s : kChunk);
    k[op]<<<8192, 256>>>(static_cast<std::uint32_t>(base + s), m, d_out, d_or);
    if (cudaMemcpy(out + s, d_out, m * 4ull, cudaMemcpyDeviceToHost) != cudaSuccess) return cudaGetErrorString(cudaGetLastError());
  }
  cudaMemcpy(low_or, d_or, 4, cudaMemcpyDeviceToHost);
  return cudaDeviceSynchronize() == cudaSuccess ? nullptr : "kernel failed";
}

__global__ void rsqrt_f64(const std::uint64_t* in, std::uint32_t n, std::uint64_t* out) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    double r;
    asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(__longlong_as_double(static_cast<long long>(in[i]))));
    out[i] = static_cast<std::uint64_t>(__double_as_longlong(r));
  }
}

extern "C" const char* special_gpu_rsqrt_f64(const std::uint64_t* in, std::uint64_t n, std::uint64_t* out) {
  constexpr std::uint64_t kChunk = 1ull << 26;
  static std::uint64_t *d_in = nullptr, *d_out = nullptr;
  if (!d_in && (cudaMalloc(&d_in, kChunk * 8) != cudaSuccess || cudaMalloc(&d_out, kChunk * 8) != cudaSuccess))
    return "cudaMalloc failed";
  for (std::uint64_t s = 0; s < n; s += kChunk) {
    const auto m = static_cast<std::uint32_t>(n - s < kChunk ? n - s : kChunk);
    cudaMemcpy(d_in, in + s, m * 8ull, cudaMemcpyHostToDevice);
    rsqrt_f64<<<8192, 256>>>(d_in, m, d_out);
    if (cudaMemcpy(out + s, d_out, m * 8ull, cudaMemcpyDeviceToHost) != cudaSuccess) return cudaGetErrorString(cudaGetLastError());
  }
  return cudaDeviceSynchronize() == cudaSuccess ? nullptr : "kernel failed";
}

extern "C" void* special_host_alloc(std::uint64_t bytes) {
  void* p = nullptr;
  return cudaHostAlloc(&p, bytes, cudaHostAllocDefault) == cudaSuccess ? p : nullptr;
}
