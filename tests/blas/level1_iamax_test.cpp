// i?amax (the 1-based index of the first element of largest |x_i|) against the reference
// BLAS, exactly: random data over every size and positive increment; ties; NaN (the
// reference's `IF (ABS(SX(I)).GT.SMAX)` never picks a NaN, but a NaN first stays the answer,
// as nothing compares greater than it); infinities; 0 for n < 1 or incx <= 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_iamax(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Iamax, IsamaxMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Iamax, IdamaxMatchesReferenceOnRandomData) { random_data<double>(); }

// Many equal magnitudes of both signs (and -0 against +0): the first one wins, wherever it
// falls in the library's lanes, groups and tail.
template <class T>
void ties() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  std::mt19937 rng(7);
  for (int n : {2, 7, 16, 17, 64, 65, 127, 200, 259, 1027}) {
    for (int incx : {1, 2, 3}) {
      std::vector<T> x(n);
      for (T& e : x) e = T(int(rng() % 7) - 3) + T(0.5);  // +-0.5 ... +-3.5, often equal
      compare_iamax<T>(p, m, n, x, incx);
      x[n - 1] = T(9);  // the largest last: past any full group
      compare_iamax<T>(p, m, n, x, incx);
      x[n / 2] = T(-9);  // the same magnitude earlier: wins
      compare_iamax<T>(p, m, n, x, incx);
      for (int i = 0; i < n; ++i) x[i] = i % 2 ? T(-2.5) : T(2.5);  // all equal
      compare_iamax<T>(p, m, n, x, incx);
      std::fill(x.begin(), x.end(), T(-0.0));
      x[n / 2] = T(0.0);
      compare_iamax<T>(p, m, n, x, incx);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Iamax, IsamaxReturnsTheFirstOfEqualMagnitudes) { ties<float>(); }
TEST(Level1Iamax, IdamaxReturnsTheFirstOfEqualMagnitudes) { ties<double>(); }

// A NaN first: the answer is 1 whatever follows (all comparisons with a NaN maximum fail). A
// NaN later: skipped, as if absent. All NaN: 1.
template <class T>
void nan_placement() {
  using L = std::numeric_limits<T>;
  const Pair<T> p = fortran_pair<T>();
  const T nan = L::quiet_NaN();
  Mismatches m;
  for (int n : {1, 2, 8, 17, 33, 64, 100}) {
    for (int incx : {1, 2}) {
      for (int k : {0, 1, n / 2, n - 1}) {
        if (k >= n) continue;
        std::vector<T> x = random_values<T>(n, seed_of({n, k}));
        x[k] = nan;
        compare_iamax<T>(p, m, n, x, incx);
        x[(k + 1) % n] = T(100);  // larger than the rest, after (or, at the end, before) NaN
        compare_iamax<T>(p, m, n, x, incx);
        x[k] = -nan;
        compare_iamax<T>(p, m, n, x, incx);
      }
      compare_iamax<T>(p, m, n, std::vector<T>(n, nan), incx);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Iamax, IsamaxSkipsNanUnlessItIsFirst) { nan_placement<float>(); }
TEST(Level1Iamax, IdamaxSkipsNanUnlessItIsFirst) { nan_placement<double>(); }

// The first infinity of either sign wins over max and over later infinities (no NaN here: the
// special values' NaNs are replaced by 0.5).
template <class T>
void infinities() {
  using L = std::numeric_limits<T>;
  const Pair<T> p = fortran_pair<T>();
  const T inf = L::infinity();
  const std::vector<std::vector<T>> vectors = {
      {T(1), inf, -inf},      {-inf, inf},        {L::max(), -L::max(), inf},
      {T(3), L::max(), -inf}, {-inf, T(1), T(2)}, {T(0), L::denorm_min(), -L::min()},
      {T(2), T(-2), T(2)},    {T(-0.0), T(0.0)},
  };
  Mismatches m;
  for (const std::vector<T>& v : vectors) compare_iamax<T>(p, m, int(v.size()), v, 1);
  for (int n : {17, 64, 100}) {
    for (int offset : {0, 3}) {
      std::vector<T> x = with_specials<T>(n, seed_of({n, offset}), offset + 2, 1);
      for (T& e : x) {
        if (std::isnan(e)) e = T(0.5);
      }
      compare_iamax<T>(p, m, n, x, 1);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Iamax, IsamaxReturnsTheFirstInfinity) { infinities<float>(); }
TEST(Level1Iamax, IdamaxReturnsTheFirstInfinity) { infinities<double>(); }

// `IF (N.LT.1 .OR. INCX.LE.0) RETURN` with the result 0.
template <class T>
void non_positive_increment() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : {1, 2, 17}) {
    for (int incx : kNonPositiveIncrements) {
      const Strided<T> x0(n, incx, random_values<T>(n, seed_of({n, incx})));
      Strided<T> x = x0;
      const long long got = p.lib.iamax(n, x.data(), incx);
      if (got != 0) {
        m.add(call_text(iamax_name(p.lib), {{"n", n}, {"incx", incx}}) + ": the result is " +
              std::to_string(got) + ", not 0");
      }
      compare_iamax<T>(p, m, n, random_values<T>(n, seed_of({n, incx})), incx);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Iamax, IsamaxWithNonPositiveIncrementIsZero) { non_positive_increment<float>(); }
TEST(Level1Iamax, IdamaxWithNonPositiveIncrementIsZero) { non_positive_increment<double>(); }

}  // namespace
}  // namespace exoblas_test
