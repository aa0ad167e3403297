// ?dot (x . y) against the reference BLAS: random data over every size and both vectors'
// increments (0 included) within the reduction tolerance; special values whose result does
// not depend on the order of summation (NaN anywhere, an infinite or overflowing term,
// inf * 0, inf - inf).
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_dot(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Dot, SdotMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Dot, DdotMatchesReferenceOnRandomData) { random_data<double>(); }

// One element pair (x_k, y_k) set to (a, b), elsewhere random data: a NaN makes the result
// NaN; an infinite term, or one that overflows (max * 2), makes it that infinity whatever the
// order; inf * 0 and a +inf term beside a -inf term make it NaN; subnormal products stay within
// the tolerance.
template <class T>
void special_values_test() {
  using L = std::numeric_limits<T>;
  const Pair<T> p = fortran_pair<T>();
  const T nan = L::quiet_NaN(), inf = L::infinity();
  struct Case {
    T a, b;
  };
  const Case cases[] = {{nan, T(1.5)},        {T(0.25), nan},
                        {nan, T(0)},          {inf, T(1.5)},
                        {T(-2), inf},         {inf, T(0)},
                        {T(0), -inf},         {L::max(), T(2)},
                        {-L::max(), T(4)},    {L::denorm_min(), T(0.5)},
                        {L::min(), T(-0.125)}};
  Mismatches m;
  for (int n : {1, 8, 17, 64, 100}) {
    for (int k : {0, n / 2, n - 1}) {
      for (const Case& c : cases) {
        std::vector<T> x = random_values<T>(n, seed_of({n, k})), y = random_values<T>(n, 9);
        x[k] = c.a;
        y[k] = c.b;
        compare_dot<T>(p, m, n, x, 1, y, 1);
        compare_dot<T>(p, m, n, x, -1, y, 2);
      }
      if (n > 1) {  // +inf and -inf terms
        std::vector<T> x = random_values<T>(n, 4), y = random_values<T>(n, 5);
        x[k] = inf;
        y[k] = T(1);
        x[(k + 1) % n] = -inf;
        y[(k + 1) % n] = T(1);
        compare_dot<T>(p, m, n, x, 1, y, 1);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Dot, SdotMatchesReferenceOnSpecialValues) { special_values_test<float>(); }
TEST(Level1Dot, DdotMatchesReferenceOnSpecialValues) { special_values_test<double>(); }

}  // namespace
}  // namespace exoblas_test
