#!/usr/bin/env bash
# Captures every kernel of the real-kernel corpus (tests/kernels/, docs/kernels.md) on the GPU:
# snippet_capture runs the committed PTX and writes its .test.yaml (xz -9 it beside the PTX).
#   tools/kernels/capture.sh SNIPPET_CAPTURE_BINARY TESTS_DIR OUT_DIR [cutlass]
# (TESTS_DIR: the repository's tests/; `cutlass`: only the CUTLASS/CuTe kernels.)
set -euo pipefail
bin=$1 tests=$2 out=$3 only=${4:-}
run() {  # DIR/NAME (under tests/) ENTRY THREADS OPTIONS...
  mkdir -p "$out/$(dirname "$1")"
  "$bin" --ptx "$tests/$1.ptx" --entry "$2" --threads "$3" --cases 2 --seed 1 --yaml "$out/$1.test.yaml" "${@:4}"
}
if [[ $only != cutlass ]]; then
  # Dynamic shared memory as tools/kernels/triton_corpus.py reported it; Triton's two scratch
  # pointers null.
  # Fused attention: seq 128, head 64, two 64-row CTAs; Q, K, V f16 below 1 in magnitude; O f32.
  for t in sm80:24576 sm90a:32768; do
    run kernels/triton-attention/attention_${t%:*} attention 128 --grid 2 --params in,out,u32:128,null,null \
      --dynamic-shared ${t#*:} --in f16s:24576 --out-words 8192
  done
  # Matmul 128 x 128 x 128 (A then B in the input), 64 x 64 tiles: a grid of 4, 4 or 2 K steps.
  for t in f16_sm80:16384:f16s f16_sm90a:24576:f16s bf16_sm80:16384:bf16s bf16_sm90a:24576:bf16s; do
    IFS=: read -r name smem kind <<<"$t"
    run kernels/triton-matmul/matmul_$name matmul 128 --grid 4 --params in,out,u32:128,u32:128,u32:128,null,null \
      --dynamic-shared "$smem" --in "$kind:32768" --out-words 16384
  done
  for t in sm89 sm90a; do
    run kernels/triton-matmul/matmul_e4m3_$t matmul 128 --grid 4 --params in,out,u32:128,u32:128,u32:128,null,null \
      --dynamic-shared 16384 --in e4m3:32768 --out-words 16384
  done
  # tf32 (f32 inputs with their low 13 bits set), K = 64; s8 (random bytes) into s32.
  for t in sm80:32768 sm90a:49152; do
    run kernels/triton-matmul/matmul_tf32_${t%:*} matmul 128 --grid 4 --params in,out,u32:128,u32:128,u32:64,null,null \
      --dynamic-shared ${t#*:} --in f32:16384 --out-words 16384
    run kernels/triton-matmul/matmul_s8_${t%:*} matmul 128 --grid 4 --params in,out,u32:128,u32:128,u32:128,null,null \
      --dynamic-shared 16384 --in u32:8192 --out-words 16384
  done
  # f16 with a tanh.approx.f32 epilogue (inline PTX).
  run kernels/triton-matmul/matmul_f16_tanh_sm80 matmul 128 --grid 4 --params in,out,u32:128,u32:128,u32:128,null,null \
    --dynamic-shared 16384 --in f16s:32768 --out-words 16384
  # Row-wise softmax and layer norm: 8 rows of 96 f32 (exponents -12..12) under a 128-wide block.
  for k in kernels/triton-rows/softmax kernels/triton-rows/layernorm; do
    run ${k}_sm80 ${k##*/} 128 --grid 8 --params in,out,u32:96,null,null --dynamic-shared 16 \
      --in f32:768 --out-words 768
  done
  # The CUDA samples' wmma GEMMs (tools/kernels/cuda_samples.sh), 128 x 128 x 128, alpha 1.1 and beta
  # 1.2 (f16; as f32 bits) or 3 and 2 (u8): A, B and C one after the other in the input.
  # compute_gemm: 8 warps a CTA over 128 x 128 block tiles (one here; the second CTA of the grid finds
  # none), 64 KiB of dynamic shared memory; simple_wmma_gemm: a warp per 16 x 16 tile of D.
  for t in sm80 sm90a; do
    k=kernels/cuda-samples/tensorcore_gemm_$t
    run $k _Z12compute_gemmPK6__halfS1_PKfPfff 256 --grid 2 --cases 1 --dynamic-shared 65536 \
      --params in,in+32768,in+65536,out,u32:0x3f8ccccd,u32:0x3f99999a --in f16s:16384,f16s:16384,f32:16384 \
      --out-words 16384 --yaml "$out/${k}_compute.test.yaml"
    run $k _Z16simple_wmma_gemmP6__halfS0_PfS1_iiiff 128 --grid 2,8 --cases 1 \
      --params in,in+32768,in+65536,out,u32:128,u32:128,u32:128,u32:0x3f8ccccd,u32:0x3f99999a \
      --in f16s:16384,f16s:16384,f32:16384 --out-words 16384 --yaml "$out/${k}_simple.test.yaml"
    k=kernels/cuda-samples/imma_gemm_$t
    run $k _Z17compute_gemm_immaPKhS0_PKiPiii 256 --grid 2 --cases 1 --dynamic-shared 65536 \
      --params in,in+16384,in+32768,out,u32:3,u32:2 --in u32:4096,u32:4096,u32:16384 \
      --out-words 16384 --yaml "$out/${k}_compute.test.yaml"
    run $k _Z21simple_wmma_gemm_immaPKhS0_PKiPiiiiii 128 --grid 2,8 --cases 1 \
      --params in,in+16384,in+32768,out,u32:128,u32:128,u32:128,u32:3,u32:2 \
      --in u32:4096,u32:4096,u32:16384 --out-words 16384 --yaml "$out/${k}_simple.test.yaml"
  done
  # The TMA matmul (host-side tensor descriptors): A, B 128 x 128 f16, 64 x 64 tiles, K steps of 32;
  # each descriptor is a tensor map (then its shape as i32 and strides as i64), encoded as Triton's
  # launcher does (swizzle and box from the compiler's tensordesc_meta, L2 promotion 128B).
  run kernels/triton-tma/matmul_tma_f16_sm90a matmul_tma 128 --grid 4 \
    --params "tmap:f16;in;128x128;256;32x64;64;l2=128,u32:128,u32:128,u64:128,u64:1,tmap:f16;in+32768;128x128;256;64x32;128;l2=128,u32:128,u32:128,u64:128,u64:1,out,u32:128,u32:128,u32:128,null,null" \
    --dynamic-shared 24600 --in f16s:32768 --out-words 16384
fi

# The CuTe tutorial GEMMs (tools/kernels/cutlass.sh), the TN half-precision variants the tutorials
# run, M = N = K = 256 (A then B, K-major, in the input; C M-major in the output, which starts as
# 0xcdcd halves), 128 x 128 x 64 CTA tiles over a grid of 2 x 2, three pipeline stages over four K
# tiles, alpha 1, beta 0.5 (f16 bits). CuTe passes shapes, strides, layouts, copies and the MMA by
# value: empty structs are one byte (hex:00), (M, N, K) three i32, a stride its one dynamic i32, an
# SM90 TiledMMA its ScaleOut (One) and padding, a TMA atom its 128-byte tensor map (as make_tma_atom
# encodes it: 2D f16, K innermost, box 64 x 128, 128B swizzle, L2 promotion 128B) and 128 bytes of
# padding to its 128-byte alignment. Dynamic shared memory is the tutorials' sizeof(SharedStorage).
mnk=hex:000100000001000000010000 ld=hex:00010000 e=hex:00 ab=hex:003c,hex:0038 one=hex:0100000000000000
cute() {  # NAME WHICH-ENTRY(1 or 2 in the file: 2 is gemm_tn) OPTIONS...
  local k=kernels/cutlass/$1
  run $k "$(grep -o '^\.entry [A-Za-z0-9_]*' "$tests/$k.ptx" | sed -n "$2p" | cut -d' ' -f2)" 128 --grid 2,2 \
    --in f16s:131072 --out-words 32768 "${@:3}"
}
# sgemm_sm80's mainloop issues its last cp.async copies (of the last K tile again) and ends without
# waiting for them: ptxmma says so, and the vector expects that warning.
cute cute_sgemm_sm80 1 --dynamic-shared 98304 --expect-warning 'cp.async is still in flight' \
  --params $mnk,$e,in,$ld,$e,$e,$e,in+131072,$ld,$e,$e,$e,out,$ld,$e,$e,$ab
cute cute_wgmma_sm90a 2 --dynamic-shared 98304 \
  --params $mnk,$e,in,$ld,$e,$e,in+131072,$ld,$e,$e,out,$ld,$one,$ab
pad=hex:$(printf '0%.0s' {1..256})
tmap() { echo "tmap:f16;$1;256x256;512;64x128;128;l2=128&$pad"; }
cute cute_wgmma_tma_sm90a 2 --dynamic-shared 98432 --cluster 2,1,1 \
  --params "$mnk,$e,in,$(tmap in),in+131072,$(tmap in+131072),out,$ld,$one,$ab"
