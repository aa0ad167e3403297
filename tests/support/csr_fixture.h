// The CSR sparse matrix-vector proc the value-dependent control tests share (its index
// arguments rowptr and col give loop bounds and an indirect read): one text for the language,
// codegen and scheduling tests, the same kernel as examples/value_control's spmv_s.
#pragma once

namespace exocpp::testing {

inline constexpr const char* kCsrSpmv = R"(def spmv(m: size, n: size, nnz: size,
         rowptr: i32[m + 1] @ DRAM in range(0, nnz + 1),
         col: i32[nnz] @ DRAM in range(0, n), val: f32[nnz] @ DRAM,
         x: f32[n] @ DRAM, y: f32[m] @ DRAM):
    for i in seq(0, m):
        y[i] = 0.0
        for j in seq(rowptr[i], rowptr[i + 1]):
            y[i] += val[j] * x[col[j]]
)";

}  // namespace exocpp::testing
