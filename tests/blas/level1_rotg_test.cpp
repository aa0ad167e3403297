// ?rotg (the Givens rotation of (a, b): r, z, c, s) against the reference BLAS, LAPACK
// 3.10+'s srotg.f90 / drotg.f90 (Anderson's safe scaling): a table of signs, zeros, equal
// magnitudes, huge, tiny and subnormal values, infinities and NaN, and random pairs across
// the whole exponent range.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

// r takes the sign of a when |a| > |b| and of b otherwise; z is s when |a| > |b|, 1/c when
// c != 0, else 1. b == 0 gives (r, z, c, s) = (a, 0, 1, 0) with a untouched (-0 and NaN kept);
// a == 0 != b gives (b, 1, 0, 1). The scaling keeps (a/scl)^2 + (b/scl)^2 finite for a, b
// near max and normal for subnormal a, b. inf gives r = inf and c or s NaN (inf/inf).
template <class T>
std::vector<std::pair<T, T>> rotg_table() {
  using L = std::numeric_limits<T>;
  const T max = L::max(), tiny = L::min(), sub = L::denorm_min(), inf = L::infinity(),
          nan = L::quiet_NaN();
  const T root_big = std::sqrt(max) * 2, root_small = std::sqrt(tiny) / 2;
  return {
      {T(3), T(4)},
      {T(4), T(3)},
      {T(-3), T(4)},
      {T(3), T(-4)},
      {T(-3), T(-4)},
      {T(-4), T(3)},
      {T(1), T(1)},
      {T(1), T(-1)},
      {T(-1), T(1)},
      {T(2.5), T(-2.5)},
      {T(0.1), T(0.7)},
      {T(1.7), T(-3.25)},
      {T(0), T(0)},
      {T(0), T(2)},
      {T(0), T(-2)},
      {T(2), T(0)},
      {T(-2), T(0)},
      {T(-0.0), T(0)},
      {T(0), T(-0.0)},
      {T(-0.0), T(-0.0)},
      {T(-0.0), T(-2)},
      {T(-0.0), T(2)},
      {T(2), T(-0.0)},
      {nan, T(0)},
      {T(0), nan},
      {inf, T(0)},
      {T(0), -inf},
      {max, max},
      {max, T(1)},
      {T(1), max},
      {max / 2, -max / 3},
      {-max, max / 7},
      {root_big, root_big * 3},
      {root_small, -root_small / 3},
      {tiny, tiny},
      {tiny, T(1)},
      {T(1), tiny},
      {sub, sub},
      {sub, T(1)},
      {T(1), sub},
      {sub * 5, -sub * 3},
      {tiny / 3, tiny / 5},
      {T(1e-20), T(3e-20)},
      {T(1e20), T(-1e20)},
      {T(1e-30), T(1e30)},
      {inf, T(1)},
      {T(1), inf},
      {inf, inf},
      {-inf, T(2)},
      {T(2), -inf},
      {nan, T(1)},
      {T(1), nan},
      {nan, nan},
      {nan, inf},
  };
}

template <class T>
void table() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (const auto& [a, b] : rotg_table<T>()) compare_rotg<T>(p, m, a, b);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rotg, SrotgMatchesReferenceOnTable) { table<float>(); }
TEST(Level1Rotg, DrotgMatchesReferenceOnTable) { table<double>(); }

// Random signs and exponents from subnormal to near max, for both a and b.
template <class T>
void random_pairs() {
  using L = std::numeric_limits<T>;
  const Pair<T> p = fortran_pair<T>();
  std::mt19937 rng(5);
  auto value = [&] {
    const int span = L::max_exponent - L::min_exponent + L::digits;
    const int e2 = int(rng() % span) + L::min_exponent - L::digits;
    const T v = std::ldexp(T(1) + T(rng() % 4096) / 4096, e2);
    return rng() % 2 ? -v : v;
  };
  Mismatches m;
  for (int k = 0; k < 500; ++k) {
    const T a = value(), b = value();
    compare_rotg<T>(p, m, a, b);
    const T near = b * T(1 + 1.0 / 64);  // magnitudes within 2% of each other
    compare_rotg<T>(p, m, b, near);
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rotg, SrotgMatchesReferenceOnRandomPairs) { random_pairs<float>(); }
TEST(Level1Rotg, DrotgMatchesReferenceOnRandomPairs) { random_pairs<double>(); }

}  // namespace
}  // namespace exoblas_test
