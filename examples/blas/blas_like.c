/* BLAS's gemm on the generated kernels (see blas_like.h). One body for both precisions: the
 * macro below is instantiated for (float, s) and (double, d). */
#include "blas_like.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"

/* A real (conjugate) transpose is a transpose. */
static int transposed(enum blas_transpose t) { return t != BlasNoTrans; }

static int valid_transpose(enum blas_transpose t) {
  return t == BlasNoTrans || t == BlasTrans || t == BlasConjTrans;
}

static int max1(int x) { return x > 1 ? x : 1; }

/* A calling thread's buffers for the copied operands, kept from call to call: a fresh buffer of
 * megabytes costs a page fault per 4 KiB on first touch, as much as the copy itself. Each grows
 * to the largest request and lives as long as the thread (it stays reachable through the
 * thread's own storage). */
struct scratch {
  void *data;
  size_t bytes;
};
static _Thread_local struct scratch operand_scratch[2];

/* operand_scratch[which] with room for `bytes`, or NULL when it cannot be had (the old
 * buffer is kept then). */
static void *scratch_for(int which, size_t bytes) {
  struct scratch *s = &operand_scratch[which];
  if (s->bytes >= bytes) return s->data;
  void *grown = malloc(bytes);
  if (!grown) return NULL;
  free(s->data);
  s->data = grown;
  s->bytes = bytes;
  return grown;
}

/* The checks of the reference BLAS's xerbla, in its argument order (layout is argument 1). */
static int check_arguments(enum blas_layout layout, enum blas_transpose ta, enum blas_transpose tb,
                           int M, int N, int K, int lda, int ldb, int ldc) {
  if (layout != BlasRowMajor && layout != BlasColMajor) return 1;
  if (!valid_transpose(ta)) return 2;
  if (!valid_transpose(tb)) return 3;
  if (M < 0) return 4;
  if (N < 0) return 5;
  if (K < 0) return 6;
  /* The row length of each operand as stored (row-major view). */
  const int row_major = layout == BlasRowMajor;
  const int a_cols = row_major ? (transposed(ta) ? M : K) : (transposed(ta) ? K : M);
  const int b_cols = row_major ? (transposed(tb) ? K : N) : (transposed(tb) ? N : K);
  const int c_cols = row_major ? N : M;
  if (lda < max1(a_cols)) return 9;
  if (ldb < max1(b_cols)) return 11;
  if (ldc < max1(c_cols)) return 14;
  return 0;
}

/* p##gemm_row_major and blas_##p##gemm for element type T, BLAS letter p and exocpp's window
 * suffix w (f32, f64). */
#define DEFINE_BLAS_GEMM(T, p, w)                                                                 \
  /* Row-major C[M, N] = alpha op(A) op(B) + beta C; ta, tb: whether op transposes. */            \
  static int p##gemm_row_major(int ta, int tb, int M, int N, int K, T alpha, const T *A, int lda, \
                               const T *B, int ldb, T beta, T *C, int ldc) {                      \
    if (M == 0 || N == 0) return 0;                                                               \
    const int product = K > 0 && alpha != 0; /* does alpha op(A) op(B) add anything? */           \
    const int copy_a = product && ta, copy_b = product && (tb || alpha != 1);                     \
    /* Had first, so that nothing is written when one cannot be. */                               \
    T *a_dense = copy_a ? scratch_for(0, sizeof(T) * (size_t)M * (size_t)K) : NULL;               \
    T *b_dense = copy_b ? scratch_for(1, sizeof(T) * (size_t)K * (size_t)N) : NULL;               \
    if ((copy_a && !a_dense) || (copy_b && !b_dense)) return -1;                                  \
    const struct exo_win_2##w c_win = {C, {ldc, 1}};                                              \
    if (beta == 0) {                                                                              \
      for (int i = 0; i < M; i++) memset(C + (size_t)i * ldc, 0, sizeof(T) * (size_t)N);          \
    } else if (beta != 1) {                                                                       \
      p##gemm_scale(NULL, M, N, &beta, c_win);                                                    \
    }                                                                                             \
    if (!product) return 0;                                                                       \
    const T one = 1;                                                                              \
    if (copy_a)                                                                                   \
      p##gemm_copy_transposed(NULL, M, K, &one, (struct exo_win_2##w##c){A, {lda, 1}},            \
                              (struct exo_win_2##w){a_dense, {K, 1}});                            \
    if (copy_b && tb)                                                                             \
      p##gemm_copy_transposed(NULL, K, N, &alpha, (struct exo_win_2##w##c){B, {ldb, 1}},          \
                              (struct exo_win_2##w){b_dense, {N, 1}});                            \
    else if (copy_b)                                                                              \
      p##gemm_copy(NULL, K, N, &alpha, (struct exo_win_2##w##c){B, {ldb, 1}},                     \
                   (struct exo_win_2##w){b_dense, {N, 1}});                                       \
    const struct exo_win_2##w##c a_win = {copy_a ? a_dense : A, {copy_a ? K : lda, 1}};           \
    const struct exo_win_2##w##c b_win = {copy_b ? b_dense : B, {copy_b ? N : ldb, 1}};           \
    p##gemm_parallel(NULL, M, N, K, a_win, b_win, c_win);                                         \
    return 0;                                                                                     \
  }                                                                                               \
                                                                                                  \
  int blas_##p##gemm(enum blas_layout layout, enum blas_transpose trans_a,                        \
                     enum blas_transpose trans_b, int M, int N, int K, T alpha, const T *A,       \
                     int lda, const T *B, int ldb, T beta, T *C, int ldc) {                       \
    const int bad = check_arguments(layout, trans_a, trans_b, M, N, K, lda, ldb, ldc);            \
    if (bad) return bad;                                                                          \
    if (layout == BlasRowMajor)                                                                   \
      return p##gemm_row_major(transposed(trans_a), transposed(trans_b), M, N, K, alpha, A, lda,  \
                               B, ldb, beta, C, ldc);                                             \
    /* Column-major C is row-major C^T = op(B)^T op(A)^T: the row-major call with A and B         \
     * swapped, each transposed where it was not (its column-major storage is the transpose). */  \
    return p##gemm_row_major(transposed(trans_b), transposed(trans_a), N, M, K, alpha, B, ldb, A, \
                             lda, beta, C, ldc);                                                  \
  }

DEFINE_BLAS_GEMM(float, s, f32)
DEFINE_BLAS_GEMM(double, d, f64)
