// mbarrier and atomics on a grid of 2 x 2 CTAs of 64 threads (two warps each).
//
// mbarrier (per CTA, shared memory): warp 0 produces four rounds of 32 words through a shared
// slot, warp 1 consumes them. `full` (1 arrival) completes when lane 0's arrive.expect_tx(128)
// meets the 32 lanes' complete_tx(4), which run first (the tx-count goes to -128); `empty`
// (32 arrivals) completes when the 16 even lanes of the consumer arrive with a count of 2. Both
// sides wait in try_wait.parity loops, phases alternating. Thread 0 also walks a third barrier
// through init(5), arrive, arrive(2), arrive_drop, expect_tx, complete_tx, test_wait (parity and
// state) and pending_count of the states the arrivals returned.
//
// atomics (global memory shared by the grid, and shared memory): integer add/min/max/inc/dec/and/
// or/xor on common words by all 256 threads (results independent of the order), compare-and-swap
// loops (cas.b32, cas.b64, cas.b16 on shared memory), exch chains on a word per thread, red, and
// floating-point adds on a word per thread (f32 on global and shared memory, f64, f16, f16x2,
// bf16, bf16x2: the inputs cover subnormals, infinities and NaNs, and the old value returned).
// in: f32w:512 (words 0-511), u32:512 (512-1023), f16:512 (1024-1279). out: 3200 words.
#include <cstdint>

namespace {

__device__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ void mbar_init(std::uint64_t* b, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(b)), "r"(count) : "memory");
}
__device__ void mbar_wait(std::uint64_t* b, unsigned parity) {
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
      "@P1 bra DONE;\n"
      "bra.uni WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(smem_addr(b)),
      "r"(parity)
      : "memory");
}
__device__ unsigned test_parity(std::uint64_t* b, unsigned parity) {
  unsigned r;
  asm volatile(
      "{\n.reg .pred p;\nmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(r)
      : "r"(smem_addr(b)), "r"(parity)
      : "memory");
  return r;
}
__device__ unsigned test_state(std::uint64_t* b, std::uint64_t state) {
  unsigned r;
  asm volatile("{\n.reg .pred p;\nmbarrier.test_wait.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(r)
               : "r"(smem_addr(b)), "l"(state)
               : "memory");
  return r;
}
__device__ std::uint64_t arrive(std::uint64_t* b, unsigned count) {
  std::uint64_t s;
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(smem_addr(b)), "r"(count) : "memory");
  return s;
}
__device__ std::uint64_t arrive1(std::uint64_t* b) {
  std::uint64_t s;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(smem_addr(b)) : "memory");
  return s;
}
__device__ std::uint64_t arrive_drop(std::uint64_t* b) {
  std::uint64_t s;
  asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(s) : "r"(smem_addr(b)) : "memory");
  return s;
}
__device__ void arrive_expect_tx(std::uint64_t* b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(b)), "r"(bytes)
               : "memory");
}
__device__ void expect_tx(std::uint64_t* b, unsigned bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(b)), "r"(bytes) : "memory");
}
__device__ void complete_tx(std::uint64_t* b, unsigned bytes) {
  asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(b)), "r"(bytes) : "memory");
}
__device__ unsigned pending(std::uint64_t state) {
  unsigned r;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r) : "l"(state));
  return r;
}

// Atomics, spelled out so that the PTX holds exactly these forms.
#define ATOM_G(op, type, cons, d, p, v) \
  asm volatile("atom.global." op "." type " %0, [%1], %2;" : "=" cons(d) : "l"(p), cons(v) : "memory")
#define ATOM_S(op, type, cons, d, p, v) \
  asm volatile("atom.shared." op "." type " %0, [%1], %2;" : "=" cons(d) : "r"(smem_addr(p)), cons(v) : "memory")

}  // namespace

extern "C" __global__ void __launch_bounds__(64) mbarrier_atomics(const void* in_, void* out_) {
  __shared__ __align__(8) std::uint64_t full, empty, aux;
  __shared__ unsigned slot[32];
  __shared__ float sf[64];
  __shared__ unsigned short sh[64];
  __shared__ unsigned scount[8];
  const auto* in = static_cast<const unsigned*>(in_);
  auto* out = static_cast<unsigned*>(out_);
  const unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const unsigned cta = blockIdx.x + 2 * blockIdx.y, g = cta * 64 + tid;
  unsigned* mb = out + cta * 16;

  // ---- mbarrier ----
  if (tid == 0) {
    mbar_init(&full, 1);
    mbar_init(&empty, 32);
    mbar_init(&aux, 5);
    mb[0] = test_parity(&full, 0);  // nothing arrived: phase 0 is not complete
    mb[1] = test_parity(&full, 1);  // "the phase before": complete
    const std::uint64_t s1 = arrive1(&aux);
    const std::uint64_t s2 = arrive(&aux, 2);
    const std::uint64_t s3 = arrive_drop(&aux);  // 1 pending, 4 expected from now on
    mb[2] = pending(s1);
    mb[3] = pending(s2);
    mb[4] = pending(s3);
    expect_tx(&aux, 100);
    const std::uint64_t s4 = arrive1(&aux);  // no arrival pending, 100 bytes
    mb[5] = test_parity(&aux, 0);
    mb[6] = test_state(&aux, s4);
    complete_tx(&aux, 60);
    mb[7] = test_parity(&aux, 0);
    complete_tx(&aux, 40);  // phase 0 completes
    mb[8] = test_parity(&aux, 0);
    mb[9] = test_state(&aux, s1);
    const std::uint64_t s5 = arrive1(&aux);  // phase 1: 4 expected
    mb[10] = pending(s5);
    mb[11] = test_parity(&aux, 1);
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(smem_addr(&aux)) : "memory");
    if (cta == 0) scount[0] = scount[1] = scount[3] = scount[4] = scount[5] = 0, scount[2] = 0xffffffffu;
  }
  __syncthreads();
  unsigned sum = 0;
  for (unsigned round = 0, phase = 0; round < 4; ++round, phase ^= 1) {
    if (warp == 0) {
      mbar_wait(&empty, phase ^ 1);
      slot[lane] = in[512 + round * 32 + lane] + cta;
      complete_tx(&full, 4);
      __syncwarp();
      if (lane == 0) arrive_expect_tx(&full, 128);
    } else {
      mbar_wait(&full, phase);
      sum = sum * 3 + slot[(lane + round) % 32];
      __syncwarp();
      if (lane % 2 == 0) (void)arrive(&empty, 2);
    }
  }
  if (warp == 1) mb[12 + lane / 8] = 0, __syncwarp(), atomicXor(&mb[12 + lane / 8], sum);

  // ---- atomics on common words (the result does not depend on the order) ----
  const unsigned u = in[512 + g % 512], u2 = in[512 + (g * 7 + 3) % 512];
  unsigned r;
  unsigned long long rl;
  unsigned* c = out + 64;
  ATOM_G("add", "u32", "r", r, c + 0, u);
  ATOM_G("min", "u32", "r", r, c + 1, u);
  ATOM_G("max", "u32", "r", r, c + 2, u);
  ATOM_G("min", "s32", "r", r, c + 3, u);
  ATOM_G("max", "s32", "r", r, c + 4, u);
  ATOM_G("inc", "u32", "r", r, c + 5, 37u);
  ATOM_G("dec", "u32", "r", r, c + 6, 50u);
  ATOM_G("and", "b32", "r", r, c + 7, u | u2);
  ATOM_G("or", "b32", "r", r, c + 8, u & u2 & 0x0f0f0f0fu);
  ATOM_G("xor", "b32", "r", r, c + 9, u);
  {  // u32 add through a cas.b32 loop
    unsigned old = c[10], seen;
    do {
      seen = old;
      asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(c + 10), "r"(seen), "r"(seen + u2) : "memory");
    } while (old != seen);
  }
  asm volatile("red.global.add.u32 [%0], %1;" ::"l"(c + 11), "r"(u2) : "memory");
  asm volatile("red.global.min.s32 [%0], %1;" ::"l"(c + 12), "r"(u2) : "memory");
  asm volatile("red.global.inc.u32 [%0], %1;" ::"l"(c + 13), "r"(100u) : "memory");
  asm volatile("red.relaxed.gpu.global.xor.b32 [%0], %1;" ::"l"(c + 14), "r"(u2) : "memory");
  auto* c64 = reinterpret_cast<unsigned long long*>(out + 80);
  const unsigned long long w = (static_cast<unsigned long long>(u2) << 32) | u;
  ATOM_G("add", "u64", "l", rl, c64 + 0, w);
  ATOM_G("min", "s64", "l", rl, c64 + 1, w);
  ATOM_G("max", "u64", "l", rl, c64 + 2, w);
  ATOM_G("and", "b64", "l", rl, c64 + 3, w | (w << 3));
  ATOM_G("or", "b64", "l", rl, c64 + 4, w & (w >> 5) & 0x00ff00ff00ff00ffULL);
  ATOM_G("xor", "b64", "l", rl, c64 + 5, w);
  {  // u64 add through a cas.b64 loop
    unsigned long long old = c64[6], seen;
    do {
      seen = old;
      asm volatile("atom.global.cas.b64 %0, [%1], %2, %3;" : "=l"(old) : "l"(c64 + 6), "l"(seen), "l"(seen + w) : "memory");
    } while (old != seen);
  }
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(c + 30), "r"(1u) : "memory");
  // shared-memory counters of CTA 0, copied out at the end
  if (cta == 0) {
    ATOM_S("add", "u32", "r", r, &scount[0], u);
    ATOM_S("max", "u32", "r", r, &scount[1], u);
    ATOM_S("min", "u32", "r", r, &scount[2], u);
    ATOM_S("inc", "u32", "r", r, &scount[3], 9u);
    ATOM_S("or", "b32", "r", r, &scount[4], 1u << (tid % 32));
    unsigned* gen = &scount[5];  // a generic address into shared memory
    asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(gen), "r"(tid) : "memory");
  }

  // ---- a word per thread ----
  {  // exch chain: the second exch returns the first one's value
    unsigned* p = out + 128 + g;
    unsigned a, b;
    ATOM_G("exch", "b32", "r", a, p, u);
    ATOM_G("exch", "b32", "r", b, p, a ^ g);
    out[384 + g] = b + 1;
  }
  const unsigned fa = in[g], fb = in[256 + g];
  {  // f32 add on global memory; the returned old value goes where it came from
    unsigned* p = out + 640 + g;
    *p = fa;
    float old;
    ATOM_G("add", "f32", "f", old, reinterpret_cast<float*>(p), __uint_as_float(fb));
    if (__float_as_uint(old) != fa) *p = 0xdeadbeefu;
  }
  {  // f32 add on shared memory
    sf[tid] = __uint_as_float(fa);
    float old;
    ATOM_S("add", "f32", "f", old, &sf[tid], __uint_as_float(fb));
    out[896 + g] = __float_as_uint(sf[tid]) ^ (__float_as_uint(old) == fa ? 0u : 1u);
  }
  {  // f64 add: operands widened from the f32 inputs and scaled so that the sum rounds
    auto* p = reinterpret_cast<double*>(out + 1152) + g;
    *p = static_cast<double>(__uint_as_float(fa)) * 1.0000001;
    double old;
    ATOM_G("add", "f64", "d", old, p, static_cast<double>(__uint_as_float(fb)) / 3.0);
    (void)old;
  }
  const unsigned h = in[1024 + g % 256];
  {  // f16 / bf16 on halves, f16x2 / bf16x2 on words
    auto* p16 = reinterpret_cast<unsigned short*>(out + 1664) + g;
    *p16 = static_cast<unsigned short>(h);
    unsigned short o16;
    asm volatile("atom.global.add.noftz.f16 %0, [%1], %2;" : "=h"(o16) : "l"(p16), "h"(static_cast<unsigned short>(h >> 16)) : "memory");
    unsigned* px = out + 1792 + g;
    *px = h;
    asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(r) : "l"(px), "r"(u2 & 0x8fff8fffu) : "memory");
    auto* pb = reinterpret_cast<unsigned short*>(out + 2048) + g;
    *pb = static_cast<unsigned short>(fa >> 16);
    asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(o16) : "l"(pb), "h"(static_cast<unsigned short>(fb >> 16)) : "memory");
    unsigned* pbx = out + 2176 + g;
    *pbx = (fa >> 16) | (fb & 0xffff0000u);
    asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(r) : "l"(pbx), "r"(in[(g + 17) % 512]) : "memory");
  }
  {  // cas.b16 on shared memory: swaps only where the compare value matches
    sh[tid] = static_cast<unsigned short>(u);
    unsigned short old;
    const unsigned short cmp = static_cast<unsigned short>(tid % 3 == 0 ? u : u + 1);
    asm volatile("atom.shared.cas.b16 %0, [%1], %2, %3;"
                 : "=h"(old)
                 : "r"(smem_addr(&sh[tid])), "h"(cmp), "h"(static_cast<unsigned short>(u2))
                 : "memory");
    reinterpret_cast<unsigned short*>(out + 2432)[g] = static_cast<unsigned short>(sh[tid] ^ old);
  }
  {  // red.add.f32 on global memory
    unsigned* p = out + 2816 + g;
    *p = fb;
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(__uint_as_float(fa)) : "memory");
  }
  __syncthreads();
  if (cta == 0 && tid < 6) out[3072 + tid] = scount[tid];
}
