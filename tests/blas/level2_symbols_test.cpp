// The library under test exports every level-2 symbol, Fortran (gfortran ABI) and CBLAS, and
// netlib CBLAS's globals RowMajorStrg and CBLAS_CallFromC, which netlib's CBLAS testers read
// (and bind by copy relocation, so a library without them cannot even load them); every
// CBLAS routine clears both when it returns, as netlib's do, and the Fortran ones leave them
// alone.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "level2_harness.h"

namespace exoblas_test {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : " ") + n;
  return s;
}

TEST(Level2Symbols, LibraryExportsEveryLevel2Symbol) {
  const BlasLibrary& lib = blas_under_test();
  EXPECT_TRUE(lib.missing_level2.empty()) << lib.path << " lacks: " << joined(lib.missing_level2);
}

TEST(Level2Symbols, ReferenceExportsEveryLevel2Symbol) {
  const BlasLibrary& ref = reference_blas();
  EXPECT_TRUE(ref.missing_level2.empty()) << ref.path << " lacks: " << joined(ref.missing_level2);
}

// The globals after one legal call of `api`'s gemv, both set to 5 before.
std::pair<int, int> globals_after_call(const BlasLibrary& lib, Api api) {
  if (!lib.row_major_strg || !lib.cblas_call_from_c) throw std::runtime_error("no globals");
  const Level2Api<float> a = level2_api<float>(lib, api);
  std::vector<float> A(4, 1.0f), x(2, 1.0f), y(2, 0.0f);
  *lib.row_major_strg = 5;
  *lib.cblas_call_from_c = 5;
  a.gemv('N', 2, 2, 1.0f, A.data(), 2, x.data(), 1, 0.0f, y.data(), 1);
  const std::pair<int, int> after = {*lib.row_major_strg, *lib.cblas_call_from_c};
  *lib.row_major_strg = 0;
  *lib.cblas_call_from_c = 0;
  return after;
}

TEST(Level2Symbols, CblasRoutinesClearTheGlobalsWhenTheyReturn) {
  for (Api api : {Api::kCblasColMajor, Api::kCblasRowMajor}) {
    EXPECT_EQ(globals_after_call(reference_blas(), api), std::pair(0, 0));
    EXPECT_EQ(globals_after_call(blas_under_test(), api), std::pair(0, 0));
  }
}

TEST(Level2Symbols, FortranRoutinesLeaveTheGlobalsAlone) {
  EXPECT_EQ(globals_after_call(reference_blas(), Api::kFortran), std::pair(5, 5));
  EXPECT_EQ(globals_after_call(blas_under_test(), Api::kFortran), std::pair(5, 5));
}

}  // namespace
}  // namespace exoblas_test
