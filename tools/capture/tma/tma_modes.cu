// cp.async.bulk.tensor beyond the tile mode on one CTA of 128 threads (docs/hardware/tensormap-sm90.md):
//   tma_im2col   a load in im2col mode (3d..5d, the im2col offsets operand) into shared memory at
//                byte `dst` of a 1024-aligned buffer, dumped word by word to out[0..]; with `store`,
//                the same shared bytes stored through `store_map` (im2col_no_offs) at the same
//                coordinates;
//   tma_tile_il  a tile-mode load and store through (interleaved) maps, as tma_tile.cu;
//   tma_replace  the map copied to global memory (out[0..31]) or to shared memory, one
//                tensormap.replace field changed there (`which`, below), the map made visible to
//                the tensor-map proxy (fence.proxy.tensormap / tensormap.cp_fenceproxy), and a
//                load through it (unless `rank` is 0); out[0..31] keep the modified map.
// Every wait is bounded (4096 try_waits of at most 20 us): a load whose transaction bytes do not
// match `bytes` leaves the word after the dump 0 instead of hanging the capture; the word is 1 when
// the phase completed.
#include <cuda.h>

#include <cstdint>

namespace {
__device__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ unsigned bounded_wait(unsigned bar) {
  unsigned done = 0;
  for (int i = 0; i < 4096 && !done; ++i)
    asm volatile(
        "{\n"
        ".reg .pred P1;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], 0, 20000;\n"
        "selp.u32 %0, 1, 0, P1;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar)
        : "memory");
  return done;
}

__device__ void init_barrier(unsigned bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ void tile_load(int rank, unsigned d, std::uint64_t m, unsigned b, const int* c) {
  switch (rank) {
    case 1:
      asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                   ::"r"(d), "l"(m), "r"(c[0]), "r"(b) : "memory");
      break;
    case 2:
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(b) : "memory");
      break;
    case 3:
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                   ::"r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(b) : "memory");
      break;
    case 4:
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                   ::"r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(b) : "memory");
      break;
    default:
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                   ::"r"(d), "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(b) : "memory");
      break;
  }
}

__device__ void tile_store(int rank, std::uint64_t m, unsigned d, const int* s) {
  switch (rank) {
    case 1:
      asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%0, {%1}], [%2];" ::"l"(m), "r"(s[0]), "r"(d) : "memory");
      break;
    case 2:
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(s[0]), "r"(s[1]), "r"(d)
                   : "memory");
      break;
    case 3:
      asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(m), "r"(s[0]), "r"(s[1]),
                   "r"(s[2]), "r"(d) : "memory");
      break;
    case 4:
      asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%1, %2, %3, %4}], [%5];" ::"l"(m), "r"(s[0]),
                   "r"(s[1]), "r"(s[2]), "r"(s[3]), "r"(d) : "memory");
      break;
    default:
      asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" ::"l"(m), "r"(s[0]),
                   "r"(s[1]), "r"(s[2]), "r"(s[3]), "r"(s[4]), "r"(d) : "memory");
      break;
  }
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// Shared words [0, dst + bytes + 128) to out[0..], the wait's result after them.
__device__ void dump(const std::uint8_t* smem, unsigned size, int dst, int bytes, unsigned done, std::uint32_t* out) {
  const std::uint32_t* words = reinterpret_cast<const std::uint32_t*>(smem);
  const unsigned n = min(static_cast<unsigned>(dst + bytes) / 4 + 32, size / 4);
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) out[i] = words[i];
  if (threadIdx.x == 0) out[n] = done;
}
}  // namespace

extern "C" __global__ void tma_im2col(const __grid_constant__ CUtensorMap load_map,
                                      const __grid_constant__ CUtensorMap store_map, std::uint32_t* out, int rank,
                                      int dst, int bytes, int c0, int c1, int c2, int c3, int c4, int o0, int o1,
                                      int o2, int store) {
  __shared__ alignas(1024) std::uint8_t smem[24576];
  __shared__ std::uint64_t bar;
  __shared__ unsigned done_s;
  const unsigned t = threadIdx.x;
  for (unsigned i = t; i < sizeof smem / 4; i += blockDim.x) reinterpret_cast<std::uint32_t*>(smem)[i] = 0xeeeeeeeeU;
  const unsigned b = smem_addr(&bar), d = smem_addr(smem + dst);
  const std::uint64_t lm = reinterpret_cast<std::uint64_t>(&load_map), sm = reinterpret_cast<std::uint64_t>(&store_map);
  const unsigned short h0 = static_cast<unsigned short>(o0), h1 = static_cast<unsigned short>(o1),
                       h2 = static_cast<unsigned short>(o2);
  if (t == 0) init_barrier(b);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
    if (rank == 3)
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                   ::"r"(d), "l"(lm), "r"(c0), "r"(c1), "r"(c2), "r"(b), "h"(h0) : "memory");
    else if (rank == 4)
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                   ::"r"(d), "l"(lm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(b), "h"(h0), "h"(h1) : "memory");
    else
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                   ::"r"(d), "l"(lm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(b), "h"(h0), "h"(h1), "h"(h2) : "memory");
  }
  const unsigned done = bounded_wait(b);
  if (t == 0) done_s = done;
  __syncthreads();
  dump(smem, sizeof smem, dst, bytes, done_s, out);
  if (!store || !done_s) return;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    if (rank == 3)
      asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3}], [%4];"
                   ::"l"(sm), "r"(c0), "r"(c1), "r"(c2), "r"(d) : "memory");
    else if (rank == 4)
      asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                   ::"l"(sm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(d) : "memory");
    else
      asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
                   ::"l"(sm), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(d) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

extern "C" __global__ void tma_tile_il(const __grid_constant__ CUtensorMap load_map,
                                       const __grid_constant__ CUtensorMap store_map, std::uint32_t* out, int rank,
                                       int dst, int bytes, int c0, int c1, int c2, int c3, int c4, int s0, int s1,
                                       int s2, int s3, int s4, int store) {
  __shared__ alignas(1024) std::uint8_t smem[24576];
  __shared__ std::uint64_t bar;
  __shared__ unsigned done_s;
  const unsigned t = threadIdx.x;
  for (unsigned i = t; i < sizeof smem / 4; i += blockDim.x) reinterpret_cast<std::uint32_t*>(smem)[i] = 0xeeeeeeeeU;
  const unsigned b = smem_addr(&bar), d = smem_addr(smem + dst);
  const int c[5] = {c0, c1, c2, c3, c4}, s[5] = {s0, s1, s2, s3, s4};
  if (t == 0) init_barrier(b);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
    tile_load(rank, d, reinterpret_cast<std::uint64_t>(&load_map), b, c);
  }
  const unsigned done = bounded_wait(b);
  if (t == 0) done_s = done;
  __syncthreads();
  dump(smem, sizeof smem, dst, bytes, done_s, out);
  if (!store || !done_s) return;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) tile_store(rank, reinterpret_cast<std::uint64_t>(&store_map), d, s);
}

// One tensormap.replace on the map at `m` in space S (global or shared::cta); `which` picks the
// field (and its ordinal or immediate value), `v` is the new value of the fields that take a register.
#define REPLACE_CASES(S, A, M)                                                                                         \
  switch (which) {                                                                                                     \
    case 1: asm volatile("tensormap.replace.tile.global_address." S ".b1024.b64 [%0], %1;" ::A(M), "l"(v) : "memory"); break; \
    case 2: asm volatile("tensormap.replace.tile.rank." S ".b1024.b32 [%0], %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 3: asm volatile("tensormap.replace.tile.box_dim." S ".b1024.b32 [%0], 0, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 4: asm volatile("tensormap.replace.tile.box_dim." S ".b1024.b32 [%0], 1, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 5: asm volatile("tensormap.replace.tile.box_dim." S ".b1024.b32 [%0], 2, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 6: asm volatile("tensormap.replace.tile.box_dim." S ".b1024.b32 [%0], 3, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 7: asm volatile("tensormap.replace.tile.box_dim." S ".b1024.b32 [%0], 4, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 8: asm volatile("tensormap.replace.tile.global_dim." S ".b1024.b32 [%0], 0, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 9: asm volatile("tensormap.replace.tile.global_dim." S ".b1024.b32 [%0], 1, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 10: asm volatile("tensormap.replace.tile.global_dim." S ".b1024.b32 [%0], 2, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 11: asm volatile("tensormap.replace.tile.global_dim." S ".b1024.b32 [%0], 3, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 12: asm volatile("tensormap.replace.tile.global_dim." S ".b1024.b32 [%0], 4, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 13: asm volatile("tensormap.replace.tile.global_stride." S ".b1024.b64 [%0], 0, %1;" ::A(M), "l"(v) : "memory"); break; \
    case 14: asm volatile("tensormap.replace.tile.global_stride." S ".b1024.b64 [%0], 1, %1;" ::A(M), "l"(v) : "memory"); break; \
    case 15: asm volatile("tensormap.replace.tile.global_stride." S ".b1024.b64 [%0], 2, %1;" ::A(M), "l"(v) : "memory"); break; \
    case 16: asm volatile("tensormap.replace.tile.global_stride." S ".b1024.b64 [%0], 3, %1;" ::A(M), "l"(v) : "memory"); break; \
    case 17: asm volatile("tensormap.replace.tile.global_stride." S ".b1024.b64 [%0], 4, %1;" ::A(M), "l"(v) : "memory"); break; \
    case 18: asm volatile("tensormap.replace.tile.element_stride." S ".b1024.b32 [%0], 0, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 19: asm volatile("tensormap.replace.tile.element_stride." S ".b1024.b32 [%0], 1, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 20: asm volatile("tensormap.replace.tile.element_stride." S ".b1024.b32 [%0], 2, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 21: asm volatile("tensormap.replace.tile.element_stride." S ".b1024.b32 [%0], 3, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 22: asm volatile("tensormap.replace.tile.element_stride." S ".b1024.b32 [%0], 4, %1;" ::A(M), "r"(v32) : "memory"); break; \
    case 30: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 0;" ::A(M) : "memory"); break;     \
    case 31: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 1;" ::A(M) : "memory"); break;     \
    case 32: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 2;" ::A(M) : "memory"); break;     \
    case 33: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 3;" ::A(M) : "memory"); break;     \
    case 34: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 4;" ::A(M) : "memory"); break;     \
    case 35: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 5;" ::A(M) : "memory"); break;     \
    case 36: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 6;" ::A(M) : "memory"); break;     \
    case 37: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 7;" ::A(M) : "memory"); break;     \
    case 38: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 8;" ::A(M) : "memory"); break;     \
    case 39: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 9;" ::A(M) : "memory"); break;     \
    case 40: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 10;" ::A(M) : "memory"); break;    \
    case 41: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 11;" ::A(M) : "memory"); break;    \
    case 42: asm volatile("tensormap.replace.tile.elemtype." S ".b1024.b32 [%0], 12;" ::A(M) : "memory"); break;    \
    case 43: asm volatile("tensormap.replace.tile.interleave_layout." S ".b1024.b32 [%0], 0;" ::A(M) : "memory"); break; \
    case 44: asm volatile("tensormap.replace.tile.interleave_layout." S ".b1024.b32 [%0], 1;" ::A(M) : "memory"); break; \
    case 45: asm volatile("tensormap.replace.tile.interleave_layout." S ".b1024.b32 [%0], 2;" ::A(M) : "memory"); break; \
    case 46: asm volatile("tensormap.replace.tile.swizzle_mode." S ".b1024.b32 [%0], 0;" ::A(M) : "memory"); break; \
    case 47: asm volatile("tensormap.replace.tile.swizzle_mode." S ".b1024.b32 [%0], 1;" ::A(M) : "memory"); break; \
    case 48: asm volatile("tensormap.replace.tile.swizzle_mode." S ".b1024.b32 [%0], 2;" ::A(M) : "memory"); break; \
    case 49: asm volatile("tensormap.replace.tile.swizzle_mode." S ".b1024.b32 [%0], 3;" ::A(M) : "memory"); break; \
    case 50: asm volatile("tensormap.replace.tile.fill_mode." S ".b1024.b32 [%0], 0;" ::A(M) : "memory"); break;    \
    case 51: asm volatile("tensormap.replace.tile.fill_mode." S ".b1024.b32 [%0], 1;" ::A(M) : "memory"); break;    \
    case 52: asm volatile("tensormap.replace.tile.rank." S ".b1024.b32 [%0], 0;" ::A(M) : "memory"); break;         \
    case 53: asm volatile("tensormap.replace.tile.box_dim." S ".b1024.b32 [%0], 1, 255;" ::A(M) : "memory"); break; \
    default: break;                                                                                                    \
  }

extern "C" __global__ void tma_replace(const __grid_constant__ CUtensorMap map, std::uint32_t* out, int where,
                                       int which, std::uint64_t v, int rank, int dst, int bytes, int c0, int c1,
                                       int c2, int c3, int c4) {
  __shared__ alignas(1024) std::uint8_t smem[16384];
  __shared__ alignas(128) CUtensorMap smap;
  __shared__ std::uint64_t bar;
  __shared__ unsigned done_s;
  const unsigned t = threadIdx.x;
  for (unsigned i = t; i < sizeof smem / 4; i += blockDim.x) reinterpret_cast<std::uint32_t*>(smem)[i] = 0xeeeeeeeeU;
  const unsigned b = smem_addr(&bar), d = smem_addr(smem + dst), sa = smem_addr(&smap);
  const std::uint32_t v32 = static_cast<std::uint32_t>(v);
  const int c[5] = {c0, c1, c2, c3, c4};
  const std::uint64_t g = reinterpret_cast<std::uint64_t>(out);  // the map's copy in global memory
  const std::uint32_t* param = reinterpret_cast<const std::uint32_t*>(&map);
  if (t < 32) {
    if (where == 0) out[t] = param[t];
    else reinterpret_cast<std::uint32_t*>(&smap)[t] = param[t];
  }
  if (t == 0) init_barrier(b);
  __syncthreads();
  if (t == 0) {
    if (where == 0) {
      REPLACE_CASES("global", "l", g)
      asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    } else {
      REPLACE_CASES("shared::cta", "r", sa)
    }
  }
  __syncwarp();
  if (where != 0 && t < 32)
    asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                 ::"l"(g), "r"(sa) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (rank == 0) return;
  if (t == 0) {
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(g) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
    tile_load(rank, d, g, b, c);
  }
  const unsigned done = bounded_wait(b);
  if (t == 0) done_s = done;
  __syncthreads();
  dump(smem, sizeof smem, dst, bytes, done_s, out + 64);
}
