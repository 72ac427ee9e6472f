#!/usr/bin/env bash
# TMA beyond the tile mode on the GPU (docs/hardware/tensormap-sm90.md): im2col loads and stores,
# interleaved maps and tensormap.replace, from tma_modes.cu (the committed PTX:
# tests/data/tma-sm90/tma_modes.ptx), run with tools/capture/snippet_capture, whose `tmap:` and `i2c:`
# parameters are tensor maps the driver encodes.
#   tools/capture/tma/capture_modes.sh SNIPPET_CAPTURE_BINARY OUT_DIR [PTX_FILE]
# Each case is one snippet_capture run (30 s at most), eight at a time; a run the GPU stopped
# leaves OUT_DIR/NAME.err. tools/capture/tensormap_capture writes the encodings, im2col's too.
set -uo pipefail
bin=$1 out=$2 ptx=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ -z "$ptx" ]; then
  ptx=$out/tma_modes.ptx
  nvcc -ptx -O3 -arch=sm_90a -o "$ptx" "$here/tma_modes.cu"
fi
u() { echo $(( $1 < 0 ? $1 + 4294967296 : $1 )); }  # a signed 32-bit value as --params' u32
sc() {  # NAME OPTIONS...
  while [ "$(jobs -rp | wc -l)" -ge 8 ]; do wait -n; done
  { timeout 30 "$bin" --yaml "$out/$1.test.yaml" "${@:2}" 2>"$out/$1.err" && rm -f "$out/$1.err"; } &
}
# i2c NAME MAP IN_WORDS RANK DST BYTES C0..C4 O0 O1 O2 STORE: an im2col load of MAP (BUF: the
# input) at shared byte DST (BYTES: the mbarrier's expect_tx) from coordinates C with the im2col
# offsets O, dumped; with STORE 1 stored back through the same map over out + 32768 (im2col_no_offs).
i2c() {
  local name=$1 map=$2 words=$3 rank=$4 dst=$5 bytes=$6
  shift 6
  sc "$name" --ptx "$ptx" --entry tma_im2col --threads 128 --in "u32:$words" --out-words $((8192 + words)) --cases 1 --seed 1 \
    --params "i2c:${map/;BUF;/;in;},i2c:${map/;BUF;/;out+32768;},out,u32:$rank,u32:$dst,u32:$bytes,u32:$(u "$1"),u32:$(u "$2"),u32:$(u "$3"),u32:$(u "$4"),u32:$(u "$5"),u32:$(u "$6"),u32:$(u "$7"),u32:$(u "$8"),u32:$9"
}
A="f16;BUF;16x6x5x2;32x192x960"       # NHWC: 16 channels, W 6, H 5, N 2 (480 words)
B="f16;BUF;64x5x4x2;128x640x2560"     # 64 channels (1280 words)
C="f32;BUF;16x5x4x2;64x320x1280"      # (640 words)
D="f16;BUF;16x40x2;32x1280"           # NWC (640 words)
E="f32;BUF;8x4x3x3x2;32x128x384x1152" # NDHWC (576 words)
i2c i2c_4d_base "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 -1 -1 0 0 0 0 0 0
i2c i2c_4d_off "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 -1 -1 0 0 1 2 0 0
i2c i2c_4d_mid "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 2 1 1 0 2 0 0 0
i2c i2c_4d_corners "$A;-2x-1;0x-2;16;40;0" 480 4 0 1280 0 -2 -1 0 0 1 1 0 0
i2c i2c_4d_chan "$A;-1x-1;-1x-1;8;32;0" 480 4 0 512 8 -1 -1 0 0 0 1 0 0
i2c i2c_4d_chan_oob "$A;-1x-1;-1x-1;8;32;0" 480 4 0 512 12 0 0 0 0 1 1 0 0
i2c i2c_4d_estr "$A;-1x-1;-1x-1;16;32;0;estr=1x2x2x1" 480 4 0 1024 0 -1 -1 0 0 1 0 0 0
i2c i2c_4d_estr3 "$A;-1x-1;-1x-1;16;32;0;estr=2x3x1x1" 480 4 0 1024 0 -1 0 0 0 0 1 0 0
i2c i2c_4d_128b "$B;-1x-1;-1x-1;64;16;128" 1280 4 0 2048 0 -1 -1 0 0 1 1 0 0
i2c i2c_4d_128b_dst384 "$B;-1x-1;-1x-1;64;16;128" 1280 4 384 2048 0 0 -1 1 0 0 1 0 0
i2c i2c_4d_128b_narrow "$B;-1x-1;-1x-1;16;16;128" 1280 4 0 512 16 -1 0 0 0 1 0 0 0
i2c i2c_4d_64b_f32 "$C;-1x-1;-1x-1;16;24;64" 640 4 0 1536 0 -1 -1 0 0 0 1 0 0
i2c i2c_4d_32b_f32 "$C;-1x-1;0x0;8;24;32" 640 4 0 768 8 -1 -1 0 0 1 1 0 0
i2c i2c_4d_nan "$C;-1x-1;-1x-1;16;24;0;oob=nan" 640 4 0 1536 0 -1 -1 0 0 0 0 0 0
i2c i2c_3d "$D;-3;-2;16;64;0" 640 3 0 2048 0 -3 0 0 0 5 0 0 0
i2c i2c_3d_long "$D;-3;-2;8;128;0" 640 3 0 2048 0 -3 1 0 0 2 0 0 0
i2c i2c_5d "$E;-1x0x-1;0x-1x-1;8;48;32" 576 5 0 1536 0 -1 0 -1 0 1 0 1 0
i2c i2c_5d_off "$E;-1x0x-1;0x-1x-1;8;48;32" 576 5 0 1536 0 0 0 0 1 0 1 0 0
i2c i2c_4d_px_many "$A;-1x-1;-1x-1;8;256;0" 480 4 0 4096 0 -1 -1 0 0 0 0 0 0
i2c i2c_4d_u8 "u8;BUF;32x5x4x1;32x160x640;-1x-1;-1x-1;32;20;32" 160 4 0 640 0 -1 -1 0 0 1 1 0 0
i2c i2c_4d_store "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 0 0 0 0 0 0 0 1
i2c i2c_4d_store_pad "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 -1 -1 0 0 0 0 0 1
i2c i2c_4d_store_off "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 -1 -1 0 0 1 1 0 1
i2c i2c_4d_il16 "f16;BUF;8x6x5x2;16x96x480;-1x-1;-1x-1;8;30;0;il=16" 240 4 0 480 0 -1 -1 0 0 1 1 0 0
i2c i2c_4d_neg_off "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 0 0 0 0 -1 -1 0 0
i2c i2c_4d_c_outside "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 -3 0 0 0 0 0 0 0
i2c i2c_4d_c_high "$A;-1x-1;-1x-1;16;32;0" 480 4 0 1024 0 7 6 0 0 0 0 0 0
i2c i2c_4d_bytes_half "$A;-1x-1;-1x-1;16;32;0" 480 4 0 512 0 -1 -1 0 0 0 0 0 0
# til NAME MAP IN_WORDS RANK DST BYTES C0..C4 S0..S4 STORE: a tile-mode load (bounded wait) and a
# store at S through the same map over out + 32768.
til() {
  local name=$1 map=$2 words=$3 rank=$4 dst=$5 bytes=$6
  shift 6
  sc "$name" --ptx "$ptx" --entry tma_tile_il --threads 128 --in "u32:$words" --out-words $((8192 + words)) --cases 1 --seed 1 \
    --params "tmap:${map/;BUF;/;in;},tmap:${map/;BUF;/;out+32768;},out,u32:$rank,u32:$dst,u32:$bytes,u32:$1,u32:$2,u32:$3,u32:$4,u32:$5,u32:$6,u32:$7,u32:$8,u32:$9,u32:${10},u32:${11}"
}
til il_control "f32;BUF;20x30;80;8x12;0" 600 2 0 384 4 3 0 0 0 4 3 0 0 0 1
til il16_none "f16;BUF;8x6x4;16x96;8x4x2;0;il=16" 96 3 0 128 0 1 1 0 0 0 1 1 0 0 1
til il16_32b "f16;BUF;8x6x4;16x96;8x4x2;32;il=16" 96 3 0 128 0 1 1 0 0 0 1 1 0 0 1
til il16_64b "f16;BUF;8x6x4;16x96;8x4x2;64;il=16" 96 3 0 128 0 1 1 0 0 0 1 1 0 0 1
til il16_128b "f16;BUF;8x6x4;16x96;8x4x2;128;il=16" 96 3 0 128 0 1 1 0 0 0 1 1 0 0 1
til il16_half "f16;BUF;8x6x4;16x96;4x4x2;0;il=16" 96 3 0 64 0 1 1 0 0 0 1 1 0 0 1
til il16_bytes256 "f16;BUF;8x6x4;16x96;8x4x2;0;il=16" 96 3 0 256 0 1 1 0 0 0 1 1 0 0 0
til il16_edge "f16;BUF;8x6x4;16x96;8x4x2;0;il=16" 96 3 0 128 0 4 3 0 0 0 4 2 0 0 1
til il16_wide "f16;BUF;16x6x4;32x192;8x4x2;0;il=16" 192 3 0 128 8 1 1 0 0 8 1 1 0 0 1
til il32_32b "f16;BUF;16x6x4;32x192;16x4x2;32;il=32" 192 3 0 256 0 1 1 0 0 0 1 1 0 0 1
til il16_4d_f32 "f32;BUF;4x5x3x2;16x80x240;4x3x2x2;0;il=16" 120 4 0 192 0 1 1 0 0 0 1 1 0 0 1
til il16_5d_u8 "u8;BUF;16x3x3x2x2;16x48x144x288;16x2x2x2x2;0;il=16;estr=1x1x2x1x1" 144 5 0 128 0 1 0 1 0 0 1 0 1 0 1
# rp NAME WHERE WHICH V RANK BYTES C0 C1: tensormap.replace (tma_modes.cu's `which`) on the map
# "f32;in;32x24;128;8x4;0" in global (WHERE 0) or shared memory (1), V its register value (u64:N or
# in+B), then (RANK 2) a load of BYTES at (C0, C1) through it; RANK 0: the modified map only.
rp() {
  local name=$1 where=$2 which=$3 v=$4 rank=$5 bytes=$6 c0=$7 c1=$8
  sc "${name}_$( [ "$where" = 0 ] && echo g || echo s)" --ptx "$ptx" --entry tma_replace --threads 128 --in u32:768 --out-words 256 --cases 1 \
    --seed 1 --params "tmap:f32;in;32x24;128;8x4;0,out,u32:$where,u32:$which,$v,u32:$rank,u32:0,u32:$bytes,u32:$c0,u32:$c1,u32:0,u32:0,u32:0"
}
for w in 0 1; do
  rp r_none $w 0 u64:0 2 128 4 2
  rp r_addr $w 1 in+256 2 128 4 2
  for v in 0 1 2 4; do rp r_rank$v $w 2 u64:$v 0 0 0 0; done
  rp r_rank_imm0 $w 52 u64:0 0 0 0 0
  rp r_box0_4 $w 3 u64:4 2 64 4 2
  rp r_box0_4_b128 $w 3 u64:4 2 128 4 2
  rp r_box0_3 $w 3 u64:3 0 0 0 0
  rp r_box0_256 $w 3 u64:256 0 0 0 0
  rp r_box0_0 $w 3 u64:0 0 0 0 0
  rp r_box1_8 $w 4 u64:8 2 256 4 2
  rp r_box1_8_b128 $w 4 u64:8 2 128 4 2
  rp r_box1_imm255 $w 53 u64:0 0 0 0 0
  rp r_box4_5 $w 7 u64:5 0 0 0 0
  rp r_gdim0_10 $w 8 u64:10 2 128 4 2
  rp r_gdim1_3 $w 9 u64:3 2 128 0 1
  rp r_gdim4_7 $w 12 u64:7 0 0 0 0
  rp r_gdim0_big $w 8 u64:2147483648 0 0 0 0
  rp r_gdim0_0 $w 8 u64:0 0 0 0 0
  rp r_gstride0_256 $w 13 u64:256 2 128 0 1
  rp r_gstride0_136 $w 13 u64:136 0 0 0 0
  rp r_gstride1 $w 14 u64:512 0 0 0 0
  rp r_gstride3 $w 16 u64:4096 0 0 0 0
  rp r_gstride4 $w 17 u64:68719476736 0 0 0 0
  rp r_gstride0_big $w 13 u64:1099511627760 0 0 0 0
  rp r_estr0_2 $w 18 u64:2 2 64 4 2
  rp r_estr0_2_b128 $w 18 u64:2 2 128 4 2
  rp r_estr1_2 $w 19 u64:2 2 64 4 2
  rp r_estr1_2_b128 $w 19 u64:2 2 128 4 2
  rp r_estr4_3 $w 22 u64:3 0 0 0 0
  rp r_estr1_9 $w 19 u64:9 0 0 0 0
  for t in $(seq 0 12); do rp r_type$t $w $((30 + t)) u64:0 0 0 0 0; done
  rp r_type2_load $w 32 u64:0 2 128 4 2
  for i in 0 1 2; do rp r_il$i $w $((43 + i)) u64:0 0 0 0 0; done
  for s in 0 1 2 3; do rp r_swz$s $w $((46 + s)) u64:0 0 0 0 0; done
  rp r_swz1_load $w 47 u64:0 2 128 4 2
  rp r_fill0 $w 50 u64:0 0 0 0 0
  rp r_fill1 $w 51 u64:0 0 0 0 0
  rp r_fill1_load $w 51 u64:0 2 128 28 22
done
wait
