// Device functions that nvcc keeps as .func (noinline) and calls with .param arguments: one
// with a return value and mixed parameter types (f32, u32, f64), one without (a pointer and a
// 64-bit value), one with a divergent loop inside, and calls from a divergent path.
// in: f32:64 (words 0-63), u32:64 (64-127). out: 256 words. One block of 64 threads.
#include <cstdint>

extern "C" __device__ __noinline__ float mix(float a, unsigned b, double c) {
  return a * 2.0f + static_cast<float>(b & 0xff) - static_cast<float>(c);
}

extern "C" __device__ __noinline__ void store_pair(unsigned* p, unsigned x, unsigned long long y) {
  p[0] = x ^ static_cast<unsigned>(y);
  p[1] = static_cast<unsigned>(y >> 32) + x;
}

extern "C" __device__ __noinline__ unsigned steps(unsigned x) {
  unsigned n = 0;
  while (x != 1 && n < 200) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++n;
  }
  return n;
}

extern "C" __global__ void __launch_bounds__(64) device_call(const void* in_, void* out_) {
  const auto* inf = static_cast<const float*>(in_);
  const auto* inu = static_cast<const unsigned*>(in_) + 64;
  auto* out = static_cast<unsigned*>(out_);
  const unsigned tid = threadIdx.x;
  const float a = inf[tid];
  const unsigned b = inu[tid];
  out[tid] = __float_as_uint(mix(a, b, static_cast<double>(a) / 7.0));
  if (tid % 3 == 0) store_pair(out + 64 + 2 * tid, b, (static_cast<unsigned long long>(b) << 20) * 0x9e3779b9ULL);
  out[192 + tid] = steps(b % 1000 + 1);
}
