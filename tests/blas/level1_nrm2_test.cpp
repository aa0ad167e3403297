// ?nrm2 (sqrt(sum x_i^2)) against the reference BLAS: random data over every size and
// increment within the norm tolerance, negative increments read backwards and increment 0
// repeating x[0] (LAPACK 3.10+'s snrm2.f90 / dnrm2.f90: no early return for incx <= 0);
// values near overflow and underflow that a naive sum of squares loses; special values.
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
  sweep_nrm2(fortran_pair<T>(), m, {1, 2, 3});
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Nrm2, Snrm2MatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Nrm2, Dnrm2MatchesReferenceOnRandomData) { random_data<double>(); }

// `if (incx < 0) ix = 1 - (n-1)*incx`: the norm of the same n elements, walked from the end.
template <class T>
void negative_increment() {
  Mismatches m;
  sweep_nrm2(fortran_pair<T>(), m, {-1, -2, -3});
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Nrm2, Snrm2WithNegativeIncrementReadsXBackwards) { negative_increment<float>(); }
TEST(Level1Nrm2, Dnrm2WithNegativeIncrementReadsXBackwards) { negative_increment<double>(); }

// Increment 0 reads x[0] n times: sqrt(n) * |x[0]|.
template <class T>
void zero_increment() {
  Mismatches m;
  sweep_nrm2(fortran_pair<T>(), m, {0});
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Nrm2, Snrm2WithZeroIncrementRepeatsTheFirstElement) { zero_increment<float>(); }
TEST(Level1Nrm2, Dnrm2WithZeroIncrementRepeatsTheFirstElement) { zero_increment<double>(); }

// Values whose squares overflow or underflow: the reference sums them in three scaled
// accumulators (Blue's algorithm), so the norm is finite and accurate wherever it is
// representable: near max, among subnormals, and mixtures of the three ranges; and random
// mixtures of every exponent.
template <class T>
void extreme_scales() {
  using L = std::numeric_limits<T>;
  const Pair<T> p = fortran_pair<T>();
  const T big = L::max() / 4, tiny = L::min() * 2, sub = L::denorm_min() * 3;
  const std::vector<std::vector<T>> vectors = {
      {big, big, T(-1)},
      {L::max(), L::max()},  // the norm overflows: inf
      {L::max(), T(0)},
      {big, tiny, T(0.5), sub},
      {tiny, sub, -tiny},
      {sub, T(0.0), sub, L::denorm_min()},
      {tiny, T(1), sub},
      {T(1e-20), T(-2e-20), T(3)},
      {T(1e-20), T(-2e-20), T(3e-20)},
      {std::sqrt(L::max()), std::sqrt(L::max()), T(1)},
      {std::sqrt(L::min()), -std::sqrt(L::min()), T(1e-30)},
      std::vector<T>(100, L::max() / 16),
      std::vector<T>(100, L::min() / 7),
      std::vector<T>(1027, L::denorm_min()),
  };
  Mismatches m;
  for (const std::vector<T>& v : vectors) {
    const int n = int(v.size());
    compare_nrm2<T>(p, m, n, v, 1);
    compare_nrm2<T>(p, m, n, v, 2);
  }
  std::mt19937 rng(11);
  for (int n : {1, 5, 17, 40, 100}) {
    for (int rep = 0; rep < 8; ++rep) {
      std::vector<T> v(n);
      for (T& e : v) {
        const int span = L::max_exponent - L::min_exponent + L::digits;
        const int e2 = int(rng() % span) + L::min_exponent - L::digits;
        e = std::ldexp(T(1) + T(rng() % 1000) / 1000, std::min(e2, L::max_exponent - 8));
        if (rng() % 2) e = -e;
      }
      compare_nrm2<T>(p, m, n, v, 1);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Nrm2, Snrm2MatchesReferenceNearOverflowAndUnderflow) { extreme_scales<float>(); }
TEST(Level1Nrm2, Dnrm2MatchesReferenceNearOverflowAndUnderflow) { extreme_scales<double>(); }

// NaN anywhere, among huge or tiny values too, gives NaN; an infinity without NaN gives +inf;
// zeros give 0.
template <class T>
void special_values_test() {
  using L = std::numeric_limits<T>;
  const Pair<T> p = fortran_pair<T>();
  const T nan = L::quiet_NaN(), inf = L::infinity();
  const std::vector<std::vector<T>> vectors = {
      {nan},           {T(1), nan, T(2)}, {L::max(), nan},
      {nan, L::max()}, {L::min(), nan},   {L::denorm_min(), -nan},
      {inf},           {-inf, T(1)},      {T(1), -inf},
      {inf, nan},      {nan, -inf},       {L::max(), inf},
      {T(0.0)},        {T(-0.0), T(0.0)}, {L::denorm_min(), -inf},
  };
  Mismatches m;
  for (const std::vector<T>& v : vectors) compare_nrm2<T>(p, m, int(v.size()), v, 1);
  for (int n : {7, 18, 33, 100}) {
    for (int offset : {0, 4}) {
      compare_nrm2<T>(p, m, n, with_specials<T>(n, seed_of({n, offset}), offset, 7), 1);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Nrm2, Snrm2MatchesReferenceOnSpecialValues) { special_values_test<float>(); }
TEST(Level1Nrm2, Dnrm2MatchesReferenceOnSpecialValues) { special_values_test<double>(); }

}  // namespace
}  // namespace exoblas_test
