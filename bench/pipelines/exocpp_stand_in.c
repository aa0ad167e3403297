// TEMPORARY stand-in for the exocpp pipelines (exocpp_pipelines.h): the definitions as plain
// loops, one thread whatever threads says, so that pipelines_bench links until the generated
// library exists. CMake builds it only when EXOCPP_PIPELINES_LIB is empty. Its times measure
// the C compiler, not exocpp.
#include <stdlib.h>

#include "exocpp_pipelines.h"

void exocpp_blur_u16(int W, int H, const uint16_t* in, uint16_t* out, int threads) {
  (void)threads;
  const int stride = W + 2;
  uint16_t* bx = malloc((size_t)(H + 2) * (size_t)W * sizeof(uint16_t));
  if (!bx) abort();
  for (int y = 0; y < H + 2; ++y) {
    for (int x = 0; x < W; ++x) {
      const uint16_t* r = in + (size_t)y * stride + x;
      uint16_t s = (uint16_t)(r[0] + r[1] + r[2]);
      bx[(size_t)y * W + x] = (uint16_t)(s / 3);
    }
  }
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      const uint16_t* c = bx + (size_t)y * W + x;
      uint16_t s = (uint16_t)(c[0] + c[W] + c[2 * W]);
      out[(size_t)y * W + x] = (uint16_t)(s / 3);
    }
  }
  free(bx);
}

void exocpp_unsharp_f32(int W, int H, const float* in, float* out, int threads) {
  (void)threads;
  const int stride = W + 4;
  float* bx = malloc((size_t)(H + 4) * (size_t)W * sizeof(float));
  if (!bx) abort();
  for (int y = 0; y < H + 4; ++y) {
    for (int x = 0; x < W; ++x) {
      const float* r = in + (size_t)y * stride + x;
      bx[(size_t)y * W + x] =
          0.0625f * r[0] + 0.25f * r[1] + 0.375f * r[2] + 0.25f * r[3] + 0.0625f * r[4];
    }
  }
  for (int y = 0; y < H; ++y) {
    for (int x = 0; x < W; ++x) {
      const float* c = bx + (size_t)y * W + x;
      float by =
          0.0625f * c[0] + 0.25f * c[W] + 0.375f * c[2 * W] + 0.25f * c[3 * W] + 0.0625f * c[4 * W];
      float v = in[(size_t)(y + 2) * stride + x + 2];
      out[(size_t)y * W + x] = v + (v - by) * 1.5f;
    }
  }
  free(bx);
}
