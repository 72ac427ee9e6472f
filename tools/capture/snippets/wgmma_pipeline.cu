// A wgmma pipeline on one warpgroup (128 threads): A (64x32 f16) and B (32x16 f16) are copied
// into shared memory as 8x8 core matrices (no swizzle, K-major), the accumulators come from in,
// then fence, two k-steps of wgmma.mma_async m64n16k16 f32 in one group, commit, wait.
// in: the A image (1024 words), the B image (256 words), C (8 f32 per thread). out: D (8 words
// per thread).
//
// Shared image: core matrix (i, k) of A (rows 8i..8i+7, columns 8k..8k+7) is 128 contiguous bytes
// at (4 i + k) * 128, so the leading (K) byte offset is 128 and the stride (M) byte offset 512;
// B likewise with its 16 N rows, at byte 4096.
__device__ unsigned long long descriptor(unsigned address, unsigned lbo, unsigned sbo) {
  return static_cast<unsigned long long>((address & 0x3ffffu) >> 4) |
         (static_cast<unsigned long long>(lbo >> 4) << 16) | (static_cast<unsigned long long>(sbo >> 4) << 32);
}

extern "C" __global__ void __launch_bounds__(128) wgmma_pipeline(const unsigned* in, unsigned* out) {
  __shared__ __align__(1024) unsigned smem[1280];
  const unsigned t = threadIdx.x;
  for (unsigned i = t; i < 1280; i += 128) smem[i] = in[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const unsigned long long da = descriptor(base, 128, 512), db = descriptor(base + 4096, 128, 512);
  float d[8];
  for (int i = 0; i < 8; ++i) d[i] = __uint_as_float(in[1280 + t * 8 + i]);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (unsigned k = 0; k < 2; ++k) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, 1, 1, 1, 0, 0;"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
        : "l"(da + 16 * k), "l"(db + 16 * k)
        : "memory");
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (int i = 0; i < 8; ++i) out[t * 8 + i] = __float_as_uint(d[i]);
}
