#!/usr/bin/env bash
# Bulk copies and TMA on the GPU (docs/hardware/tensormap-sm90.md, bulk-reduce-sm90.md): compiles
# bulk_copy.cu, tma_tile.cu and bulk_reduce.cu to PTX (the committed copies: tests/data/tma-sm90)
# and runs them with tools/capture/snippet_capture, whose `tmap:` parameters are tensor maps the
# driver encodes.
#   tools/capture/tma/capture.sh SNIPPET_CAPTURE_BINARY OUT_DIR [PTX_DIR [GROUP]]
# (with PTX_DIR, its PTX is run instead of compiling; GROUP: copies, reduce or all, the default). tools/capture/tensormap_capture writes the
# encodings (tests/data/tensormap-sm90/maps.txt.xz): tensormap_capture --random 3000 --seed 1.
set -uo pipefail
bin=$1 out=$2 ptx=${3:-} group=${4:-all}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ -z "$ptx" ]; then
  ptx=$out
  for n in bulk_copy tma_tile bulk_reduce; do nvcc -ptx -O3 -arch=sm_90a -o "$ptx/$n.ptx" "$here/$n.cu"; done
fi
sc() {  # YAML_NAME OPTIONS...: a kernel that never completes its wait is stopped after 30 s
  timeout 30 "$bin" --yaml "$out/$1.test.yaml" "${@:2}" || echo "$1: failed" >&2
}
reductions() {
  # Each floating-point form of cp.reduce.async.bulk that ptxas takes (bulk_reduce.cu's `form`).
  local forms=(add_f32 add_f64 add_noftz_f16 min_f16 max_f16 add_noftz_bf16 min_bf16 max_bf16)
  # .add.f64 with 24 cases: some elements then have two NaN operands (which one comes out).
  local cases
  for f in "${!forms[@]}"; do
    cases="--cases 2 --seed 1"
    [ "${forms[$f]}" = add_f64 ] && cases="--cases 24 --seed 2"
    # shellcheck disable=SC2086  # $cases is two options
    sc "bulk_reduce_${forms[$f]}" --ptx "$ptx/bulk_reduce.ptx" --entry bulk_reduce --threads 64 --in u32:4096 \
      --out-words 512 $cases --params "in,out,u32:$f" &
  done
  wait
  # cp.reduce.async.bulk.tensor.2d, every operation on a 2048-byte tensor of each element type
  # (those the PTX ISA does not list for an operation show what the GPU does with them): a box
  # inside the tensor, and for add one that crosses its edges.
  local ops=(add min max inc dec and or xor)
  local t kind map inside edge
  for t in u32:4:32x16:16x8:8:4:24:12 s32:4:32x16:16x8:8:4:24:12 f32:0:32x16:16x8:8:4:24:12 \
    u64:5:16x16:8x8:4:4:12:12 s64:5:16x16:8x8:4:4:12:12 f64:1:16x16:8x8:4:4:12:12 \
    f16:2:64x16:32x8:16:4:48:12 bf16:3:64x16:32x8:16:4:48:12; do
    IFS=: read -r type kind dims box x y ex ey <<<"$t"
    map="tmap:$type;out;$dims;128;$box;0"
    for o in "${!ops[@]}"; do
      sc "tma_reduce_${type}_${ops[$o]}" --ptx "$ptx/bulk_reduce.ptx" --entry tma_reduce --threads 128 --in u32:4096 \
        --out-words 512 --cases 1 --seed 1 --params "$map,in,out,u32:$o,u32:$kind,u32:$x,u32:$y" &
    done
    sc "tma_reduce_${type}_add_edge" --ptx "$ptx/bulk_reduce.ptx" --entry tma_reduce --threads 128 --in u32:4096 \
      --out-words 512 --cases 1 --seed 1 --params "$map,in,out,u32:0,u32:$kind,u32:$ex,u32:$ey" &
    wait
  done
}
if [ "$group" = reduce ]; then reductions; exit; fi
sc bulk_copy --ptx "$ptx/bulk_copy.ptx" --entry bulk_copy --threads 64 --in u32:768 --out-words 1600 --cases 2 --seed 1
# tile NAME MAP IN_WORDS RANK DST BYTES C0..C4 S0..S4: a box of MAP (`BUF`: the input) loaded at
# shared byte DST and dumped, then stored through the same map over the output past the dump
# (out + 24576) at S0..S4. BYTES: the box's size, the mbarrier's expect_tx.
tile() {
  local name=$1 map=$2 words=$3 rank=$4 dst=$5 bytes=$6
  shift 6
  sc "$name" --ptx "$ptx/tma_tile.ptx" --entry tma_tile --threads 128 --in "u32:$words" \
    --out-words $((6144 + words)) --cases 1 --seed 1 \
    --params "tmap:${map/;BUF;/;in;},tmap:${map/;BUF;/;out+24576;},in,out,u32:$rank,u32:$dst,u32:$bytes,u32:$1,u32:$2,u32:$3,u32:$4,u32:$5,u32:$6,u32:$7,u32:$8,u32:$9,u32:${10}"
}
tile tma_tile_2d_128b "f16;BUF;64x48;128;64x16;128" 1536 2 0 2048 0 8 0 0 0 0 40 0 0 0
tile tma_tile_128b_offset "f16;BUF;64x48;128;64x16;128" 1536 2 384 2048 0 3 0 0 0 0 33 0 0 0
tile tma_tile_2d_64b "f16;BUF;80x40;160;32x24;64" 1600 2 1024 1536 40 20 0 0 0 0 0 0 0 0
tile tma_tile_2d_none_u8 "u8;BUF;100x9;112;48x5;0" 252 2 128 240 64 6 0 0 0 0 0 0 0 0
tile tma_tile_1d "f32;BUF;1000;-;64;0" 1000 1 0 256 980 0 0 0 0 0 0 0 0 0
tile tma_tile_3d "bf16;BUF;32x10x6;64x640;16x4x3;32" 960 3 512 384 8 7 4 0 0 0 0 0 0 0
tile tma_tile_5d "u32;BUF;4x3x5x2x3;16x48x240x480;4x2x2x2x2;0" 360 5 0 256 0 2 4 1 2 0 0 0 0 0
tile tma_tile_2d_128b_f32 "f32;BUF;40x70;160;32x20;128;l2=256" 2800 2 3072 2560 8 60 0 0 0 0 0 0 0 0
tile tma_store_hi_inner "f32;BUF;20x30;80;8x12;0" 600 2 0 384 0 0 0 0 0 16 0 0 0 0
tile tma_store_hi_outer "f32;BUF;20x30;80;8x12;0" 600 2 0 384 0 0 0 0 0 0 24 0 0 0
tile tma_tile_4d_estr "f16;BUF;16x12x10x3;32x384x3840;16x6x6x2;0;estr=1x2x3x1" 2880 4 0 384 0 1 2 1 0 0 8 6 2 0
tile tma_tile_oob_nan "f32;BUF;20x30;80;8x12;0;oob=nan" 600 2 0 384 16 25 0 0 0 0 0 0 0 0
tile tma_tile_oob_nan_bf16 "bf16;BUF;40x30;80;16x12;32;oob=nan" 600 2 0 384 32 24 0 0 0 0 0 0 0 0
tile tma_tile_64b_narrow "f16;BUF;80x40;160;16x8;64" 1600 2 0 256 8 4 0 0 0 0 0 0 0 0
tile tma_tile_128b_narrow "f16;BUF;80x40;160;32x8;128" 1600 2 0 512 8 4 0 0 0 0 0 0 0 0
tile tma_tile_32b_narrow_u8 "u8;BUF;100x9;112;16x5;32" 252 2 0 80 16 2 0 0 0 0 0 0 0 0
# What stopped the GPU (CUDA_ERROR_ILLEGAL_INSTRUCTION): boxes starting at a negative coordinate.
tile tma_load_neg "f32;BUF;20x30;80;8x12;0" 600 2 0 384 $((2**32 - 3)) $((2**32 - 2)) 0 0 0 0 0 0 0 0
tile tma_store_neg_inner "f32;BUF;20x30;80;8x12;0" 600 2 0 384 0 0 0 0 0 $((2**32 - 4)) 0 0 0 0
tile tma_store_neg_outer "f32;BUF;20x30;80;8x12;0" 600 2 0 384 0 0 0 0 0 0 $((2**32 - 4)) 0 0 0
# And what never completed (the 16B-interleaved map): killed after 30 s.
tile tma_tile_il16 "f16;BUF;8x6x4;16x96;8x4x2;0;il=16" 96 3 0 128 0 1 1 0 0 0 3 3 0 0
if [ "$group" = all ]; then reductions; fi
