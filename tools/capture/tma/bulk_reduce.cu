// Bulk reductions into global memory on the GPU (docs/hardware/bulk-reduce-sm90.md): what
// cp.reduce.async.bulk computes on floating-point types and cp.reduce.async.bulk.tensor on every
// element type of a tensor map, rounding, subnormals, NaNs and signed zeros included.
//
// Operands are made here from the random input words (two words an element): most are numbers near
// 1 whose sums round, the rest the smallest normals, subnormals, zeros, the largest binade (sums
// overflow), infinities, NaNs (quiet and signalling payloads) and any bits; integers are small
// (inc/dec wrap there), near the largest and any bits. The simulator runs the same PTX, so it makes
// the same operands.
#include <cuda.h>

#include <cstdint>

namespace {

__device__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ std::uint64_t random_bits(const std::uint32_t* in, unsigned i) {
  return (static_cast<std::uint64_t>(in[2 * i]) << 32) | in[2 * i + 1];
}

// An element of a binary format with E exponent and M fraction bits.
__device__ std::uint64_t shaped_float(std::uint64_t r, int e, int m) {
  const std::uint64_t sign = (r >> 63) << (e + m), frac = r & ((1ULL << m) - 1), top = (1ULL << e) - 1;
  const unsigned cls = (r >> 56) & 15, bias = (1U << (e - 1)) - 1;
  if (cls < 9) return sign | (static_cast<std::uint64_t>(bias - 4 + ((r >> 52) & 7)) << m) | frac;
  if (cls == 9) return sign | (static_cast<std::uint64_t>(1 + ((r >> 52) & 1)) << m) | frac;
  if (cls == 10) return sign | frac;  // subnormal (or zero)
  if (cls == 11) return sign;
  if (cls == 12) return sign | ((top - 1) << m) | frac;
  if (cls == 13) return sign | (top << m);
  if (cls == 14) return sign | (top << m) | frac | 1;  // NaN: quiet or signalling
  return r & ((2ULL << (e + m)) - 1);
}

__device__ std::uint64_t shaped_int(std::uint64_t r, int bits) {
  const std::uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
  const unsigned cls = (r >> 60) & 3;
  if (cls == 0) return (r >> 8) & 7;
  if (cls == 1) return (mask - ((r >> 8) & 7)) & mask;
  return r & mask;
}

// Element kinds: 0 f32, 1 f64, 2 f16, 3 bf16, 4 32-bit integer, 5 64-bit integer.
__device__ int element_bits(int kind) { return kind == 1 || kind == 5 ? 64 : kind >= 2 && kind <= 3 ? 16 : 32; }

__device__ std::uint64_t shaped(std::uint64_t r, int kind) {
  switch (kind) {
    case 0: return shaped_float(r, 8, 23);
    case 1: return shaped_float(r, 11, 52);
    case 2: return shaped_float(r, 5, 10);
    case 3: return shaped_float(r, 8, 7);
    case 4: return shaped_int(r, 32);
    default: return shaped_int(r, 64);
  }
}

__device__ void put(void* base, int bits, unsigned i, std::uint64_t v) {
  if (bits == 16) static_cast<std::uint16_t*>(base)[i] = static_cast<std::uint16_t>(v);
  else if (bits == 32) static_cast<std::uint32_t*>(base)[i] = static_cast<std::uint32_t>(v);
  else static_cast<std::uint64_t*>(base)[i] = v;
}

// `bytes` of shared memory at `src` and of global memory at `dst`, shaped as `kind`: the source
// from random elements 0.., the destination from elements past the source's.
__device__ void fill(void* src, void* dst, unsigned bytes, int kind, const std::uint32_t* in) {
  const int bits = element_bits(kind);
  const unsigned n = bytes * 8 / bits;
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
    put(src, bits, i, shaped(random_bits(in, i), kind));
    put(dst, bits, i, shaped(random_bits(in, n + i), kind));
  }
}

__device__ void wait_bulk_groups() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

}  // namespace

// cp.reduce.async.bulk of 1024 shared bytes onto out[0..255], in the floating-point forms ptxas
// takes (min/max of f32 and f64 and add of f16/bf16 without .noftz it refuses): `form` 0 add.f32,
// 1 add.f64, 2 add.noftz.f16, 3 min.f16, 4 max.f16, 5 add.noftz.bf16, 6 min.bf16, 7 max.bf16.
// The source is also copied to out[256..511]. in: u32:4096 (at most 2048 elements). out: 512 words.
extern "C" __global__ void bulk_reduce(const std::uint32_t* in, std::uint32_t* out, int form) {
  __shared__ alignas(128) std::uint32_t src[256];
  const int kind = form <= 1 ? form : form <= 4 ? 2 : 3;
  fill(src, out, sizeof src, kind, in);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) out[256 + i] = src[i];
  asm volatile("fence.proxy.async;" ::: "memory");
  __syncthreads();
  if (threadIdx.x != 0) return;
  const unsigned s = smem_addr(src);
  switch (form) {
    case 0: asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 1024;" ::"l"(out), "r"(s) : "memory"); break;
    case 1: asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f64 [%0], [%1], 1024;" ::"l"(out), "r"(s) : "memory"); break;
    case 2: asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], 1024;" ::"l"(out), "r"(s) : "memory"); break;
    case 3: asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16 [%0], [%1], 1024;" ::"l"(out), "r"(s) : "memory"); break;
    case 4: asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.f16 [%0], [%1], 1024;" ::"l"(out), "r"(s) : "memory"); break;
    case 5: asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%0], [%1], 1024;" ::"l"(out), "r"(s) : "memory"); break;
    case 6: asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16 [%0], [%1], 1024;" ::"l"(out), "r"(s) : "memory"); break;
    default: asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.bf16 [%0], [%1], 1024;" ::"l"(out), "r"(s) : "memory"); break;
  }
  wait_bulk_groups();
}

// cp.reduce.async.bulk.tensor.2d in tile mode: the 2048-byte tensor `map` describes (over out, its
// element type as `kind` says) is filled, then a box of shared bytes (as many as the box holds, at
// most 4096) is reduced onto it at (c0, c1) with `op` 0 add, 1 min, 2 max, 3 inc, 4 dec, 5 and, 6 or,
// 7 xor. in: u32:4096. out: 512 words.
extern "C" __global__ void tma_reduce(const __grid_constant__ CUtensorMap map, const std::uint32_t* in, std::uint32_t* out,
                                      int op, int kind, int c0, int c1) {
  __shared__ alignas(128) std::uint8_t src[2048];
  fill(src, out, sizeof src, kind, in);
  __syncthreads();
  asm volatile("fence.proxy.async;" ::: "memory");
  __syncthreads();
  if (threadIdx.x != 0) return;
  const std::uint64_t m = reinterpret_cast<std::uint64_t>(&map);
  const unsigned s = smem_addr(src);
  switch (op) {
    case 0: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory"); break;
    case 1: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory"); break;
    case 2: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory"); break;
    case 3: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory"); break;
    case 4: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.dec.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory"); break;
    case 5: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory"); break;
    case 6: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.or.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory"); break;
    default: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(m), "r"(c0), "r"(c1), "r"(s) : "memory"); break;
  }
  wait_bulk_groups();
}
