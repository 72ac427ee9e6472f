#!/usr/bin/env bash
# Builds the tensor-core numerics test suite of Fasi, Higham, Mikaitis and Pranesh (github.com/
# north-numerical-computing/tensor-cores-numerical-behavior, GPL-2: not kept in this repository)
# twice with the local nvcc, unchanged:
#   tools/kernels/numerics_suite.sh SUITE_CHECKOUT OUT
# OUT/gpu/NAME: machine code for sm_90a, to run on the GPU;
# OUT/sim/NAME: PTX only, the shared CUDA runtime, uncompressed: `ptxmma exec OUT/sim/NAME` runs it
# with its kernels on the simulator (docs/cuda-programs.md). Compare the two runs' output.
set -euo pipefail
suite=$1 out=$2
mkdir -p "$out/gpu" "$out/sim"
for src in "$suite"/tc_test_numerics-*.cu; do
  name=$(basename "$src" .cu)
  nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -o "$out/gpu/$name" "$src"
  nvcc -std=c++17 -cudart shared -no-compress -gencode arch=compute_90a,code=compute_90a -o "$out/sim/$name" "$src"
done
