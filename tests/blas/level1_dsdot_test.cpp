// sdsdot (sb + x . y, float vectors, accumulated in double, returned as float) and dsdot
// (x . y, float vectors, accumulated and returned in double) against the reference BLAS:
// random data over every size, both increments (0 included) and sb; sums that only double
// accumulation gets right; special values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

TEST(Level1Dsdot, SdsdotMatchesReferenceOnRandomData) {
  Mismatches m;
  sweep_sdsdot(fortran_pair<float>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Dsdot, DsdotMatchesReferenceOnRandomData) {
  Mismatches m;
  sweep_dsdot(fortran_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

// q = 1 + 2^-12 has q*q = 1 + 2^-11 + 2^-24, which float cannot hold (it rounds to 1 + 2^-11,
// the tie going to even) but double can. For k = 8 ... 1024, sb + k q^2 with
// sb = -k (1 + 2^-11) is exactly k 2^-24 in double (every partial sum fits in 53 bits); summed
// in float, in any order and with or without fused multiply-adds, at most one 2^-24 survives,
// and summed in float blocks (of 32, say) at most one per block.
constexpr float kQ = 1.0f + 0x1p-12f;
constexpr int kCounts[] = {8, 33, 64, 1024};

TEST(Level1Dsdot, SdsdotAccumulatesInDouble) {
  const Pair<float> p = fortran_pair<float>();
  Mismatches m;
  for (int k : kCounts) {
    const std::vector<float> x(k, kQ);
    const float sb = -float(k) * (1.0f + 0x1p-11f);
    for (int inc : {1, -1, 2}) {
      const Strided<float> sx(k, inc, x);
      Strided<float> a = sx, b = sx;
      const float got = p.lib.sdsdot(k, sb, a.data(), inc, b.data(), inc);
      check_scalar(m, call_text("sdsdot", {{"n", k}, {"sb", sb}, {"incx", inc}, {"incy", inc}}),
                   "the result", got, float(k) * 0x1p-24f, Match::kBits);
      compare_sdsdot(p, m, k, sb, x, inc, x, inc);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}

// The same sums with the last term -k (1 + 2^-11) * 1 in place of sb: exactly k 2^-24.
TEST(Level1Dsdot, DsdotAccumulatesInDouble) {
  const Pair<double> p = fortran_pair<double>();
  Mismatches m;
  for (int k : kCounts) {
    std::vector<float> x(k, kQ), y(k, kQ);
    x.push_back(-float(k) * (1.0f + 0x1p-11f));
    y.push_back(1.0f);
    const int n = k + 1;
    for (int inc : {1, -1, 3}) {
      Strided<float> a(n, inc, x), b(n, inc, y);
      const double got = p.lib.dsdot(n, a.data(), inc, b.data(), inc);
      check_scalar(m, call_text("dsdot", {{"n", n}, {"incx", inc}, {"incy", inc}}), "the result",
                   got, k * 0x1p-24, Match::kBits);
      compare_dsdot(p, m, n, x, inc, y, inc);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}

// max + max - max is max in double, whatever the order; a float partial sum would overflow.
TEST(Level1Dsdot, SdsdotAndDsdotPartialSumsBeyondFloatRangeStayFinite) {
  const float big = std::numeric_limits<float>::max();
  const std::vector<float> x = {big, big, -big}, y = {1, 1, 1};
  Mismatches m;
  const Pair<float> ps = fortran_pair<float>();
  const Pair<double> pd = fortran_pair<double>();
  for (int inc : {1, -1}) {
    Strided<float> a(3, inc, x), b(3, inc, y);
    check_scalar(m, call_text("sdsdot", {{"n", 3}, {"sb", 0}, {"incx", inc}, {"incy", inc}}),
                 "the result", ps.lib.sdsdot(3, 0.0f, a.data(), inc, b.data(), inc), big,
                 Match::kBits);
    check_scalar(m, call_text("dsdot", {{"n", 3}, {"incx", inc}, {"incy", inc}}), "the result",
                 pd.lib.dsdot(3, a.data(), inc, b.data(), inc), double(big), Match::kBits);
    compare_sdsdot(ps, m, 3, 0.0f, x, inc, y, inc);
    compare_dsdot(pd, m, 3, x, inc, y, inc);
  }
  EXPECT_TRUE(m.empty()) << m;
}

// NaN in x, y or sb gives NaN; an infinite term or sb that infinity; a double sum beyond
// float's range becomes inf in sdsdot's float result and stays finite in dsdot's.
TEST(Level1Dsdot, SdsdotAndDsdotMatchReferenceOnSpecialValues) {
  using L = std::numeric_limits<float>;
  const Pair<float> ps = fortran_pair<float>();
  const Pair<double> pd = fortran_pair<double>();
  Mismatches m;
  for (int n : {1, 9, 33}) {
    for (float sb : {0.0f, 1.5f, L::quiet_NaN(), L::infinity(), -L::max()}) {
      for (int k : {0, n - 1}) {
        for (float special : {L::quiet_NaN(), -L::infinity(), L::max(), L::denorm_min()}) {
          std::vector<float> x = random_values<float>(n, seed_of({n, k})), y(n, 2.0f);
          x[k] = special;
          compare_sdsdot(ps, m, n, sb, x, 1, y, 1);
          compare_sdsdot(ps, m, n, sb, y, 2, x, -1);
          compare_dsdot(pd, m, n, x, 1, y, 1);
          compare_dsdot(pd, m, n, y, -2, x, 1);
        }
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}

}  // namespace
}  // namespace exoblas_test
