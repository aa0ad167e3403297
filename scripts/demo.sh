#!/usr/bin/env bash
# The README's demo command: installs what is missing, builds, and runs the demos:
#  1. examples/gemm.exo parsed, checked, printed, run in the interpreter against a C++ loop;
#  2. the GEMM schedule (examples/blas): the plain gemm scheduled into AVX-512 SGEMM and DGEMM
#     by a C++ script, then the emitted blas.c compiled with the system C compiler, checked
#     against a plain loop and timed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/examples/gemm_demo examples/gemm.exo

out=build/blas_demo
mkdir -p "$out"
build/examples/blas/blas_gen "$out"
cc -std=c99 -O3 -mavx512f -mfma -Wall -Werror -I "$out" examples/blas/check_and_time.c "$out/blas.c" -o "$out/blas_check"
if grep -q avx512f /proc/cpuinfo; then
  "$out/blas_check"
else
  echo "demo: this CPU has no AVX-512F; $out/blas.c was generated and compiled but is not run"
fi

# The Gemmini-like accelerator: the scheduled kernels run on its C functional model and are
# checked byte for byte against plain C.
build/examples/gemmini/gemmini_demo
