// The SGEMM tile kernels: gemm_6x64 and gemm_edge of sgemm.exo scheduled into AVX-512, and the
// step that swaps them into the tiled sgemm (replace by the specification, then call_eqv).
#pragma once

#include <exocpp/exocpp.h>

#include "schedule.h"

namespace sgemm_example {

// gemm_6x64 as a register kernel: C[6, 64] held in 24 zmm registers across the K loop; per k,
// four B vectors are loaded and each A element broadcast once.
exocpp::Proc schedule_kernel_6x64(const exocpp::Proc& spec);
// gemm_edge: per row, full 16-column vectors, then one masked vector for N % 16 columns.
exocpp::Proc schedule_kernel_edge(const exocpp::Proc& spec);

// Every tile of `p` (already cut into tiles by schedule.cpp) becomes a call of its scheduled
// kernel. With opts.vectorize false, the calls go to the plain specifications.
exocpp::Proc replace_tiles(const exocpp::Proc& p, const exocpp::Module& specs,
                           const ScheduleOptions& opts);

}  // namespace sgemm_example
