/* The outside project's program: calls the generated saxpy and checks it against a plain loop;
   exits 1 on the first element that differs. */
#include <stdio.h>

#include "saxpy_kernels.h"

int main(void) {
  /* Not a multiple of 8, so the cut-off tail loop runs too. */
  enum { N = 1003 };
  static float x[N], y[N], expected[N];
  const float a = 0.5f;
  for (int i = 0; i < N; ++i) {
    /* Small integers and halves: every product and sum is exact, so equality is the test. */
    x[i] = (float)(i % 7 - 3);
    y[i] = (float)(i % 5);
    expected[i] = y[i] + a * x[i];
  }
  saxpy(NULL, N, &a, x, y);
  for (int i = 0; i < N; ++i) {
    if (y[i] != expected[i]) {
      fprintf(stderr, "saxpy_app: y[%d] = %g, the plain loop gives %g\n", i, y[i], expected[i]);
      return 1;
    }
  }
  printf("saxpy_app: the generated saxpy matches the plain loop on %d elements\n", N);
  return 0;
}
