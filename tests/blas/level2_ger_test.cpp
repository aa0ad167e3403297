// ?ger (A := alpha*x*y^T + A) against the reference BLAS, through the Fortran symbols and CBLAS
// in both layouts: random data over every order up to 70 (m and n apart), leading dimension,
// increment pair and alpha in {0, 1, -1, 0.5}; padding rows and guards must keep their
// sentinels.
#include <gtest/gtest.h>

#include "level2_checks.h"

namespace exoblas_test {
namespace {

TEST(Level2Ger, SgerMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, sweep_ger<float>);
}
TEST(Level2Ger, DgerMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, sweep_ger<double>);
}
TEST(Level2Ger, CblasSgerColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, sweep_ger<float>);
}
TEST(Level2Ger, CblasDgerColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, sweep_ger<double>);
}
TEST(Level2Ger, CblasSgerRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, sweep_ger<float>);
}
TEST(Level2Ger, CblasDgerRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, sweep_ger<double>);
}

}  // namespace
}  // namespace exoblas_test
