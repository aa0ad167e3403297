// The value-dependent kernels of kernels.exo as plain procs and scheduled, with public
// operations only.
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

namespace value_control {

// The procs of kernels.exo by name: isamax, idamax, snrm2, dnrm2, spmv_s, spmv_d, bs_sgemm.
exocpp::Proc plain(const std::string& name);

// The schedule of each kernel: schedule_spmv, schedule_iamax, schedule_nrm2,
// schedule_block_sparse.
exocpp::Proc scheduled(const std::string& name);
// The same, scheduled anew (scheduled() keeps the first result per name).
exocpp::Proc schedule(const std::string& name);

// bs_sgemm's schedule (block_sparse.cpp): the K tiles in blocks of 8 with B packed per block,
// the 16 x 64 tiles of A that the mask marks run as examples/blas's AVX-512 tile kernels, the
// others skipped.
exocpp::Proc schedule_block_sparse(exocpp::Proc plain);

// i?amax's schedule (iamax.cpp): rfactor_argmax into 4 registers of lanes (f32: 16 lanes, f64:
// 8), each group of iterations one load, one abs and one masked (value, index) update per
// register; the lanes folded into (best, result) after the groups; the last iterations scalar.
exocpp::Proc schedule_iamax(exocpp::Proc plain, bool f64);

// ?nrm2's schedule (nrm2.cpp): rfactor gives each of the three sums two registers of lanes (f32:
// 16 lanes each, f64: 8); each group of iterations is one instruction of this example's own
// (nrm2_lanes.exo: |x|, one scaled square per lane, added under compare masks); the lanes are
// added into the sums in lane order; the last iterations scalar.
exocpp::Proc schedule_nrm2(exocpp::Proc plain, bool f64);

// CSR SpMV's schedule (spmv.cpp): the rows in parallel (each writes only its own y[i]; the
// checker proves it over the data-dependent row ranges); in each row, rfactor gives the sum
// two registers of lanes (f32: 16 lanes each, f64: 8), each group of nonzeros one load of val,
// one gather of x through col and one multiply-add per register; the lanes added into the
// row's sum in lane order; the last nonzeros scalar.
exocpp::Proc schedule_spmv(exocpp::Proc plain, bool f64);

// The expressions `es` (equal, in lane loop `ll`) become the register `name` of `width` lanes,
// filled by its own lane loop before the one that reads it (still in DRAM: plain code fills it
// until replace).
exocpp::Proc to_register(exocpp::Proc p, const std::vector<exocpp::Cursor>& es,
                         const std::string& name, int width);

}  // namespace value_control
