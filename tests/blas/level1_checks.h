// One call of each level-1 routine on the reference and on the library under test with the
// same inputs, compared with the routine's tolerance (each justified below), and the sweeps of
// every routine over the sizes, increments and scalars of level1_harness.h on random data.
#pragma once

#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "level1_harness.h"

namespace exoblas_test {

// ---- Tolerances ----

// Elementwise routines computing t1 + t2 from two products or a product and a value (axpy:
// alpha*x + y; rot: c*x + s*y; rotm: w*h11 + z*h12 ...). The reference rounds each product and
// then the sum; the library may fuse one product into the sum (one rounding fewer). Either way
// the result is within 2u(|t1| + |t2|) + O(u^2) of the exact value (u = eps/2), so the two
// differ by at most 2 eps (|t1| + |t2|); 3 eps leaves room for the O(u^2) terms. In the
// subnormal range each of the (at most three) roundings errs by up to half the smallest
// subnormal instead, hence 2 denorm_min more.
constexpr double kElementwiseEps = 3;
template <class T>
double elementwise_tolerance(double t1, double t2) {
  return kElementwiseEps * kEps<T> * (std::fabs(t1) + std::fabs(t2)) + 2 * kDenormMin<T>;
}

// Sums of n terms (dot: x_i*y_i; asum: |x_i|). Any summation order, with or without fused
// multiply-adds, puts each term through at most n roundings, so each result is within
// gamma_n * sum|terms| of the exact sum, gamma_n = nu/(1 - nu) <= 1.0001 nu for n <= 1027
// (Higham, Accuracy and Stability of Numerical Algorithms, 3.1); the reference and the library
// differ by at most 2 gamma_n sum|terms| <= 1.0001 n eps sum|terms|. The constant 2 leaves
// room; n denorm_min covers roundings in the subnormal range.
constexpr double kReductionEps = 2;
template <class T>
double reduction_tolerance(int n, double sum_abs_terms) {
  return kReductionEps * n * kEps<T> * sum_abs_terms + n * kDenormMin<T>;
}

// ?nrm2 = sqrt(sum x_i^2). The sum of squares carries gamma_n relative error in any order (and
// the reference's scaling is by powers of two, exact); the square root halves it and adds one
// rounding, and the reference's mixed-scale combination ymax^2 (1 + (ymin/ymax)^2) a few
// more: each result is within (n/2 + 4) u of the norm, and a scaled-update algorithm (LAPACK's
// old one: four roundings per element) within 2 n u. The two differ by at most about
// (n + 4) eps * norm; the constant 2 leaves room; 4 denorm_min covers a subnormal norm.
constexpr double kNrm2Eps = 2;
template <class T>
double nrm2_tolerance(int n, double norm) {
  return kNrm2Eps * (n + 4) * kEps<T> * std::fabs(norm) + 4 * kDenormMin<T>;
}

// sdsdot: the reference accumulates sb + sum x_i*y_i in double (the products are exact
// there) and rounds the sum to float once. The double sums differ by at most
// 2 n eps_double (|sb| + sum|x_i y_i|), and two doubles that close round to floats at most
// one float ulp apart (two across a binade boundary): 2 eps_float |result|.
inline double sdsdot_tolerance(int n, double sb, double sum_abs_terms, float want) {
  return 2 * kEps<float> * std::fabs(double(want)) +
         kReductionEps * n * kEps<double> * (std::fabs(sb) + sum_abs_terms) + 2 * kDenormMin<float>;
}

// dsdot: as a double dot product of exact products (gamma_{n-1} each way).
inline double dsdot_tolerance(int n, double sum_abs_terms) {
  return reduction_tolerance<double>(n, sum_abs_terms);
}

// ?rotg: r = sigma * scl * sqrt((a/scl)^2 + (b/scl)^2) takes about four roundings relative
// (2 eps), c = a/r and s = b/r one more, z = 1/c another: each output of each library within
// 3 eps of exact, relative; 8 eps between the two leaves room. When r is subnormal it is
// rounded to a multiple of denorm_min, which c, s and z = 1/c inherit relative to r.
constexpr double kRotgEps = 8;
template <class T>
double rotg_tolerance(double value, double r) {
  double tol = kRotgEps * kEps<T> * std::fabs(value) + 2 * kDenormMin<T>;
  if (r != 0 && std::isfinite(r)) tol += std::fabs(value) * 2 * kDenormMin<T> / std::fabs(r);
  return tol;
}

// ?rotmg: every output takes at most six roundings from the inputs (flag 1: d1*x1, d2*y1,
// their quotient, times x1/y1, plus one, then d/u or y1*u), each relative (no cancellation:
// 1 + h11*h22 and 1 - h12*h21 add terms of one sign when d1, d2 > 0, and the tables keep u
// away from 0 otherwise); the rescaling by 4096 is exact. 6u = 3 eps each way, 6 eps between
// the two; 16 eps leaves room.
constexpr double kRotmgEps = 16;
template <class T>
double rotmg_tolerance(double value) {
  return kRotmgEps * kEps<T> * std::fabs(value) + 2 * kDenormMin<T>;
}

// ---- One call of each routine, reference against library ----

template <class T>
std::string name_of(const Pair<T>& p, const char* routine) {
  return p.lib.prefix + routine;
}

// "isamax", "cblas_idamax"
template <class T>
std::string iamax_name(const Level1Api<T>& api) {
  const std::string& prefix = api.prefix;  // "s" or "cblas_s"
  const std::size_t split = prefix.size() - 1;
  return prefix.substr(0, split) + "i" + prefix.substr(split) + "amax";
}

// y := alpha*x + y.
// `how` replaces the tolerance where the products are exact (alpha = +-1), so that fused and
// unfused evaluation agree bit for bit.
template <class T>
void compare_axpy(const Pair<T>& p, Mismatches& m, int n, T alpha, const std::vector<T>& xv,
                  int incx, const std::vector<T>& yv, int incy,
                  std::optional<Match> how = std::nullopt) {
  const std::string call =
      call_text(name_of(p, "axpy"), {{"n", n}, {"alpha", alpha}, {"incx", incx}, {"incy", incy}});
  const Strided<T> x0(n, incx, xv), y0(n, incy, yv);
  Strided<T> xr = x0, yr = y0, xl = x0, yl = y0;
  p.ref.axpy(n, alpha, xr.data(), incx, yr.data(), incy);
  p.lib.axpy(n, alpha, xl.data(), incx, yl.data(), incy);
  check_unchanged(m, call, "x", xl, x0);
  if (how) {
    check_vector(m, call, "y", yl, yr, *how);
    return;
  }
  check_vector_within(m, call, "y", yl, yr, [&](int i) {
    return elementwise_tolerance<T>(double(alpha) * x0.element(i), y0.element(i));
  });
}

// y := x. Moves data: bit for bit.
template <class T>
void compare_copy(const Pair<T>& p, Mismatches& m, int n, const std::vector<T>& xv, int incx,
                  const std::vector<T>& yv, int incy) {
  const std::string call =
      call_text(name_of(p, "copy"), {{"n", n}, {"incx", incx}, {"incy", incy}});
  const Strided<T> x0(n, incx, xv), y0(n, incy, yv);
  Strided<T> xr = x0, yr = y0, xl = x0, yl = y0;
  p.ref.copy(n, xr.data(), incx, yr.data(), incy);
  p.lib.copy(n, xl.data(), incx, yl.data(), incy);
  check_unchanged(m, call, "x", xl, x0);
  check_vector(m, call, "y", yl, yr, Match::kBits);
}

// x <-> y. Moves data: bit for bit.
template <class T>
void compare_swap(const Pair<T>& p, Mismatches& m, int n, const std::vector<T>& xv, int incx,
                  const std::vector<T>& yv, int incy) {
  const std::string call =
      call_text(name_of(p, "swap"), {{"n", n}, {"incx", incx}, {"incy", incy}});
  const Strided<T> x0(n, incx, xv), y0(n, incy, yv);
  Strided<T> xr = x0, yr = y0, xl = x0, yl = y0;
  p.ref.swap(n, xr.data(), incx, yr.data(), incy);
  p.lib.swap(n, xl.data(), incx, yl.data(), incy);
  check_vector(m, call, "x", xl, xr, Match::kBits);
  check_vector(m, call, "y", yl, yr, Match::kBits);
}

// x := alpha*x. One correctly rounded product per element leaves no freedom: equal values
// (how = kSameValue), or equal bits but for NaN payloads (kSameSign) where the test pins the
// sign of zeros.
template <class T>
void compare_scal(const Pair<T>& p, Mismatches& m, int n, T alpha, const std::vector<T>& xv,
                  int incx, Match how = Match::kSameValue) {
  const std::string call =
      call_text(name_of(p, "scal"), {{"n", n}, {"alpha", alpha}, {"incx", incx}});
  const Strided<T> x0(n, incx, xv);
  Strided<T> xr = x0, xl = x0;
  p.ref.scal(n, alpha, xr.data(), incx);
  p.lib.scal(n, alpha, xl.data(), incx);
  check_vector(m, call, "x", xl, xr, how);
}

// x . y
template <class T>
void compare_dot(const Pair<T>& p, Mismatches& m, int n, const std::vector<T>& xv, int incx,
                 const std::vector<T>& yv, int incy) {
  const std::string call = call_text(name_of(p, "dot"), {{"n", n}, {"incx", incx}, {"incy", incy}});
  const Strided<T> x0(n, incx, xv), y0(n, incy, yv);
  Strided<T> xr = x0, yr = y0, xl = x0, yl = y0;
  double sum_abs = 0;
  for (int i = 0; i < x0.n(); ++i) sum_abs += std::fabs(double(x0.element(i)) * y0.element(i));
  const T want = p.ref.dot(n, xr.data(), incx, yr.data(), incy);
  const T got = p.lib.dot(n, xl.data(), incx, yl.data(), incy);
  check_unchanged(m, call, "x", xl, x0);
  check_unchanged(m, call, "y", yl, y0);
  check_scalar_within(m, call, "the result", got, want, reduction_tolerance<T>(n, sum_abs));
}

// sb + x . y accumulated in double, returned as float.
inline void compare_sdsdot(const Pair<float>& p, Mismatches& m, int n, float sb,
                           const std::vector<float>& xv, int incx, const std::vector<float>& yv,
                           int incy) {
  const std::string call = call_text(p.lib.prefix == "s" ? "sdsdot" : "cblas_sdsdot",
                                     {{"n", n}, {"sb", sb}, {"incx", incx}, {"incy", incy}});
  const Strided<float> x0(n, incx, xv), y0(n, incy, yv);
  Strided<float> xr = x0, yr = y0, xl = x0, yl = y0;
  double sum_abs = 0;
  for (int i = 0; i < x0.n(); ++i) sum_abs += std::fabs(double(x0.element(i)) * y0.element(i));
  const float want = p.ref.sdsdot(n, sb, xr.data(), incx, yr.data(), incy);
  const float got = p.lib.sdsdot(n, sb, xl.data(), incx, yl.data(), incy);
  check_unchanged(m, call, "x", xl, x0);
  check_unchanged(m, call, "y", yl, y0);
  check_scalar_within(m, call, "the result", got, want, sdsdot_tolerance(n, sb, sum_abs, want));
}

// x . y of float vectors accumulated and returned in double.
inline void compare_dsdot(const Pair<double>& p, Mismatches& m, int n, const std::vector<float>& xv,
                          int incx, const std::vector<float>& yv, int incy) {
  const std::string call = call_text(p.lib.prefix == "d" ? "dsdot" : "cblas_dsdot",
                                     {{"n", n}, {"incx", incx}, {"incy", incy}});
  const Strided<float> x0(n, incx, xv), y0(n, incy, yv);
  Strided<float> xr = x0, yr = y0, xl = x0, yl = y0;
  double sum_abs = 0;
  for (int i = 0; i < x0.n(); ++i) sum_abs += std::fabs(double(x0.element(i)) * y0.element(i));
  const double want = p.ref.dsdot(n, xr.data(), incx, yr.data(), incy);
  const double got = p.lib.dsdot(n, xl.data(), incx, yl.data(), incy);
  check_unchanged(m, call, "x", xl, x0);
  check_unchanged(m, call, "y", yl, y0);
  check_scalar_within(m, call, "the result", got, want, dsdot_tolerance(n, sum_abs));
}

// sum |x_i|
template <class T>
void compare_asum(const Pair<T>& p, Mismatches& m, int n, const std::vector<T>& xv, int incx) {
  const std::string call = call_text(name_of(p, "asum"), {{"n", n}, {"incx", incx}});
  const Strided<T> x0(n, incx, xv);
  Strided<T> xr = x0, xl = x0;
  double sum_abs = 0;
  for (int i = 0; i < x0.n(); ++i) sum_abs += std::fabs(double(x0.element(i)));
  const T want = p.ref.asum(n, xr.data(), incx);
  const T got = p.lib.asum(n, xl.data(), incx);
  check_unchanged(m, call, "x", xl, x0);
  check_scalar_within(m, call, "the result", got, want, reduction_tolerance<T>(n, sum_abs));
}

// sqrt(sum x_i^2)
template <class T>
void compare_nrm2(const Pair<T>& p, Mismatches& m, int n, const std::vector<T>& xv, int incx) {
  const std::string call = call_text(name_of(p, "nrm2"), {{"n", n}, {"incx", incx}});
  const Strided<T> x0(n, incx, xv);
  Strided<T> xr = x0, xl = x0;
  const T want = p.ref.nrm2(n, xr.data(), incx);
  const T got = p.lib.nrm2(n, xl.data(), incx);
  check_unchanged(m, call, "x", xl, x0);
  check_scalar_within(m, call, "the result", got, want, nrm2_tolerance<T>(n, want));
}

// The index of the first element of largest |x_i|: no arithmetic, exactly.
template <class T>
void compare_iamax(const Pair<T>& p, Mismatches& m, int n, const std::vector<T>& xv, int incx) {
  const std::string call = call_text(iamax_name(p.lib), {{"n", n}, {"incx", incx}});
  const Strided<T> x0(n, incx, xv);
  Strided<T> xr = x0, xl = x0;
  const long long want = p.ref.iamax(n, xr.data(), incx);
  const long long got = p.lib.iamax(n, xl.data(), incx);
  check_unchanged(m, call, "x", xl, x0);
  if (got != want) {
    m.add(call + ": the result is " + std::to_string(got) + ", the reference gives " +
          std::to_string(want));
  }
}

// (x, y) := (c*x + s*y, c*y - s*x)
// `how` as for compare_axpy, where c and s are 0 or +-1.
template <class T>
void compare_rot(const Pair<T>& p, Mismatches& m, int n, const std::vector<T>& xv, int incx,
                 const std::vector<T>& yv, int incy, T c, T s,
                 std::optional<Match> how = std::nullopt) {
  const std::string call =
      call_text(name_of(p, "rot"), {{"n", n}, {"incx", incx}, {"incy", incy}, {"c", c}, {"s", s}});
  const Strided<T> x0(n, incx, xv), y0(n, incy, yv);
  Strided<T> xr = x0, yr = y0, xl = x0, yl = y0;
  p.ref.rot(n, xr.data(), incx, yr.data(), incy, c, s);
  p.lib.rot(n, xl.data(), incx, yl.data(), incy, c, s);
  if (how) {
    check_vector(m, call, "x", xl, xr, *how);
    check_vector(m, call, "y", yl, yr, *how);
    return;
  }
  check_vector_within(m, call, "x", xl, xr, [&](int i) {
    return elementwise_tolerance<T>(double(c) * x0.element(i), double(s) * y0.element(i));
  });
  check_vector_within(m, call, "y", yl, yr, [&](int i) {
    return elementwise_tolerance<T>(double(c) * y0.element(i), double(s) * x0.element(i));
  });
}

// The modified rotation H of param = {flag, h11, h21, h12, h22} applied to the pairs (x_i,
// y_i). The reference reads only the entries the flag uses: flag -2 is the identity (nothing
// written), flag < 0 the full H, flag 0 has unit diagonal, any other flag (> 0) has h12 = 1
// and h21 = -1.
template <class T>
void compare_rotm(const Pair<T>& p, Mismatches& m, int n, const std::vector<T>& xv, int incx,
                  const std::vector<T>& yv, int incy, const T (&param)[5]) {
  const std::string call = call_text(name_of(p, "rotm"), {{"n", n},
                                                          {"incx", incx},
                                                          {"incy", incy},
                                                          {"flag", param[0]},
                                                          {"h11", param[1]},
                                                          {"h21", param[2]},
                                                          {"h12", param[3]},
                                                          {"h22", param[4]}});
  const Strided<T> x0(n, incx, xv), y0(n, incy, yv);
  Strided<T> xr = x0, yr = y0, xl = x0, yl = y0;
  T pr[5], pl[5];
  for (int k = 0; k < 5; ++k) pr[k] = pl[k] = param[k];
  p.ref.rotm(n, xr.data(), incx, yr.data(), incy, pr);
  p.lib.rotm(n, xl.data(), incx, yl.data(), incy, pl);
  for (int k = 0; k < 5; ++k) {
    if (bits_of(pl[k]) != bits_of(param[k]))
      m.add(call + ": changed param[" + std::to_string(k) + "]");
  }
  const T flag = param[0];
  if (flag == T(-2)) {
    check_vector(m, call, "x", xl, xr, Match::kBits);
    check_vector(m, call, "y", yl, yr, Match::kBits);
    return;
  }
  double h11 = param[1], h21 = param[2], h12 = param[3], h22 = param[4];
  if (flag == T(0)) {
    h11 = h22 = 1;
  } else if (!(flag < T(0))) {
    h12 = 1;
    h21 = -1;
  }
  check_vector_within(m, call, "x", xl, xr, [&](int i) {
    return elementwise_tolerance<T>(x0.element(i) * h11, y0.element(i) * h12);
  });
  check_vector_within(m, call, "y", yl, yr, [&](int i) {
    return elementwise_tolerance<T>(x0.element(i) * h21, y0.element(i) * h22);
  });
}

// ?rotg(a, b, c, s): a := r, b := z. When b == 0 (c = 1, s = 0, z = 0, a kept) or a == 0
// (c = 0, s = 1, r = b, z = 1) the reference does no arithmetic: bit for bit but NaN payloads,
// the sign of zeros included. Otherwise within rotg_tolerance.
template <class T>
void compare_rotg(const Pair<T>& p, Mismatches& m, T a, T b) {
  const std::string call = call_text(name_of(p, "rotg"), {{"a", a}, {"b", b}});
  T ra = a, rb = b, rc = sentinel<T>(), rs = sentinel<T>();
  T la = a, lb = b, lc = sentinel<T>(), ls = sentinel<T>();
  p.ref.rotg(&ra, &rb, &rc, &rs);
  p.lib.rotg(&la, &lb, &lc, &ls);
  const bool exact = b == T(0) || a == T(0);
  const char* names[] = {"r (a on return)", "z (b on return)", "c", "s"};
  const T got[] = {la, lb, lc, ls}, want[] = {ra, rb, rc, rs};
  for (int k = 0; k < 4; ++k) {
    if (exact) {
      check_scalar(m, call, names[k], got[k], want[k], Match::kSameSign);
    } else {
      check_scalar_within(m, call, names[k], got[k], want[k], rotg_tolerance<T>(want[k], ra));
    }
  }
}

// The outputs of one ?rotmg call.
template <class T>
struct RotmgResult {
  T d1, d2, x1;
  T param[5];
};

// Runs ?rotmg on (d1, d2, x1, y1) with param[] holding sentinels: the entries the flag does
// not use must come back holding them.
template <class T>
RotmgResult<T> run_rotmg(const Level1Api<T>& api, T d1, T d2, T x1, T y1) {
  RotmgResult<T> r{d1, d2, x1, {}};
  for (T& e : r.param) e = sentinel<T>();
  api.rotmg(&r.d1, &r.d2, &r.x1, y1, r.param);
  return r;
}

// Compares everything rotmg returns: the flag exactly; d1, d2, x1 and the entries of H the
// flag uses within rotmg_tolerance (bit for bit for flag -2, which returns at once); the
// entries the reference leaves alone (flag 0: h11, h22; flag 1: h21, h12; flag -2: all) must
// still hold their sentinels. `with_h` = false compares everything but the entries of H.
template <class T>
void compare_rotmg(const Pair<T>& p, Mismatches& m, T d1, T d2, T x1, T y1, bool with_h = true) {
  const std::string call =
      call_text(name_of(p, "rotmg"), {{"d1", d1}, {"d2", d2}, {"x1", x1}, {"y1", y1}});
  const RotmgResult<T> want = run_rotmg(p.ref, d1, d2, x1, y1);
  const RotmgResult<T> got = run_rotmg(p.lib, d1, d2, x1, y1);
  check_scalar(m, call, "the flag param[0]", got.param[0], want.param[0], Match::kSameSign);
  const T flag = want.param[0];
  const char* names[] = {"d1", "d2", "x1"};
  const T g[] = {got.d1, got.d2, got.x1}, w[] = {want.d1, want.d2, want.x1};
  for (int k = 0; k < 3; ++k) {
    if (flag == T(-2)) {
      check_scalar(m, call, names[k], g[k], w[k], Match::kBits);
    } else {
      check_scalar_within(m, call, names[k], g[k], w[k], rotmg_tolerance<T>(w[k]));
    }
  }
  const char* h_names[] = {"", "h11 param[1]", "h21 param[2]", "h12 param[3]", "h22 param[4]"};
  for (int k = 1; k < 5; ++k) {
    const bool used = flag == T(-1) || (flag == T(0) && (k == 2 || k == 3)) ||
                      (flag == T(1) && (k == 1 || k == 4));
    if (!used) {
      if (bits_of(got.param[k]) != bits_of(sentinel<T>())) {
        m.add(call + ": wrote " + show(got.param[k]) + " to " + h_names[k] +
              ", which the reference leaves alone for flag " + show(flag));
      }
    } else if (with_h) {
      check_scalar_within(m, call, h_names[k], got.param[k], want.param[k],
                          rotmg_tolerance<T>(want.param[k]));
    }
  }
}

// ---- Sweeps over sizes, increments and scalars on random data ----

template <class T>
void sweep_axpy(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kIncrementsWithZero) {
      for (int incy : kIncrements) {
        for (double alpha : kScalars) {
          const auto seed = seed_of({n, incx, incy, (long long)(alpha * 100)});
          compare_axpy<T>(p, m, n, T(alpha), random_values<T>(n, seed), incx,
                          random_values<T>(n, seed + 1), incy);
        }
      }
    }
  }
}

template <class T>
void sweep_copy(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kIncrementsWithZero) {
      for (int incy : kIncrements) {
        const auto seed = seed_of({n, incx, incy});
        compare_copy<T>(p, m, n, random_values<T>(n, seed), incx, random_values<T>(n, seed + 1),
                        incy);
      }
    }
  }
}

template <class T>
void sweep_swap(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kIncrements) {
      for (int incy : kIncrements) {
        const auto seed = seed_of({n, incx, incy});
        compare_swap<T>(p, m, n, random_values<T>(n, seed), incx, random_values<T>(n, seed + 1),
                        incy);
      }
    }
  }
}

template <class T>
void sweep_scal(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kPositiveIncrements) {
      for (double alpha : kScalars) {
        compare_scal<T>(p, m, n, T(alpha),
                        random_values<T>(n, seed_of({n, incx, (long long)(alpha * 100)})), incx);
      }
    }
  }
}

template <class T>
void sweep_dot(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kIncrementsWithZero) {
      for (int incy : kIncrementsWithZero) {
        const auto seed = seed_of({n, incx, incy});
        compare_dot<T>(p, m, n, random_values<T>(n, seed), incx, random_values<T>(n, seed + 1),
                       incy);
      }
    }
  }
}

inline void sweep_sdsdot(const Pair<float>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kIncrementsWithZero) {
      for (int incy : kIncrementsWithZero) {
        for (double sb : kScalars) {
          const auto seed = seed_of({n, incx, incy, (long long)(sb * 100)});
          compare_sdsdot(p, m, n, float(sb), random_values<float>(n, seed), incx,
                         random_values<float>(n, seed + 1), incy);
        }
      }
    }
  }
}

inline void sweep_dsdot(const Pair<double>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kIncrementsWithZero) {
      for (int incy : kIncrementsWithZero) {
        const auto seed = seed_of({n, incx, incy});
        compare_dsdot(p, m, n, random_values<float>(n, seed), incx,
                      random_values<float>(n, seed + 1), incy);
      }
    }
  }
}

template <class T>
void sweep_asum(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kPositiveIncrements) {
      compare_asum<T>(p, m, n, random_values<T>(n, seed_of({n, incx})), incx);
    }
  }
}

template <class T>
void sweep_nrm2(const Pair<T>& p, Mismatches& m, std::initializer_list<int> incs) {
  for (int n : kSizes) {
    for (int incx : incs) compare_nrm2<T>(p, m, n, random_values<T>(n, seed_of({n, incx})), incx);
  }
}

template <class T>
void sweep_iamax(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kPositiveIncrements) {
      compare_iamax<T>(p, m, n, random_values<T>(n, seed_of({n, incx})), incx);
    }
  }
}

template <class T>
void sweep_rot(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kIncrements) {
      for (int incy : kIncrements) {
        for (double c : kScalars) {
          for (double s : kScalars) {
            const auto seed = seed_of({n, incx, incy, (long long)(c * 100), (long long)(s * 100)});
            compare_rot<T>(p, m, n, random_values<T>(n, seed), incx, random_values<T>(n, seed + 1),
                           incy, T(c), T(s));
          }
        }
      }
    }
  }
}

// Flags -1, 0, 1 and -2 with random entries in all four places of H (the ones a flag does not
// use are ignored by the reference and must be by the library).
template <class T>
void sweep_rotm(const Pair<T>& p, Mismatches& m) {
  for (int n : kSizes) {
    for (int incx : kIncrements) {
      for (int incy : kIncrements) {
        for (int flag : {-1, 0, 1, -2}) {
          const auto seed = seed_of({n, incx, incy, flag});
          const std::vector<T> h = random_values<T>(4, seed + 2);
          const T param[5] = {T(flag), h[0], h[1], h[2], h[3]};
          compare_rotm<T>(p, m, n, random_values<T>(n, seed), incx, random_values<T>(n, seed + 1),
                          incy, param);
        }
      }
    }
  }
}

}  // namespace exoblas_test
