// Warp shuffles: a butterfly sum (shfl.bfly), an inclusive scan (shfl.up), a broadcast within
// groups of 8 (shfl.idx with a width) and shfl.down within 16. in: 2 words per lane (an f32, then
// a u32). out, per lane: sum, scan, broadcast, down.
extern "C" __global__ void shfl_scan(const unsigned* in, unsigned* out) {
  const unsigned lane = threadIdx.x;
  const float x = __uint_as_float(in[lane]);
  float sum = x;
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  float scan = x;
  for (int o = 1; o < 32; o <<= 1) {
    const float t = __shfl_up_sync(0xffffffffu, scan, o);
    if (lane >= static_cast<unsigned>(o)) scan += t;
  }
  const float bcast = __shfl_sync(0xffffffffu, x, (lane * 7u) & 31u, 8);
  const unsigned down = __shfl_down_sync(0xffffffffu, in[32 + lane], 3, 16);
  out[lane * 4 + 0] = __float_as_uint(sum);
  out[lane * 4 + 1] = __float_as_uint(scan);
  out[lane * 4 + 2] = __float_as_uint(bcast);
  out[lane * 4 + 3] = down;
}
