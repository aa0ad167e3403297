// Halide's apps/blur in the procedure language, the stencil several tests schedule: a 3x3 box
// blur of a uint16 image whose sums are stored to a uint16 (sx, sy), and so wrap at 16 bits
// before the division by 3, as Halide's uint16 arithmetic does. (examples/pipelines/pipelines.exo
// holds the same proc for the example.)
#pragma once

namespace exocpp::testing {

inline constexpr const char* kHalideBlurU16 =
    R"(def blur(H: size, W: size, inp: ui16[H + 2, W + 2] @ DRAM, out: ui16[H, W] @ DRAM):
    bx: ui16[H + 2, W] @ DRAM
    for y in seq(0, H + 2):
        for x in seq(0, W):
            sx: ui16 @ DRAM
            sx = inp[y, x] + inp[y, x + 1] + inp[y, x + 2]
            bx[y, x] = sx / 3
    for y in seq(0, H):
        for x in seq(0, W):
            sy: ui16 @ DRAM
            sy = bx[y, x] + bx[y + 1, x] + bx[y + 2, x]
            out[y, x] = sy / 3
)";

}  // namespace exocpp::testing
