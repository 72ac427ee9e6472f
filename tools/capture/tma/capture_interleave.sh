#!/usr/bin/env bash
# Interleaved tensor maps on the GPU (docs/hardware/tensormap-sm90.md, "Interleaved maps"; not yet
# run): tile loads through 16B- and 32B-interleaved maps by tma_modes.cu's tma_tile_il with an
# expect_tx of 4096, so that the dump holds every byte the TMA landed (the phase then never
# completes; the wait is bounded), to work out their layout in shared memory and their bytes.
#   tools/capture/tma/capture_interleave.sh SNIPPET_CAPTURE_BINARY OUT_DIR PTX_FILE
set -uo pipefail
bin=$1 out=$2 ptx=$3
mkdir -p "$out"
til() {  # NAME MAP IN_WORDS RANK C0..C4 (BUF: the input)
  local name=$1 map=$2 words=$3 rank=$4
  shift 4
  { timeout 20 "$bin" --yaml "$out/$name.test.yaml" --ptx "$ptx" --entry tma_tile_il --threads 128 \
      --in "u32:$words" --out-words $((8192 + words)) --cases 1 --seed 1 \
      --params "tmap:${map/;BUF;/;in;},tmap:${map/;BUF;/;out+32768;},out,u32:$rank,u32:0,u32:4096,u32:$1,u32:$2,u32:$3,u32:$4,u32:$5,u32:0,u32:0,u32:0,u32:0,u32:0,u32:0" \
      2>"$out/$name.err" && rm -f "$out/$name.err"; } &
}
til a_842_011 "f16;BUF;8x6x4;16x96;8x4x2;0;il=16" 96 3 0 1 1 0 0
til b_842_000 "f16;BUF;8x6x4;16x96;8x4x2;0;il=16" 96 3 0 0 0 0 0
til c_811_000 "f16;BUF;8x6x4;16x96;8x1x1;0;il=16" 96 3 0 0 0 0 0
til d_821_000 "f16;BUF;8x6x4;16x96;8x2x1;0;il=16" 96 3 0 0 0 0 0
til e_812_000 "f16;BUF;8x6x4;16x96;8x1x2;0;il=16" 96 3 0 0 0 0 0
til f_831_020 "f16;BUF;8x6x4;16x96;8x3x1;0;il=16" 96 3 0 2 0 0 0
wait
til g_4d_f32 "f32;BUF;4x5x3x2;16x80x240;4x3x2x2;0;il=16" 120 4 0 0 0 0 0
til h_il32 "f16;BUF;16x6x4;32x192;16x4x2;32;il=32" 192 3 0 0 0 0 0
til i_wide "f16;BUF;16x6x4;32x192;8x2x1;0;il=16" 192 3 8 0 0 0 0
til j_dims "f16;BUF;8x10x3;16x160;8x5x1;0;il=16" 240 3 0 1 0 0 0
til k_128b "f16;BUF;8x6x4;16x96;8x4x2;128;il=16" 96 3 0 0 0 0 0
wait
