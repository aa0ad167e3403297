#!/usr/bin/env bash
# Builds and runs the CUDA GEMM benchmark (bench.cu) against cuBLAS on this machine's GPU:
#   bench/cuda_gemm/run.sh [N] [REPETITIONS]
# Generates the stages with cuda_gemm_gen (building it in build/ if needed), builds bench.cu with
# them for this GPU (nvcc -arch=native), and runs it. Without a GPU it stops after the build.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD_DIR:-build}"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$BUILD" -j"$(nproc)" --target cuda_gemm_gen >/dev/null
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
"$BUILD/examples/cuda_gemm/cuda_gemm_gen" "$OUT" >/dev/null
ARCH=native
nvidia-smi -L >/dev/null 2>&1 || ARCH=sm_80
"$NVCC" -O3 -arch="$ARCH" -I"$OUT" bench/cuda_gemm/bench.cu "$OUT/cuda_gemm.cu" -lcublas \
  -o "$OUT/bench"
if [ "$ARCH" != native ]; then
  echo "cuda_gemm bench: built for sm_80; no GPU here to run it on"
  exit 0
fi
"$OUT/bench" "$@"
