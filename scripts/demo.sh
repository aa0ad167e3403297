#!/usr/bin/env bash
# The README's demo command: installs what is missing, builds, and runs the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/examples/gemm_demo examples/gemm.exo
