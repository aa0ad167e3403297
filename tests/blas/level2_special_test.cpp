// The reference's behaviours that random data does not reach, for the level-2 routines through
// every interface (Fortran, CBLAS column-major and row-major): its quick returns (an empty
// matrix; alpha == 0 with beta == 1; alpha == 0 for the updates) touch nothing, NaN payloads
// included; beta == 0 stores zeros without reading y, and alpha == 0 leaves y := beta*y
// exactly; which zero elements the reference skips (the triangular routines without transpose
// skip columns j with x_j == 0, ger columns with y_j == 0, syr and spr with x_j == 0, syr2 and
// spr2 with x_j == y_j == 0) and which it does not (gemv, gbmv, the symmetric products and the
// transposed triangular ones compute 0 * inf = NaN), seen through infinities placed where a
// skipped column would meet them; and option characters read as LSAME reads them.
#include <gtest/gtest.h>

#include <cctype>
#include <limits>
#include <vector>

#include "level2_checks.h"

namespace exoblas_test {
namespace {

constexpr Api kApis[] = {Api::kFortran, Api::kCblasColMajor, Api::kCblasRowMajor};

// An m x n matrix of special values (NaN, infinities, signed zeros, extremes, subnormals).
template <class T>
Dense<T> special_dense(int m, int n, std::uint64_t seed) {
  Dense<T> a(m, n);
  a.v = with_specials<T>(m * n, seed, 0, 1);
  return a;
}

// ---- Empty matrices ----

// m == 0 or n == 0: the reference returns before anything, y := beta*y included (for gemv
// with trans = 'T' and m == 0, y still has n elements, and keeps them).
template <class T>
void empty_matrices() {
  Mismatches m;
  for (Api api : kApis) {
    const Pair2<T> p = level2_pair<T>(api);
    for (double alpha : {1.0, 0.0}) {
      for (double beta : {0.0, 0.5}) {
        const T a = T(alpha), b = T(beta);
        const std::vector<T> x = random_values<T>(5, 1), y = random_values<T>(5, 2);
        for (char trans : {'N', 'T'}) {
          for (const auto& [rows, cols] : {std::pair{0, 5}, std::pair{5, 0}, std::pair{0, 0}}) {
            const Dense<T> g = random_general<T>(rows, cols, 3);
            compare_gemv_or_gbmv<T>(p, m, trans, rows, cols, -1, -1, 0, a, b, g, x, 1, y, 1,
                                    Match::kBits);
            compare_gemv_or_gbmv<T>(p, m, trans, rows, cols, 1, 2, 0, a, b, g, x, -1, y, 2,
                                    Match::kBits);
          }
        }
        const Dense<T> e(0, 0);
        for (char uplo : {'U', 'L'}) {
          for (Storage s : {Storage::kFull, Storage::kBand, Storage::kPacked}) {
            compare_symmetric_mv<T>(p, m, s, uplo, 0, 1, 0, a, b, e, x, 1, y, 1, Match::kBits);
            for (bool solve : {false, true}) {
              compare_triangular<T>(p, m, s, solve, uplo, 'N', 'N', 0, 1, 0, e, x, 1, nullptr,
                                    Match::kBits);
            }
          }
          for (Storage s : {Storage::kFull, Storage::kPacked}) {
            for (bool rank2 : {false, true}) {
              compare_symmetric_update<T>(p, m, s, rank2, uplo, 0, 0, a, e, x, 1, y, 1,
                                          Match::kBits);
            }
          }
        }
        for (const auto& [rows, cols] : {std::pair{0, 5}, std::pair{5, 0}}) {
          compare_ger<T>(p, m, rows, cols, 0, a, random_general<T>(rows, cols, 4), x, 1, y, 1,
                         Match::kBits);
        }
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2QuickReturns, SingleRoutinesWithEmptyMatricesTouchNothing) { empty_matrices<float>(); }
TEST(Level2QuickReturns, DoubleRoutinesWithEmptyMatricesTouchNothing) { empty_matrices<double>(); }

// ---- alpha == 0 ----

// alpha == 0 (either sign) and beta == 1: the products return at once, so y keeps its bits
// (NaN payloads, -0) although A and x hold NaN and infinities.
template <class T>
void zero_alpha_unit_beta() {
  Mismatches m;
  for (Api api : kApis) {
    const Pair2<T> p = level2_pair<T>(api);
    for (T alpha : {T(0.0), T(-0.0)}) {
      const std::vector<T> x = with_specials<T>(9, 5, 0, 1), y = with_specials<T>(9, 6, 1, 1);
      for (char trans : {'N', 'T'}) {
        const Dense<T> g = special_dense<T>(9, 7, 7);
        compare_gemv_or_gbmv<T>(p, m, trans, 9, 7, -1, -1, 1, alpha, T(1), g, x, 1, y, -2,
                                Match::kBits);
        compare_gemv_or_gbmv<T>(p, m, trans, 9, 7, 2, 1, 0, alpha, T(1), g, x, -3, y, 1,
                                Match::kBits);
      }
      for (char uplo : {'U', 'L'}) {
        for (Storage s : {Storage::kFull, Storage::kBand, Storage::kPacked}) {
          compare_symmetric_mv<T>(p, m, s, uplo, 9, 2, 0, alpha, T(1), special_dense<T>(9, 9, 8), x,
                                  2, y, -1, Match::kBits);
        }
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2QuickReturns, SingleProductsWithZeroAlphaAndUnitBetaLeaveYUntouched) {
  zero_alpha_unit_beta<float>();
}
TEST(Level2QuickReturns, DoubleProductsWithZeroAlphaAndUnitBetaLeaveYUntouched) {
  zero_alpha_unit_beta<double>();
}

// alpha == 0: ger, syr, spr, syr2 and spr2 return at once: A keeps its bits although x and y
// hold NaN and infinities.
template <class T>
void zero_alpha_updates() {
  Mismatches m;
  for (Api api : kApis) {
    const Pair2<T> p = level2_pair<T>(api);
    for (T alpha : {T(0.0), T(-0.0)}) {
      const std::vector<T> x = with_specials<T>(9, 9, 0, 1), y = with_specials<T>(9, 10, 2, 1);
      compare_ger<T>(p, m, 9, 7, 2, alpha, special_dense<T>(9, 7, 11), x, 1, y, -1, Match::kBits);
      for (char uplo : {'U', 'L'}) {
        for (Storage s : {Storage::kFull, Storage::kPacked}) {
          for (bool rank2 : {false, true}) {
            compare_symmetric_update<T>(p, m, s, rank2, uplo, 9, 1, alpha,
                                        special_dense<T>(9, 9, 12), x, -2, y, 3, Match::kBits);
          }
        }
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2QuickReturns, SingleUpdatesWithZeroAlphaLeaveAUntouched) { zero_alpha_updates<float>(); }
TEST(Level2QuickReturns, DoubleUpdatesWithZeroAlphaLeaveAUntouched) {
  zero_alpha_updates<double>();
}

// ---- beta ----

// Calls every product (gemv and gbmv with both transposes, symv, sbmv and spmv with both
// triangles) on the given A, x and y (9 x 7 for gemv and gbmv, 9 x 9 for the others).
template <class T>
void each_product(const Pair2<T>& p, Mismatches& m, T alpha, T beta, const Dense<T>& a97,
                  const Dense<T>& a99, const std::vector<T>& x, const std::vector<T>& y,
                  std::optional<Match> how) {
  for (char trans : {'N', 'T'}) {
    compare_gemv_or_gbmv<T>(p, m, trans, 9, 7, -1, -1, 0, alpha, beta, a97, x, 1, y, 1, how);
    compare_gemv_or_gbmv<T>(p, m, trans, 9, 7, 1, 3, 2, alpha, beta, a97, x, 2, y, -3, how);
  }
  for (char uplo : {'U', 'L'}) {
    for (Storage s : {Storage::kFull, Storage::kBand, Storage::kPacked}) {
      compare_symmetric_mv<T>(p, m, s, uplo, 9, 3, 1, alpha, beta, a99, x, -1, y, 2, how);
    }
  }
}

// beta == 0: y := 0 is stored without reading y (the reference's `Y(I) = ZERO`), so NaN,
// infinities and -0 in y do not survive: with alpha == 0 y is +0 everywhere (the sign of the
// zeros compared), with alpha == 1 the product of plain A and x.
template <class T>
void zero_beta() {
  Mismatches m;
  for (Api api : kApis) {
    const Pair2<T> p = level2_pair<T>(api);
    const std::vector<T> y = with_specials<T>(9, 13, 0, 1);
    each_product<T>(p, m, T(0), T(0), special_dense<T>(9, 7, 14), special_dense<T>(9, 9, 15),
                    with_specials<T>(9, 16, 0, 1), y, Match::kSameSign);
    each_product<T>(p, m, T(1), T(0), random_band<T>(9, 7, 1, 3, 17), random_symmetric<T>(9, 3, 18),
                    random_values<T>(9, 19), y, std::nullopt);
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Beta, SingleProductsWithZeroBetaDoNotReadY) { zero_beta<float>(); }
TEST(Level2Beta, DoubleProductsWithZeroBetaDoNotReadY) { zero_beta<double>(); }

// alpha == 0, beta != 0, 1: y := beta*y and nothing else, one correctly rounded product per
// element: the reference's bits but NaN payloads, on special values of y (overflow, underflow
// and subnormals included), while A and x, not read, hold NaN and infinities.
template <class T>
void beta_scaling() {
  Mismatches m;
  for (Api api : kApis) {
    const Pair2<T> p = level2_pair<T>(api);
    for (double beta : {0.5, -1.0, 1.7, -3.25}) {
      each_product<T>(p, m, T(0), T(beta), special_dense<T>(9, 7, 20), special_dense<T>(9, 9, 21),
                      with_specials<T>(9, 22, 0, 1), with_specials<T>(9, 23, 0, 1),
                      Match::kSameSign);
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Beta, SingleProductsWithZeroAlphaScaleYExactly) { beta_scaling<float>(); }
TEST(Level2Beta, DoubleProductsWithZeroAlphaScaleYExactly) { beta_scaling<double>(); }

// ---- Zeros against infinities: what the reference skips ----

constexpr double kInf = std::numeric_limits<double>::infinity();

// gemv, gbmv, symv, sbmv, spmv: x_j == 0 for j = 1, 4, 7 and an infinity in every element of A
// that multiplies such an x_j (column j of op(A); row and column j of a symmetric A). The
// reference skips nothing here, so each y_i meets 0 * inf and is NaN.
template <class T>
void products_do_not_skip() {
  Mismatches m;
  auto zero = [](int j) { return j % 3 == 1; };
  std::vector<T> x = random_values<T>(9, 24);
  for (int j = 0; j < 9; ++j) {
    if (zero(j)) x[j] = T(0);
  }
  for (Api api : kApis) {
    const Pair2<T> p = level2_pair<T>(api);
    for (char trans : {'N', 'T'}) {
      // op(A) is 9 x 9 for these: infinities in its columns j with x_j == 0.
      for (bool band : {false, true}) {
        Dense<T> op = band ? random_band<T>(9, 9, 2, 1, 25) : random_general<T>(9, 9, 25);
        for (int j = 0; j < 9; ++j) {
          for (int i = 0; i < 9; ++i) {
            if (zero(j) && op(i, j) != 0) op(i, j) = T((i + j) % 2 ? kInf : -kInf);
          }
        }
        const Dense<T> a = is_no_trans(trans) ? op : transposed(op);
        const int kl = is_no_trans(trans) ? 2 : 1, ku = is_no_trans(trans) ? 1 : 2;
        compare_gemv_or_gbmv<T>(p, m, trans, 9, 9, band ? kl : -1, band ? ku : -1, 0, T(1), T(0.5),
                                a, x, 1, random_values<T>(9, 26), -1);
      }
    }
    for (char uplo : {'U', 'L'}) {
      for (Storage s : {Storage::kFull, Storage::kBand, Storage::kPacked}) {
        Dense<T> a = random_symmetric<T>(9, s == Storage::kBand ? 2 : 9, 27);
        for (int j = 0; j < 9; ++j) {
          for (int i = 0; i < 9; ++i) {
            if (zero(j) && a(i, j) != 0) a(i, j) = a(j, i) = T(kInf);
          }
        }
        compare_symmetric_mv<T>(p, m, s, uplo, 9, 2, 0, T(1), T(0.5), a, x, 2,
                                random_values<T>(9, 28), 1);
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Skips, SingleProductsMeetZeroTimesInfinity) { products_do_not_skip<float>(); }
TEST(Level2Skips, DoubleProductsMeetZeroTimesInfinity) { products_do_not_skip<double>(); }

// The triangular routines, every storage, uplo, trans and diag: zeros in x where op(A)'s
// column j holds infinities. The Fortran routine without transpose skips column j when x_j ==
// 0 (trmv: the original x_j; trsv: the solution's x_j, which is 0 for the first (lower) or
// last (upper) three b_j == 0 of a substitution), so x stays finite; transposed it computes
// a_ij * x_i for every i, meets 0 * inf and gives NaN. A CBLAS row-major call runs the other
// Fortran loop (its trans is flipped), so there the skips go the other way. (The solves keep
// their diagonal finite: the skipped division by it does not show.)
template <class T>
void triangular_skips() {
  Mismatches m;
  const int n = 9;
  for (Api api : kApis) {
    const Pair2<T> p = level2_pair<T>(api);
    for (Storage s : {Storage::kFull, Storage::kBand, Storage::kPacked}) {
      for (bool solve : {false, true}) {
        for (char uplo : {'U', 'L'}) {
          for (char trans : {'N', 'T'}) {
            for (char diag : {'N', 'U'}) {
              const bool upper = is_upper(uplo), unit = is_unit(diag);
              const bool op_upper = upper == is_no_trans(trans);
              const int k = s == Storage::kBand ? 3 : n;
              const auto seed = seed_of({int(s), solve, uplo, trans, diag});
              const Dense<T> a0 = solve ? well_conditioned_triangular<T>(n, k, upper, unit, seed)
                                        : random_triangular<T>(n, k, upper, unit, seed);
              // Which x_j are 0: every third for trmv; for trsv the first three the
              // substitution on op(A) reaches.
              auto zero = [&](int j) {
                if (!solve) return j % 3 == 1;
                return op_upper ? j >= n - 3 : j < 3;
              };
              Dense<T> op = is_no_trans(trans) ? a0 : transposed(a0), bound = op;
              for (int j = 0; j < n; ++j) {
                for (int i = 0; i < n; ++i) {
                  if (!zero(j) || op(i, j) == 0) continue;
                  if (i == j && (unit || solve)) continue;
                  op(i, j) = T((i + j) % 2 ? kInf : -kInf);
                  bound(i, j) = i == j ? T(1) : T(0);
                }
              }
              std::vector<T> x = random_values<T>(n, seed + 1);
              for (int j = 0; j < n; ++j) {
                if (zero(j)) x[j] = T(0);
              }
              const Dense<T> a = is_no_trans(trans) ? op : transposed(op);
              const Dense<T> b = is_no_trans(trans) ? bound : transposed(bound);
              compare_triangular<T>(p, m, s, solve, uplo, trans, diag, n, k, 1, a, x, -2, &b);
            }
          }
        }
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Skips, SingleTriangularRoutinesSkipZerosOnlyWithoutTranspose) {
  triangular_skips<float>();
}
TEST(Level2Skips, DoubleTriangularRoutinesSkipZerosOnlyWithoutTranspose) {
  triangular_skips<double>();
}

// ger skips columns j with y_j == 0, syr and spr those with x_j == 0, syr2 and spr2 those with
// x_j == y_j == 0 (not those with only one of them 0): x and y with zeros and infinities at
// interleaved positions, so that a column computed instead of skipped meets 0 * inf.
template <class T>
void update_skips() {
  Mismatches m;
  const int n = 11;
  std::vector<T> x = random_values<T>(n, 29), y = random_values<T>(n, 30);
  for (int j = 0; j < n; ++j) {
    if (j % 3 == 0) x[j] = T(0);
    if (j % 2 == 0) y[j] = T(0);
    if (j % 5 == 1 && x[j] != 0) x[j] = T(kInf);
    if (j % 7 == 3 && y[j] != 0) y[j] = T(-kInf);
  }
  for (Api api : kApis) {
    const Pair2<T> p = level2_pair<T>(api);
    compare_ger<T>(p, m, n, n, 1, T(0.5), random_general<T>(n, n, 31), x, 1, y, -1);
    for (char uplo : {'U', 'L'}) {
      for (Storage s : {Storage::kFull, Storage::kPacked}) {
        for (bool rank2 : {false, true}) {
          compare_symmetric_update<T>(p, m, s, rank2, uplo, n, 0, T(-1),
                                      random_symmetric<T>(n, n, 32), x, 2, y, 1);
        }
      }
    }
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Skips, SingleUpdatesSkipTheReferencesColumns) { update_skips<float>(); }
TEST(Level2Skips, DoubleUpdatesSkipTheReferencesColumns) { update_skips<double>(); }

// ---- Option characters ----

// `a` with every option character it passes put through f first.
template <class T>
Level2Api<T> map_options(const Level2Api<T>& a, char (*f)(char)) {
  Level2Api<T> b = a;
  b.gemv = [g = a.gemv, f](char t, auto... rest) { g(f(t), rest...); };
  b.gbmv = [g = a.gbmv, f](char t, auto... rest) { g(f(t), rest...); };
  b.symv = [g = a.symv, f](char u, auto... rest) { g(f(u), rest...); };
  b.sbmv = [g = a.sbmv, f](char u, auto... rest) { g(f(u), rest...); };
  b.spmv = [g = a.spmv, f](char u, auto... rest) { g(f(u), rest...); };
  b.syr = [g = a.syr, f](char u, auto... rest) { g(f(u), rest...); };
  b.spr = [g = a.spr, f](char u, auto... rest) { g(f(u), rest...); };
  b.syr2 = [g = a.syr2, f](char u, auto... rest) { g(f(u), rest...); };
  b.spr2 = [g = a.spr2, f](char u, auto... rest) { g(f(u), rest...); };
  auto tri = [f](const auto& g) {
    return [g, f](char u, char t, char d, auto... rest) { g(f(u), f(t), f(d), rest...); };
  };
  b.trmv = tri(a.trmv);
  b.trsv = tri(a.trsv);
  b.tbmv = tri(a.tbmv);
  b.tbsv = tri(a.tbsv);
  b.tpmv = tri(a.tpmv);
  b.tpsv = tri(a.tpsv);
  return b;
}

char upper_case(char c) { return char(std::toupper((unsigned char)c)); }
char lower_case(char c) { return char(std::tolower((unsigned char)c)); }
// 'C' (conjugate transpose) is the transpose of a real matrix.
char conjugate_as_transpose(char c) { return c == 'C' || c == 'c' ? 'T' : c; }

// Every routine once per combination of its options on random data, `p.ref` and `p.lib` (the
// same library, options mapped differently) compared bit for bit.
template <class T>
void each_option(const Pair2<T>& p, Mismatches& m, const std::vector<char>& transes) {
  const int n = 7;
  const std::vector<T> x = random_values<T>(n, 33), y = random_values<T>(n, 34);
  for (char trans : transes) {
    compare_gemv_or_gbmv<T>(p, m, trans, n, n, -1, -1, 0, T(0.5), T(-1),
                            random_general<T>(n, n, 35), x, 1, y, 2, Match::kBits);
    compare_gemv_or_gbmv<T>(p, m, trans, n, n, 2, 1, 0, T(0.5), T(-1),
                            random_band<T>(n, n, 2, 1, 36), x, -1, y, 1, Match::kBits);
  }
  for (char uplo : {'U', 'L', 'u', 'l'}) {
    for (Storage s : {Storage::kFull, Storage::kBand, Storage::kPacked}) {
      compare_symmetric_mv<T>(p, m, s, uplo, n, 2, 0, T(1), T(0.5), random_symmetric<T>(n, 2, 37),
                              x, 1, y, 1, Match::kBits);
      for (char trans : transes) {
        for (char diag : {'N', 'U', 'n', 'u'}) {
          for (bool solve : {false, true}) {
            compare_triangular<T>(
                p, m, s, solve, uplo, trans, diag, n, 2, 0,
                well_conditioned_triangular<T>(n, 2, is_upper(uplo), is_unit(diag), 38), x, 1,
                nullptr, Match::kBits);
          }
        }
      }
    }
    for (Storage s : {Storage::kFull, Storage::kPacked}) {
      for (bool rank2 : {false, true}) {
        compare_symmetric_update<T>(p, m, s, rank2, uplo, n, 0, T(2), random_symmetric<T>(n, n, 39),
                                    x, 1, y, -1, Match::kBits);
      }
    }
  }
}

// The Fortran routines read the first character of each option ignoring its case, as LSAME
// does: lower-case options give the upper-case ones' results, bit for bit.
template <class T>
void lower_case_options() {
  const Level2Api<T> lib = fortran2_api<T>(blas_under_test());
  const Pair2<T> p = {map_options(lib, upper_case), map_options(lib, lower_case)};
  Mismatches m;
  each_option<T>(p, m, {'N', 'T', 'C'});
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Options, SingleRoutinesReadLowerCaseOptions) { lower_case_options<float>(); }
TEST(Level2Options, DoubleRoutinesReadLowerCaseOptions) { lower_case_options<double>(); }

// trans = 'C' ('c', CblasConjTrans) is 'T' for a real matrix: the same results bit for bit.
template <class T>
void conjugate_transpose() {
  Mismatches m;
  for (Api api : kApis) {
    const Level2Api<T> lib = level2_api<T>(blas_under_test(), api);
    const Pair2<T> p = {map_options(lib, conjugate_as_transpose), lib};
    each_option<T>(p, m, {'C', 'c'});
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level2Options, SingleConjugateTransposeIsTranspose) { conjugate_transpose<float>(); }
TEST(Level2Options, DoubleConjugateTransposeIsTranspose) { conjugate_transpose<double>(); }

}  // namespace
}  // namespace exoblas_test
