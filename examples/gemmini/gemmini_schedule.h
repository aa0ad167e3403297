// The Gemmini schedules: the plain int8 matmul of matmul.exo (scale and ReLU on the way out)
// turned into calls of hwlibs/gemmini's instructions with public scheduling operations only.
// Used by gemmini_demo (demo.cpp) and the tests (tests/examples/gemmini_schedule_test.cpp).
#pragma once

#include <exocpp/exocpp.h>

#include <string>

namespace gemmini_example {

// The text of matmul.exo (embedded at build time) and its procs, parsed against the library.
const std::string& matmul_source();
exocpp::Proc plain_matmul();

// The scheduled matmul: 64-row blocks of A and 64-column panels of B staged in the scratchpad
// with 4-block loads, 16 x 16 tiles of C accumulated in the accumulator, every configuration
// written once, before the loops.
exocpp::Proc schedule_matmul();

}  // namespace gemmini_example
