// Four mma families fed from the same f32 inputs: bf16 (packed with cvt.rn.bf16x2.f32), tf32
// (cvt.rna.tf32.f32), s8 x u8 with .satfinite (the f32 bits as bytes and as s32 accumulators)
// and f64 (cvt.f64.f32). in: 16 f32 per lane. out: 16 words per lane (4 D words per family).
extern "C" __global__ void mma_mixed(const float* in, unsigned* out) {
  const unsigned lane = threadIdx.x;
  const float* x = in + lane * 16;
  const unsigned* xb = reinterpret_cast<const unsigned*>(x);
  unsigned* o = out + lane * 16;

  unsigned a[4], b[2], t[4];
  for (int i = 0; i < 4; ++i) asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(a[i]) : "f"(x[2 * i + 1]), "f"(x[2 * i]));
  for (int i = 0; i < 2; ++i)
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(b[i]) : "f"(x[8 + 2 * i + 1]), "f"(x[8 + 2 * i]));
  float d[4];
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(x[12]), "f"(x[13]), "f"(x[14]),
        "f"(x[15]));
  for (int i = 0; i < 4; ++i) o[i] = __float_as_uint(d[i]);

  for (int i = 0; i < 4; ++i) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t[i]) : "f"(x[i]));
  unsigned tb0, tb1;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(tb0) : "f"(x[8]));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(tb1) : "f"(x[9]));
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(t[0]), "r"(t[1]), "r"(t[2]), "r"(t[3]), "r"(tb0), "r"(tb1), "f"(x[12]), "f"(x[13]), "f"(x[14]),
        "f"(x[15]));
  for (int i = 0; i < 4; ++i) o[4 + i] = __float_as_uint(d[i]);

  int di[4];
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};"
      : "=r"(di[0]), "=r"(di[1]), "=r"(di[2]), "=r"(di[3])
      : "r"(xb[0]), "r"(xb[1]), "r"(xb[2]), "r"(xb[3]), "r"(xb[8]), "r"(xb[9]), "r"(xb[12]), "r"(xb[13]),
        "r"(xb[14]), "r"(xb[15]));
  for (int i = 0; i < 4; ++i) o[8 + i] = static_cast<unsigned>(di[i]);

  double dd[2];
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
               : "=d"(dd[0]), "=d"(dd[1])
               : "d"(static_cast<double>(x[0])), "d"(static_cast<double>(x[8])), "d"(static_cast<double>(x[12])),
                 "d"(static_cast<double>(x[13])));
  for (int i = 0; i < 2; ++i) {
    o[12 + 2 * i] = static_cast<unsigned>(__double_as_longlong(dd[i]));
    o[13 + 2 * i] = static_cast<unsigned>(__double_as_longlong(dd[i]) >> 32);
  }
}
