// ?copy (y := x) against the reference BLAS, bit for bit: random data over every size and
// increment (x's increment 0 included), and special values with their NaN payloads.
#include <gtest/gtest.h>

#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

template <class T>
void random_data() {
  Mismatches m;
  sweep_copy(fortran_pair<T>(), m);
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Copy, ScopyMatchesReferenceOnRandomData) { random_data<float>(); }
TEST(Level1Copy, DcopyMatchesReferenceOnRandomData) { random_data<double>(); }

// NaNs with payloads, a signalling NaN among them, infinities, signed zeros and subnormals
// arrive with every bit: a copy does no arithmetic.
template <class T>
std::vector<T> payload_values(int n, std::uint64_t seed) {
  std::vector<T> v = with_specials<T>(n, seed, 0, 2);
  if constexpr (sizeof(T) == 4) {
    if (n > 3) v[1] = from_bits<T>(0x7f800001u);  // signalling
    if (n > 5) v[3] = from_bits<T>(0xffc12345u);
  } else {
    if (n > 3) v[1] = from_bits<T>(0x7ff0000000000001ull);  // signalling
    if (n > 5) v[3] = from_bits<T>(0xfff8123456789abcull);
  }
  return v;
}

template <class T>
void special_values_test() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : {1, 7, 36, 65}) {
    for (int incx : {1, -1, 3}) {
      for (int incy : {1, 2, -2}) {
        compare_copy<T>(p, m, n, payload_values<T>(n, seed_of({n, incx, incy})), incx,
                        random_values<T>(n, 1), incy);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Copy, ScopyMovesSpecialValuesBitForBit) { special_values_test<float>(); }
TEST(Level1Copy, DcopyMovesSpecialValuesBitForBit) { special_values_test<double>(); }

}  // namespace
}  // namespace exoblas_test
