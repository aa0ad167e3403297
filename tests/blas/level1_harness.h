// What the level-1 tests share: the parameter lists, strided vectors in guarded buffers filled
// with a sentinel, deterministic random data, value comparisons (bit for bit, by value, within
// a tolerance) that collect mismatches one a line, and the level-1 routines of either library
// behind one value-style interface, Fortran or CBLAS.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "blas_libraries.h"

namespace exoblas_test {

// ---- Parameters every routine is run over ----

// Short, lane-sized (7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65), long and ragged lengths.
inline constexpr int kSizes[] = {0,  1,  2,  3,  7,  8,  15,  16,   17,
                                 31, 32, 33, 63, 64, 65, 100, 1000, 1027};
inline constexpr int kIncrements[] = {1, 2, 3, -1, -2};
// For a vector the routine only reads where the reference defines increment 0 (every element
// is x[0]): axpy's and copy's x, both vectors of the dot products.
inline constexpr int kIncrementsWithZero[] = {1, 2, 3, -1, -2, 0};
// asum, nrm2, i?amax and scal read nothing when incx <= 0 (nrm2 aside: see its tests).
inline constexpr int kPositiveIncrements[] = {1, 2, 3};
inline constexpr int kNonPositiveIncrements[] = {0, -1, -2};
// alpha, the dot products' sb, rot's c and s.
inline constexpr double kScalars[] = {0, 1, -1, 0.5, 1.7, -3.25};

// ---- Bits and printing ----

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
Bits<T> bits_of(T v) {
  return std::bit_cast<Bits<T>>(v);
}

template <class T>
T from_bits(Bits<T> b) {
  return std::bit_cast<T>(b);
}

template <class T>
constexpr T kEps = std::numeric_limits<T>::epsilon();
template <class T>
constexpr T kDenormMin = std::numeric_limits<T>::denorm_min();

// What the buffers around and between a vector's elements hold: a quiet NaN with a payload
// no routine produces, so any store there, even of a NaN, shows.
template <class T>
T sentinel() {
  if constexpr (sizeof(T) == 4) {
    return from_bits<T>(0x7fd5a5a5u);
  } else {
    return from_bits<T>(0x7ffa5a5a5a5a5a5aull);
  }
}

// "0x1.8p+0 (1.5)"
template <class T>
std::string show(T v) {
  char s[96];
  std::snprintf(s, sizeof s, "%a (%.*g)", static_cast<double>(v), sizeof(T) == 4 ? 9 : 17,
                static_cast<double>(v));
  return s;
}

template <class T>
const char* precision_prefix() {
  return sizeof(T) == 4 ? "s" : "d";
}

// ---- Deterministic data ----

// A seed from the parameters of one call, so that each call's data is fixed and independent.
inline std::uint64_t seed_of(std::initializer_list<long long> parts) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (long long p : parts) {
    h ^= static_cast<std::uint64_t>(p) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return h;
}

// n values in [-2, 2), none an integer.
template <class T>
std::vector<T> random_values(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n > 0 ? n : 0);
  for (T& e : v) {
    const double u = static_cast<double>(rng() >> 11) * 0x1p-53;  // [0, 1)
    T x = static_cast<T>(4 * u - 2);
    if (x == std::round(x)) x += T(0.375);
    e = x;
  }
  return v;
}

// The values that reach the edge cases of floating point: NaN (both signs), the infinities,
// signed zeros, the largest finite values and half of them, the smallest normals, subnormals,
// and plain values. 18 of them.
template <class T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  return {L::quiet_NaN(),   -L::quiet_NaN(),
          L::infinity(),    -L::infinity(),
          T(0.0),           T(-0.0),
          L::max(),         -L::max(),
          L::max() / 2,     L::min(),
          -L::min(),        L::denorm_min(),
          -L::denorm_min(), 3 * L::denorm_min(),
          L::min() / 3,     T(1),
          T(-1.5),          T(0.1)};
}

// n random values (as random_values) with the special values put at positions offset,
// offset + stride, ... in turn, so that they land in vector bodies and scalar tails alike.
template <class T>
std::vector<T> with_specials(int n, std::uint64_t seed, int offset, int stride) {
  std::vector<T> v = random_values<T>(n, seed);
  const std::vector<T> s = special_values<T>();
  std::size_t k = 0;
  for (int i = offset; i < n; i += stride) v[i] = s[k++ % s.size()];
  return v;
}

// ---- A strided vector in a guarded buffer ----

// n elements at increment inc as the Fortran BLAS addresses them: data() is the lowest
// address; element i (0-based) lies at data()[i * inc] for inc >= 0 and at
// data()[(n - 1 - i) * -inc] for inc < 0 (so increment 0 makes every element data()[0]).
// kGuard sentinels lie before and after, and between the elements for |inc| > 1.
template <class T>
class Strided {
 public:
  static constexpr int kGuard = 4;

  Strided(int n, int inc, const std::vector<T>& values) : n_(n > 0 ? n : 0), inc_(inc) {
    const std::size_t span = n_ == 0 ? 0 : std::size_t(n_ - 1) * std::size_t(std::abs(inc)) + 1;
    buf_.assign(span + 2 * kGuard, sentinel<T>());
    for (int i = n_ - 1; i >= 0; --i) buf_[position(i)] = values.at(i);
  }

  T* data() { return buf_.data() + kGuard; }
  int n() const { return n_; }
  int inc() const { return inc_; }
  // The buffer index of element i.
  std::size_t position(int i) const {
    const long long k = inc_ >= 0 ? (long long)i * inc_ : (long long)(n_ - 1 - i) * -inc_;
    return std::size_t(kGuard + k);
  }
  T element(int i) const { return buf_[position(i)]; }
  const std::vector<T>& buffer() const { return buf_; }
  // Which element lies at buffer index p, or -1 for a guard or a gap.
  int element_at(std::size_t p) const {
    const long long k = (long long)p - kGuard, step = std::abs(inc_);
    if (n_ == 0 || k < 0 || k > (long long)(n_ - 1) * step) return -1;
    if (step == 0) return k == 0 ? 0 : -1;
    if (k % step != 0) return -1;
    return inc_ > 0 ? int(k / step) : int(n_ - 1 - k / step);
  }

 private:
  int n_;
  int inc_;
  std::vector<T> buf_;
};

// ---- Collecting mismatches ----

// The mismatches of one test, one a line with the call's parameters; the first kShown are
// kept. Use: EXPECT_TRUE(m.empty()) << m;
class Mismatches {
 public:
  static constexpr std::size_t kShown = 25;

  void add(const std::string& line) {
    if (lines_.size() < kShown) lines_.push_back(line);
    ++count_;
  }
  bool empty() const { return count_ == 0; }
  std::size_t count() const { return count_; }
  friend std::ostream& operator<<(std::ostream& os, const Mismatches& m) {
    os << m.count_ << " mismatch" << (m.count_ == 1 ? "" : "es") << " with the reference BLAS";
    if (m.count_ > m.lines_.size()) os << " (the first " << m.lines_.size() << " shown)";
    os << ":\n";
    for (const std::string& l : m.lines_) os << "  " << l << "\n";
    return os;
  }

 private:
  std::vector<std::string> lines_;
  std::size_t count_ = 0;
};

// ---- Comparing values ----

enum class Match {
  kBits,       // identical bits, NaN payloads included: routines that only move data
  kSameValue,  // NaN for NaN, otherwise ==, so +0 and -0 match
  kSameSign,   // NaN for NaN, otherwise identical bits, so the sign of a zero must match
};

template <class T>
bool matches(T got, T want, Match how) {
  switch (how) {
    case Match::kBits:
      return bits_of(got) == bits_of(want);
    case Match::kSameValue:
      return (std::isnan(got) && std::isnan(want)) || got == want;
    case Match::kSameSign:
      return (std::isnan(got) && std::isnan(want)) || bits_of(got) == bits_of(want);
  }
  return false;
}

// Within tol of the reference: NaN for NaN, an infinity for the same infinity, otherwise a
// finite value at most tol away.
template <class T>
bool within(T got, T want, double tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  if (!std::isfinite(got)) return false;
  return std::fabs(static_cast<double>(got) - static_cast<double>(want)) <= tol;
}

template <class T>
std::string mismatch_line(const std::string& call, const std::string& what, T got, T want) {
  return call + ": " + what + " is " + show(got) + ", the reference gives " + show(want);
}

template <class T>
void check_scalar(Mismatches& m, const std::string& call, const std::string& what, T got, T want,
                  Match how) {
  if (!matches(got, want, how)) m.add(mismatch_line(call, what, got, want));
}

template <class T>
void check_scalar_within(Mismatches& m, const std::string& call, const std::string& what, T got,
                         T want, double tol) {
  if (!within(got, want, tol)) {
    char t[48];
    std::snprintf(t, sizeof t, " (tolerance %.3g)", tol);
    m.add(mismatch_line(call, what, got, want) + t);
  }
}

// The buffer positions that are not elements must still hold the sentinel.
template <class T>
void check_guards(Mismatches& m, const std::string& call, const char* name, const Strided<T>& got) {
  const std::vector<T>& b = got.buffer();
  for (std::size_t p = 0; p < b.size(); ++p) {
    if (got.element_at(p) >= 0 || bits_of(b[p]) == bits_of(sentinel<T>())) continue;
    const long long offset = (long long)p - Strided<T>::kGuard;
    m.add(call + ": wrote " + show(b[p]) + " outside the elements of " + name + ", at " + name +
          "[" + std::to_string(offset) + "]");
  }
}

// An output vector: guards untouched, every element as the reference's by `how`.
template <class T>
void check_vector(Mismatches& m, const std::string& call, const char* name, const Strided<T>& got,
                  const Strided<T>& want, Match how) {
  check_guards(m, call, name, got);
  for (int i = 0; i < got.n(); ++i) {
    if (!matches(got.element(i), want.element(i), how)) {
      m.add(mismatch_line(call, std::string(name) + " element " + std::to_string(i), got.element(i),
                          want.element(i)));
    }
  }
}

// An output vector: guards untouched, element i within tol(i) of the reference's.
template <class T, class Tol>
void check_vector_within(Mismatches& m, const std::string& call, const char* name,
                         const Strided<T>& got, const Strided<T>& want, Tol tol) {
  check_guards(m, call, name, got);
  for (int i = 0; i < got.n(); ++i) {
    check_scalar_within(m, call, std::string(name) + " element " + std::to_string(i),
                        got.element(i), want.element(i), tol(i));
  }
}

// An input vector: the whole buffer bit for bit as before the call.
template <class T>
void check_unchanged(Mismatches& m, const std::string& call, const char* name,
                     const Strided<T>& after, const Strided<T>& before) {
  for (std::size_t p = 0; p < after.buffer().size(); ++p) {
    if (bits_of(after.buffer()[p]) != bits_of(before.buffer()[p])) {
      m.add(call + ": changed the input " + name + " at " + name + "[" +
            std::to_string((long long)p - Strided<T>::kGuard) + "] to " + show(after.buffer()[p]));
    }
  }
}

// ---- The routines behind one interface ----

// The level-1 routines of one precision with values passed by value (CBLAS style), over the
// Fortran symbols or the CBLAS ones. iamax gives the raw result: 1-based from Fortran, 0-based
// from CBLAS. sdsdot and dsdot are the same in both precisions' interfaces.
template <class T>
struct Level1Api {
  std::string prefix;  // "s", "d", "cblas_s", "cblas_d": names the calls in messages
  std::function<T(int, const T*, int)> asum;
  std::function<void(int, T, const T*, int, T*, int)> axpy;
  std::function<void(int, const T*, int, T*, int)> copy;
  std::function<T(int, const T*, int, const T*, int)> dot;
  std::function<T(int, const T*, int)> nrm2;
  std::function<long long(int, const T*, int)> iamax;
  std::function<void(int, T*, int, T*, int, T, T)> rot;
  std::function<void(T*, T*, T*, T*)> rotg;
  std::function<void(int, T*, int, T*, int, const T*)> rotm;
  std::function<void(T*, T*, T*, T, T*)> rotmg;
  std::function<void(int, T, T*, int)> scal;
  std::function<void(int, T*, int, T*, int)> swap;
  std::function<float(int, float, const float*, int, const float*, int)> sdsdot;
  std::function<double(int, const float*, int, const float*, int)> dsdot;
};

template <class T>
Level1Api<T> fortran_api(const BlasLibrary& lib) {
  const FortranLevel1<T>& f = lib.fortran<T>();
  Level1Api<T> a;
  a.prefix = precision_prefix<T>();
  a.asum = [&f](int n, const T* x, int incx) { return f.asum(&n, x, &incx); };
  a.axpy = [&f](int n, T alpha, const T* x, int incx, T* y, int incy) {
    f.axpy(&n, &alpha, x, &incx, y, &incy);
  };
  a.copy = [&f](int n, const T* x, int incx, T* y, int incy) { f.copy(&n, x, &incx, y, &incy); };
  a.dot = [&f](int n, const T* x, int incx, const T* y, int incy) {
    return f.dot(&n, x, &incx, y, &incy);
  };
  a.nrm2 = [&f](int n, const T* x, int incx) { return f.nrm2(&n, x, &incx); };
  a.iamax = [&f](int n, const T* x, int incx) -> long long { return f.iamax(&n, x, &incx); };
  a.rot = [&f](int n, T* x, int incx, T* y, int incy, T c, T s) {
    f.rot(&n, x, &incx, y, &incy, &c, &s);
  };
  a.rotg = [&f](T* pa, T* pb, T* c, T* s) { f.rotg(pa, pb, c, s); };
  a.rotm = [&f](int n, T* x, int incx, T* y, int incy, const T* p) {
    f.rotm(&n, x, &incx, y, &incy, p);
  };
  a.rotmg = [&f](T* d1, T* d2, T* x1, T y1, T* p) { f.rotmg(d1, d2, x1, &y1, p); };
  a.scal = [&f](int n, T alpha, T* x, int incx) { f.scal(&n, &alpha, x, &incx); };
  a.swap = [&f](int n, T* x, int incx, T* y, int incy) { f.swap(&n, x, &incx, y, &incy); };
  a.sdsdot = [&lib](int n, float sb, const float* x, int incx, const float* y, int incy) {
    return lib.sdsdot(&n, &sb, x, &incx, y, &incy);
  };
  a.dsdot = [&lib](int n, const float* x, int incx, const float* y, int incy) {
    return lib.dsdot(&n, x, &incx, y, &incy);
  };
  return a;
}

template <class T>
Level1Api<T> cblas_api(const BlasLibrary& lib) {
  const CblasLevel1<T>& f = lib.cblas<T>();
  Level1Api<T> a;
  a.prefix = std::string("cblas_") + precision_prefix<T>();
  a.asum = [&f](int n, const T* x, int incx) { return f.asum(n, x, incx); };
  a.axpy = [&f](int n, T alpha, const T* x, int incx, T* y, int incy) {
    f.axpy(n, alpha, x, incx, y, incy);
  };
  a.copy = [&f](int n, const T* x, int incx, T* y, int incy) { f.copy(n, x, incx, y, incy); };
  a.dot = [&f](int n, const T* x, int incx, const T* y, int incy) {
    return f.dot(n, x, incx, y, incy);
  };
  a.nrm2 = [&f](int n, const T* x, int incx) { return f.nrm2(n, x, incx); };
  a.iamax = [&f](int n, const T* x, int incx) -> long long {
    return static_cast<long long>(f.iamax(n, x, incx));
  };
  a.rot = [&f](int n, T* x, int incx, T* y, int incy, T c, T s) {
    f.rot(n, x, incx, y, incy, c, s);
  };
  a.rotg = [&f](T* pa, T* pb, T* c, T* s) { f.rotg(pa, pb, c, s); };
  a.rotm = [&f](int n, T* x, int incx, T* y, int incy, const T* p) {
    f.rotm(n, x, incx, y, incy, p);
  };
  a.rotmg = [&f](T* d1, T* d2, T* x1, T y1, T* p) { f.rotmg(d1, d2, x1, y1, p); };
  a.scal = [&f](int n, T alpha, T* x, int incx) { f.scal(n, alpha, x, incx); };
  a.swap = [&f](int n, T* x, int incx, T* y, int incy) { f.swap(n, x, incx, y, incy); };
  a.sdsdot = [&lib](int n, float sb, const float* x, int incx, const float* y, int incy) {
    return lib.cblas_sdsdot(n, sb, x, incx, y, incy);
  };
  a.dsdot = [&lib](int n, const float* x, int incx, const float* y, int incy) {
    return lib.cblas_dsdot(n, x, incx, y, incy);
  };
  return a;
}

// The Fortran routines of the reference and of the library under test.
template <class T>
struct Pair {
  Level1Api<T> ref;
  Level1Api<T> lib;
};

template <class T>
Pair<T> fortran_pair() {
  return {fortran_api<T>(reference_blas()), fortran_api<T>(blas_under_test())};
}

template <class T>
Pair<T> cblas_pair() {
  return {cblas_api<T>(reference_blas()), cblas_api<T>(blas_under_test())};
}

// "saxpy(n=17, alpha=1.7, incx=2, incy=-1)"
inline std::string call_text(const std::string& routine,
                             std::initializer_list<std::pair<const char*, double>> args) {
  std::string s = routine + "(";
  bool first = true;
  for (const auto& [name, value] : args) {
    char v[48];
    std::snprintf(v, sizeof v, "%.9g", value);
    s += (first ? "" : ", ") + std::string(name) + "=" + v;
    first = false;
  }
  return s + ")";
}

}  // namespace exoblas_test
