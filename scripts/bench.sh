#!/usr/bin/env bash
# The benchmarks against peers, each in one run so that only ratios measured side by side count:
#   scripts/bench.sh [REPETITIONS] [EXTRA GOOGLE BENCHMARK FLAGS...]
# GEMM (bench/blas): the generated SGEMM and DGEMM against OpenBLAS on the kernel OpenBLAS picks
# for this CPU (the program drops OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE and prints the kernel),
# on one thread and on two, interleaved repetitions, and the int8 and bf16 GEMMs against oneDNN's
# matmul; it measures the core's peaks first and ends with a table per routine of median and
# best GFLOP/s, % of peak and the ratio to the peer.
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-5}"
shift || true
if [ ! -f build/CMakeCache.txt ]; then scripts/build.sh; fi
cmake --build build -j"${EXOCPP_JOBS:-2}" --target gemm_bench >/dev/null
build/bench/blas/gemm_bench --benchmark_enable_random_interleaving=true \
  --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true "$@"
