#!/usr/bin/env bash
# Installs the Debian packages exocpp needs to build and test, skipping those already present.
# Run as root on Debian 12. Safe to run repeatedly.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  ccache                     # scripts/build.sh compiles through it when present
  clang libclang-rt-14-dev   # libFuzzer for the parser fuzzer
  clang-format               # scripts/check-format.sh (version 14, Debian 12's)
  libgtest-dev libgmock-dev libbenchmark-dev
  libz3-dev
  libsqlite3-dev             # the tuning database (search/database.h)
  libxgboost-dev             # the search's cost model (search/cost_model.h)
  libopenmpi-dev openmpi-bin # measurement workers over MPI (search/mpi/mpi_timer.h) and mpirun
  libboost-graph-dev         # the proc call graph (codegen order)
  libomp-dev                 # OpenMP for `par` loops in generated C built with clang
  libopenblas-dev            # the SGEMM / DGEMM peer in bench/blas
  libblas-dev                # the reference BLAS, which tests/blas compares exoblas with
  libblas-test               # netlib's BLAS testers (xblat1s, ...), run against exoblas by tests/blas
  libeigen3-dev              # Eigen 3.4, the sparse matrix-vector peer in bench/value_control
  libdnnl-dev                # oneDNN, the int8 GEMM peer in bench/blas
  libhalide14-0-dev          # Halide 14, the image-pipeline peer in bench/pipelines
  llvm-14-dev libclang-cpp14-dev libclang-14-dev  # the in-process C JIT (driver/c_jit.h)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing packages and not root; run: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
