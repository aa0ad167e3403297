#!/usr/bin/env bash
# Uses exocpp as another project would: installs the build in BUILD_DIR (default build/) into a
# temporary prefix, configures examples/outside against it with find_package(exocpp), builds it
# (its kernel library is scheduled at build time by exocpp_add_library) and runs its program,
# which checks the generated saxpy against a plain loop. Then tunes saxpy with the installed
# `exocpp tune` into a database and builds it again with that database (TUNE_DB): the build must
# apply the tuned schedule, and the program pass again. Then builds examples/outside_blas/blas_app.c
# with plain `cc` against OpenBLAS and against the installed exoblas and compares their output.
# The prefix and the builds are removed on exit. Run by scripts/test.sh after the test suites.
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

# A short search, recorded; then the library built from its best schedule.
"$tmp/prefix/bin/exocpp" tune examples/outside/saxpy.exo saxpy --size n=4096 --verify-size n=37 \
  --trials 3 --seed 1 --db "$tmp/tune.sqlite" >/dev/null 2>&1
cmake -S examples/outside -B "$tmp/tuned" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DSAXPY_TUNE_DB="$tmp/tune.sqlite" >/dev/null
cmake --build "$tmp/tuned" -j"$jobs" 2>&1 | tee "$tmp/tuned.log"
if ! grep -q "saxpy: the tuned schedule from $tmp/tune.sqlite" "$tmp/tuned.log"; then
  echo "test-outside: the build with TUNE_DB did not apply the tuned schedule" >&2
  exit 1
fi
"$tmp/tuned/saxpy_app"
# A C program written against CBLAS links the installed exoblas with plain `cc`, in place of
# OpenBLAS, and prints the same answers.
cc -O2 -Wall -Werror examples/outside_blas/blas_app.c -I/usr/include/x86_64-linux-gnu/openblas-pthread \
  -lopenblas -o "$tmp/blas_app_openblas"
cc -O2 -Wall -Werror examples/outside_blas/blas_app.c -I"$tmp/prefix/include/exoblas" \
  -L"$tmp/prefix/lib" -lexoblas -Wl,-rpath,"$tmp/prefix/lib" -o "$tmp/blas_app_exoblas"
if ! diff <("$tmp/blas_app_openblas") <("$tmp/blas_app_exoblas"); then
  echo "test-outside: the CBLAS program gives other answers with exoblas than with OpenBLAS" >&2
  exit 1
fi
# The installed program runs from the prefix, without the build tree.
"$tmp/prefix/bin/exocpp" --version
echo "test-outside: examples/outside built and ran against the installed exocpp, by hand and tuned;"
echo "test-outside: a CBLAS program linked the installed exoblas in place of OpenBLAS, same answers"
