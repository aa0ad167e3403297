// ?symv, ?sbmv and ?spmv (y := alpha*A*x + beta*y, A symmetric: full, band and packed storage,
// only the uplo triangle read: the other holds NaN sentinels) against the reference BLAS,
// through the Fortran symbols and CBLAS in both layouts: random data over every order up to 70,
// uplo, leading dimension, increment pair, every (alpha, beta) in {0, 1, -1, 0.5} and, for
// sbmv, bandwidths 0, 1, 3 and n + 2.
#include <gtest/gtest.h>

#include "level2_checks.h"

namespace exoblas_test {
namespace {

TEST(Level2Symv, SsymvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kFull);
  });
}
TEST(Level2Symv, DsymvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kFull);
  });
}
TEST(Level2Symv, CblasSsymvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kFull);
  });
}
TEST(Level2Symv, CblasDsymvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kFull);
  });
}
TEST(Level2Symv, CblasSsymvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kFull);
  });
}
TEST(Level2Symv, CblasDsymvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kFull);
  });
}

TEST(Level2Sbmv, SsbmvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kBand);
  });
}
TEST(Level2Sbmv, DsbmvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kBand);
  });
}
TEST(Level2Sbmv, CblasSsbmvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kBand);
  });
}
TEST(Level2Sbmv, CblasDsbmvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kBand);
  });
}
TEST(Level2Sbmv, CblasSsbmvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kBand);
  });
}
TEST(Level2Sbmv, CblasDsbmvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kBand);
  });
}

TEST(Level2Spmv, SspmvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kPacked);
  });
}
TEST(Level2Spmv, DspmvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kPacked);
  });
}
TEST(Level2Spmv, CblasSspmvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kPacked);
  });
}
TEST(Level2Spmv, CblasDspmvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kPacked);
  });
}
TEST(Level2Spmv, CblasSspmvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_mv<float>(p, m, Storage::kPacked);
  });
}
TEST(Level2Spmv, CblasDspmvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_mv<double>(p, m, Storage::kPacked);
  });
}

}  // namespace
}  // namespace exoblas_test
