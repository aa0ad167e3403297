// ?rotm (the modified rotation H of param = {flag, h11, h21, h12, h22}) against the reference
// BLAS: random data and random H for flags -1, 0, 1 and -2 over every size and both
// increments; the entries a flag implies are not read; flag -2 leaves the vectors as they are;
// special values.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_rotm(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rotm, SrotmMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Rotm, DrotmMatchesReferenceOnRandomData) { random_data<double>(); }

// Flag 0 implies h11 = h22 = 1 and flag 1 implies h12 = 1, h21 = -1: NaN stored in those
// entries must not reach the result. Flag -2 (`SFLAG+TWO.EQ.ZERO`: return) leaves NaN, inf and
// every other bit of both vectors alone, whatever H holds.
template <class T>
void implied_entries() {
  const Pair<T> p = fortran_pair<T>();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T params[][5] = {{T(0), nan, T(0.25), T(-1.5), nan},
                         {T(1), T(0.75), nan, nan, T(-2.5)},
                         {T(-2), nan, nan, nan, nan}};
  Mismatches m;
  for (const auto& param : params) {
    for (int n : {1, 17, 64}) {
      for (int incx : {1, -2}) {
        const auto seed = seed_of({n, incx});
        compare_rotm<T>(p, m, n, random_values<T>(n, seed), incx,
                        with_specials<T>(n, seed + 1, 0, 2), 1, param);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rotm, SrotmReadsOnlyTheEntriesItsFlagUses) { implied_entries<float>(); }
TEST(Level1Rotm, DrotmReadsOnlyTheEntriesItsFlagUses) { implied_entries<double>(); }

// Special values in x against random y (and the reverse) for each flag: within the elementwise
// tolerance, NaN for NaN, the same infinity.
template <class T>
void special_values_test() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int flag : {-1, 0, 1}) {
    const T param[5] = {T(flag), T(0.6), T(-1.25), T(0.8), T(1.7)};
    for (int n : {18, 37}) {
      for (int offset : {0, 5}) {
        const auto seed = seed_of({n, offset, flag});
        compare_rotm<T>(p, m, n, with_specials<T>(n, seed, offset, 1), 1,
                        random_values<T>(n, seed + 1), 2, param);
        compare_rotm<T>(p, m, n, random_values<T>(n, seed), -1,
                        with_specials<T>(n, seed + 1, offset, 1), 1, param);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rotm, SrotmMatchesReferenceOnSpecialValues) { special_values_test<float>(); }
TEST(Level1Rotm, DrotmMatchesReferenceOnSpecialValues) { special_values_test<double>(); }

}  // namespace
}  // namespace exoblas_test
