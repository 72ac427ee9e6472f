// ftz_probe: is .ftz's tininess detected before or after rounding? mul/fma .ftz of operands whose
// exact product lies just below the smallest normal, on f32 and f16x2 (docs/hardware/alu-sm90.md,
// tests/data/alu-sm90-rules.txt). Prints the result bits; run on the GPU with no arguments.
#include <cstdio>
#include <cstdint>
__global__ void k(const uint32_t* a, const uint32_t* b, uint32_t* o, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]), r;
  asm volatile("mul.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[4 * i] = __float_as_uint(r);
  asm volatile("fma.rn.ftz.f32 %0, %1, %2, 0f00000000;" : "=f"(r) : "f"(x), "f"(y)); o[4 * i + 1] = __float_as_uint(r);
  asm volatile("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[4 * i + 2] = __float_as_uint(r);
  asm volatile("mul.rp.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[4 * i + 3] = __float_as_uint(r);
}
__global__ void kh(uint32_t* p) {
  uint32_t r;
  asm volatile("mul.ftz.f16x2 %0, %1, %2;" : "=r"(r) : "r"(p[0]), "r"(p[1])); p[2] = r;
  asm volatile("fma.rn.ftz.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(p[0]), "r"(p[1]), "r"(0u)); p[3] = r;
  asm volatile("mul.f16x2 %0, %1, %2;" : "=r"(r) : "r"(p[0]), "r"(p[1])); p[4] = r;
}
int main() {
  const uint32_t a[] = {0x3f7fffff, 0xbf7fffff, 0x3f7ffffe, 0x3f7fffff, 0x3f000001, 0x3f7fffff, 0x3f000001, 0xbf000001};
  const uint32_t b[] = {0x00800000, 0x00800000, 0x00800000, 0x00800001, 0x01000000, 0x00800002, 0x00fffffe, 0x00fffffe};
  const int n = 8;
  uint32_t *da, *db, *dout, out[4 * n];
  cudaMalloc(&da, sizeof a); cudaMalloc(&db, sizeof b); cudaMalloc(&dout, sizeof out);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice); cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(da, db, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  {
    // f16x2: 2^-1 (1 + 2^-10) x 2^-13 (1 - 2^-10) = 2^-14 (1 - 2^-20), in both halves
    uint32_t *dh; uint32_t h[2] = {0x38013801u, 0x07fe07feu}, hr[3];
    cudaMalloc(&dh, 20); cudaMemcpy(dh, h, 8, cudaMemcpyHostToDevice);
    kh<<<1, 1>>>(dh);
    cudaMemcpy(hr, dh + 2, 12, cudaMemcpyDeviceToHost);
    printf("mul.ftz.f16x2 %08x %08x = %08x; fma.rn.ftz.f16x2 = %08x; mul.f16x2 (no ftz) = %08x\n", h[0], h[1], hr[0], hr[1], hr[2]);
  }
  for (int i = 0; i < n; ++i)
    printf("a=%08x b=%08x mul.ftz=%08x fma.rn.ftz=%08x mul.rn.ftz=%08x mul.rp.ftz=%08x\n", a[i], b[i], out[4*i], out[4*i+1], out[4*i+2], out[4*i+3]);
}
