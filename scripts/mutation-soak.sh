#!/usr/bin/env bash
# Shows that the random-schedule generator finds a class of bug by itself: applies a mutation
# patch (tests/mutations/*.patch, each removing one soundness rule at its one place) to a scratch
# copy of the committed tree, builds the soak program there, and runs it until its first failure
# or until SECONDS (default 600) have passed. Prints the time to the first failure, its seed and
# report; exit status 0 when the mutation was caught, 1 when it survived, 2 on a setup error.
#   scripts/mutation-soak.sh tests/mutations/precision.patch [SECONDS]
#   scripts/mutation-soak.sh all [SECONDS]      every patch in turn, then a table
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
LIMIT="${2:-600}"
JOBS="${EXOCPP_JOBS:-$(nproc)}"

if [ "${1:-}" = all ]; then
  summary=""
  status=0
  for p in tests/mutations/*.patch; do
    out=$("$0" "$p" "$LIMIT")
    rc=$?
    echo "$out"
    summary+="$(echo "$out" | grep '^mutation ')"$'\n'
    [ $rc -eq 0 ] || status=1
  done
  echo "---- summary"
  printf '%s' "$summary"
  exit $status
fi

PATCH=$(realpath "${1:?usage: $0 PATCH|all [SECONDS]}")
name=$(basename "$PATCH" .patch)
# Under build/ (ignored by git) so that ccache, with base_dir set above the checkout, finds the
# objects of the main build: only the mutated file and what depends on it compile.
mkdir -p "$ROOT/build/mutations"
SCRATCH=$(mktemp -d "$ROOT/build/mutations/$name.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
git -C "$ROOT" archive HEAD | tar -x -C "$SCRATCH" || exit 2
# The scratch copy is its own repository: inside the checkout's work tree, `git apply` would
# resolve paths against the checkout and silently skip every file outside the current folder.
git init -q "$SCRATCH" || exit 2
files=$(cd "$SCRATCH" && git apply --numstat "$PATCH" | cut -f3)
[ -n "$files" ] || { echo "mutation $name: the patch changes no file"; exit 2; }
before=$(cd "$SCRATCH" && sha1sum $files)
(cd "$SCRATCH" && git apply "$PATCH") || { echo "mutation $name: the patch does not apply"; exit 2; }
[ "$before" != "$(cd "$SCRATCH" && sha1sum $files)" ] ||
  { echo "mutation $name: applying the patch changed nothing"; exit 2; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$SCRATCH" -B "$SCRATCH/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXOCPP_WERROR=ON "${launcher[@]}" >/dev/null &&
  cmake --build "$SCRATCH/build" -j"$JOBS" --target schedule_soak >"$SCRATCH/build.log" 2>&1 ||
  { echo "mutation $name: the mutant does not build"; tail -20 "$SCRATCH/build.log"; exit 2; }

start=$(date +%s)
START="${START:-1}"
pids=()
for ((j = 0; j < JOBS; j++)); do
  "$SCRATCH/build/tests/schedule_soak" --seconds "$LIMIT" --start $((START + j)) --stride "$JOBS" \
    >"$SCRATCH/soak.$j.log" 2>&1 &
  pids+=($!)
done
found=""
while :; do
  found=$(grep -h -m1 -A12 "^FAILURE seed" "$SCRATCH"/soak.*.log 2>/dev/null | head -14)
  [ -n "$found" ] && break
  # A soak process that ended before its time without its closing line crashed: caught too.
  for ((j = 0; j < JOBS; j++)); do
    if ! kill -0 "${pids[$j]}" 2>/dev/null && ! grep -q "^soak done" "$SCRATCH/soak.$j.log"; then
      found="the soak crashed (seeds from $((START + j)) by $JOBS):"$'\n'"$(tail -12 "$SCRATCH/soak.$j.log")"
    fi
  done
  [ -n "$found" ] && break
  alive=0
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
  [ $alive -eq 1 ] || break
  sleep 1
done
took=$(($(date +%s) - start))
kill "${pids[@]}" 2>/dev/null
wait 2>/dev/null
if [ -n "$found" ]; then
  echo "mutation $name: caught after ${took} s"
  echo "$found"
  exit 0
fi
echo "mutation $name: NOT caught in ${LIMIT} s"
exit 1
