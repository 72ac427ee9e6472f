// bar.red: __syncthreads_count, __syncthreads_and and __syncthreads_or over a block of 96 threads
// (three warps), on predicates taken from the input, each thread storing the three results.
// in: u32:96. out: 288 words.
extern "C" __global__ void __launch_bounds__(96) barrier_reduce(const void* in_, void* out_) {
  const auto* in = static_cast<const unsigned*>(in_);
  auto* out = static_cast<unsigned*>(out_);
  const unsigned tid = threadIdx.x, v = in[tid];
  const int count = __syncthreads_count(v & 1);
  const int all = __syncthreads_and(v % 150 != 1);
  const int any = __syncthreads_or(v % 150 == 2);
  out[tid] = static_cast<unsigned>(count);
  out[96 + tid] = static_cast<unsigned>(all);
  out[192 + tid] = static_cast<unsigned>(any);
}
