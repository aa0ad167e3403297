// ?rot ((x, y) := (c*x + s*y, c*y - s*x)) against the reference BLAS: random data over every
// size, both vectors' increments and every (c, s) of the scalar list; special values.
#include <gtest/gtest.h>

#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_rot(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rot, SrotMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Rot, DrotMatchesReferenceOnRandomData) { random_data<double>(); }

// With c and s in {0, 1, -1} the products are exact, so every pair of special values gives the
// reference's bits (but NaN payloads): the reference multiplies even by 0 and 1, so
// (c, s) = (1, 0) turns y = inf into x = NaN (0 * inf), and adds +0 to -0.
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
  struct CS {
    T c, s;
  };
  Mismatches m;
  for (CS cs : {CS{1, 0}, CS{0, 1}, CS{1, 1}, CS{-1, 1}, CS{0, -1}, CS{0, 0}, CS{-1, -1}}) {
    compare_rot<T>(p, m, n, x, 1, y, 1, cs.c, cs.s, Match::kSameSign);
    compare_rot<T>(p, m, n, x, -2, y, 3, cs.c, cs.s, Match::kSameSign);
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rot, SrotMatchesReferenceOnPairsOfSpecialValuesWithUnitRotations) {
  special_pairs<float>();
}
TEST(Level1Rot, DrotMatchesReferenceOnPairsOfSpecialValuesWithUnitRotations) {
  special_pairs<double>();
}

// Special values in one vector against random data in the other, with a true rotation
// (0.6, 0.8) and scalings that overflow and underflow: within the elementwise tolerance.
template <class T>
void special_values_test() {
  const Pair<T> p = fortran_pair<T>();
  struct CS {
    double c, s;
  };
  Mismatches m;
  for (int n : {18, 37, 100}) {
    for (int offset : {0, 5}) {
      for (CS cs : {CS{0.6, 0.8}, CS{1.7, -3.25}, CS{0.5, 1e-30}}) {
        const auto seed = seed_of({n, offset});
        compare_rot<T>(p, m, n, with_specials<T>(n, seed, offset, 1), 1,
                       random_values<T>(n, seed + 1), -1, T(cs.c), T(cs.s));
        compare_rot<T>(p, m, n, random_values<T>(n, seed), 2,
                       with_specials<T>(n, seed + 1, offset, 1), 1, T(cs.c), T(cs.s));
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rot, SrotMatchesReferenceOnSpecialValues) { special_values_test<float>(); }
TEST(Level1Rot, DrotMatchesReferenceOnSpecialValues) { special_values_test<double>(); }

}  // namespace
}  // namespace exoblas_test
