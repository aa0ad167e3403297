// ?swap (x <-> y) against the reference BLAS, bit for bit: random data over every size and
// both vectors' increments, and special values with their NaN payloads.
#include <gtest/gtest.h>

#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_swap(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Swap, SswapMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Swap, DswapMatchesReferenceOnRandomData) { random_data<double>(); }

// NaNs (a signalling one and payloads), infinities, signed zeros and subnormals in both vectors
// come back exchanged with every bit.
template <class T>
void special_values_test() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : {1, 7, 36, 65}) {
    for (int incx : {1, -1, 3}) {
      for (int incy : {1, 2, -2}) {
        std::vector<T> x = with_specials<T>(n, seed_of({n, incx}), 0, 1);
        std::vector<T> y = with_specials<T>(n, seed_of({n, incy}), 1, 3);
        if constexpr (sizeof(T) == 4) {
          x[0] = from_bits<T>(0x7f800001u);  // signalling
        } else {
          x[0] = from_bits<T>(0x7ff0000000000001ull);
        }
        compare_swap<T>(p, m, n, x, incx, y, incy);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Swap, SswapMovesSpecialValuesBitForBit) { special_values_test<float>(); }
TEST(Level1Swap, DswapMovesSpecialValuesBitForBit) { special_values_test<double>(); }

}  // namespace
}  // namespace exoblas_test
