#!/usr/bin/env bash
# Builds the parser fuzzer with clang (libFuzzer + ASan + UBSan) in build-fuzz/ and runs it for
# SECONDS (default 30) on a scratch copy of fuzz/corpus/parser. Crashing inputs are written to
# build-fuzz/artifacts/; add each one, once fixed, to fuzz/corpus/parser/. The seed is fixed
# (FUZZ_SEED, default 1) so that a CI run explores the same inputs each time.
#   usage: fuzz/run.sh [SECONDS]
set -euo pipefail
secs="${1:-30}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-fuzz"

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXOCPP_BUILD_FUZZ=ON -DEXOCPP_BUILD_TESTS=OFF \
  -DEXOCPP_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target parser_fuzzer -j"${FUZZ_BUILD_JOBS:-2}"

corpus="$build/corpus-parser"
mkdir -p "$corpus" "$build/artifacts"
cp "$root"/fuzz/corpus/parser/* "$corpus"/
"$build/fuzz/parser_fuzzer" "$corpus" -dict="$root/fuzz/parser.dict" \
  -seed="${FUZZ_SEED:-1}" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/artifacts/" -print_final_stats=1
