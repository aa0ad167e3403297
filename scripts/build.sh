#!/usr/bin/env bash
# Configures and builds exocpp in build/ (RelWithDebInfo, warnings as errors). Compiles through
# ccache when it is installed, with paths taken relative to the source root (CCACHE_BASEDIR), so
# a fresh clone elsewhere on the same machine reuses what an earlier build compiled.
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXOCPP_WERROR=ON "${launcher[@]}" "$@" >/dev/null
cmake --build build -j"${EXOCPP_JOBS:-2}"
