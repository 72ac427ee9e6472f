// A CUDA program as users write them, run unchanged by `ptxmma exec` in the test suite and on the
// GPU once to record what it prints (tests/data/cuda-programs/wmma_probe.out; docs/cuda-programs.md):
// wmma products with f32 and f16 accumulators on pseudo-random bit patterns (subnormals,
// infinities and NaNs included), and a grid of CTAs with device printf.
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace nvcuda;

#define CHECK(call)                                                                       \
  do {                                                                                    \
    const cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess) {                                                              \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

template <class Acc>
__global__ void wmma_16x16x16(const half* a, const half* b, const Acc* c, Acc* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, Acc> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

__global__ void scaled_sum(float alpha, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(alpha, x[i], y[i]) / (1.0f + x[i] * x[i]);
  // One block prints: the GPU orders the printf output of concurrent blocks as it likes.
  if (threadIdx.x == 0 && blockIdx.x == gridDim.x - 1) printf("block %d of %d: y[%d] = %a\n", blockIdx.x, gridDim.x, i, i < n ? y[i] : 0.0f);
}

static std::uint32_t state;
static std::uint32_t next_bits() {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

// Mostly values near 1 (dot products that round), one in eight a raw bit pattern.
static std::uint16_t half_bits() {
  const std::uint32_t r = next_bits();
  if ((r & 7) == 0) return static_cast<std::uint16_t>(r >> 16);
  return static_cast<std::uint16_t>(((r >> 3) & 0x83ff) | (0x3800 + ((r >> 13) & 0x0c00)));
}

template <class T>
static void print_words(const char* what, int seed, const T* v, int n) {
  std::printf("%s seed %d:\n", what, seed);
  for (int i = 0; i < n; ++i) {
    std::uint32_t w = 0;
    std::memcpy(&w, &v[i], sizeof(T));
    std::printf(sizeof(T) == 2 ? "%04x%c" : "%08x%c", w, i % 16 == 15 ? '\n' : ' ');
  }
}

template <class Acc>
static void run_wmma(const char* what, int seed) {
  std::uint16_t a[256], b[256];
  Acc c[256], d[256];
  for (auto& x : a) x = half_bits();
  for (auto& x : b) x = half_bits();
  for (auto& x : c) {
    const std::uint32_t bits = sizeof(Acc) == 4 ? (next_bits() & 0x8fffffffu) | 0x30000000u : half_bits();
    std::memcpy(&x, &bits, sizeof(Acc));
  }
  half *da, *db;
  Acc *dc, *dd;
  CHECK(cudaMalloc(&da, sizeof a));
  CHECK(cudaMalloc(&db, sizeof b));
  CHECK(cudaMalloc(&dc, sizeof c));
  CHECK(cudaMalloc(&dd, sizeof d));
  CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
  wmma_16x16x16<Acc><<<1, 32>>>(da, db, dc, dd);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost));
  print_words(what, seed, d, 256);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dd));
}

int main() {
  for (int seed = 1; seed <= 3; ++seed) {
    state = 0x9e3779b9u * static_cast<std::uint32_t>(seed);
    run_wmma<float>("wmma f32", seed);
    run_wmma<half>("wmma f16", seed);
  }
  const int n = 200;
  float x[n], y[n];
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(next_bits() % 2001) / 1000.0f - 1.0f;
    y[i] = static_cast<float>(i) / 7.0f;
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, sizeof x));
  CHECK(cudaMalloc(&dy, sizeof y));
  CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
  scaled_sum<<<4, 64>>>(0.3f, dx, dy, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
  print_words("scaled_sum", 0, y, n);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return 0;
}
