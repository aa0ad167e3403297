/* exoblas's level 2 (cblas.h): the scheduled kernels (exoblas_kernels.h, generated) behind the
 * Fortran BLAS and CBLAS interfaces, s and d from one template (level2_real.inc); here what
 * both precisions share: reading BLAS's option characters, mapping CBLAS's options onto them,
 * and reporting illegal arguments. */
#include <exoblas/cblas.h>
#include <stddef.h>

#include "exoblas_kernels.h"
#include "names.h"

/* xerbla.c: the reference's error handler (interposable: netlib's testers define their own) and
 * netlib CBLAS's globals, which every CBLAS routine sets while it runs. */
void xerbla_(const char *srname, const int *info, size_t len);
extern int CBLAS_CallFromC;
extern int RowMajorStrg;

/* LSAME(ca, cb) for an upper-case letter cb: the first character of a Fortran CHARACTER
 * argument, compared ignoring ASCII case. */
static int lsame(const char *ca, char cb) {
  const char c = *ca;
  return (c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c) == cb;
}
static int is_trans(const char *t) { return lsame(t, 'N') || lsame(t, 'T') || lsame(t, 'C'); }
static int is_uplo(const char *u) { return lsame(u, 'U') || lsame(u, 'L'); }
static int is_diag(const char *d) { return lsame(d, 'U') || lsame(d, 'N'); }

/* The reference's INFO for the options and order of a triangular routine (uplo 1, trans 2,
 * diag 3, n 4), 0 when all are legal; the routine checks its other arguments after these. */
static int triangular_options_info(const char *uplo, const char *trans, const char *diag, int n) {
  if (!is_uplo(uplo)) return 1;
  if (!is_trans(trans)) return 2;
  if (!is_diag(diag)) return 3;
  if (n < 0) return 4;
  return 0;
}

/* Which of a routine's eight triangular kernels serves the legal options (uplo, trans, diag):
 * 4 (uplo is 'L') + 2 (trans is not 'N') + (diag is 'U'). */
static int triangular_index(const char *uplo, const char *trans, const char *diag) {
  return 4 * lsame(uplo, 'L') + 2 * !lsame(trans, 'N') + lsame(diag, 'U');
}

/* Reports illegal argument number info of the routine whose reference name is srname (six
 * characters, blank-padded, as the reference passes it: "SGEMV ", "SGER  "). */
static void report(const char *srname, int info) { xerbla_(srname, &info, 6); }

/* The option characters a CBLAS call passes its Fortran routine, or 0 for an illegal value. A
 * row-major matrix is the column-major storage of its transpose, so a row-major call asks for
 * the transposed operation (op(A) = A becomes 'T' on A^T's storage; A^T and A^H become 'N') and
 * the other triangle (A's upper triangle is A^T's lower one), as netlib's CBLAS does. */
static char trans_char(CBLAS_TRANSPOSE t, int row_major) {
  switch ((int)t) {
    case CblasNoTrans:
      return row_major ? 'T' : 'N';
    case CblasTrans:
      return row_major ? 'N' : 'T';
    case CblasConjTrans:
      return row_major ? 'N' : 'C';
  }
  return 0;
}
static char uplo_char(CBLAS_UPLO u, int row_major) {
  switch ((int)u) {
    case CblasUpper:
      return row_major ? 'L' : 'U';
    case CblasLower:
      return row_major ? 'U' : 'L';
  }
  return 0;
}
static char diag_char(CBLAS_DIAG d) {
  switch ((int)d) {
    case CblasUnit:
      return 'U';
    case CblasNonUnit:
      return 'N';
  }
  return 0;
}

/* Every level-2 CBLAS routine runs between these two, as netlib's do: the globals say that
 * the Fortran routine is called from C, and whether row-major (begin_cblas returns the layout:
 * 1 row-major, 0 column-major, -1 illegal, which it has reported as argument 1). */
static int begin_cblas(CBLAS_LAYOUT layout, const char *rout) {
  RowMajorStrg = 0;
  CBLAS_CallFromC = 1;
  if (layout == CblasColMajor) return 0;
  if (layout == CblasRowMajor) {
    RowMajorStrg = 1;
    return 1;
  }
  cblas_xerbla(1, rout, "Illegal layout setting, %d\n", (int)layout);
  return -1;
}
static void end_cblas(void) {
  CBLAS_CallFromC = 0;
  RowMajorStrg = 0;
}

/* The CBLAS options of a triangular routine as Fortran characters, each illegal one reported
 * with its position (uplo 2, trans 3, diag 4: netlib checks them in that order and stops at the
 * first). Returns whether all three are legal. */
static int triangular_chars(const char *rout, int row_major, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                            CBLAS_DIAG diag, char c[3]) {
  c[0] = uplo_char(uplo, row_major);
  if (!c[0]) {
    cblas_xerbla(2, rout, "Illegal Uplo setting, %d\n", (int)uplo);
    return 0;
  }
  c[1] = trans_char(trans, row_major);
  if (!c[1]) {
    cblas_xerbla(3, rout, "Illegal TransA setting, %d\n", (int)trans);
    return 0;
  }
  c[2] = diag_char(diag);
  if (!c[2]) {
    cblas_xerbla(4, rout, "Illegal Diag setting, %d\n", (int)diag);
    return 0;
  }
  return 1;
}

#define P s
#define P_NAME "s"
#define P_SRNAME "S"
#define T float
#define WIN exo_win_1f32
#define WINC exo_win_1f32c
#define WIN2 exo_win_2f32
#define WIN2C exo_win_2f32c
#include "level2_real.inc"
#undef P
#undef P_NAME
#undef P_SRNAME
#undef T
#undef WIN
#undef WINC
#undef WIN2
#undef WIN2C

#define P d
#define P_NAME "d"
#define P_SRNAME "D"
#define T double
#define WIN exo_win_1f64
#define WINC exo_win_1f64c
#define WIN2 exo_win_2f64
#define WIN2C exo_win_2f64c
#include "level2_real.inc"
#undef P
#undef P_NAME
#undef P_SRNAME
#undef T
#undef WIN
#undef WINC
#undef WIN2
#undef WIN2C
