#!/usr/bin/env bash
# Compiles the CuTe tutorial GEMMs of the real-kernel corpus (tests/kernels/cutlass/, docs/kernels.md)
# to PTX with the local nvcc:
#   tools/kernels/cutlass.sh CUTLASS_CHECKOUT TESTS_DIR
# (CUTLASS_CHECKOUT: a checkout of github.com/NVIDIA/cutlass, header-only; TESTS_DIR: the
# repository's tests/). The tutorials' sources are compiled unchanged: their problem size is a
# run-time argument, so the capture (tools/kernels/capture.sh) chooses it through the parameters.
# CUTLASS templates compile slowly (a minute or two each): one nvcc at a time.
set -euo pipefail
cutlass=$1 tests=$2
out="$tests/kernels/cutlass"
mkdir -p "$out"
tut="$cutlass/examples/cute/tutorial"
# SOURCE NAME ARCH
build() {
  nvcc -ptx -std=c++17 -O3 --expt-relaxed-constexpr -I"$cutlass/include" -I"$cutlass/tools/util/include" \
    -gencode "arch=compute_$3,code=compute_$3" -o "$out/$2.ptx" "$tut/$1"
}
build sgemm_sm80.cu cute_sgemm_sm80 80
build hopper/wgmma_sm90.cu cute_wgmma_sm90a 90a
build hopper/wgmma_tma_sm90.cu cute_wgmma_tma_sm90a 90a
