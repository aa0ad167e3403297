#!/usr/bin/env bash
# The README's test command: installs what is missing, checks formatting and layering, builds
# everything, runs every test suite, builds and runs examples/outside against the installed
# package (scripts/test-outside.sh), then fuzzes the parser for 30 seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-format.sh
scripts/check-layers.sh
scripts/check-conventions.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j"${EXOCPP_JOBS:-2}")
scripts/test-outside.sh build
if [ -x fuzz/run.sh ]; then
  fuzz/run.sh "${EXOCPP_FUZZ_SECONDS:-30}"
fi
