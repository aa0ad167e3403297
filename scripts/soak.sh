#!/usr/bin/env bash
# Soak test of the scheduling operations: builds the soak program and runs the random-schedule
# differential generator (tests/support/schedule_fuzz.h) for SECONDS (default 600) with fresh
# seeds, one process per core (EXOCPP_JOBS, default: all cores). Every failure is printed with
# its seed (replay one with `build/tests/schedule_soak --seed SEED`); at the end each process
# prints how many accepted steps it compared and procs it compiled, and the totals follow.
# Exit status 1 when any failure was found. START=<seed> fixes the first seed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_WANTED="${1:-600}"
BUILD="${BUILD_DIR:-build}"
JOBS="${EXOCPP_JOBS:-$(nproc)}"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$BUILD" -j"$JOBS" --target schedule_soak >/dev/null
START="${START:-$(( $(date +%s%N) % 1000000000 ))}"
LOGDIR="$(mktemp -d)"
echo "soak: $JOBS processes, ${SECONDS_WANTED} s, seeds $START + k * $JOBS (+ process index); logs in $LOGDIR"
pids=()
for ((j = 0; j < JOBS; j++)); do
  "$BUILD/tests/schedule_soak" --seconds "$SECONDS_WANTED" --start $((START + j)) --stride "$JOBS" \
    >"$LOGDIR/soak.$j.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
grep -h "^FAILURE seed" "$LOGDIR"/soak.*.log || true
for ((j = 0; j < JOBS; j++)); do  # a process without its closing line crashed
  grep -q "^soak done" "$LOGDIR/soak.$j.log" ||
    { echo "soak process $j crashed:"; tail -12 "$LOGDIR/soak.$j.log"; }
done
cat "$LOGDIR"/soak.*.log | grep -h "^soak done" || true
awk '/^soak done/ { s += $3; a += $5; c += $11; f += $16 }
     END { printf "soak total: %d seeds, %d accepted steps compared, %d procs compiled, %d failures\n", s, a, c, f }' \
  "$LOGDIR"/soak.*.log
exit $status
