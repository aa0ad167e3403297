/* exoblas's level 1 (cblas.h): the scheduled kernels (exoblas_kernels.h, generated) behind the
 * CBLAS and Fortran BLAS interfaces, s and d from one template (level1_real.inc), and the mixed
 * and complex-vector routines that take one precision's vectors. */
#include <exoblas/cblas.h>
#include <math.h>
#include <stddef.h>

#include "exoblas_kernels.h"
#include "names.h"

#define P s
#define T float
#define WIN exo_win_1f32
#define WINC exo_win_1f32c
#include "level1_real.inc"
#undef P
#undef T
#undef WIN
#undef WINC

#define P d
#define T double
#define WIN exo_win_1f64
#define WINC exo_win_1f64c
#include "level1_real.inc"
#undef P
#undef T
#undef WIN
#undef WINC

float cblas_sdsdot(const int n, const float alpha, const float *x, const int incx, const float *y,
                   const int incy) {
  float r = alpha;
  if (n > 0) exoblas_sdsdot(NULL, n, &alpha, s_winc(x, n, incx), s_winc(y, n, incy), &r);
  return r;
}
double cblas_dsdot(const int n, const float *x, const int incx, const float *y, const int incy) {
  double r = 0;
  if (n > 0) exoblas_dsdot(NULL, n, s_winc(x, n, incx), s_winc(y, n, incy), &r);
  return r;
}
float sdsdot_(const int *n, const float *sb, const float *x, const int *incx, const float *y,
              const int *incy) {
  return cblas_sdsdot(*n, *sb, x, *incx, y, *incy);
}
double dsdot_(const int *n, const float *x, const int *incx, const float *y, const int *incy) {
  return cblas_dsdot(*n, x, *incx, y, *incy);
}

/* The real-valued routines on complex vectors (interleaved real and imaginary parts), which
 * netlib's CBLAS level-1 testers call beside the real ones. ?casum: the sum of |re| + |im|, the
 * two parts' sums added (the reference adds them element by element: the same terms, summed in
 * another order). ?cnrm2: with unit increment the norm of the 2n parts as one real vector;
 * otherwise the two parts' norms combined without overflow. */
#define EXOBLAS_COMPLEX_NORMS(P, T, C)                                          \
  T EXOBLAS_CAT3(cblas_, P, asum)(const int n, const void *x, const int incx) { \
    const T *v = (const T *)x;                                                  \
    if (n <= 0 || incx <= 0) return 0;                                          \
    if (incx == 1) return EXOBLAS_CAT3(cblas_, C, asum)(2 * n, v, 1);           \
    return EXOBLAS_CAT3(cblas_, C, asum)(n, v, 2 * incx) +                      \
           EXOBLAS_CAT3(cblas_, C, asum)(n, v + 1, 2 * incx);                   \
  }                                                                             \
  T EXOBLAS_CAT3(cblas_, P, nrm2)(const int n, const void *x, const int incx) { \
    const T *v = (const T *)x;                                                  \
    if (n <= 0) return 0;                                                       \
    if (incx == 1) return EXOBLAS_CAT3(cblas_, C, nrm2)(2 * n, v, 1);           \
    T a = EXOBLAS_CAT3(cblas_, C, nrm2)(n, v, 2 * incx);                        \
    T b = EXOBLAS_CAT3(cblas_, C, nrm2)(n, v + 1, 2 * incx);                    \
    T hi = a > b ? a : b, lo = a > b ? b : a;                                   \
    if (hi == 0 || isinf(hi)) return hi + lo;                                   \
    return hi * (T)sqrt(1 + (double)(lo / hi) * (lo / hi));                     \
  }                                                                             \
  T EXOBLAS_CAT3(P, asum, _)(const int *n, const void *x, const int *incx) {    \
    return EXOBLAS_CAT3(cblas_, P, asum)(*n, x, *incx);                         \
  }                                                                             \
  T EXOBLAS_CAT3(P, nrm2, _)(const int *n, const void *x, const int *incx) {    \
    return EXOBLAS_CAT3(cblas_, P, nrm2)(*n, x, *incx);                         \
  }

EXOBLAS_COMPLEX_NORMS(sc, float, s)
EXOBLAS_COMPLEX_NORMS(dz, double, d)
