// The value-dependent kernels of kernels.exo as plain procs and scheduled, with public
// operations only.
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

namespace value_control {

// The procs of kernels.exo by name: spmv_s, spmv_d, bs_sgemm.
exocpp::Proc plain(const std::string& name);

// The schedule of each kernel: schedule_spmv, schedule_block_sparse.
exocpp::Proc scheduled(const std::string& name);
// The same, scheduled anew (scheduled() keeps the first result per name).
exocpp::Proc schedule(const std::string& name);

// bs_sgemm's schedule (block_sparse.cpp): the K tiles in blocks of 8 with B packed per block,
// the 16 x 64 tiles of A that the mask marks run as examples/blas's AVX-512 tile kernels, the
// others skipped.
exocpp::Proc schedule_block_sparse(exocpp::Proc plain);

// CSR SpMV's schedule (spmv.cpp): the rows in parallel (each writes only its own y[i]; the
// checker proves it over the data-dependent row ranges); in each row, rfactor gives the sum
// two registers of lanes (f32: 16 lanes each, f64: 8), each group of nonzeros one load of val,
// one gather of x through col and one multiply-add per register; the lanes added into the
// row's sum in lane order; the last nonzeros scalar.
exocpp::Proc schedule_spmv(exocpp::Proc plain, bool f64);

}  // namespace value_control
