#!/usr/bin/env bash
# Captures every kernel of the real-kernel corpus (tests/kernels/, docs/kernels.md) on the GPU:
# snippet_capture runs the committed PTX and writes its .test.yaml beside it in OUT_DIR.
#   tools/kernels/capture.sh SNIPPET_CAPTURE_BINARY KERNELS_DIR OUT_DIR
set -euo pipefail
bin=$1 kernels=$2 out=$3
run() {  # DIR/NAME ENTRY THREADS OPTIONS...
  mkdir -p "$out/$(dirname "$1")"
  "$bin" --ptx "$kernels/$1.ptx" --entry "$2" --threads "$3" --cases 2 --seed 1 --yaml "$out/$1.test.yaml" "${@:4}"
}
# Triton fused attention (tools/kernels/triton_attention.py): seq 128, head 64, two 64-row CTAs;
# Q, K, V f16 below 1 in magnitude; O f32. Dynamic shared memory as Triton reported it.
run triton-attention/attention_sm80 attention 128 --grid 2 --params in,out,u32:128,null,null \
  --dynamic-shared 24576 --in f16s:24576 --out-words 8192
run triton-attention/attention_sm90a attention 128 --grid 2 --params in,out,u32:128,null,null \
  --dynamic-shared 32768 --in f16s:24576 --out-words 8192
