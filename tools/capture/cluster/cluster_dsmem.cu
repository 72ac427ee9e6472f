// Clusters of 4 CTAs of 128 threads (__cluster_dims__, so the PTX carries .reqnctapercluster and a
// plain launch makes the clusters; tools/capture/cluster/capture.sh), a grid of 8 (two clusters); distributed shared memory, the
// cluster barrier, remote mbarrier arrivals and a TMA load multicast to every CTA of the cluster.
//
// Part 1: each CTA writes in[cta * 128 + t] + rank into a[t]; cluster barrier (arrive.release /
// wait.acquire); each thread reads a[t] of rank + 1 (mapa + ld.shared::cluster), writes it to
// b[t] of rank + 2 (st.shared::cluster), adds its own value to a counter in rank 0
// (atom.shared::cluster.add) and ors a bit into one in rank 3 (red.shared::cluster.or); cluster
// barrier (arrive.relaxed); out[cta * 128 + t] = b[t], and thread 0 stores the counters.
// Part 2: every CTA initialises an mbarrier expecting 4 arrivals; thread 0 of each CTA arrives with
// expect_tx of the whole tile on its own mbarrier, and on the other CTAs' mbarriers through mapa
// (mbarrier.arrive.release.cluster.shared::cluster); CTA rank r loads rows 8r..8r+7 of a 64 x 32
// u32 tensor map over the input (128-byte swizzle: 32-word rows span 128 bytes) into its slot of
// the tile in every CTA (cp.async.bulk.tensor.2d ... .multicast::cluster, ctaMask 0xf); each CTA
// waits, then copies its whole tile (the shared words as the swizzle placed them) to
// out[1024 + cta * 1024 ...]. Thread 5 also reads a peer's word through a generic address
// (mapa.u64, then a generic ld) into out[9216 + cta]; thread 0 the counters into out[9224 + cta].
// in: u32:2048 (part 1 reads the first 1024 words; the tensor is all of it, 64 rows of 32 words).
// out: 9232 words.
#include <cuda.h>

#include <cstdint>

namespace {
__device__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
__device__ unsigned mapa(unsigned a, unsigned rank) {
  unsigned d;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(rank));
  return d;
}
__device__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
}  // namespace

extern "C" __global__ void __cluster_dims__(4, 1, 1)
    cluster_dsmem(const __grid_constant__ CUtensorMap map, const std::uint32_t* in, std::uint32_t* out) {
  __shared__ alignas(1024) std::uint32_t tile[32 * 32];  // 4 slots of 8 rows x 32 words
  __shared__ std::uint32_t a[128], b[128];
  __shared__ std::uint32_t counters[2];
  __shared__ std::uint64_t bar;
  const unsigned t = threadIdx.x;
  unsigned rank, n;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  const unsigned cta = blockIdx.x;
  a[t] = in[cta * 128 + t] + rank;
  b[t] = 0xbbbbbbbbU;
  if (t < 2) counters[t] = 0;
  cluster_sync();
  // Part 1: distributed shared memory.
  unsigned v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(mapa(smem_addr(&a[t]), (rank + 1) % n)) : "memory");
  asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(mapa(smem_addr(&b[t]), (rank + 2) % n)), "r"(v) : "memory");
  [[maybe_unused]] unsigned old;  // the order of the additions is the GPU's: not stored
  asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(mapa(smem_addr(&counters[0]), 0)), "r"(a[t] & 0xffff) : "memory");
  asm volatile("red.shared::cluster.or.b32 [%0], %1;" ::"r"(mapa(smem_addr(&counters[1]), 3)), "r"(1U << ((t + rank) % 32)) : "memory");
  if (t == 5) {  // a generic address of a peer's shared word
    std::uint64_t g = reinterpret_cast<std::uint64_t>(&a[7]), p;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(p) : "l"(g), "r"((rank + 3) % n));
    out[1024 + 8 * 1024 + cta] = *reinterpret_cast<const volatile std::uint32_t*>(p);
  }
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  out[cta * 128 + t] = b[t];
  if (t == 0) out[1024 + 8 * 1024 + 8 + cta] = counters[0] ^ counters[1];
  // Part 2: a multicast TMA load completed on each CTA's mbarrier, arrivals from every CTA.
  const unsigned bar_addr = smem_addr(&bar);
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 4;" ::"r"(bar_addr) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_sync();
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr), "r"(32 * 32 * 4) : "memory");
    for (unsigned r = 1; r < n; ++r)
      asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(mapa(bar_addr, (rank + r) % n))
                   : "memory");
    const std::uint64_t m = reinterpret_cast<std::uint64_t>(&map);
    const unsigned dst = smem_addr(tile + rank * 8 * 32);
    const int x = 0, y = static_cast<int>(rank * 8 + (cta / 4) * 32);
    const std::uint16_t mask = 0xf;
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
        "l"(m), "r"(x), "r"(y), "r"(bar_addr), "h"(mask)
        : "memory");
  }
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "WAIT:\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], 0;\n"
      "@P1 bra DONE;\n"
      "bra.uni WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(bar_addr)
      : "memory");
  for (unsigned i = t; i < 32 * 32; i += blockDim.x) out[1024 + cta * 1024 + i] = tile[i];
  cluster_sync();  // no CTA leaves while another may still reach its shared memory
}
