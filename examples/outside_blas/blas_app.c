/* A program written against CBLAS, from outside exocpp: built once with another BLAS and once
 * with the installed exoblas (scripts/test-outside.sh builds both with plain `cc` and compares
 * what they print; OpenBLAS 0.3.21 returns 0 for nrm2 with a negative increment, so none is asked
 * here). It prints each level-1 result rounded to 6 significant digits, which every
 * correct BLAS agrees on for these inputs (sums of a few hundred terms of one sign pattern). */
#include <cblas.h>
#include <stdio.h>

#define N 300

int main(void) {
  static float x[2 * N], y[2 * N];
  static double xd[2 * N], yd[2 * N];
  for (int i = 0; i < 2 * N; ++i) {
    x[i] = (float)((i % 17) - 8) / 8.0f;
    y[i] = (float)((i % 5) + 1) / 4.0f;
    xd[i] = x[i];
    yd[i] = y[i];
  }
  printf("sdot %.6g\n", cblas_sdot(N, x, 1, y, 2));
  printf("ddot %.6g\n", cblas_ddot(N, xd, -1, yd, 1));
  printf("sasum %.6g dasum %.6g\n", cblas_sasum(N, x, 1), cblas_dasum(N, xd, 2));
  printf("snrm2 %.6g dnrm2 %.6g\n", cblas_snrm2(N, x, 1), cblas_dnrm2(N, xd, 2));
  printf("isamax %d idamax %d\n", (int)cblas_isamax(N, x, 1), (int)cblas_idamax(N, yd, 1));
  printf("sdsdot %.6g dsdot %.6g\n", cblas_sdsdot(N, 0.5f, x, 1, y, 1),
         cblas_dsdot(N, x, 2, y, -1));
  cblas_saxpy(N, 0.5f, x, 1, y, 1);
  cblas_daxpy(N, -2.0, xd, 2, yd, -1);
  cblas_sscal(N, 3.0f, x, 1);
  cblas_drot(N, xd, 1, yd, 1, 0.6, 0.8);
  float c, s, a = 3.0f, b = 4.0f;
  cblas_srotg(&a, &b, &c, &s);
  printf("srotg %.6g %.6g %.6g %.6g\n", a, b, c, s);
  double sum = 0, sumd = 0;
  for (int i = 0; i < 2 * N; ++i) {
    sum += x[i] + y[i];
    sumd += xd[i] + yd[i];
  }
  printf("after axpy, scal: %.6g; after axpy, rot: %.6g\n", sum, sumd);
  /* Level 2 on a 20 x 15 column-major matrix with a leading dimension of 23, and its row-major
   * reading through the same storage. */
  static float mat[23 * 15], v[20], w[20];
  for (int i = 0; i < 23 * 15; ++i) mat[i] = (float)((i * 7) % 11 - 5) / 4.0f;
  for (int i = 0; i < 20; ++i) v[i] = w[i] = (float)(i % 3) - 1.0f;
  cblas_sgemv(CblasColMajor, CblasNoTrans, 20, 15, 0.5f, mat, 23, v, 1, 2.0f, w, 1);
  cblas_sgemv(CblasRowMajor, CblasNoTrans, 15, 20, -1.0f, mat, 23, w, 1, 0.0f, v, 1);
  cblas_sger(CblasColMajor, 20, 15, 0.25f, w, 1, v, 1, mat, 23);
  cblas_strsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasUnit, 15, mat, 23, v, 1);
  double s2 = 0;
  for (int i = 0; i < 23 * 15; ++i) s2 += mat[i];
  for (int i = 0; i < 15; ++i) s2 += v[i] + w[i];
  printf("level 2: %.5g\n", s2);
  return 0;
}
