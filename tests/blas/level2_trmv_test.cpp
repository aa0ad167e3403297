// ?trmv, ?tbmv and ?tpmv (x := op(A)*x, A triangular: full, band and packed storage; the other
// triangle, and the diagonal for diag = 'U', hold NaN sentinels the routine must not read)
// against the reference BLAS, through the Fortran symbols and CBLAS in both layouts: random
// data over every order up to 70, uplo, trans (N, T, C), diag, leading dimension, increment
// and, for tbmv, bandwidths 0, 1, 3 and n + 2.
#include <gtest/gtest.h>

#include "level2_checks.h"

namespace exoblas_test {
namespace {

TEST(Level2Trmv, StrmvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Trmv, DtrmvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Trmv, CblasStrmvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Trmv, CblasDtrmvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Trmv, CblasStrmvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Trmv, CblasDtrmvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kFull, false);
  });
}

TEST(Level2Tbmv, StbmvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kBand, false);
  });
}
TEST(Level2Tbmv, DtbmvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kBand, false);
  });
}
TEST(Level2Tbmv, CblasStbmvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kBand, false);
  });
}
TEST(Level2Tbmv, CblasDtbmvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kBand, false);
  });
}
TEST(Level2Tbmv, CblasStbmvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kBand, false);
  });
}
TEST(Level2Tbmv, CblasDtbmvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kBand, false);
  });
}

TEST(Level2Tpmv, StpmvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Tpmv, DtpmvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Tpmv, CblasStpmvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Tpmv, CblasDtpmvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Tpmv, CblasStpmvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Tpmv, CblasDtpmvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kPacked, false);
  });
}

}  // namespace
}  // namespace exoblas_test
