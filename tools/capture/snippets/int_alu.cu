// Integer arithmetic and bit manipulation on one warp. in: 3 words per lane (a, b, c). out: 16
// words per lane.
extern "C" __global__ void int_alu(const unsigned* in, unsigned* out) {
  const unsigned lane = threadIdx.x;
  const unsigned a = in[lane * 3], b = in[lane * 3 + 1], c = in[lane * 3 + 2];
  const int sa = static_cast<int>(a), sb = static_cast<int>(b);
  unsigned* o = out + lane * 16;
  o[0] = a * b + c;
  o[1] = __umulhi(a, b);
  const long long w = static_cast<long long>(sa) * sb;
  o[2] = static_cast<unsigned>(w);
  o[3] = static_cast<unsigned>(w >> 32);
  o[4] = __byte_perm(a, b, c & 0x7777u);
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b & 31u), "r"((c >> 8) & 31u));
  o[5] = r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(c & 31u), "r"((b >> 8) & 15u));
  o[6] = r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 31u), "r"((c >> 5) & 31u));
  o[7] = r;
  o[8] = __popc(a) | (__clz(b) << 8) | (__ffs(c) << 16);
  o[9] = __brev(c);
  o[10] = static_cast<unsigned>(max(sa, sb)) ^ min(a, b);
  o[11] = static_cast<unsigned>(abs(sa) - (sb >> (c & 31u)));
  o[12] = __funnelshift_l(a, b, c) ^ __funnelshift_r(b, c, a);
  o[13] = static_cast<unsigned>(__mulhi(sa, sb)) + (a << (b & 31u));
  o[14] = a % (b | 1u) + static_cast<unsigned>(sa / ((sb >> 4) | 1));
  o[15] = (a & ~b) | (b ^ c);
}
