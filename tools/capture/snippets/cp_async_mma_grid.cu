// A grid of CTAs, each computing a 16 x 16 tile of D = A * B + bias with mma.sync m16n8k16
// (f16 inputs, f32 accumulators), fed by a three-stage cp.async pipeline over K = 64 (four
// k-tiles of 16): the loads of tile k + 2 are in flight while tile k is multiplied. A's rows
// travel as 16-byte cp.async.cg, B's as 8-byte cp.async.ca, the bias as 4-byte cp.async.ca with a
// src-size of 0 past column 27 (zero fill). The CTA's tile comes from %ctaid.
// in: A (32 x 64 f16, row-major), B^T (32 x 64 f16: column n of B is row n), bias (32 f32).
// out: D (32 x 32 f32, row-major). Launch: grid (2, 2), 64 threads (warp w: columns 8w..8w+7).
#include <cstdint>

namespace {

constexpr int kK = 64, kTile = 16, kStages = 3, kTiles = kK / kTile, kN = 32, kValidN = 28;

__device__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ void cp_async_cg16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src) : "memory");
}
__device__ void cp_async_ca8(void* dst, const void* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(smem_addr(dst)), "l"(src) : "memory");
}
__device__ void cp_async_ca4_fill(void* dst, const void* src, unsigned src_size) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_addr(dst)), "l"(src), "r"(src_size)
               : "memory");
}
__device__ void commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ void wait_group() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

}  // namespace

extern "C" __global__ void __launch_bounds__(64) cp_async_mma_grid(const void* in, void* out) {
  __shared__ __align__(16) std::uint16_t sa[kStages][kTile][kTile];  // A tile: 16 rows x 16 k
  __shared__ __align__(16) std::uint16_t sb[kStages][kTile][kTile];  // B^T tile: 16 columns x 16 k
  __shared__ __align__(16) float sbias[kTile];
  const auto* a = static_cast<const std::uint16_t*>(in);
  const std::uint16_t* bt = a + 32 * kK;
  const auto* bias = reinterpret_cast<const float*>(bt + 32 * kK);
  const unsigned tid = threadIdx.x, row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;

  const auto load = [&](int kt) {
    const int s = kt % kStages;
    if (tid < 32) {  // A: 16 rows x 32 bytes, 16 bytes a thread
      const unsigned r = tid / 2, half = tid % 2;
      cp_async_cg16(&sa[s][r][8 * half], a + (row0 + r) * kK + kt * kTile + 8 * half);
    }
    {  // B^T: 16 columns x 32 bytes, 8 bytes a thread
      const unsigned n = tid / 4, q = tid % 4;
      cp_async_ca8(&sb[s][n][4 * q], bt + (col0 + n) * kK + kt * kTile + 4 * q);
    }
  };
  if (tid < kTile) {
    const unsigned col = col0 + tid;
    cp_async_ca4_fill(&sbias[tid], bias + col, col < kValidN ? 4u : 0u);
  }
  load(0);
  commit();
  load(1);
  commit();

  const unsigned warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int kt = 0; kt < kTiles; ++kt) {
    if (kt + 2 < kTiles) load(kt + 2);
    commit();  // possibly empty: wait_group counts groups
    wait_group<2>();
    __syncthreads();
    const int s = kt % kStages;
    const auto word = [](const std::uint16_t* p) { return *reinterpret_cast<const unsigned*>(p); };
    const unsigned a0 = word(&sa[s][g][2 * t]), a1 = word(&sa[s][g + 8][2 * t]);
    const unsigned a2 = word(&sa[s][g][2 * t + 8]), a3 = word(&sa[s][g + 8][2 * t + 8]);
    const unsigned b0 = word(&sb[s][8 * warp + g][2 * t]), b1 = word(&sb[s][8 * warp + g][2 * t + 8]);
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    __syncthreads();  // the stage is overwritten by the loads of the next iteration
  }
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  __syncthreads();
  float* d = static_cast<float*>(out);
  const unsigned c = 8 * warp + 2 * t;
  d[(row0 + g) * kN + col0 + c] = acc[0] + sbias[c];
  d[(row0 + g) * kN + col0 + c + 1] = acc[1] + sbias[c + 1];
  d[(row0 + g + 8) * kN + col0 + c] = acc[2] + sbias[c];
  d[(row0 + g + 8) * kN + col0 + c + 1] = acc[3] + sbias[c + 1];
}
