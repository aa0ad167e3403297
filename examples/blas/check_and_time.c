/* Checks the generated sgemm and dgemm against a plain loop on assorted shapes, then times
 * sgemm at 1024 x 1024 x 1024. Built by scripts/demo.sh with the system C compiler:
 *   cc -O3 -mavx512f -mfma check_and_time.c OUT/blas.c -I OUT -o blas_check */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "blas.h"

/* plain_fn, random_fn and check_fn for element type T, the generated gemm `fn` and its window
 * structs' suffix w (f32, f64): the generated functions take windows, rows `ld` apart. */
#define DEFINE_CHECK(T, fn, w)                                                                  \
  static void plain_##fn(int M, int N, int K, const T *A, const T *B, T *C) {                   \
    for (int i = 0; i < M; i++)                                                                 \
      for (int j = 0; j < N; j++) {                                                             \
        T s = C[i * N + j];                                                                     \
        for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];                           \
        C[i * N + j] = s;                                                                       \
      }                                                                                         \
  }                                                                                             \
  static T *random_##fn(long n) {                                                               \
    T *m = malloc(sizeof(T) * (size_t)n);                                                       \
    for (long i = 0; i < n; i++) m[i] = (T)(rand() % 9 - 4); /* exact in float */               \
    return m;                                                                                   \
  }                                                                                             \
  static int check_##fn(int M, int N, int K) {                                                  \
    T *A = random_##fn((long)M * K), *B = random_##fn((long)K * N);                             \
    T *C = random_##fn((long)M * N), *R = malloc(sizeof(T) * (size_t)M * N);                    \
    for (long i = 0; i < (long)M * N; i++) R[i] = C[i];                                         \
    fn(NULL, M, N, K, (struct exo_win_2##w##c){A, {K, 1}}, (struct exo_win_2##w##c){B, {N, 1}}, \
       (struct exo_win_2##w){C, {N, 1}});                                                       \
    plain_##fn(M, N, K, A, B, R);                                                               \
    int bad = 0;                                                                                \
    for (long i = 0; i < (long)M * N && !bad; i++)                                              \
      if (C[i] != R[i]) {                                                                       \
        printf(#fn ": MISMATCH at %dx%dx%d, element %ld: %g != %g\n", M, N, K, i, (double)C[i], \
               (double)R[i]);                                                                   \
        bad = 1;                                                                                \
      }                                                                                         \
    free(A);                                                                                    \
    free(B);                                                                                    \
    free(C);                                                                                    \
    free(R);                                                                                    \
    return bad;                                                                                 \
  }
DEFINE_CHECK(float, sgemm, f32)
DEFINE_CHECK(double, dgemm, f64)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  int shapes[][3] = {{1, 1, 1},     {5, 7, 3},       {6, 64, 512},
                     {13, 70, 515}, {64, 100, 1000}, {250, 129, 77}};
  int bad = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    bad |= check_sgemm(shapes[s][0], shapes[s][1], shapes[s][2]);
    bad |= check_dgemm(shapes[s][0], shapes[s][1], shapes[s][2]);
  }
  printf("sgemm, dgemm: %s on %zu shapes\n", bad ? "WRONG" : "correct",
         sizeof shapes / sizeof shapes[0]);
  int n = 1024;
  float *A = random_sgemm((long)n * n), *B = random_sgemm((long)n * n),
        *C = random_sgemm((long)n * n);
  double best = 1e9;
  for (int r = 0; r < 5; r++) {
    double t = now();
    sgemm(NULL, n, n, n, (struct exo_win_2f32c){A, {n, 1}}, (struct exo_win_2f32c){B, {n, 1}},
          (struct exo_win_2f32){C, {n, 1}});
    t = now() - t;
    if (t < best) best = t;
  }
  printf("sgemm %dx%dx%d: %.2f ms, %.1f GFLOP/s (best of 5)\n", n, n, n, best * 1e3,
         2.0 * n * n * n / best / 1e9);
  free(A);
  free(B);
  free(C);
  return bad;
}
