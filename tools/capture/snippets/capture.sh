#!/usr/bin/env bash
# Captures every snippet of this folder on the GPU: snippet_capture runs the committed nvcc-emitted
# PTX (tests/data/snippets-sm90/NAME.ptx, made by `make_ptx.sh`) and writes NAME.test.yaml.
#   tools/capture/snippets/capture.sh SNIPPET_CAPTURE_BINARY PTX_DIR OUT_DIR
set -euo pipefail
bin=$1 ptx=$2 out=$3
mkdir -p "$out"
run() {  # NAME THREADS IN_SPEC OUT_WORDS [YAML_NAME] [MORE OPTIONS]
  "$bin" --ptx "$ptx/$1.ptx" --entry "$1" --threads "$2" --in "$3" --out-words "$4" --cases 3 --seed 1 \
    --yaml "$out/${5:-$1}.test.yaml" "${@:6}"
}
run ldmatrix_mma_stmatrix 32 f16:384,f32:128 192
run cvt_fp8_mma 32 f32:896 320
run divergent_branch 32 u32:32 96
run shfl_scan 32 f32:32,u32:32 128
run cvt_pack 32 f32w:128 512
run int_alu 32 u32:96 512
run float_alu 32 f32:96 384
run float_alu 32 f32w:96 384 float_alu_wide
run mma_mixed 32 f32:512 512
run wgmma_pipeline 128 f16:2560,f32:1024 1024
run wgmma_rs_fp8 128 f16:128,f32:2048,f16:512 1024
run cp_async_mma_grid 64 f16:2048,f16:2048,f32:32 1024 cp_async_mma_grid --grid 2,2
run same_address_stores 32 u32:4 16   # hand-written PTX (no .cu)
run mbarrier_atomics 64 f32w:512,u32:512,f16:512 3200 mbarrier_atomics --grid 2,2
run device_call 64 f32:64,u32:64 256
run barrier_reduce 96 u32:96 288
