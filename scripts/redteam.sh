#!/bin/bash
# Runs a folder of red-team reproductions against build/ (libraries and exocpp_cli built):
# NN_*.cpp programs are compiled against the static libraries and run (a line starting with
# `!!!` is a failure), NN_*.exo files go through `exocpp check` and `exocpp c` and the C through
# gcc -std=c99 -Wall -Wextra -Werror, NN_*.sh get the CLI's path. Usage:
#   scripts/redteam.sh RED_TEAM_DIR [NAME_SUBSTRING]
set -u
RT=${1:?usage: $0 RED_TEAM_DIR [NAME_SUBSTRING]}
RT=$(cd "$RT" && pwd)
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${RT_OUT:-$ROOT/build/redteam}; mkdir -p $OUT
LIBS="build/hwlibs/x86/libexocpp_x86.a build/rewrites/libexocpp_rewrites.a build/driver/libexocpp_driver.a build/codegen/libexocpp_codegen.a build/checker/libexocpp_checker.a build/core/libexocpp_core.a -lz3 -ldl"
# The driver's in-process C compiler (built when LLVM 14 and libclang-cpp are installed).
if grep -q "EXOCPP_HAVE_C_JIT" build/driver/CMakeFiles/exocpp_driver.dir/flags.make 2>/dev/null; then
  LIBS="$LIBS -Wl,-rpath,/usr/lib/llvm-14/lib /usr/lib/llvm-14/lib/libclang-cpp.so /usr/lib/llvm-14/lib/libLLVM-14.so"
fi
only="${2:-}"
for f in $RT/*.cpp; do
  b=$(basename $f .cpp)
  [ -n "$only" ] && [[ "$b" != *$only* ]] && continue
  g++ -std=c++20 -O1 -I. -Iinclude -I$RT $f $LIBS -o $OUT/$b 2> $OUT/$b.cerr || { echo "### $b: COMPILE FAIL"; head -5 $OUT/$b.cerr; continue; }
  arg=""
  [ $b = 30_exponential_call_effects ] && arg=$RT/30_exponential_call_effects.exo
  if [ $b = 15_parallelize_static_alloc ]; then export OMP_NUM_THREADS=4; fi
  timeout 120 $OUT/$b $arg > $OUT/$b.log 2>&1; rc=$?
  unset OMP_NUM_THREADS
  n=$(grep -c '^!!!' $OUT/$b.log)
  echo "### $b rc=$rc fails=$n"; grep '^!!!' $OUT/$b.log | head -5
done
for f in $RT/*.exo; do
  b=$(basename $f .exo)
  [ -n "$only" ] && [[ "$b" != *$only* ]] && continue
  d=$OUT/$b.d; rm -rf $d; mkdir -p $d
  timeout 60 build/tools/exocpp check $f > $d/check.log 2>&1; rc1=$?
  timeout 60 build/tools/exocpp c $f -o $d > $d/c.log 2>&1; rc2=$?
  cres=""
  for c in $d/*.c; do [ -e "$c" ] || continue; gcc -std=c99 -Wall -Wextra -Werror -c $c -o $c.o > $d/gcc.log 2>&1 && cres="$cres gcc-ok" || cres="$cres !!!gcc-FAIL"; done
  echo "### $b check=$rc1 c=$rc2 $cres"; [ $rc2 -ne 0 ] && head -3 $d/c.log; [[ $cres == *FAIL* ]] && head -5 $d/gcc.log
done
for f in $RT/*.sh; do
  b=$(basename $f .sh)
  [ -n "$only" ] && [[ "$b" != *$only* ]] && continue
  echo "### $b: $(sh $f build/tools/exocpp 2>&1 | tail -2)"
done
