#!/usr/bin/env bash
# Uses exocpp as another project would: installs the build in BUILD_DIR (default build/) into a
# temporary prefix, configures examples/outside against it with find_package(exocpp), builds it
# (its kernel library is scheduled at build time by exocpp_add_library) and runs its program,
# which checks the generated saxpy against a plain loop. The prefix and the build are removed on
# exit. Run by scripts/test.sh after the test suites.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(cd "${1:-build}" && pwd)
jobs=${EXOCPP_JOBS:-2}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
cmake -S examples/outside -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" -j"$jobs"
"$tmp/build/saxpy_app"
# The installed program runs from the prefix, without the build tree.
"$tmp/prefix/bin/exocpp" --version
echo "test-outside: examples/outside built and ran against the installed exocpp"
