// The CBLAS level-1 routines (cblas_saxpy ...: values by value, 32-bit integers, 0-based
// cblas_i?amax) against the reference's CBLAS, with the same sweeps and tolerances as the
// Fortran routines; cblas_scasum, cblas_scnrm2, cblas_dzasum and cblas_dznrm2 on complex
// vectors.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

TEST(Level1Cblas, AxpyMatchesReference) {
  Mismatches m;
  sweep_axpy(cblas_pair<float>(), m);
  sweep_axpy(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, CopyMatchesReference) {
  Mismatches m;
  sweep_copy(cblas_pair<float>(), m);
  sweep_copy(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, SwapMatchesReference) {
  Mismatches m;
  sweep_swap(cblas_pair<float>(), m);
  sweep_swap(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, ScalMatchesReference) {
  Mismatches m;
  sweep_scal(cblas_pair<float>(), m);
  sweep_scal(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, DotMatchesReference) {
  Mismatches m;
  sweep_dot(cblas_pair<float>(), m);
  sweep_dot(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, SdsdotAndDsdotMatchReference) {
  Mismatches m;
  sweep_sdsdot(cblas_pair<float>(), m);
  sweep_dsdot(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, AsumMatchesReference) {
  Mismatches m;
  sweep_asum(cblas_pair<float>(), m);
  sweep_asum(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, Nrm2MatchesReference) {
  Mismatches m;
  sweep_nrm2(cblas_pair<float>(), m, {1, 2, 3});
  sweep_nrm2(cblas_pair<double>(), m, {1, 2, 3});
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, IamaxMatchesReference) {
  Mismatches m;
  sweep_iamax(cblas_pair<float>(), m);
  sweep_iamax(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

// netlib's cblas_i?amax returns the Fortran index minus one, and 0 where that is 0 (n < 1 or
// incx <= 0).
template <class T>
void iamax_zero_based() {
  const Level1Api<T> lib = cblas_api<T>(blas_under_test());
  const std::vector<T> x = {T(1), T(-5), T(2), T(5)};
  Mismatches m;
  struct Case {
    int n, inc;
    long long want;
  };
  for (const Case& c :
       {Case{4, 1, 1}, Case{1, 1, 0}, Case{0, 1, 0}, Case{4, 0, 0}, Case{2, 2, 1}}) {
    const long long got = lib.iamax(c.n, x.data(), c.inc);
    if (got != c.want) {
      m.add(call_text(iamax_name(lib), {{"n", c.n}, {"incx", c.inc}}) + ": the result is " +
            std::to_string(got) + ", not " + std::to_string(c.want));
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Cblas, IsamaxAndIdamaxAreZeroBased) {
  iamax_zero_based<float>();
  iamax_zero_based<double>();
}

TEST(Level1Cblas, RotMatchesReference) {
  Mismatches m;
  sweep_rot(cblas_pair<float>(), m);
  sweep_rot(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(Level1Cblas, RotmMatchesReference) {
  Mismatches m;
  sweep_rotm(cblas_pair<float>(), m);
  sweep_rotm(cblas_pair<double>(), m);
  EXPECT_TRUE(m.empty()) << m;
}

template <class T>
void rotg_and_rotmg(Mismatches& m) {
  const Pair<T> p = cblas_pair<T>();
  const T pairs[][2] = {{3, 4}, {-3, 4}, {0, 2}, {2, 0}, {T(1e-30), T(1e30)}, {T(0.1), T(-0.7)}};
  for (const auto& ab : pairs) compare_rotg<T>(p, m, ab[0], ab[1]);
  const T rotmg_inputs[][4] = {{1, 1, 1, 1},
                               {2, 1, 3, 0.5},
                               {-1, 2, 3, 4},
                               {1, 0, 2, 3},
                               {T(1e8), 1, 1, 1},
                               {1, T(1e-10), 1, 1},
                               {T(0.3), T(0.7), T(-1.9), T(0.45)}};
  for (const auto& in : rotmg_inputs) compare_rotmg<T>(p, m, in[0], in[1], in[2], in[3]);
}

TEST(Level1Cblas, RotgAndRotmgMatchReference) {
  Mismatches m;
  rotg_and_rotmg<float>(m);
  rotg_and_rotmg<double>(m);
  EXPECT_TRUE(m.empty()) << m;
}

// cblas_scasum (sum |re| + |im|) and cblas_scnrm2 (the 2-norm), and dz: n complex elements at
// increment incx (in complex elements), the gaps holding sentinel NaNs that would show in the
// result if read. Tolerances: a sum and a norm of 2n terms. incx <= 0: ?casum gives 0 and
// ?cnrm2 reads backwards or repeats x[0], as the real ones.
template <class T>
void compare_complex(const CblasLevel1<T>& ref, const CblasLevel1<T>& lib, Mismatches& m, int n,
                     int incx) {
  const int step = incx < 0 ? -incx : incx;
  const std::size_t span = n <= 0 ? 0 : std::size_t(n - 1) * step + 1;
  std::vector<T> buf(2 * span + 2, sentinel<T>());
  const std::vector<T> values = random_values<T>(2 * n, seed_of({n, incx, 77}));
  double sum_abs = 0;
  for (int k = 0; k < n; ++k) {
    const std::size_t at = incx >= 0 ? std::size_t(k) * step : std::size_t(n - 1 - k) * step;
    buf[1 + 2 * at] = values[2 * k];
    buf[2 + 2 * at] = values[2 * k + 1];
    if (incx == 0) break;
  }
  for (int k = 0; k < n; ++k) {
    const std::size_t at = incx >= 0 ? std::size_t(k) * step : std::size_t(n - 1 - k) * step;
    sum_abs += std::fabs(double(buf[1 + 2 * at])) + std::fabs(double(buf[2 + 2 * at]));
  }
  const std::vector<T> before = buf;
  const void* x = buf.data() + 1;
  const std::string prefix = std::string("cblas_") + (sizeof(T) == 4 ? "sc" : "dz");
  const std::string asum_call = call_text(prefix + "asum", {{"n", n}, {"incx", incx}});
  const std::string nrm2_call = call_text(prefix + "nrm2", {{"n", n}, {"incx", incx}});
  const T want_asum = ref.complex_asum(n, x, incx), got_asum = lib.complex_asum(n, x, incx);
  check_scalar_within(m, asum_call, "the result", got_asum, want_asum,
                      reduction_tolerance<T>(2 * (n > 0 ? n : 0), sum_abs));
  const T want_nrm2 = ref.complex_nrm2(n, x, incx), got_nrm2 = lib.complex_nrm2(n, x, incx);
  check_scalar_within(m, nrm2_call, "the result", got_nrm2, want_nrm2,
                      nrm2_tolerance<T>(2 * (n > 0 ? n : 0), want_nrm2));
  for (std::size_t i = 0; i < buf.size(); ++i) {
    if (bits_of(buf[i]) != bits_of(before[i])) {
      m.add(asum_call + " / " + nrm2_call + ": changed the input at real offset " +
            std::to_string(i));
    }
  }
}

template <class T>
void complex_norms(Mismatches& m) {
  const BlasLibrary& ref = reference_blas();
  const BlasLibrary& lib = blas_under_test();
  for (int n : kSizes) {
    for (int incx : kIncrementsWithZero) {
      compare_complex<T>(ref.cblas<T>(), lib.cblas<T>(), m, n, incx);
    }
  }
}

TEST(Level1Cblas, ScasumScnrm2DzasumDznrm2MatchReference) {
  Mismatches m;
  complex_norms<float>(m);
  complex_norms<double>(m);
  EXPECT_TRUE(m.empty()) << m;
}

}  // namespace
}  // namespace exoblas_test
