// ?asum (sum |x_i|) against the reference BLAS: random data over every size and positive
// increment within the reduction tolerance; 0 for incx <= 0; special values.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_asum(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Asum, SasumMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Asum, DasumMatchesReferenceOnRandomData) { random_data<double>(); }

// `IF (N.LE.0 .OR. INCX.LE.0) RETURN` with the result 0: +0 exactly, x untouched.
template <class T>
void non_positive_increment() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : {1, 2, 17, 64}) {
    for (int incx : kNonPositiveIncrements) {
      const Strided<T> x0(n, incx, random_values<T>(n, seed_of({n, incx})));
      Strided<T> x = x0;
      const std::string call = call_text(name_of(p, "asum"), {{"n", n}, {"incx", incx}});
      check_scalar(m, call, "the result", p.lib.asum(n, x.data(), incx), T(0), Match::kBits);
      check_unchanged(m, call, "x", x, x0);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Asum, SasumWithNonPositiveIncrementIsZero) { non_positive_increment<float>(); }
TEST(Level1Asum, DasumWithNonPositiveIncrementIsZero) { non_positive_increment<double>(); }

// NaN anywhere gives NaN, an infinity (of either sign) +inf, terms past max in sum +inf in any
// order; subnormals add up exactly; signed zeros give 0.
template <class T>
void special_values_test() {
  using L = std::numeric_limits<T>;
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : {1, 7, 18, 33, 100}) {
    for (int offset : {0, 3}) {
      for (int incx : {1, 2}) {
        compare_asum<T>(p, m, n, with_specials<T>(n, seed_of({n, offset}), offset, 5), incx);
      }
    }
    compare_asum<T>(p, m, n, std::vector<T>(n, -L::max() / 2), 1);
    compare_asum<T>(p, m, n, std::vector<T>(n, 3 * L::denorm_min()), 3);
    std::vector<T> zeros(n, T(-0.0));
    compare_asum<T>(p, m, n, zeros, 1);
    const T want_zero = p.lib.asum(n, zeros.data(), 1);
    check_scalar(m, call_text(name_of(p, "asum"), {{"n", n}, {"incx", 1}}), "the sum of -0s",
                 want_zero, T(0), Match::kBits);
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Asum, SasumMatchesReferenceOnSpecialValues) { special_values_test<float>(); }
TEST(Level1Asum, DasumMatchesReferenceOnSpecialValues) { special_values_test<double>(); }

}  // namespace
}  // namespace exoblas_test
