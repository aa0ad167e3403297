#!/usr/bin/env bash
# The image pipelines against Halide 14 (bench/pipelines), in one run so that only ratios
# measured side by side count:
#   scripts/bench-pipelines.sh [REPETITIONS]
# Builds pipelines_bench (Halide 14 from libhalide14-0-dev must be installed: scripts/
# install-deps.sh) and runs it: per pipeline (uint16 blur, f32 unsharp mask, f32 5x5
# convolution), thread count (1, 2) and size (1920x1080, 3840x2160) a RESULT line of medians
# and a BEST line of best runs; for the float pipelines also RESULT_STRICT and BEST_STRICT lines
# against Halide compiled with StrictFloat (no fused multiply-adds: exocpp's rounding).
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-21}"
if [ ! -f build/CMakeCache.txt ]; then scripts/build.sh; fi
cmake --build build -j"${EXOCPP_JOBS:-2}" --target pipelines_bench >/dev/null
build/bench/pipelines/pipelines_bench --reps "$reps"
