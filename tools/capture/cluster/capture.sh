#!/usr/bin/env bash
# Clusters on the GPU (docs/hardware/clusters-sm90.md): compiles cluster_dsmem.cu to PTX (the
# committed copy: tests/data/cluster-sm90) and runs it twice with tools/capture/snippet_capture
# (the kernel's __cluster_dims__ makes the clusters of a plain launch), checking that the two
# runs stored the same bytes.
#   tools/capture/cluster/capture.sh SNIPPET_CAPTURE_BINARY OUT_DIR [PTX_DIR]
# (with PTX_DIR, its PTX is run instead of compiling).
set -uo pipefail
bin=$1 out=$2 ptx=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ -z "$ptx" ]; then
  ptx=$out
  nvcc -ptx -O3 -arch=sm_90a -o "$ptx/cluster_dsmem.ptx" "$here/cluster_dsmem.cu"
fi
for k in 1 2; do  # a kernel that never completes its wait is stopped after 60 s
  timeout 60 "$bin" --ptx "$ptx/cluster_dsmem.ptx" --entry cluster_dsmem --threads 128 --grid 8 \
    --in u32:2048 --out-words 9232 --cases 2 --seed 1 --params "tmap:u32;in;32x64;128;32x8;128,in,out" \
    --yaml "$out/cluster_dsmem.$k.test.yaml" || echo "run $k failed" >&2
done
cmp "$out/cluster_dsmem.1.test.yaml" "$out/cluster_dsmem.2.test.yaml" && mv "$out/cluster_dsmem.1.test.yaml" "$out/cluster_dsmem.test.yaml"
