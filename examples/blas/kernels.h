// The GEMM tile kernels: gemm_tile, gemm_tile_right and gemm_tile_bottom of gemm.exo scheduled
// into AVX-512 at either precision, and the step that swaps them into the tiled gemm (replace
// by the specification, then call_eqv).
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

#include "schedule.h"

namespace blas_example {

// The tile specifications of gemm.exo at one precision (see instantiate).
struct Tiles {
  std::vector<exocpp::Proc> full;  // full[r - 1]: sgemm_tile_<r>: r x NR, r = 1..6
  exocpp::Proc right;              // sgemm_tile_right: 6 x N, N < NR
  exocpp::Proc bottom;             // sgemm_tile_bottom: M x N, M <= 6, N <= NR (the corner)
  static Tiles of(const exocpp::Module& gemm_exo, const Precision& prec);
};

// A full-width tile (full[r - 1]) as a register kernel: C[r, NR] held in 4 r zmm registers
// across the K loop; per k, four B vectors are loaded and each A element broadcast once.
exocpp::Proc schedule_kernel_full(const exocpp::Proc& spec, int rows, const Precision& prec);
// The right edge: the full kernel's register tile for N < NR columns: one version of the K
// loop per number of vectors (1 to 4), the last of them masked, so that the right edge of a
// row of tiles runs 6 rows at once as vectors too.
exocpp::Proc schedule_kernel_right(const exocpp::Proc& spec, const Precision& prec);
// The bottom edge: per row, full vectors, then one masked vector for N % lanes columns.
exocpp::Proc schedule_kernel_bottom(const exocpp::Proc& spec, const Precision& prec);

// Every tile of `p` (already cut into tiles by schedule.cpp) becomes a call of its scheduled
// kernel. With opts.vectorize false, the calls go to the plain specifications.
exocpp::Proc replace_tiles(const exocpp::Proc& p, const Tiles& tiles, const Precision& prec,
                           const ScheduleOptions& opts);

}  // namespace blas_example
