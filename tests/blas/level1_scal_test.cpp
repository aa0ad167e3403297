// ?scal (x := alpha*x) against the reference BLAS: random data over every size, positive
// increment and alpha by value (one correctly rounded product per element); special values
// of alpha and x bit for bit, signed zeros included (alpha = 0 times NaN or inf is NaN, times
// a negative is -0: the reference multiplies); the reference does nothing for incx <= 0 and
// returns at once for alpha == 1.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_scal(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Scal, SscalMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Scal, DscalMatchesReferenceOnRandomData) { random_data<double>(); }

template <class T>
void special_values_test() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  std::vector<T> alphas = special_values<T>();
  alphas.push_back(T(0.5));
  alphas.push_back(T(2));
  for (T alpha : alphas) {
    for (int n : {18, 41}) {
      for (int incx : {1, 2}) {
        compare_scal<T>(p, m, n, alpha, with_specials<T>(n, seed_of({n, incx}), 0, 1), incx,
                        Match::kSameSign);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Scal, SscalMatchesReferenceOnSpecialValuesBitForBit) { special_values_test<float>(); }
TEST(Level1Scal, DscalMatchesReferenceOnSpecialValuesBitForBit) { special_values_test<double>(); }

// `IF (N.LE.0 .OR. INCX.LE.0 ...) RETURN`: with increment 0 or negative nothing changes.
template <class T>
void non_positive_increment() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : {1, 2, 17, 64}) {
    for (int incx : kNonPositiveIncrements) {
      const Strided<T> x0(n, incx, random_values<T>(n, seed_of({n, incx})));
      Strided<T> x = x0;
      p.lib.scal(n, T(-3.25), x.data(), incx);
      check_vector(m, call_text(name_of(p, "scal"), {{"n", n}, {"alpha", -3.25}, {"incx", incx}}),
                   "x", x, x0, Match::kBits);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Scal, SscalWithNonPositiveIncrementChangesNothing) { non_positive_increment<float>(); }
TEST(Level1Scal, DscalWithNonPositiveIncrementChangesNothing) { non_positive_increment<double>(); }

// LAPACK 3.11's `IF (... SA.EQ.ONE) RETURN`: alpha = 1 leaves even a signalling NaN as it was
// (1 * sNaN would quiet it).
template <class T>
void unit_alpha() {
  const Pair<T> p = fortran_pair<T>();
  std::vector<T> v = with_specials<T>(20, 3, 0, 1);
  if constexpr (sizeof(T) == 4) {
    v[19] = from_bits<T>(0x7f800001u);
  } else {
    v[19] = from_bits<T>(0x7ff0000000000001ull);
  }
  const Strided<T> x0(20, 1, v);
  Strided<T> x = x0;
  p.lib.scal(20, T(1), x.data(), 1);
  Mismatches m;
  check_vector(m, call_text(name_of(p, "scal"), {{"n", 20}, {"alpha", 1}, {"incx", 1}}), "x", x, x0,
               Match::kBits);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Scal, SscalWithUnitAlphaLeavesXUntouched) { unit_alpha<float>(); }
TEST(Level1Scal, DscalWithUnitAlphaLeavesXUntouched) { unit_alpha<double>(); }

}  // namespace
}  // namespace exoblas_test
