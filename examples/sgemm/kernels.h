// The SGEMM tile kernels: gemm_6x64, gemm_6xn and gemm_edge of sgemm.exo scheduled into AVX-512,
// and the step that swaps them into the tiled sgemm (replace by the specification, then
// call_eqv).
#pragma once

#include <exocpp/exocpp.h>

#include "schedule.h"

namespace sgemm_example {

// gemm_6x64 as a register kernel: C[6, 64] held in 24 zmm registers across the K loop; per k,
// four B vectors are loaded and each A element broadcast once.
exocpp::Proc schedule_kernel_6x64(const exocpp::Proc& spec);
// gemm_6xn: the 6 x 64 kernel's register tile for N < 64 columns: one version of the K loop
// per number of 16-column vectors (1 to 4), the last of them masked, so that the right edge of
// a row of tiles runs 6 rows at once as vectors too.
exocpp::Proc schedule_kernel_6xn(const exocpp::Proc& spec);
// gemm_edge: per row, full 16-column vectors, then one masked vector for N % 16 columns.
exocpp::Proc schedule_kernel_edge(const exocpp::Proc& spec);

// Every tile of `p` (already cut into tiles by schedule.cpp) becomes a call of its scheduled
// kernel. With opts.vectorize false, the calls go to the plain specifications.
exocpp::Proc replace_tiles(const exocpp::Proc& p, const exocpp::Module& specs,
                           const ScheduleOptions& opts);

}  // namespace sgemm_example
