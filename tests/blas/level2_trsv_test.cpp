// ?trsv, ?tbsv and ?tpsv (x := op(A)^-1*x, A triangular: full, band and packed storage, NaN
// sentinels where the routine must not read) against the reference BLAS, through the Fortran
// symbols and CBLAS in both layouts, on well-conditioned (diagonally dominant) matrices: every
// order up to 70, uplo, trans (N, T, C), diag, leading dimension, increment and, for tbsv,
// bandwidths 0, 1, 3 and n + 2.
#include <gtest/gtest.h>

#include "level2_checks.h"

namespace exoblas_test {
namespace {

TEST(Level2Trsv, StrsvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Trsv, DtrsvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Trsv, CblasStrsvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Trsv, CblasDtrsvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Trsv, CblasStrsvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Trsv, CblasDtrsvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kFull, true);
  });
}

TEST(Level2Tbsv, StbsvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kBand, true);
  });
}
TEST(Level2Tbsv, DtbsvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kBand, true);
  });
}
TEST(Level2Tbsv, CblasStbsvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kBand, true);
  });
}
TEST(Level2Tbsv, CblasDtbsvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kBand, true);
  });
}
TEST(Level2Tbsv, CblasStbsvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kBand, true);
  });
}
TEST(Level2Tbsv, CblasDtbsvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kBand, true);
  });
}

TEST(Level2Tpsv, StpsvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Tpsv, DtpsvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Tpsv, CblasStpsvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Tpsv, CblasDtpsvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Tpsv, CblasStpsvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_triangular<float>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Tpsv, CblasDtpsvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_triangular<double>(p, m, Storage::kPacked, true);
  });
}

}  // namespace
}  // namespace exoblas_test
