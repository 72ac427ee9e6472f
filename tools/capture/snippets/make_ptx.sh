#!/usr/bin/env bash
# Compiles each snippet kernel of this folder to PTX with nvcc, as a kernel author would:
#   tools/capture/snippets/make_ptx.sh OUT_DIR        (the committed copies: tests/data/snippets-sm90)
set -euo pipefail
out=$1
here=$(dirname "$0")
mkdir -p "$out"
for cu in "$here"/*.cu; do
  name=$(basename "$cu" .cu)
  nvcc -ptx -O3 -arch=sm_90a -o "$out/$name.ptx" "$cu"
done
