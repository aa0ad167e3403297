/* xerbla_ and cblas_xerbla, as the reference BLAS defines them: print which argument of which
 * routine was illegal and stop the program. Both are ordinary (interposable) symbols, so a
 * program that defines its own, as netlib's testers do, receives every report instead. */
#include <exoblas/cblas.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void xerbla_(const char *srname, const int *info, size_t len) {
  fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", (int)len,
          srname, *info);
  exit(1);
}

void cblas_xerbla(int p, const char *rout, const char *form, ...) {
  va_list args;
  va_start(args, form);
  if (p) fprintf(stderr, "Parameter %d to routine %s was incorrect\n", p, rout);
  vfprintf(stderr, form, args);
  va_end(args);
  exit(-1);
}
