// The entry points of exocpp_pipelines.h on the generated pipelines (pipelines.h): dense images
// in, the serial or the OpenMP version by thread count.
#include "exocpp_pipelines.h"

#include "pipelines.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static void use_threads(int threads) {
#ifdef _OPENMP
  omp_set_num_threads(threads > 0 ? threads : 1);
#else
  (void)threads;
#endif
}

void exocpp_blur_u16(int W, int H, const uint16_t* in, uint16_t* out, int threads) {
  if (threads > 1) {
    use_threads(threads);
    blur_parallel(0, H, W, in, out);
  } else {
    blur(0, H, W, in, out);
  }
}

void exocpp_unsharp_f32(int W, int H, const float* in, float* out, int threads) {
  if (threads > 1) {
    use_threads(threads);
    unsharp_parallel(0, H, W, in, out);
  } else {
    unsharp(0, H, W, in, out);
  }
}

void exocpp_conv5x5_f32(int W, int H, const float* in, const float* w, float* out, int threads) {
  if (threads > 1) {
    use_threads(threads);
    conv5x5_parallel(0, H, W, in, w, out);
  } else {
    conv5x5(0, H, W, in, w, out);
  }
}
