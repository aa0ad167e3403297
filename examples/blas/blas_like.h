/* BLAS's gemm on exocpp's generated kernels: blas_sgemm and blas_dgemm take cblas_sgemm's and
 * cblas_dgemm's arguments, in the same order and with the same meaning,
 *
 *   C = alpha * op(A) * op(B) + beta * C,   op(X) = X or X^T,
 *
 * for row- or column-major storage with leading dimensions, and compute it with the scheduled
 * procs of blas.c (examples/blas/gemm.exo): C is scaled by beta first (set to zero when beta is
 * 0, as BLAS specifies: C is then not read), then alpha op(B) and op(A), where they are not the
 * operands as stored, are copied into dense buffers (each calling thread keeps its two and
 * reuses them from call to call), and the gemm kernel accumulates their
 * product into C on OpenMP's threads (sgemm_parallel; one thread when built without OpenMP).
 * The product is alpha * op(B) rounded first, then multiplied by op(A): the order the procs'
 * specifications state, which the interpreter computes too.
 *
 * Returns 0, or the position (1-based) of the first invalid argument, as BLAS's xerbla reports
 * it, or -1 when a buffer could not be allocated; nothing is written then. */
#ifndef EXOCPP_BLAS_LIKE_H
#define EXOCPP_BLAS_LIKE_H
#ifdef __cplusplus
extern "C" {
#endif

/* The values are CBLAS's, so that CblasRowMajor, CblasTrans, ... can be passed as they are. */
enum blas_layout { BlasRowMajor = 101, BlasColMajor = 102 };
enum blas_transpose { BlasNoTrans = 111, BlasTrans = 112, BlasConjTrans = 113 };

int blas_sgemm(enum blas_layout layout, enum blas_transpose trans_a, enum blas_transpose trans_b,
               int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
               float beta, float *C, int ldc);
int blas_dgemm(enum blas_layout layout, enum blas_transpose trans_a, enum blas_transpose trans_b,
               int M, int N, int K, double alpha, const double *A, int lda, const double *B,
               int ldb, double beta, double *C, int ldc);

#ifdef __cplusplus
}
#endif
#endif
