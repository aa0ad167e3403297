// Loop helpers the BLAS example's schedules share (the float kernels and the int8 GEMM), built
// from public scheduling operations only.
#pragma once

#include <exocpp/exocpp.h>

#include <string>

namespace blas_example {

// `if count > 0: body` (cursor `guard`) becomes one version of body per value of count, 1 to
// max - 1 (specialize), and in each version the loops that run `count` times run that many
// (rewrite_expr proves it from the version's condition): a tile of the bottom rows then has a
// constant row count, so a register kernel of that many rows can take it.
exocpp::Proc specialize_count(exocpp::Proc p, const exocpp::Cursor& guard, const std::string& count,
                              int max);

// Unrolls every loop named `iter`, so that register arrays get constant indices (innermost
// first is not needed: unrolling copies bodies).
exocpp::Proc unroll_all(exocpp::Proc p, const std::string& iter);

}  // namespace blas_example
