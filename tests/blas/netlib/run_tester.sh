#!/usr/bin/env bash
# Runs one of netlib's BLAS tester programs (Debian's libblas-test: xblat1s ... xzcblat3 in
# /usr/lib/x86_64-linux-gnu/blas) against LIBRARY. A tester links libblas.so.3 dynamically, so
# it runs in a fresh directory beside one holding only libblas.so.3 -> LIBRARY, with
# LD_LIBRARY_PATH pointing there; ldd and the run itself (LD_DEBUG) must show that it loaded
# that file and took every BLAS symbol from it. Level 2 and 3 testers read INPUT_FILE on stdin
# (sblat2.in, sin2, ...) and may write their summary to a file it names; everything the tester
# prints or writes is printed.
#
# Usage: run_tester.sh LIBRARY TESTER [INPUT_FILE]
# Exit status: 0 when the tester exited normally, printed no failure and reported the end of its
# tests (level 1: a PASS for every routine; levels 2 and 3: END OF TESTS); 1 otherwise; 77 when
# TESTER or INPUT_FILE is missing (CTest's SKIP_RETURN_CODE: install Debian's libblas-test);
# 2 on a usage error.
set -uo pipefail

if (($# < 2 || $# > 3)); then
  echo "usage: run_tester.sh LIBRARY TESTER [INPUT_FILE]" >&2
  exit 2
fi
library=$1
tester=$2
input=${3:-}
name=$(basename "$tester")

if [[ ! -x $tester ]]; then
  echo "run_tester: SKIPPED: the tester $tester is not installed (Debian: apt-get install libblas-test)"
  exit 77
fi
if [[ -n $input && ! -r $input ]]; then
  echo "run_tester: SKIPPED: the tester's input $input is not installed (Debian: apt-get install libblas-test)"
  exit 77
fi
if [[ ! -f $library ]]; then
  echo "run_tester: FAILED: the library under test $library does not exist" >&2
  exit 1
fi
library=$(readlink -f "$library")
tester=$(readlink -f "$tester")

work=$(mktemp -d "${TMPDIR:-/tmp}/run_tester.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/lib" "$work/run" "$work/ld"
ln -s "$library" "$work/lib/libblas.so.3"
ours="$work/lib/libblas.so.3"
ours_re=$(sed 's/[][\\.*^$/+?(){}|]/\\&/g' <<<"$ours")  # as an extended regular expression

fail() {
  echo "run_tester: FAILED: $name against $library: $*"
  exit 1
}

# Before running: the dynamic loader must resolve the tester's libblas.so.3 to ours.
resolved=$(LD_LIBRARY_PATH="$work/lib" ldd "$tester" 2>&1)
if ! grep -qE "^[[:space:]]*libblas\.so\.3 => $ours_re \(" <<<"$resolved"; then
  echo "$resolved"
  fail "ldd does not resolve libblas.so.3 to $ours (is $library a loadable x86-64 shared library?)"
fi

# The run: stdout and stderr together; immediate binding, so that a missing symbol fails at
# start naming itself; the loader's log of the libraries it initialises and the symbols it
# binds kept apart.
stdin=${input:-/dev/null}
(
  cd "$work/run" &&
    LD_LIBRARY_PATH="$work/lib" LD_BIND_NOW=1 LD_DEBUG=libs,bindings LD_DEBUG_OUTPUT="$work/ld/log" \
      "$tester" <"$stdin" >"$work/output" 2>&1
)
status=$?

echo "==== $name against $library${input:+ (input $input)}: output ===="
cat "$work/output"
outputs=("$work/output")
for f in "$work/run"/*; do
  [[ -f $f ]] || continue
  echo "==== $name: $(basename "$f"), written by the tester ===="
  cat "$f"
  outputs+=("$f")
done
echo "==== end of $name ===="

if ((status != 0)); then
  loader=$(grep -E "symbol lookup error|error while loading shared libraries" "$work/output" || true)
  if ((status > 128)); then
    fail "the tester was killed by signal $((status - 128))"
  fi
  fail "the tester exited with status $status${loader:+: $loader}"
fi

# During the run: ours initialised, and every symbol the tester takes from a shared library
# bound to ours or to the C and Fortran runtimes (so no other BLAS stood in for a missing one).
log=$(cat "$work/ld"/log.* 2>/dev/null)
if ! grep -qE "calling init: $ours_re\$" <<<"$log"; then
  fail "the dynamic loader's log does not show $ours initialised"
fi
tester_re=$(sed 's/[][\\.*^$/+?(){}|]/\\&/g' <<<"$tester")
bindings=$(grep -E "binding file $tester_re \[0\] to " <<<"$log" || true)
runtime='/(libc|libm|libgfortran|libquadmath|libgcc_s|libpthread|libdl|ld-linux-x86-64)\.so[.0-9]* \['
foreign=$(grep -vE " to $ours_re \[" <<<"$bindings" | grep -vE " to [^ ]*$runtime" || true)
if [[ -n $foreign ]]; then
  fail "the tester took symbols from another library than $ours:
$foreign"
fi
if ! grep -qE " to $ours_re \[" <<<"$bindings"; then
  fail "the tester bound no symbol to $ours"
fi

# Any failure report of the level 1, 2 and 3 testers, Fortran and CBLAS: level 1's FAIL
# header, levels 2 and 3's FAILED / SUSPECT / FATAL ERROR / TESTS ABANDONED lines (all of which,
# and the error-exit reports, carry a run of asterisks), an unrecognised routine name, level 1's
# "Shouldn't be here", and gfortran runtime errors.
failures=$(grep -HnE "FAIL|SUSPECT|FATAL|ABANDONED|NOT RECOGNIZED|NOT DETECTED|WRONGLY|Shouldn.t be here|\*\*\*\*\*|[Rr]untime [Ee]rror" \
  "${outputs[@]}" | sed "s|^$work/run/||; s|^$work/||")
if [[ -n $failures ]]; then
  fail "the tester reported failures:
$failures"
fi

# The end of the tests: every level-1 routine header followed by a PASS, or levels 2 and 3's
# END OF TESTS.
if ! grep -q "END OF TESTS" "${outputs[@]}"; then
  headers=$(cat "${outputs[@]}" | grep -c "Test of subprogram number")
  passes=$(cat "${outputs[@]}" | grep -c -- "----- PASS -----")
  if ((headers == 0 || headers != passes)); then
    fail "the tester did not report the end of its tests ($passes PASS for $headers level-1 routines, no END OF TESTS)"
  fi
fi
echo "run_tester: PASSED: $name against $library"
