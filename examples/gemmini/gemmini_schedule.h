// The Gemmini schedules: the plain int8 matmul of matmul.exo and the 3 x 3 convolution of
// conv.exo (scale and ReLU on the way out) turned into calls of hwlibs/gemmini's instructions with
// public scheduling operations only. Used by gemmini_demo (demo.cpp) and the tests
// (tests/examples/gemmini_schedule_test.cpp).
#pragma once

#include <exocpp/exocpp.h>

#include <string>

namespace gemmini_example {

// The text of matmul.exo (embedded at build time) and its procs, parsed against the library.
const std::string& matmul_source();
exocpp::Proc plain_matmul();

// The scheduled matmul: blocks of `block_rows` rows of A (a multiple of 16 that divides N) and
// 64-column panels of B staged in the scratchpad with 4-block loads, 16 x 16 tiles of C
// accumulated in the accumulator, every configuration written once, before the loops. `plain`
// is plain_matmul(), or it with sizes fixed by partial_eval: 256-row blocks need N % 256 == 0,
// which only fixed sizes prove, and load B half as often as 128-row ones. A block and a panel
// take block_rows * K / 16 + 4 * K scratchpad rows of the 16,384.
exocpp::Proc schedule_matmul(const exocpp::Proc& plain, int block_rows = 64);
exocpp::Proc schedule_matmul();

// The text of conv.exo (a 3 x 3 convolution, stride 1, no padding: `inp` holds OH + 2 by OW + 2
// pixels of CI channels, `w` is [3, 3, CI, CO], `out` OH by OW pixels of CO channels) and its
// proc.
const std::string& conv_source();
exocpp::Proc plain_conv();

// The scheduled convolution, an implicit GEMM: every weight loaded once, then for each output
// row a 16-column tile (and a tail of OW % 16 columns) of CO / 16 accumulator tiles, its input
// pixels loaded once per (kr, kc, 16 channels) and multiplied by every output channel tile.
exocpp::Proc schedule_conv();

}  // namespace gemmini_example
