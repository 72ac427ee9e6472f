// ldmatrix -> mma -> stmatrix on one warp. in: A (16x16 f16, row-major), B (16x8 f16, row-major
// K x N), then C (4 f32 per lane). out: D (4 f32 per lane), then D as f16 (16x8, row-major)
// written through stmatrix.
#include <cuda_fp16.h>

extern "C" __global__ void ldmatrix_mma_stmatrix(const unsigned* in, unsigned* out) {
  __shared__ __align__(128) unsigned short a[16 * 16];
  __shared__ __align__(128) unsigned short b[16 * 8];
  __shared__ __align__(128) unsigned short d[16 * 8];
  const unsigned lane = threadIdx.x;
  const unsigned short* halves = reinterpret_cast<const unsigned short*>(in);
  for (unsigned i = lane; i < 256; i += 32) a[i] = halves[i];
  for (unsigned i = lane; i < 128; i += 32) b[i] = halves[256 + i];
  __syncwarp();

  unsigned a0, a1, a2, a3, b0, b1;
  const unsigned a_addr = static_cast<unsigned>(__cvta_generic_to_shared(&a[(lane % 16) * 16 + (lane / 16) * 8]));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(a_addr));
  const unsigned b_addr = static_cast<unsigned>(__cvta_generic_to_shared(&b[(lane % 16) * 8]));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(b_addr));

  float c[4], dd[4];
  for (int i = 0; i < 4; ++i) c[i] = __uint_as_float(in[192 + lane * 4 + i]);
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};"
      : "=f"(dd[0]), "=f"(dd[1]), "=f"(dd[2]), "=f"(dd[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = __float_as_uint(dd[i]);

  const __half2 h0 = __floats2half2_rn(dd[0], dd[1]), h1 = __floats2half2_rn(dd[2], dd[3]);
  const unsigned d_addr = static_cast<unsigned>(__cvta_generic_to_shared(&d[(lane % 16) * 8]));
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(d_addr),
               "r"(*reinterpret_cast<const unsigned*>(&h0)), "r"(*reinterpret_cast<const unsigned*>(&h1))
               : "memory");
  __syncwarp();
  for (unsigned i = lane; i < 64; i += 32) out[128 + i] = reinterpret_cast<const unsigned*>(d)[i];
}
