// Conversions and packing: f32 -> f16x2 / bf16x2 (rn, rz, relu), -> e4m3x2 / e5m2x2 (satfinite,
// relu), f16x2 -> e4m3x2 and back, tf32 (rna), f16 in four rounding modes, integer conversions.
// in: 4 f32 per lane (a, b, c, d). out: 16 words per lane.
extern "C" __global__ void cvt_pack(const float* in, unsigned* out) {
  const unsigned lane = threadIdx.x;
  const float a = in[lane * 4], b = in[lane * 4 + 1], c = in[lane * 4 + 2], d = in[lane * 4 + 3];
  unsigned* o = out + lane * 16;
  unsigned r;
  unsigned short h, h2;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(b));
  o[0] = r;
  asm("cvt.rz.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(c), "f"(d));
  o[1] = r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(c));
  o[2] = r;
  asm("cvt.rz.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(b), "f"(d));
  o[3] = r;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "f"(a), "f"(b));
  asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(h2) : "f"(c), "f"(d));
  asm("mov.b32 %0, {%1, %2};" : "=r"(r) : "h"(h), "h"(h2));
  o[4] = r;
  unsigned packed;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(b), "f"(c));
  asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(h) : "r"(packed));
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(h));
  o[5] = r;
  asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(h) : "r"(packed));
  asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(h));
  o[6] = r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(a));
  o[7] = r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(d));
  asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h2) : "f"(d));
  o[8] = h | (static_cast<unsigned>(h2) << 16);
  asm("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "f"(d));
  asm("cvt.rp.f16.f32 %0, %1;" : "=h"(h2) : "f"(d));
  o[9] = h | (static_cast<unsigned>(h2) << 16);
  int i;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(i) : "f"(a));
  o[10] = static_cast<unsigned>(i);
  asm("cvt.rzi.sat.u32.f32 %0, %1;" : "=r"(r) : "f"(b));
  o[11] = r;
  short s;
  asm("cvt.rmi.sat.s8.f32 %0, %1;" : "=h"(s) : "f"(c));
  o[12] = static_cast<unsigned short>(s);
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(static_cast<unsigned short>(packed)));
  o[13] = __float_as_uint(f);
  double x;
  asm("cvt.f64.f32 %0, %1;" : "=d"(x) : "f"(a));
  asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(x * 3.0));
  o[14] = __float_as_uint(f);
  asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(a * 4096.0f));
  o[15] = h;
}
