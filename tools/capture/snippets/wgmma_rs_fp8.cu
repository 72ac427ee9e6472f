// wgmma with A from registers: e4m3 A (packed from f32 by cvt) times e4m3 B from shared memory,
// m64n8k32 with f16 accumulators, two groups in flight: group 0 starts from C, group 1 from zero
// (scale-d = 0 through a predicate); wait_group 1 then wait_group 0.
// in: the B image (8 rows x 32 bytes = 64 words, 8x16-byte core matrices, K-major), 16 f32 of A
// per thread, then 2 words of f16x2 C per thread. out, per thread: D of group 0 (2 words), D of
// group 1 (2 words), the 4 packed A words.
extern "C" __global__ void __launch_bounds__(128) wgmma_rs_fp8(const unsigned* in, unsigned* out) {
  __shared__ __align__(256) unsigned smem[64];
  const unsigned t = threadIdx.x;
  if (t < 64) smem[t] = in[t];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  // Core matrices of B: (n-group 0, k 0..15) at 0 and (n-group 0, k 16..31) at 128: LBO = 128.
  const unsigned long long db = static_cast<unsigned long long>((base & 0x3ffffu) >> 4) | (8ull << 16) | (16ull << 32);
  const float* x = reinterpret_cast<const float*>(in + 64) + t * 16;
  const unsigned* c = in + 64 + 128 * 16 + t * 2;
  unsigned a[4];
  for (int i = 0; i < 4; ++i) {
    unsigned short lo, hi;
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(lo) : "f"(x[4 * i + 1]), "f"(x[4 * i]));
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(hi) : "f"(x[4 * i + 3]), "f"(x[4 * i + 2]));
    asm("mov.b32 %0, {%1, %2};" : "=r"(a[i]) : "h"(lo), "h"(hi));
  }
  unsigned d0[2] = {c[0], c[1]}, d1[2] = {0, 0};
  const int zero = 0;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e4m3 {%0, %1}, {%2, %3, %4, %5}, %6, 1, 1, 1;"
      : "+r"(d0[0]), "+r"(d0[1])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db)
      : "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.s32 p, %7, 0;\n"
      " wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e4m3 {%0, %1}, {%2, %3, %4, %5}, %6, p, 1, 1;\n}"
      : "+r"(d1[0]), "+r"(d1[1])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(zero)
      : "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  out[t * 8 + 0] = d0[0];
  out[t * 8 + 1] = d0[1];
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  out[t * 8 + 2] = d1[0];
  out[t * 8 + 3] = d1[1];
  for (int i = 0; i < 4; ++i) out[t * 8 + 4 + i] = a[i];
}
