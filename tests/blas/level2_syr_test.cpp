// ?syr, ?spr (A := alpha*x*x^T + A) and ?syr2, ?spr2 (A := alpha*x*y^T + alpha*y*x^T + A), A
// symmetric, full or packed, only the uplo triangle updated (the other must keep its NaN
// sentinels), against the reference BLAS through the Fortran symbols and CBLAS in both
// layouts: random data over every order up to 70, uplo, leading dimension, increment pair and
// alpha in {0, 1, -1, 0.5}.
#include <gtest/gtest.h>

#include "level2_checks.h"

namespace exoblas_test {
namespace {

TEST(Level2Syr, SsyrMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Syr, DsyrMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Syr, CblasSsyrColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Syr, CblasDsyrColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Syr, CblasSsyrRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kFull, false);
  });
}
TEST(Level2Syr, CblasDsyrRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kFull, false);
  });
}

TEST(Level2Spr, SsprMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Spr, DsprMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Spr, CblasSsprColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Spr, CblasDsprColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Spr, CblasSsprRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kPacked, false);
  });
}
TEST(Level2Spr, CblasDsprRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kPacked, false);
  });
}

TEST(Level2Syr2, Ssyr2MatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Syr2, Dsyr2MatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Syr2, CblasSsyr2ColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Syr2, CblasDsyr2ColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Syr2, CblasSsyr2RowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kFull, true);
  });
}
TEST(Level2Syr2, CblasDsyr2RowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kFull, true);
  });
}

TEST(Level2Spr2, Sspr2MatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Spr2, Dspr2MatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Spr2, CblasSspr2ColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Spr2, CblasDspr2ColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Spr2, CblasSspr2RowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, [](const Pair2<float>& p, Mismatches& m) {
    sweep_symmetric_update<float>(p, m, Storage::kPacked, true);
  });
}
TEST(Level2Spr2, CblasDspr2RowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, [](const Pair2<double>& p, Mismatches& m) {
    sweep_symmetric_update<double>(p, m, Storage::kPacked, true);
  });
}

}  // namespace
}  // namespace exoblas_test
