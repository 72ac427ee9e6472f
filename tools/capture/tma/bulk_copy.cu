// cp.async.bulk (non-tensor) on one CTA of 64 threads: global -> shared with an mbarrier's
// complete_tx, shared -> global in bulk groups, cp.reduce.async.bulk, and the fences around them.
//
// Thread 0 inits an mbarrier, arrive.expect_tx(1024 + 512), then issues two bulk loads (1024 bytes
// of in[0..255] to smem[0..], 512 bytes of in[256..383] to smem[1024..]); every thread waits on the
// phase, doubles its words of smem (fence.proxy.async before the async proxy reads them), and
// thread 32 stores smem[0..1535] to out[512..] (cp.async.bulk.global.shared::cta.bulk_group),
// adds it to out[1024..1407] preset from in[384..767] (cp.reduce.async.bulk .add.u32), min-reduces
// 256 bytes onto out[1536..] (preset from in), in two bulk groups: wait_group.read 1, then
// wait_group 0. Every thread also copies smem to out[0..383] through ld.shared.
// in: u32:768. out: 1600 words.
#include <cstdint>

namespace {
__device__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
}  // namespace

extern "C" __global__ void bulk_copy(const std::uint32_t* in, std::uint32_t* out) {
  __shared__ alignas(128) std::uint32_t smem[384];
  __shared__ std::uint64_t bar;
  const unsigned t = threadIdx.x;
  // out[1024..1407] and out[1536..1599]: preset from the input (the reductions' other operand).
  for (unsigned i = t; i < 384; i += blockDim.x) out[1024 + i] = in[384 + i];
  for (unsigned i = t; i < 64; i += blockDim.x) out[1536 + i] = in[i * 3];
  __threadfence();
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bar)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (t == 0) {
    asm volatile("prefetch.global.L2 [%0];" ::"l"(in) : "memory");
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], 256;" ::"l"(in + 256) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1536;" ::"r"(smem_addr(&bar)) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];" ::"r"(
                     smem_addr(smem)),
                 "l"(in), "r"(smem_addr(&bar))
                 : "memory");
    asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1], 512, [%2];" ::"r"(
                     smem_addr(smem + 256)),
                 "l"(in + 256), "r"(smem_addr(&bar))
                 : "memory");
  }
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0;\n"
      "@P1 bra DONE;\n"
      "bra.uni WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(smem_addr(&bar))
      : "memory");
  for (unsigned i = t; i < 384; i += blockDim.x) out[i] = smem[i];
  __syncthreads();
  for (unsigned i = t; i < 384; i += blockDim.x) smem[i] = smem[i] * 2 + 1;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 32) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1536;" ::"l"(out + 512), "r"(smem_addr(smem))
                 : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 1536;" ::"l"(out + 1024),
                 "r"(smem_addr(smem))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u32 [%0], [%1], 256;" ::"l"(out + 1536),
                 "r"(smem_addr(smem + 64))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
  if (t == 0) asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(smem_addr(&bar)) : "memory");
}
