#!/usr/bin/env bash
# Builds the CUTLASS 3.x warp-specialised GEMM of the real-kernel corpus (tests/kernels/cutlass/,
# docs/kernels.md) from tools/capture/cutlass_ws_capture.cu with the local nvcc: its PTX (the kernel
# the capture runs and ptxmma replays) and, with OUT_DIR, the capture program itself.
#   tools/kernels/cutlass_ws.sh CUTLASS_CHECKOUT TESTS_DIR [OUT_DIR]
# (CUTLASS_CHECKOUT: a checkout of github.com/NVIDIA/cutlass, header-only; TESTS_DIR: the
# repository's tests/.) The program links the CUDA driver dynamically and the C++ runtime
# statically, so it runs on a machine with only the driver. CUTLASS compiles slowly (minutes): one
# nvcc at a time.
set -euo pipefail
cutlass=$1 tests=$2 bin=${3:-}
src="$(dirname "$0")/../capture/cutlass_ws_capture.cu"
flags=(-std=c++17 -O3 --expt-relaxed-constexpr -I"$cutlass/include" -I"$cutlass/tools/util/include"
  -DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1)
nvcc -ptx "${flags[@]}" -gencode arch=compute_90a,code=compute_90a -o "$tests/kernels/cutlass/cutlass_ws_gemm_sm90a.ptx" "$src"
if [[ -n $bin ]]; then
  mkdir -p "$bin"
  nvcc "${flags[@]}" -gencode arch=compute_90a,code=sm_90a -Xcompiler -static-libstdc++,-static-libgcc \
    -o "$bin/cutlass_ws_capture" "$src" -L"$(dirname "$(command -v nvcc)")/../lib64/stubs" -lcuda
fi
