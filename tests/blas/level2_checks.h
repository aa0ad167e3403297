// One call of each level-2 routine on the reference and on the library under test with the
// same inputs, compared with the routine's tolerance (level2_harness.h) or, where the test
// says how (`how`), value by value, and the sweeps of
// every routine over orders, options, leading dimensions, increments and scalars on random
// data, for one interface (Fortran, CBLAS column-major, CBLAS row-major).
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "level2_harness.h"

namespace exoblas_test {

inline int at_least_one(int v) { return v > 1 ? v : 1; }

// ---- General matrices: y := alpha*op(A)*x + beta*y ----

// A is the logical m x n matrix (zeros outside the band for gbmv), stored full (kl < 0) or as
// a band (kl, ku) with leading dimension the smallest legal one plus pad.
template <class T>
void compare_gemv_or_gbmv(const Pair2<T>& p, Mismatches& m, char trans, int rows, int cols, int kl,
                          int ku, int pad, T alpha, T beta, const Dense<T>& a,
                          const std::vector<T>& xv, int incx, const std::vector<T>& yv, int incy,
                          std::optional<Match> how = std::nullopt) {
  const bool band = kl >= 0;
  const bool row_major = p.lib.row_major;
  const int lda = (band ? kl + ku + 1 : at_least_one(row_major ? cols : rows)) + pad;
  const std::string options = std::string("trans=") + trans;
  const std::string call = band ? call2_text(p.lib.prefix + "gbmv", p.lib.api, options,
                                             {{"m", rows},
                                              {"n", cols},
                                              {"kl", kl},
                                              {"ku", ku},
                                              {"lda", lda},
                                              {"alpha", alpha},
                                              {"beta", beta},
                                              {"incx", incx},
                                              {"incy", incy}})
                                : call2_text(p.lib.prefix + "gemv", p.lib.api, options,
                                             {{"m", rows},
                                              {"n", cols},
                                              {"lda", lda},
                                              {"alpha", alpha},
                                              {"beta", beta},
                                              {"incx", incx},
                                              {"incy", incy}});
  const Format f = band ? Format::band(rows, cols, kl, ku, lda, row_major)
                        : Format::full(rows, cols, lda, row_major);
  const bool nt = is_no_trans(trans);
  const int lenx = nt ? cols : rows, leny = nt ? rows : cols;
  const StoredMatrix<T> a0(f, a);
  const Strided<T> x0(lenx, incx, xv), y0(leny, incy, yv);
  StoredMatrix<T> ar = a0, al = a0;
  Strided<T> xr = x0, xl = x0, yr = y0, yl = y0;
  if (band) {
    p.ref.gbmv(trans, rows, cols, kl, ku, alpha, ar.data(), lda, xr.data(), incx, beta, yr.data(),
               incy);
    p.lib.gbmv(trans, rows, cols, kl, ku, alpha, al.data(), lda, xl.data(), incx, beta, yl.data(),
               incy);
  } else {
    p.ref.gemv(trans, rows, cols, alpha, ar.data(), lda, xr.data(), incx, beta, yr.data(), incy);
    p.lib.gemv(trans, rows, cols, alpha, al.data(), lda, xl.data(), incx, beta, yl.data(), incy);
  }
  check_matrix_unchanged(m, call, "A", al, a0);
  check_unchanged(m, call, "x", xl, x0);
  if (how) {
    check_vector(m, call, "y", yl, yr, *how);
    return;
  }
  const Dense<T> op = nt ? a : transposed(a);
  check_vector_within(m, call, "y", yl, yr, [&](int i) {
    return mv_tolerance<T>(op, i, x0, alpha, beta, y0.element(i));
  });
}

// ---- Symmetric matrices: y := alpha*A*x + beta*y ----

enum class Storage { kFull, kBand, kPacked };

inline const char* storage_routine(Storage s, const char* full, const char* band,
                                   const char* packed) {
  return s == Storage::kFull ? full : s == Storage::kBand ? band : packed;
}

// The format of one triangle (uplo) of an n x n matrix of bandwidth k (band only) with leading
// dimension the smallest legal one plus pad (full and band only).
inline Format triangle_format(Storage s, char uplo, int n, int k, int pad, bool row_major,
                              bool unit = false) {
  switch (s) {
    case Storage::kFull:
      return Format::full(n, n, at_least_one(n) + pad, row_major, is_upper(uplo) ? 'U' : 'L', unit);
    case Storage::kBand:
      return Format::triangular_band(n, k, uplo, k + 1 + pad, row_major, unit);
    case Storage::kPacked:
      return Format::packed(n, uplo, row_major, unit);
  }
  return Format();
}

// A is the logical symmetric matrix (bandwidth k for the band storage); only its uplo triangle
// is stored, the other holds sentinels.
template <class T>
void compare_symmetric_mv(const Pair2<T>& p, Mismatches& m, Storage s, char uplo, int n, int k,
                          int pad, T alpha, T beta, const Dense<T>& a, const std::vector<T>& xv,
                          int incx, const std::vector<T>& yv, int incy,
                          std::optional<Match> how = std::nullopt) {
  const Format f = triangle_format(s, uplo, n, k, pad, p.lib.row_major);
  const std::string call = call2_text(p.lib.prefix + storage_routine(s, "symv", "sbmv", "spmv"),
                                      p.lib.api, std::string("uplo=") + uplo,
                                      {{"n", n},
                                       {"k", s == Storage::kBand ? k : 0},
                                       {"lda", s == Storage::kPacked ? 0 : f.ld},
                                       {"alpha", alpha},
                                       {"beta", beta},
                                       {"incx", incx},
                                       {"incy", incy}});
  const StoredMatrix<T> a0(f, a);
  const Strided<T> x0(n, incx, xv), y0(n, incy, yv);
  StoredMatrix<T> ar = a0, al = a0;
  Strided<T> xr = x0, xl = x0, yr = y0, yl = y0;
  for (auto* side : {&p.ref, &p.lib}) {
    const bool is_ref = side == &p.ref;
    T* pa = is_ref ? ar.data() : al.data();
    const T* px = is_ref ? xr.data() : xl.data();
    T* py = is_ref ? yr.data() : yl.data();
    switch (s) {
      case Storage::kFull:
        side->symv(uplo, n, alpha, pa, f.ld, px, incx, beta, py, incy);
        break;
      case Storage::kBand:
        side->sbmv(uplo, n, k, alpha, pa, f.ld, px, incx, beta, py, incy);
        break;
      case Storage::kPacked:
        side->spmv(uplo, n, alpha, pa, px, incx, beta, py, incy);
        break;
    }
  }
  check_matrix_unchanged(m, call, "A", al, a0);
  check_unchanged(m, call, "x", xl, x0);
  if (how) {
    check_vector(m, call, "y", yl, yr, *how);
    return;
  }
  check_vector_within(m, call, "y", yl, yr,
                      [&](int i) { return mv_tolerance<T>(a, i, x0, alpha, beta, y0.element(i)); });
}

// ---- Triangular matrices: x := op(A)*x, x := op(A)^-1*x ----

// A is the logical triangular matrix (a unit diagonal as 1; the storage holds the sentinel
// there for diag = 'U'). `bound` is the matrix the tolerance is derived from, when not A: a
// test that puts infinities where the reference never reads them (a column it skips) gives
// their places as zeros there.
template <class T>
void compare_triangular(const Pair2<T>& p, Mismatches& m, Storage s, bool solve, char uplo,
                        char trans, char diag, int n, int k, int pad, const Dense<T>& a,
                        const std::vector<T>& xv, int incx, const Dense<T>* bound = nullptr,
                        std::optional<Match> how = std::nullopt) {
  const Format f = triangle_format(s, uplo, n, k, pad, p.lib.row_major, is_unit(diag));
  const char* routine = solve ? storage_routine(s, "trsv", "tbsv", "tpsv")
                              : storage_routine(s, "trmv", "tbmv", "tpmv");
  const std::string call =
      call2_text(p.lib.prefix + routine, p.lib.api,
                 std::string("uplo=") + uplo + ", trans=" + trans + ", diag=" + diag,
                 {{"n", n},
                  {"k", s == Storage::kBand ? k : 0},
                  {"lda", s == Storage::kPacked ? 0 : f.ld},
                  {"incx", incx}});
  const StoredMatrix<T> a0(f, a);
  const Strided<T> x0(n, incx, xv);
  StoredMatrix<T> ar = a0, al = a0;
  Strided<T> xr = x0, xl = x0;
  for (auto* side : {&p.ref, &p.lib}) {
    const bool is_ref = side == &p.ref;
    T* pa = is_ref ? ar.data() : al.data();
    T* px = is_ref ? xr.data() : xl.data();
    switch (s) {
      case Storage::kFull:
        (solve ? side->trsv : side->trmv)(uplo, trans, diag, n, pa, f.ld, px, incx);
        break;
      case Storage::kBand:
        (solve ? side->tbsv : side->tbmv)(uplo, trans, diag, n, k, pa, f.ld, px, incx);
        break;
      case Storage::kPacked:
        (solve ? side->tpsv : side->tpmv)(uplo, trans, diag, n, pa, px, incx);
        break;
    }
  }
  check_matrix_unchanged(m, call, "A", al, a0);
  if (how) {
    check_vector(m, call, "x", xl, xr, *how);
    return;
  }
  const Dense<T> op = is_no_trans(trans) ? (bound ? *bound : a) : transposed(bound ? *bound : a);
  if (!solve) {
    check_vector_within(m, call, "x", xl, xr, [&](int i) { return trmv_tolerance<T>(op, i, x0); });
    return;
  }
  const Dense<double> bound_matrix = abs_inverse_product(op);
  const int w = max_row_nonzeros(op);
  check_vector_within(m, call, "x", xl, xr,
                      [&](int i) { return trsv_tolerance<T>(bound_matrix, w, i, xr); });
}

// ---- Rank-1 and rank-2 updates: A := alpha*x*y^T + A, ... ----

// ger: A is the logical m x n matrix, stored full.
template <class T>
void compare_ger(const Pair2<T>& p, Mismatches& m, int rows, int cols, int pad, T alpha,
                 const Dense<T>& a, const std::vector<T>& xv, int incx, const std::vector<T>& yv,
                 int incy, std::optional<Match> how = std::nullopt) {
  const bool row_major = p.lib.row_major;
  const int lda = at_least_one(row_major ? cols : rows) + pad;
  const std::string call = call2_text(
      p.lib.prefix + "ger", p.lib.api, "",
      {{"m", rows}, {"n", cols}, {"alpha", alpha}, {"incx", incx}, {"incy", incy}, {"lda", lda}});
  const Format f = Format::full(rows, cols, lda, row_major);
  const StoredMatrix<T> a0(f, a);
  const Strided<T> x0(rows, incx, xv), y0(cols, incy, yv);
  StoredMatrix<T> ar = a0, al = a0;
  Strided<T> xr = x0, xl = x0, yr = y0, yl = y0;
  p.ref.ger(rows, cols, alpha, xr.data(), incx, yr.data(), incy, ar.data(), lda);
  p.lib.ger(rows, cols, alpha, xl.data(), incx, yl.data(), incy, al.data(), lda);
  check_unchanged(m, call, "x", xl, x0);
  check_unchanged(m, call, "y", yl, y0);
  if (how) {
    check_matrix(m, call, "A", al, ar, *how);
    return;
  }
  // a_ij + x_i*(alpha*y_j): three roundings.
  check_matrix_within(m, call, "A", al, ar, [&](int i, int j) {
    return sum_tolerance<T>(
        3, std::fabs(double(a(i, j))) + std::fabs(alpha) * term(x0.element(i), y0.element(j)));
  });
}

// syr, spr (rank 1: y unused) and syr2, spr2 (rank 2) on the uplo triangle of the symmetric A,
// stored full or packed.
template <class T>
void compare_symmetric_update(const Pair2<T>& p, Mismatches& m, Storage s, bool rank2, char uplo,
                              int n, int pad, T alpha, const Dense<T>& a, const std::vector<T>& xv,
                              int incx, const std::vector<T>& yv, int incy,
                              std::optional<Match> how = std::nullopt) {
  const Format f = triangle_format(s, uplo, n, 0, pad, p.lib.row_major);
  const char* routine =
      rank2 ? storage_routine(s, "syr2", "", "spr2") : storage_routine(s, "syr", "", "spr");
  const std::string call =
      call2_text(p.lib.prefix + routine, p.lib.api, std::string("uplo=") + uplo,
                 {{"n", n},
                  {"alpha", alpha},
                  {"incx", incx},
                  {"incy", rank2 ? incy : 0},
                  {"lda", s == Storage::kPacked ? 0 : f.ld}});
  const StoredMatrix<T> a0(f, a);
  const Strided<T> x0(n, incx, xv), y0(n, incy, yv);
  StoredMatrix<T> ar = a0, al = a0;
  Strided<T> xr = x0, xl = x0, yr = y0, yl = y0;
  for (auto* side : {&p.ref, &p.lib}) {
    const bool is_ref = side == &p.ref;
    T* pa = is_ref ? ar.data() : al.data();
    const T* px = is_ref ? xr.data() : xl.data();
    const T* py = is_ref ? yr.data() : yl.data();
    if (s == Storage::kFull) {
      if (rank2) {
        side->syr2(uplo, n, alpha, px, incx, py, incy, pa, f.ld);
      } else {
        side->syr(uplo, n, alpha, px, incx, pa, f.ld);
      }
    } else {
      if (rank2) {
        side->spr2(uplo, n, alpha, px, incx, py, incy, pa);
      } else {
        side->spr(uplo, n, alpha, px, incx, pa);
      }
    }
  }
  check_unchanged(m, call, "x", xl, x0);
  if (rank2) check_unchanged(m, call, "y", yl, y0);
  if (how) {
    check_matrix(m, call, "A", al, ar, *how);
    return;
  }
  // a_ij + x_i*(alpha*x_j): three roundings; with y, a_ij + x_i*(alpha*y_j) + y_i*(alpha*x_j):
  // four.
  check_matrix_within(m, call, "A", al, ar, [&](int i, int j) {
    const double xi = x0.element(i), xj = x0.element(j);
    if (!rank2)
      return sum_tolerance<T>(3, std::fabs(double(a(i, j))) + std::fabs(alpha) * term(xi, xj));
    const double yi = y0.element(i), yj = y0.element(j);
    return sum_tolerance<T>(
        4, std::fabs(double(a(i, j))) + std::fabs(alpha) * (term(xi, yj) + term(yi, xj)));
  });
}

// ---- Sweeps on random data ----

// Runs one sweep of the reference against the library under test through one interface and
// expects no mismatch.
template <class T, class Sweep>
void expect_sweep_matches(Api api, Sweep sweep) {
  Mismatches m;
  sweep(level2_pair<T>(api), m);
  EXPECT_TRUE(m.empty()) << m;
}

template <class T>
void sweep_gemv(const Pair2<T>& p, Mismatches& m) {
  for (int rows : kOrders) {
    for (int cols : kOrders) {
      for (char trans : {'N', 'T', 'C'}) {
        for (int pad : kLdPads) {
          for (const auto& [incx, incy] : kIncrementPairs) {
            for (double alpha : kLevel2Scalars) {
              for (double beta : kLevel2Scalars) {
                const auto seed = seed_of({rows, cols, trans, pad, incx, incy,
                                           (long long)(alpha * 4), (long long)(beta * 4)});
                const int lenx = is_no_trans(trans) ? cols : rows;
                compare_gemv_or_gbmv<T>(p, m, trans, rows, cols, -1, -1, pad, T(alpha), T(beta),
                                        random_general<T>(rows, cols, seed),
                                        random_values<T>(lenx, seed + 1), incx,
                                        random_values<T>(rows + cols, seed + 2), incy);
              }
            }
          }
        }
      }
    }
  }
}

// Every (alpha, beta) pair of kLevel2Scalars, in turn: the sweeps of the routines with more
// parameters take one pair per case, picked by the case's seed, rather than all sixteen.
inline std::pair<double, double> scalars_for(std::uint64_t seed) {
  const int n = int(std::size(kLevel2Scalars));
  const int c = int((seed >> 17) % std::uint64_t(n * n));
  return {kLevel2Scalars[c / n], kLevel2Scalars[c % n]};
}

template <class T>
void sweep_gbmv(const Pair2<T>& p, Mismatches& m) {
  for (int rows : kOrders) {
    for (int cols : kOrders) {
      for (int kl : bandwidths(rows)) {
        for (int ku : bandwidths(cols)) {
          for (char trans : {'N', 'T'}) {
            for (int pad : kLdPads) {
              for (const auto& [incx, incy] : kIncrementPairs) {
                const auto seed = seed_of({rows, cols, kl, ku, trans, pad, incx, incy});
                const auto [alpha, beta] = scalars_for(seed);
                const int lenx = is_no_trans(trans) ? cols : rows;
                compare_gemv_or_gbmv<T>(p, m, trans, rows, cols, kl, ku, pad, T(alpha), T(beta),
                                        random_band<T>(rows, cols, kl, ku, seed),
                                        random_values<T>(lenx, seed + 1), incx,
                                        random_values<T>(rows + cols, seed + 2), incy);
              }
            }
          }
        }
      }
    }
  }
}

// symv (kFull), sbmv (kBand: every bandwidth) and spmv (kPacked).
template <class T>
void sweep_symmetric_mv(const Pair2<T>& p, Mismatches& m, Storage s) {
  for (int n : kOrders) {
    const std::vector<int> ks = s == Storage::kBand ? bandwidths(n) : std::vector<int>{n};
    for (int k : ks) {
      for (char uplo : {'U', 'L'}) {
        for (int pad : s == Storage::kPacked ? std::vector<int>{0} : std::vector<int>{0, 3}) {
          for (const auto& [incx, incy] : kIncrementPairs) {
            for (double alpha : kLevel2Scalars) {
              for (double beta : kLevel2Scalars) {
                const auto seed = seed_of({int(s), n, k, uplo, pad, incx, incy,
                                           (long long)(alpha * 4), (long long)(beta * 4)});
                compare_symmetric_mv<T>(
                    p, m, s, uplo, n, k, pad, T(alpha), T(beta), random_symmetric<T>(n, k, seed),
                    random_values<T>(n, seed + 1), incx, random_values<T>(n, seed + 2), incy);
              }
            }
          }
        }
      }
    }
  }
}

// trmv / trsv (kFull), tbmv / tbsv (kBand: every bandwidth), tpmv / tpsv (kPacked), every
// uplo, trans and diag. The solves take well-conditioned matrices.
template <class T>
void sweep_triangular(const Pair2<T>& p, Mismatches& m, Storage s, bool solve) {
  for (int n : kOrders) {
    const std::vector<int> ks = s == Storage::kBand ? bandwidths(n) : std::vector<int>{n};
    for (int k : ks) {
      for (char uplo : {'U', 'L'}) {
        for (char trans : {'N', 'T', 'C'}) {
          for (char diag : {'N', 'U'}) {
            for (int pad : s == Storage::kPacked ? std::vector<int>{0} : std::vector<int>{0, 3}) {
              for (int incx : kLevel2Increments) {
                const auto seed = seed_of({int(s), solve, n, k, uplo, trans, diag, pad, incx});
                const bool upper = is_upper(uplo), unit = is_unit(diag);
                const Dense<T> a = solve ? well_conditioned_triangular<T>(n, k, upper, unit, seed)
                                         : random_triangular<T>(n, k, upper, unit, seed);
                compare_triangular<T>(p, m, s, solve, uplo, trans, diag, n, k, pad, a,
                                      random_values<T>(n, seed + 1), incx);
              }
            }
          }
        }
      }
    }
  }
}

template <class T>
void sweep_ger(const Pair2<T>& p, Mismatches& m) {
  for (int rows : kOrders) {
    for (int cols : kOrders) {
      for (int pad : kLdPads) {
        for (const auto& [incx, incy] : kIncrementPairs) {
          for (double alpha : kLevel2Scalars) {
            const auto seed = seed_of({rows, cols, pad, incx, incy, (long long)(alpha * 4)});
            compare_ger<T>(p, m, rows, cols, pad, T(alpha), random_general<T>(rows, cols, seed),
                           random_values<T>(rows, seed + 1), incx, random_values<T>(cols, seed + 2),
                           incy);
          }
        }
      }
    }
  }
}

// syr / syr2 (kFull) and spr / spr2 (kPacked).
template <class T>
void sweep_symmetric_update(const Pair2<T>& p, Mismatches& m, Storage s, bool rank2) {
  for (int n : kOrders) {
    for (char uplo : {'U', 'L'}) {
      for (int pad : s == Storage::kPacked ? std::vector<int>{0} : std::vector<int>{0, 3}) {
        for (const auto& [incx, incy] : kIncrementPairs) {
          for (double alpha : kLevel2Scalars) {
            const auto seed =
                seed_of({int(s), rank2, n, uplo, pad, incx, incy, (long long)(alpha * 4)});
            compare_symmetric_update<T>(
                p, m, s, rank2, uplo, n, pad, T(alpha), random_symmetric<T>(n, n, seed),
                random_values<T>(n, seed + 1), incx, random_values<T>(n, seed + 2), incy);
          }
        }
      }
    }
  }
}

}  // namespace exoblas_test
