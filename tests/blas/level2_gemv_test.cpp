// ?gemv (y := alpha*op(A)*x + beta*y, A general) and ?gbmv (A banded) against the reference
// BLAS, through the Fortran symbols and CBLAS in both layouts: random data over every order up
// to 70 (m and n apart), trans, leading dimension, increment pair and, for gbmv, every pair of
// bandwidths; alpha and beta in {0, 1, -1, 0.5} (all pairs for gemv, one per case for gbmv).
#include <gtest/gtest.h>

#include "level2_checks.h"

namespace exoblas_test {
namespace {

TEST(Level2Gemv, SgemvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, sweep_gemv<float>);
}
TEST(Level2Gemv, DgemvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, sweep_gemv<double>);
}
TEST(Level2Gemv, CblasSgemvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, sweep_gemv<float>);
}
TEST(Level2Gemv, CblasDgemvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, sweep_gemv<double>);
}
TEST(Level2Gemv, CblasSgemvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, sweep_gemv<float>);
}
TEST(Level2Gemv, CblasDgemvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, sweep_gemv<double>);
}

TEST(Level2Gbmv, SgbmvMatchesReference) {
  expect_sweep_matches<float>(Api::kFortran, sweep_gbmv<float>);
}
TEST(Level2Gbmv, DgbmvMatchesReference) {
  expect_sweep_matches<double>(Api::kFortran, sweep_gbmv<double>);
}
TEST(Level2Gbmv, CblasSgbmvColMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasColMajor, sweep_gbmv<float>);
}
TEST(Level2Gbmv, CblasDgbmvColMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasColMajor, sweep_gbmv<double>);
}
TEST(Level2Gbmv, CblasSgbmvRowMajorMatchesReference) {
  expect_sweep_matches<float>(Api::kCblasRowMajor, sweep_gbmv<float>);
}
TEST(Level2Gbmv, CblasDgbmvRowMajorMatchesReference) {
  expect_sweep_matches<double>(Api::kCblasRowMajor, sweep_gbmv<double>);
}

}  // namespace
}  // namespace exoblas_test
