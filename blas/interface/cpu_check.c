/* exoblas's kernels are built for AVX-512 (F, VL, BW, DQ) with FMA: on a CPU without them the
 * first vector instruction would kill the program with SIGILL somewhere inside a BLAS call.
 * Instead the library says so once, when it is loaded, and stops. (A portable build of the same
 * specs, chosen at load time, is the way to run elsewhere; not built yet.) */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void exoblas_require_avx512(void) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("fma"))
    return;
  fputs(
      "exoblas: this CPU lacks AVX-512 (F, VL, BW, DQ) or FMA, which this build of libexoblas "
      "needs\n",
      stderr);
  abort();
}
