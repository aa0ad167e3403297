// The library under test exports every level-1 symbol of this session's scope, Fortran (gfortran
// ABI) and CBLAS; and the reference BLAS is the one the other tests mean (netlib's, with its
// CBLAS).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "blas_libraries.h"

namespace exoblas_test {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : " ") + n;
  return s;
}

TEST(Level1Symbols, LibraryExportsEveryLevel1Symbol) {
  const BlasLibrary& lib = blas_under_test();
  EXPECT_TRUE(lib.missing.empty()) << lib.path << " lacks: " << joined(lib.missing);
}

TEST(Level1Symbols, ReferenceExportsEveryLevel1Symbol) {
  const BlasLibrary& ref = reference_blas();
  EXPECT_TRUE(ref.missing.empty()) << ref.path << " lacks: " << joined(ref.missing);
}

// What a test calling a symbol the library lacks reports (as the exception gtest prints).
TEST(Level1Symbols, CallingAMissingSymbolThrowsNamingSymbolAndLibrary) {
  const std::string library = "/tmp/libnot_a_blas.so";
  const Symbol<float(const int*)> missing(nullptr, "snrm9_", &library);
  const int n = 1;
  try {
    missing(&n);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "/tmp/libnot_a_blas.so has no symbol snrm9_");
  }
}

}  // namespace
}  // namespace exoblas_test
