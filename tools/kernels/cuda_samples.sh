#!/usr/bin/env bash
# Compiles the CUDA samples' wmma GEMMs of the real-kernel corpus (tests/kernels/cuda-samples/,
# docs/kernels.md) to PTX with the local nvcc, for sm_80 and sm_90a:
#   tools/kernels/cuda_samples.sh CUDA_SAMPLES_CHECKOUT TESTS_DIR
# (CUDA_SAMPLES_CHECKOUT: a checkout of github.com/NVIDIA/cuda-samples; TESTS_DIR: the repository's
# tests/). The samples multiply 4096 x 4096 matrices; a copy of each source, made in a temporary
# folder, gets small problem sizes (the #defines of the tile counts) so that a whole-grid run
# fits in the corpus. Nothing else changes: the kernels are the samples' own.
set -euo pipefail
samples=$1 tests=$2
out="$tests/kernels/cuda-samples"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
# SOURCE NAME: M_TILES N_TILES K_TILES of 16 x 16 x 16 tiles.
build() {
  local src=$1 name=$2 m=$3 n=$4 k=$5
  sed -e "s/^#define M_TILES .*/#define M_TILES $m/" -e "s/^#define N_TILES .*/#define N_TILES $n/" \
      -e "s/^#define K_TILES .*/#define K_TILES $k/" "$samples/Samples/3_CUDA_Features/$src" > "$tmp/$name.cu"
  for arch in sm_80 sm_90a; do
    nvcc -ptx -arch="$arch" -std=c++17 -I"$samples/Common" -o "$out/${name}_${arch//_/}.ptx" "$tmp/$name.cu"
  done
}
# 128 x 128 x 128: compute_gemm covers it with one 128 x 128 block tile (two K chunks for f16, one
# for u8), simple_wmma_gemm with 16 x 16 warp tiles.
build cudaTensorCoreGemm/cudaTensorCoreGemm.cu tensorcore_gemm 8 8 8
build immaTensorCoreGemm/immaTensorCoreGemm.cu imma_gemm 8 8 8
