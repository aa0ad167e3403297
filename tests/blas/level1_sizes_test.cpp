// Every level-1 routine with n = 0 or n < 0: nothing read or written, and the reference's
// results for an empty vector (0 for the sums, norms and dot products, sb for sdsdot, 0 for
// i?amax).
#include <gtest/gtest.h>

#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

constexpr int kEmptySizes[] = {0, -1, -7};

template <class T>
void empty_vectors() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (int n : kEmptySizes) {
    for (int inc : {1, -1, 2}) {
      // n <= 0 gives no elements: the buffers are guards only, and must stay so.
      const Strided<T> x0(n, inc, {}), y0(n, inc, {});
      Strided<T> x = x0, y = y0;
      auto call = [&](const char* routine) {
        return call_text(name_of(p, routine), {{"n", n}, {"incx", inc}, {"incy", inc}});
      };
      check_scalar(m, call("asum"), "the result", p.lib.asum(n, x.data(), inc), T(0), Match::kBits);
      check_scalar(m, call("nrm2"), "the result", p.lib.nrm2(n, x.data(), inc), T(0), Match::kBits);
      check_scalar(m, call("dot"), "the result", p.lib.dot(n, x.data(), inc, y.data(), inc), T(0),
                   Match::kBits);
      const long long index = p.lib.iamax(n, x.data(), inc);
      if (index != 0)
        m.add(call_text(iamax_name(p.lib), {{"n", n}, {"incx", inc}}) + ": the result is " +
              std::to_string(index) + ", not 0");
      p.lib.axpy(n, T(2), x.data(), inc, y.data(), inc);
      p.lib.copy(n, x.data(), inc, y.data(), inc);
      p.lib.swap(n, x.data(), inc, y.data(), inc);
      p.lib.scal(n, T(2), x.data(), inc);
      p.lib.rot(n, x.data(), inc, y.data(), inc, T(0.6), T(0.8));
      const T param[5] = {T(-1), T(1), T(2), T(3), T(4)};
      p.lib.rotm(n, x.data(), inc, y.data(), inc, param);
      check_unchanged(m, call("axpy, copy, swap, scal, rot and rotm"), "x", x, x0);
      check_unchanged(m, call("axpy, copy, swap, scal, rot and rotm"), "y", y, y0);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Sizes, SingleRoutinesWithNoElementsTouchNothing) { empty_vectors<float>(); }
TEST(Level1Sizes, DoubleRoutinesWithNoElementsTouchNothing) { empty_vectors<double>(); }

// `IF (N.LE.0) THEN SDSDOT = REAL(DSDOT)` with DSDOT = SB; dsdot is 0.
TEST(Level1Sizes, SdsdotAndDsdotWithNoElementsGiveSbAndZero) {
  const Pair<float> ps = fortran_pair<float>();
  const Pair<double> pd = fortran_pair<double>();
  Mismatches m;
  for (int n : kEmptySizes) {
    const Strided<float> x0(n, 1, {});
    Strided<float> x = x0;
    for (float sb : {0.0f, -0.0f, 1.7f, -3.25f}) {
      check_scalar(m, call_text("sdsdot", {{"n", n}, {"sb", sb}}), "the result",
                   ps.lib.sdsdot(n, sb, x.data(), 1, x.data(), 1), sb, Match::kBits);
    }
    check_scalar(m, call_text("dsdot", {{"n", n}}), "the result",
                 pd.lib.dsdot(n, x.data(), 1, x.data(), 1), 0.0, Match::kBits);
    check_unchanged(m, "sdsdot, dsdot", "x", x, x0);
  }
  EXPECT_TRUE(m.empty()) << m;
}

}  // namespace
}  // namespace exoblas_test
