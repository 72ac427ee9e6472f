// Float arithmetic with explicit rounding on one warp: f32 fma/add/mul in every rounding mode,
// min/max, f16x2 and bf16x2 fma, f64 fma. in: 3 f32 per lane (a, b, c). out: 12 words per lane.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void float_alu(const float* in, unsigned* out) {
  const unsigned lane = threadIdx.x;
  const float a = in[lane * 3], b = in[lane * 3 + 1], c = in[lane * 3 + 2];
  unsigned* o = out + lane * 12;
  o[0] = __float_as_uint(__fmaf_rn(a, b, c));
  o[1] = __float_as_uint(__fmaf_rz(a, b, c));
  o[2] = __float_as_uint(__fadd_rd(a, c));
  o[3] = __float_as_uint(__fmul_ru(a, b));
  o[4] = __float_as_uint(fminf(a, b));
  o[5] = __float_as_uint(fmaxf(b, c));
  const __half2 ha = __floats2half2_rn(a, b), hb = __floats2half2_rn(b, c), hc = __floats2half2_rn(c, a);
  const __half2 hr = __hfma2(ha, hb, hc);
  o[6] = *reinterpret_cast<const unsigned*>(&hr);
  const __nv_bfloat162 ba = __floats2bfloat162_rn(a, b), bb = __floats2bfloat162_rn(b, c),
                       bc = __floats2bfloat162_rn(c, a);
  const __nv_bfloat162 br = __hfma2(ba, bb, bc);
  o[7] = *reinterpret_cast<const unsigned*>(&br);
  const double dr = fma(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c));
  o[8] = static_cast<unsigned>(__double_as_longlong(dr));
  o[9] = static_cast<unsigned>(__double_as_longlong(dr) >> 32);
  o[10] = __float_as_uint(__fsub_rn(fabsf(a), -b));
  o[11] = __float_as_uint(__fdiv_rn(a, c));
}
