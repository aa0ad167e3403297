/* xerbla_ and cblas_xerbla, as the reference BLAS and netlib's CBLAS define them, and the two
 * globals through which netlib's CBLAS tells them how a CBLAS routine called its Fortran one.
 * All are ordinary (interposable) symbols, so a program that defines its own xerbla_ or
 * cblas_xerbla, as netlib's testers do, receives every report instead, and the CBLAS testers'
 * cblas_xerbla reads the library's RowMajorStrg. */
#include <exoblas/cblas.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Set by every level-2 and level-3 CBLAS routine for the time it runs (netlib's
 * cblas_globals.c): CBLAS_CallFromC while the Fortran routine it calls checks the arguments,
 * so that an illegal one is reported by the CBLAS name and position; RowMajorStrg when the call
 * is row-major, so that the position of an argument the row-major call swapped with another
 * (gemv's M and N, ...) is translated back. Process-wide, as netlib's are: CBLAS calls made from
 * several threads at once may report an illegal argument by the wrong position. */
int CBLAS_CallFromC = 0;
int RowMajorStrg = 0;

/* A Fortran routine (name srname, blank-padded to len) found its argument number info illegal.
 * Called from a CBLAS routine: reported as netlib's CBLAS does, through cblas_xerbla with the
 * CBLAS name ("cblas_sgemv") and position (one more: the layout comes first). Otherwise as the
 * reference's XERBLA does: printed with the name's trailing blanks trimmed, and the program
 * stopped (the reference's STOP exits with status 0; this one says it failed). */
void xerbla_(const char *srname, const int *info, size_t len) {
  while (len > 0 && srname[len - 1] == ' ') --len;
  if (CBLAS_CallFromC) {
    char rout[32] = "cblas_";
    const size_t prefix = strlen(rout);
    for (size_t i = 0; i < len && prefix + i + 1 < sizeof rout; ++i) {
      const char c = srname[i];
      rout[prefix + i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    cblas_xerbla(*info + 1, rout, "");
    return;
  }
  fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", (int)len,
          srname, *info);
  exit(1);
}

/* netlib's cblas_xerbla: a row-major call passed its Fortran routine some arguments in swapped
 * places (m and n, kl and ku, x and y, A and B), so the position the Fortran routine reported
 * is translated back to the CBLAS call's. */
static int cblas_position(int p, const char *rout) {
  if (!RowMajorStrg) return p;
  if (strstr(rout, "gemm")) {
    if (p == 5) return 4;
    if (p == 4) return 5;
    if (p == 11) return 9;
    if (p == 9) return 11;
  } else if (strstr(rout, "symm") || strstr(rout, "hemm")) {
    if (p == 5) return 4;
    if (p == 4) return 5;
  } else if (strstr(rout, "trmm") || strstr(rout, "trsm")) {
    if (p == 7) return 6;
    if (p == 6) return 7;
  } else if (strstr(rout, "gemv")) {
    if (p == 4) return 3;
    if (p == 3) return 4;
  } else if (strstr(rout, "gbmv")) {
    if (p == 4) return 3;
    if (p == 3) return 4;
    if (p == 6) return 5;
    if (p == 5) return 6;
  } else if (strstr(rout, "ger")) {
    if (p == 3) return 2;
    if (p == 2) return 3;
    if (p == 8) return 6;
    if (p == 6) return 8;
  } else if ((strstr(rout, "her2") || strstr(rout, "hpr2")) && !strstr(rout, "her2k")) {
    if (p == 8) return 6;
    if (p == 6) return 8;
  }
  return p;
}

void cblas_xerbla(int p, const char *rout, const char *form, ...) {
  va_list args;
  va_start(args, form);
  p = cblas_position(p, rout);
  if (p) fprintf(stderr, "Parameter %d to routine %s was incorrect\n", p, rout);
  vfprintf(stderr, form, args);
  va_end(args);
  exit(-1);
}
