// The three image pipelines of examples/pipelines behind plain C entry points (defined in
// exocpp_pipelines.c on the generated pipelines.c), as bench/pipelines calls them.
//
// All take dense row-major buffers. threads is 1 or 2: how many threads the call may use.
//   exocpp_blur_u16:    in is (H + 2) rows of W + 2 uint16 values, out is H rows of W;
//                       blur_x(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3,
//                       out(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3,
//                       the sums in uint16, wrapping.
//   exocpp_unsharp_f32: in is (H + 4) rows of W + 4 floats, out is H rows of W;
//                       bx(x, y) = 0.0625f * in(x, y) + 0.25f * in(x + 1, y)
//                                  + 0.375f * in(x + 2, y) + 0.25f * in(x + 3, y)
//                                  + 0.0625f * in(x + 4, y), summed left to right,
//                       by(x, y) = the same weights over bx(x, y .. y + 4),
//                       out(x, y) = in(x + 2, y + 2) + (in(x + 2, y + 2) - by(x, y)) * 1.5f.
//   exocpp_conv5x5_f32: in is (H + 4) rows of W + 4 floats, w is 25 floats (w[dy * 5 + dx]),
//                       out is H rows of W; out(x, y) = the sum from 0.0f, over dy = 0..4 and
//                       then dx = 0..4, of w[dy * 5 + dx] * in(x + dx, y + dy), in that order.
#ifndef EXOCPP_EXAMPLES_PIPELINES_EXOCPP_PIPELINES_H
#define EXOCPP_EXAMPLES_PIPELINES_EXOCPP_PIPELINES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void exocpp_blur_u16(int W, int H, const uint16_t* in, uint16_t* out, int threads);
void exocpp_unsharp_f32(int W, int H, const float* in, float* out, int threads);
void exocpp_conv5x5_f32(int W, int H, const float* in, const float* w, float* out, int threads);

#ifdef __cplusplus
}
#endif

#endif  // EXOCPP_EXAMPLES_PIPELINES_EXOCPP_PIPELINES_H
