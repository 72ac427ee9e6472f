// cp.async.bulk.tensor (TMA) in tile mode on one CTA of 128 threads: a box of the tensor that
// `load_map` describes (over the input) loaded into shared memory at byte `dst` of a 1024-aligned
// buffer, with the map's swizzle and out-of-bounds fill, then dumped word by word to out[0..];
// (the box's bytes and 128 more); then the same shared bytes stored through `store_map` (over the output, past the dump) at
// coordinates s0..s4 (cp.async.bulk.tensor global.shared::cta.bulk_group).
// `rank` picks the .1d .. .5d form; `bytes` is the box's size (the mbarrier's expect_tx).
// tools/capture/tma/capture.sh runs it with many maps: each swizzle, ranks 1..5, element
// strides, boxes that cross the tensor's edges (negative coordinates too).
#include <cuda.h>

#include <cstdint>

namespace {
__device__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
}  // namespace

extern "C" __global__ void tma_tile(const __grid_constant__ CUtensorMap load_map,
                                    const __grid_constant__ CUtensorMap store_map, const std::uint32_t* in,
                                    std::uint32_t* out, int rank, int dst, int bytes, int c0, int c1, int c2, int c3,
                                    int c4, int s0, int s1, int s2, int s3, int s4) {
  __shared__ alignas(1024) std::uint8_t smem[24576];
  __shared__ std::uint64_t bar;
  (void)in;
  const unsigned t = threadIdx.x;
  for (unsigned i = t; i < sizeof smem / 4; i += blockDim.x) reinterpret_cast<std::uint32_t*>(smem)[i] = 0xeeeeeeeeU;
  const unsigned b = smem_addr(&bar), d = smem_addr(smem + dst);
  const std::uint64_t lm = reinterpret_cast<std::uint64_t>(&load_map), sm = reinterpret_cast<std::uint64_t>(&store_map);
  if (t == 0) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(lm) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
    switch (rank) {
      case 1:
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                     ::"r"(d), "l"(lm), "r"(c0), "r"(b) : "memory");
        break;
      case 2:
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     ::"r"(d), "l"(lm), "r"(c0), "r"(c1), "r"(b) : "memory");
        break;
      case 3:
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                     ::"r"(d), "l"(lm), "r"(c0), "r"(c1), "r"(c2), "r"(b) : "memory");
        break;
      case 4:
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                     ::"r"(d), "l"(lm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(b) : "memory");
        break;
      default:
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                     ::"r"(d), "l"(lm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(b) : "memory");
        break;
    }
  }
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0;\n"
      "@P1 bra DONE;\n"
      "bra.uni WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(b)
      : "memory");
  // The box and 128 bytes past it (the rest of the buffer keeps 0xeeeeeeee).
  const std::uint32_t* words = reinterpret_cast<const std::uint32_t*>(smem);
  const unsigned dump = min(static_cast<unsigned>(dst + bytes) / 4 + 32, static_cast<unsigned>(sizeof smem / 4));
  for (unsigned i = t; i < dump; i += blockDim.x) out[i] = words[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(sm) : "memory");
    switch (rank) {
      case 1:
        asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%0, {%1}], [%2];" ::"l"(sm), "r"(s0), "r"(d) : "memory");
        break;
      case 2:
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(sm), "r"(s0), "r"(s1), "r"(d)
                     : "memory");
        break;
      case 3:
        asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(sm), "r"(s0), "r"(s1),
                     "r"(s2), "r"(d) : "memory");
        break;
      case 4:
        asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%1, %2, %3, %4}], [%5];" ::"l"(sm), "r"(s0),
                     "r"(s1), "r"(s2), "r"(s3), "r"(d) : "memory");
        break;
      default:
        asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" ::"l"(sm), "r"(s0),
                     "r"(s1), "r"(s2), "r"(s3), "r"(s4), "r"(d) : "memory");
        break;
    }
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}
