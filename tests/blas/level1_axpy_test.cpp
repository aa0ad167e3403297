// ?axpy (y := alpha*x + y) against the reference BLAS: random data over every size, increment
// (x's increment 0 included) and alpha; the reference's early return for alpha == 0; special
// values.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_axpy(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Axpy, SaxpyMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Axpy, DaxpyMatchesReferenceOnRandomData) { random_data<double>(); }

// The reference returns at once when alpha == 0 (`IF (SA.EQ.0.0) RETURN`): NaN and infinities
// in x do not reach y, and y keeps its bits, -0 and NaN payloads included.
template <class T>
void zero_alpha() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : {1, 18, 65}) {
    for (int incx : {1, -2}) {
      for (int incy : {1, 3}) {
        const Strided<T> x0(n, incx, with_specials<T>(n, seed_of({n, incx}), 0, 1));
        const Strided<T> y0(n, incy, with_specials<T>(n, seed_of({n, incy}), 3, 2));
        for (T alpha : {T(0.0), T(-0.0)}) {
          Strided<T> x = x0, y = y0;
          p.lib.axpy(n, alpha, x.data(), incx, y.data(), incy);
          const std::string call = call_text(
              name_of(p, "axpy"), {{"n", n}, {"alpha", alpha}, {"incx", incx}, {"incy", incy}});
          check_vector(m, call, "y", y, y0, Match::kBits);
        }
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Axpy, SaxpyWithZeroAlphaLeavesYUntouched) { zero_alpha<float>(); }
TEST(Level1Axpy, DaxpyWithZeroAlphaLeavesYUntouched) { zero_alpha<double>(); }

// With alpha = +-1 the product is exact, so fused or not the sum is one rounding: every pair of
// special values (x_i, y_i) gives the reference's bits (but NaN payloads), the sign of zeros
// included: inf - inf is NaN, -0 + -0 is -0, max + max overflows.
template <class T>
void special_pairs() {
  const Pair<T> p = fortran_pair<T>();
  const std::vector<T> s = special_values<T>();
  std::vector<T> x, y;
  for (T a : s) {
    for (T b : s) {
      x.push_back(a);
      y.push_back(b);
    }
  }
  const int n = int(x.size());
  Mismatches m;
  for (T alpha : {T(1), T(-1)}) {
    for (int incx : {1, -1}) {
      for (int incy : {1, 2}) compare_axpy<T>(p, m, n, alpha, x, incx, y, incy, Match::kSameSign);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Axpy, SaxpyMatchesReferenceOnPairsOfSpecialValuesWithUnitAlpha) {
  special_pairs<float>();
}
TEST(Level1Axpy, DaxpyMatchesReferenceOnPairsOfSpecialValuesWithUnitAlpha) {
  special_pairs<double>();
}

// Special values in x against plain y and in y against plain x, with alphas that overflow
// (1.7 * max), underflow (0.5 * denorm_min) and flip signs: within the elementwise tolerance,
// NaN for NaN and the same infinity. (Both vectors special at once only with exact products,
// above: 1.7 * max + -max overflows unfused but not fused.)
template <class T>
void special_values_test() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : {18, 37, 100}) {
    for (int offset : {0, 5}) {
      for (double alpha : {1.7, 0.5, -3.25}) {
        const auto seed = seed_of({n, offset});
        compare_axpy<T>(p, m, n, T(alpha), with_specials<T>(n, seed, offset, 1), 1,
                        random_values<T>(n, seed + 1), 1);
        compare_axpy<T>(p, m, n, T(alpha), random_values<T>(n, seed), -1,
                        with_specials<T>(n, seed + 1, offset, 1), 2);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Axpy, SaxpyMatchesReferenceOnSpecialValues) { special_values_test<float>(); }
TEST(Level1Axpy, DaxpyMatchesReferenceOnSpecialValues) { special_values_test<double>(); }

}  // namespace
}  // namespace exoblas_test
