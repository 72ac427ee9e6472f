// Divergent control flow on one warp: a data-dependent loop (Collatz steps of a lane's byte), a
// three-way branch on the lane number, and a ballot after reconvergence. in: one word per lane.
// out, per lane: steps, the branch's result, the ballot.
extern "C" __global__ void divergent_branch(const unsigned* in, unsigned* out) {
  const unsigned lane = threadIdx.x;
  const unsigned x = in[lane];
  unsigned v = (x & 0xffu) + 1u, steps = 0;
  while (v != 1u && steps < 300u) {
    v = (v & 1u) ? 3u * v + 1u : v >> 1;
    ++steps;
  }
  unsigned r;
  if (lane & 1u)
    r = x * 3u + steps;
  else if (lane % 3u == 0u)
    r = x ^ 0x5a5a5a5au;
  else
    r = __brev(x) + v;
  const unsigned ballot = __ballot_sync(0xffffffffu, steps > 20u);
  out[lane * 3 + 0] = steps;
  out[lane * 3 + 1] = r;
  out[lane * 3 + 2] = ballot;
}
