#!/usr/bin/env bash
# Configures and builds exocpp in build/ (RelWithDebInfo, warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXOCPP_WERROR=ON "$@" >/dev/null
cmake --build build -j"${EXOCPP_JOBS:-2}"
