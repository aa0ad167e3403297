// What the level-2 tests share beyond level1_harness.h (strided vectors, sentinels, random data,
// value comparisons, Mismatches): matrices in BLAS's storage formats (full, band and packed,
// column- or row-major) in guarded buffers; the level-2 routines of either library behind one
// value-style interface, the Fortran symbols or CBLAS in either layout; and the tolerances,
// each derived below.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "blas_libraries.h"
#include "level1_harness.h"

namespace exoblas_test {

// ---- Parameters ----

// Matrix orders: empty, one, lane-sized and ragged, up to 70.
inline constexpr int kOrders[] = {0, 1, 2, 3, 7, 16, 33, 70};
// (incx, incy) pairs that give each vector every increment of 1, 2, -1, -3.
inline constexpr std::pair<int, int> kIncrementPairs[] = {{1, 1}, {2, -3}, {-1, 2}, {-3, -1}};
inline constexpr int kLevel2Increments[] = {1, 2, -1, -3};
// alpha and beta.
inline constexpr double kLevel2Scalars[] = {0, 1, -1, 0.5};
// Extra rows (columns, row-major) beyond the smallest legal leading dimension.
inline constexpr int kLdPads[] = {0, 3};

// The bandwidths (kl, ku or k) of an n x n (or m x n) band matrix: none, one, three and more
// than the matrix has.
inline std::vector<int> bandwidths(int n) { return {0, 1, 3, n + 2}; }

// ---- Interfaces ----

// Which symbols a call goes through.
enum class Api { kFortran, kCblasColMajor, kCblasRowMajor };

// netlib cblas.h's enumerations, as the ints they are.
inline constexpr int kCblasRowMajor = 101, kCblasColMajor = 102;
inline constexpr int kCblasNoTrans = 111, kCblasTrans = 112, kCblasConjTrans = 113;
inline constexpr int kCblasUpper = 121, kCblasLower = 122;
inline constexpr int kCblasNonUnit = 131, kCblasUnit = 132;
// What the CBLAS calls get for an option character that names no value: netlib's testers'
// INVALID.
inline constexpr int kCblasInvalid = -1;

// The CBLAS value of a Fortran option character (any case), or kCblasInvalid.
inline int cblas_trans(char c) {
  switch (c) {
    case 'N':
    case 'n':
      return kCblasNoTrans;
    case 'T':
    case 't':
      return kCblasTrans;
    case 'C':
    case 'c':
      return kCblasConjTrans;
  }
  return kCblasInvalid;
}
inline int cblas_uplo(char c) {
  if (c == 'U' || c == 'u') return kCblasUpper;
  if (c == 'L' || c == 'l') return kCblasLower;
  return kCblasInvalid;
}
inline int cblas_diag(char c) {
  if (c == 'N' || c == 'n') return kCblasNonUnit;
  if (c == 'U' || c == 'u') return kCblasUnit;
  return kCblasInvalid;
}

// BLAS's options, read as the reference's LSAME reads them.
inline bool is_no_trans(char trans) { return trans == 'N' || trans == 'n'; }
inline bool is_upper(char uplo) { return uplo == 'U' || uplo == 'u'; }
inline bool is_unit(char diag) { return diag == 'U' || diag == 'u'; }

// The level-2 routines of one precision with Fortran's arguments by value, over the Fortran
// symbols or the CBLAS ones in one layout (options translated to CBLAS's enumerations; for
// row-major calls the matrix arguments are row-major storage). The storage a call reads is
// the caller's to build: row_major says which.
template <class T>
struct Level2Api {
  std::string prefix;  // "s", "cblas_s": names the calls in messages
  Api api = Api::kFortran;
  bool row_major = false;
  std::function<void(char trans, int m, int n, T alpha, const T* a, int lda, const T* x, int incx,
                     T beta, T* y, int incy)>
      gemv;
  std::function<void(char trans, int m, int n, int kl, int ku, T alpha, const T* a, int lda,
                     const T* x, int incx, T beta, T* y, int incy)>
      gbmv;
  std::function<void(char uplo, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta,
                     T* y, int incy)>
      symv;
  std::function<void(char uplo, int n, int k, T alpha, const T* a, int lda, const T* x, int incx,
                     T beta, T* y, int incy)>
      sbmv;
  std::function<void(char uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y,
                     int incy)>
      spmv;
  using Full = std::function<void(char uplo, char trans, char diag, int n, const T* a, int lda,
                                  T* x, int incx)>;
  using Band = std::function<void(char uplo, char trans, char diag, int n, int k, const T* a,
                                  int lda, T* x, int incx)>;
  using Packed =
      std::function<void(char uplo, char trans, char diag, int n, const T* ap, T* x, int incx)>;
  Full trmv, trsv;
  Band tbmv, tbsv;
  Packed tpmv, tpsv;
  std::function<void(int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,
                     int lda)>
      ger;
  std::function<void(char uplo, int n, T alpha, const T* x, int incx, T* a, int lda)> syr;
  std::function<void(char uplo, int n, T alpha, const T* x, int incx, T* ap)> spr;
  std::function<void(char uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,
                     int lda)>
      syr2;
  std::function<void(char uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap)>
      spr2;
};

template <class T>
Level2Api<T> fortran2_api(const BlasLibrary& lib) {
  const FortranLevel2<T>& f = lib.fortran2<T>();
  Level2Api<T> a;
  a.prefix = precision_prefix<T>();
  a.api = Api::kFortran;
  a.gemv = [&f](char trans, int m, int n, T alpha, const T* pa, int lda, const T* x, int incx,
                T beta, T* y, int incy) {
    f.gemv(&trans, &m, &n, &alpha, pa, &lda, x, &incx, &beta, y, &incy, 1);
  };
  a.gbmv = [&f](char trans, int m, int n, int kl, int ku, T alpha, const T* pa, int lda, const T* x,
                int incx, T beta, T* y, int incy) {
    f.gbmv(&trans, &m, &n, &kl, &ku, &alpha, pa, &lda, x, &incx, &beta, y, &incy, 1);
  };
  a.symv = [&f](char uplo, int n, T alpha, const T* pa, int lda, const T* x, int incx, T beta, T* y,
                int incy) { f.symv(&uplo, &n, &alpha, pa, &lda, x, &incx, &beta, y, &incy, 1); };
  a.sbmv = [&f](char uplo, int n, int k, T alpha, const T* pa, int lda, const T* x, int incx,
                T beta, T* y, int incy) {
    f.sbmv(&uplo, &n, &k, &alpha, pa, &lda, x, &incx, &beta, y, &incy, 1);
  };
  a.spmv = [&f](char uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y,
                int incy) { f.spmv(&uplo, &n, &alpha, ap, x, &incx, &beta, y, &incy, 1); };
  auto full = [](const Symbol<typename FortranLevel2<T>::Full>& s) {
    return [&s](char uplo, char trans, char diag, int n, const T* pa, int lda, T* x, int incx) {
      s(&uplo, &trans, &diag, &n, pa, &lda, x, &incx, 1, 1, 1);
    };
  };
  auto band = [](const Symbol<typename FortranLevel2<T>::Band>& s) {
    return [&s](char uplo, char trans, char diag, int n, int k, const T* pa, int lda, T* x,
                int incx) { s(&uplo, &trans, &diag, &n, &k, pa, &lda, x, &incx, 1, 1, 1); };
  };
  auto packed = [](const Symbol<typename FortranLevel2<T>::Packed>& s) {
    return [&s](char uplo, char trans, char diag, int n, const T* ap, T* x, int incx) {
      s(&uplo, &trans, &diag, &n, ap, x, &incx, 1, 1, 1);
    };
  };
  a.trmv = full(f.trmv);
  a.trsv = full(f.trsv);
  a.tbmv = band(f.tbmv);
  a.tbsv = band(f.tbsv);
  a.tpmv = packed(f.tpmv);
  a.tpsv = packed(f.tpsv);
  a.ger = [&f](int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* pa, int lda) {
    f.ger(&m, &n, &alpha, x, &incx, y, &incy, pa, &lda);
  };
  a.syr = [&f](char uplo, int n, T alpha, const T* x, int incx, T* pa, int lda) {
    f.syr(&uplo, &n, &alpha, x, &incx, pa, &lda, 1);
  };
  a.spr = [&f](char uplo, int n, T alpha, const T* x, int incx, T* ap) {
    f.spr(&uplo, &n, &alpha, x, &incx, ap, 1);
  };
  a.syr2 = [&f](char uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* pa,
                int lda) { f.syr2(&uplo, &n, &alpha, x, &incx, y, &incy, pa, &lda, 1); };
  a.spr2 = [&f](char uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap) {
    f.spr2(&uplo, &n, &alpha, x, &incx, y, &incy, ap, 1);
  };
  return a;
}

// `layout` is kCblasColMajor or kCblasRowMajor, or any other int to call with an illegal one.
template <class T>
Level2Api<T> cblas2_api(const BlasLibrary& lib, int layout) {
  const CblasLevel2<T>& f = lib.cblas2<T>();
  Level2Api<T> a;
  a.prefix = std::string("cblas_") + precision_prefix<T>();
  a.api = layout == kCblasRowMajor ? Api::kCblasRowMajor : Api::kCblasColMajor;
  a.row_major = layout == kCblasRowMajor;
  const int o = layout;
  a.gemv = [&f, o](char trans, int m, int n, T alpha, const T* pa, int lda, const T* x, int incx,
                   T beta, T* y, int incy) {
    f.gemv(o, cblas_trans(trans), m, n, alpha, pa, lda, x, incx, beta, y, incy);
  };
  a.gbmv = [&f, o](char trans, int m, int n, int kl, int ku, T alpha, const T* pa, int lda,
                   const T* x, int incx, T beta, T* y, int incy) {
    f.gbmv(o, cblas_trans(trans), m, n, kl, ku, alpha, pa, lda, x, incx, beta, y, incy);
  };
  a.symv = [&f, o](char uplo, int n, T alpha, const T* pa, int lda, const T* x, int incx, T beta,
                   T* y, int incy) {
    f.symv(o, cblas_uplo(uplo), n, alpha, pa, lda, x, incx, beta, y, incy);
  };
  a.sbmv = [&f, o](char uplo, int n, int k, T alpha, const T* pa, int lda, const T* x, int incx,
                   T beta, T* y, int incy) {
    f.sbmv(o, cblas_uplo(uplo), n, k, alpha, pa, lda, x, incx, beta, y, incy);
  };
  a.spmv = [&f, o](char uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y,
                   int incy) { f.spmv(o, cblas_uplo(uplo), n, alpha, ap, x, incx, beta, y, incy); };
  auto full = [o](const Symbol<typename CblasLevel2<T>::Full>& s) {
    return [&s, o](char uplo, char trans, char diag, int n, const T* pa, int lda, T* x, int incx) {
      s(o, cblas_uplo(uplo), cblas_trans(trans), cblas_diag(diag), n, pa, lda, x, incx);
    };
  };
  auto band = [o](const Symbol<typename CblasLevel2<T>::Band>& s) {
    return [&s, o](char uplo, char trans, char diag, int n, int k, const T* pa, int lda, T* x,
                   int incx) {
      s(o, cblas_uplo(uplo), cblas_trans(trans), cblas_diag(diag), n, k, pa, lda, x, incx);
    };
  };
  auto packed = [o](const Symbol<typename CblasLevel2<T>::Packed>& s) {
    return [&s, o](char uplo, char trans, char diag, int n, const T* ap, T* x, int incx) {
      s(o, cblas_uplo(uplo), cblas_trans(trans), cblas_diag(diag), n, ap, x, incx);
    };
  };
  a.trmv = full(f.trmv);
  a.trsv = full(f.trsv);
  a.tbmv = band(f.tbmv);
  a.tbsv = band(f.tbsv);
  a.tpmv = packed(f.tpmv);
  a.tpsv = packed(f.tpsv);
  a.ger = [&f, o](int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* pa,
                  int lda) { f.ger(o, m, n, alpha, x, incx, y, incy, pa, lda); };
  a.syr = [&f, o](char uplo, int n, T alpha, const T* x, int incx, T* pa, int lda) {
    f.syr(o, cblas_uplo(uplo), n, alpha, x, incx, pa, lda);
  };
  a.spr = [&f, o](char uplo, int n, T alpha, const T* x, int incx, T* ap) {
    f.spr(o, cblas_uplo(uplo), n, alpha, x, incx, ap);
  };
  a.syr2 = [&f, o](char uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* pa,
                   int lda) { f.syr2(o, cblas_uplo(uplo), n, alpha, x, incx, y, incy, pa, lda); };
  a.spr2 = [&f, o](char uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap) {
    f.spr2(o, cblas_uplo(uplo), n, alpha, x, incx, y, incy, ap);
  };
  return a;
}

template <class T>
Level2Api<T> level2_api(const BlasLibrary& lib, Api api) {
  switch (api) {
    case Api::kFortran:
      return fortran2_api<T>(lib);
    case Api::kCblasColMajor:
      return cblas2_api<T>(lib, kCblasColMajor);
    case Api::kCblasRowMajor:
      return cblas2_api<T>(lib, kCblasRowMajor);
  }
  return fortran2_api<T>(lib);
}

// The same interface of the reference and of the library under test.
template <class T>
struct Pair2 {
  Level2Api<T> ref;
  Level2Api<T> lib;
};

template <class T>
Pair2<T> level2_pair(Api api) {
  return {level2_api<T>(reference_blas(), api), level2_api<T>(blas_under_test(), api)};
}

// "cblas_sgemv[row-major](trans=T, m=3, ...)": the routine's name, the layout of a CBLAS call,
// and its arguments (options as characters, as the Fortran routine takes them).
inline std::string call2_text(const std::string& name, Api api, const std::string& options,
                              std::initializer_list<std::pair<const char*, double>> args) {
  std::string s = name;
  if (api == Api::kCblasColMajor) s += "[col-major]";
  if (api == Api::kCblasRowMajor) s += "[row-major]";
  std::string inner = options;
  for (const auto& [arg, value] : args) {
    char v[48];
    std::snprintf(v, sizeof v, "%.9g", value);
    inner += (inner.empty() ? "" : ", ") + std::string(arg) + "=" + v;
  }
  return s + "(" + inner + ")";
}

// ---- Dense matrices: the logical matrix a routine works on ----

// An m x n matrix, column-major, for building storage and for the tolerances.
template <class T>
struct Dense {
  int m = 0, n = 0;
  std::vector<T> v;
  Dense(int rows, int cols, T fill = T(0))
      : m(rows), n(cols), v(std::size_t(rows > 0 ? rows : 0) * (cols > 0 ? cols : 0), fill) {}
  T& operator()(int i, int j) { return v[std::size_t(i) + std::size_t(j) * m]; }
  T operator()(int i, int j) const { return v[std::size_t(i) + std::size_t(j) * m]; }
};

template <class T>
Dense<T> transposed(const Dense<T>& a) {
  Dense<T> t(a.n, a.m);
  for (int j = 0; j < a.n; ++j) {
    for (int i = 0; i < a.m; ++i) t(j, i) = a(i, j);
  }
  return t;
}

// Random m x n values (random_values: in [-2, 2), none zero) where |i - j| is within the band
// (i - j <= kl, j - i <= ku), zeros elsewhere.
template <class T>
Dense<T> random_band(int m, int n, int kl, int ku, std::uint64_t seed) {
  Dense<T> a(m, n);
  const std::vector<T> r = random_values<T>(m * n, seed);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      if (i - j <= kl && j - i <= ku) a(i, j) = r[std::size_t(i) + std::size_t(j) * m];
    }
  }
  return a;
}

template <class T>
Dense<T> random_general(int m, int n, std::uint64_t seed) {
  return random_band<T>(m, n, m, n, seed);
}

// A random symmetric n x n matrix of bandwidth k (k >= n: full).
template <class T>
Dense<T> random_symmetric(int n, int k, std::uint64_t seed) {
  Dense<T> a = random_band<T>(n, n, k, k, seed);
  for (int j = 0; j < n; ++j) {
    for (int i = j + 1; i < n; ++i) a(j, i) = a(i, j);
  }
  return a;
}

// A random triangular n x n matrix (upper or lower) of bandwidth k, with a unit diagonal when
// `unit` (the value a routine with diag = 'U' assumes; the storage holds a sentinel there).
template <class T>
Dense<T> random_triangular(int n, int k, bool upper, bool unit, std::uint64_t seed) {
  Dense<T> a = random_band<T>(n, n, upper ? 0 : k, upper ? k : 0, seed);
  if (unit) {
    for (int i = 0; i < n; ++i) a(i, i) = T(1);
  }
  return a;
}

// A triangular matrix for the solves, well conditioned: off-diagonal values below 1/n in
// magnitude (random_values / 2n), a diagonal of magnitude in [1, 3) (or unit), so every row
// and column is strictly diagonally dominant and |A^-1| |A| stays near the identity: the
// solve's error bound (trsv_tolerance) is then a few ulps, not the exponential growth a
// random triangular matrix can have.
template <class T>
Dense<T> well_conditioned_triangular(int n, int k, bool upper, bool unit, std::uint64_t seed) {
  Dense<T> a = random_triangular<T>(n, k, upper, unit, seed);
  const std::vector<T> d = random_values<T>(n, seed + 7);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      if (i == j) {
        if (!unit) a(i, i) = d[i] < 0 ? d[i] - T(1) : d[i] + T(1);
      } else {
        a(i, j) = a(i, j) / T(2 * n);
      }
    }
  }
  return a;
}

// ---- Storage formats ----

// Where one of BLAS's formats keeps element (i, j) of an m x n matrix, and which elements a
// routine reads or writes there: all of them, or one triangle (part 'U' or 'L'), or all but a
// unit diagonal.
struct Format {
  enum class Kind { kFull, kBand, kPacked };
  Kind kind = Kind::kFull;
  int m = 0, n = 0;
  int kl = 0, ku = 0;  // band: the sub- and superdiagonals stored
  int ld = 1;          // full and band: the leading dimension
  bool row_major = false;
  char part = 'A';  // 'A', 'U' or 'L'
  bool unit_diagonal = false;

  // An m x n array, column-major (a[i + j*ld]) or row-major (a[i*ld + j]).
  static Format full(int m, int n, int ld, bool row_major, char part = 'A', bool unit = false) {
    Format f;
    f.m = m;
    f.n = n;
    f.ld = ld;
    f.row_major = row_major;
    f.part = part;
    f.unit_diagonal = unit;
    return f;
  }
  // BLAS's band storage: column-major, (i, j) at row ku + i - j of column j (a[ku + i - j +
  // j*ld]); row-major (CBLAS: the column-major band storage of the transpose), at a[i*ld + kl +
  // j - i].
  static Format band(int m, int n, int kl, int ku, int ld, bool row_major, bool unit = false) {
    Format f = full(m, n, ld, row_major, 'A', unit);
    f.kind = Kind::kBand;
    f.kl = kl;
    f.ku = ku;
    return f;
  }
  // The band storage of one triangle of an n x n matrix of bandwidth k.
  static Format triangular_band(int n, int k, char uplo, int ld, bool row_major,
                                bool unit = false) {
    return band(n, n, is_upper(uplo) ? 0 : k, is_upper(uplo) ? k : 0, ld, row_major, unit);
  }
  // One triangle of an n x n matrix, packed by columns: column-major upper (i <= j) at
  // ap[i + j(j+1)/2], lower (i >= j) at ap[i + j(2n-j-1)/2]; row-major (CBLAS) is the
  // column-major packing of the transpose's other triangle.
  static Format packed(int n, char uplo, bool row_major, bool unit = false) {
    Format f = full(n, n, 1, row_major, is_upper(uplo) ? 'U' : 'L', unit);
    f.kind = Kind::kPacked;
    return f;
  }

  std::size_t size() const {
    if (kind == Kind::kPacked) return std::size_t(n) * (n + 1) / 2;
    return std::size_t(ld) * std::size_t(row_major ? m : n);
  }
  // The position of (i, j), or -1 where the routine neither reads nor writes it.
  long long offset(int i, int j) const {
    if (part == 'U' && i > j) return -1;
    if (part == 'L' && i < j) return -1;
    if (unit_diagonal && i == j) return -1;
    switch (kind) {
      case Kind::kFull:
        return row_major ? (long long)i * ld + j : i + (long long)j * ld;
      case Kind::kBand:
        if (i - j > kl || j - i > ku) return -1;
        return row_major ? (long long)i * ld + kl + j - i : ku + i - j + (long long)j * ld;
      case Kind::kPacked: {
        // Row-major upper is column-major lower of the transpose, and the other way round.
        const bool upper = (part == 'U') != row_major;
        const long long r = row_major ? j : i, c = row_major ? i : j;
        return upper ? r + c * (c + 1) / 2 : r + c * (2LL * n - c - 1) / 2;
      }
    }
    return -1;
  }
};

// A matrix stored in one format in a buffer guarded by sentinels: the elements the format's
// part holds are the matrix's, every other position (the other triangle, a unit diagonal,
// padding rows, band corners, kGuard guards before and after) the sentinel.
template <class T>
class StoredMatrix {
 public:
  static constexpr int kGuard = 4;

  StoredMatrix(const Format& f, const Dense<T>& a)
      : f_(f), buf_(f.size() + 2 * kGuard, sentinel<T>()), at_(buf_.size(), -1) {
    for (int j = 0; j < f.n; ++j) {
      for (int i = 0; i < f.m; ++i) {
        const long long o = f.offset(i, j);
        if (o < 0) continue;
        buf_[kGuard + o] = a(i, j);
        at_[kGuard + o] = (long long)i + (long long)j * f.m;
      }
    }
  }

  T* data() { return buf_.data() + kGuard; }
  const Format& format() const { return f_; }
  const std::vector<T>& buffer() const { return buf_; }
  T element(int i, int j) const { return buf_[kGuard + f_.offset(i, j)]; }
  // The (i, j) whose element lies at buffer position p, or false for any other position.
  bool element_at(std::size_t p, int* i, int* j) const {
    if (at_[p] < 0) return false;
    *i = int(at_[p] % f_.m);
    *j = int(at_[p] / f_.m);
    return true;
  }

 private:
  Format f_;
  std::vector<T> buf_;
  std::vector<long long> at_;
};

// An input matrix: the whole buffer bit for bit as before the call.
template <class T>
void check_matrix_unchanged(Mismatches& m, const std::string& call, const char* name,
                            const StoredMatrix<T>& after, const StoredMatrix<T>& before) {
  for (std::size_t p = 0; p < after.buffer().size(); ++p) {
    if (bits_of(after.buffer()[p]) != bits_of(before.buffer()[p])) {
      m.add(call + ": changed the input " + name + " at buffer position " +
            std::to_string((long long)p - StoredMatrix<T>::kGuard) + " to " +
            show(after.buffer()[p]));
    }
  }
}

// An output matrix: each element the routine updates within tol(i, j) of the reference's;
// every other position of the buffer still the sentinel.
template <class T, class Tol>
void check_matrix_within(Mismatches& m, const std::string& call, const char* name,
                         const StoredMatrix<T>& got, const StoredMatrix<T>& want, Tol tol) {
  const std::vector<T>& b = got.buffer();
  for (std::size_t p = 0; p < b.size(); ++p) {
    int i, j;
    if (!got.element_at(p, &i, &j)) {
      if (bits_of(b[p]) != bits_of(sentinel<T>()))
        m.add(call + ": wrote " + show(b[p]) + " at buffer position " +
              std::to_string((long long)p - StoredMatrix<T>::kGuard) +
              ", outside the elements of " + name + " it updates");
      continue;
    }
    check_scalar_within(
        m, call, std::string(name) + "(" + std::to_string(i) + ", " + std::to_string(j) + ")", b[p],
        want.buffer()[p], tol(i, j));
  }
}

// An output matrix compared element by element with `how` (untouched positions included).
template <class T>
void check_matrix(Mismatches& m, const std::string& call, const char* name,
                  const StoredMatrix<T>& got, const StoredMatrix<T>& want, Match how) {
  for (std::size_t p = 0; p < got.buffer().size(); ++p) {
    if (matches(got.buffer()[p], want.buffer()[p], how)) continue;
    int i, j;
    const std::string where =
        got.element_at(p, &i, &j)
            ? std::string(name) + "(" + std::to_string(i) + ", " + std::to_string(j) + ")"
            : std::string(name) + "'s buffer position " +
                  std::to_string((long long)p - StoredMatrix<T>::kGuard);
    m.add(mismatch_line(call, where, got.buffer()[p], want.buffer()[p]));
  }
}

// ---- Tolerances ----

// Every result of a level-2 routine but the solves is a sum of terms (y_i: beta*y_i and
// alpha*a_ij*x_j; an updated a_ij: a_ij and alpha*x_i*y_j, ...), each of which the reference
// computes from the inputs through at most k roundings: its products (alpha*x_j, times a_ij),
// then each addition of the running sum it joins. In any order of summation, with or without
// fused multiply-adds, each term still passes through at most k roundings, so each library's
// result is within gamma_k * sum|terms| of the exact sum, gamma_k = k u / (1 - k u), u =
// eps / 2 (Higham, Accuracy and Stability of Numerical Algorithms, 3.1 and 3.5), and the two
// differ by at most 2 gamma_k sum|terms| = k eps sum|terms| (1 + O(k u)). kLevel2Room = 2
// leaves room for the O(k u) factor and for an implementation that splits a sum into partial
// sums (one more addition per term). k denorm_min covers roundings in the subnormal range
// (half a denorm_min each, in each library).
constexpr double kLevel2Room = 2;
template <class T>
double sum_tolerance(int k, double sum_abs_terms) {
  return kLevel2Room * k * kEps<T> * sum_abs_terms + k * kDenormMin<T>;
}

// |a * x| as a term of an exact sum: 0 when either factor is 0, so that a term the reference
// skips (x_j == 0 against an infinite a_ij: it does not compute 0 * inf) adds nothing.
inline double term(double a, double x) { return a == 0 || x == 0 ? 0 : std::fabs(a * x); }

// y_i := beta*y_i + alpha * (M x)_i, M the operator (op(A), as a dense rows x cols matrix). The
// reference's roundings of one term: alpha*x_j (or alpha times the row's sum), the product with
// a_ij, and the additions of the row's at most `cols` terms and of beta*y_i (itself a rounded
// product): nonzeros in row i + 3 in all. Beta's term is left out for beta == 0, for which the
// reference zeroes y without reading it.
template <class T>
double mv_tolerance(const Dense<T>& op, int i, const Strided<T>& x, double alpha, double beta,
                    double y0) {
  double sum = beta == 0 ? 0 : term(beta, y0);
  int k = 3;
  for (int j = 0; j < op.n; ++j) {
    if (op(i, j) == 0) continue;
    ++k;
    sum += std::fabs(alpha) * term(op(i, j), x.element(j));
  }
  return sum_tolerance<T>(k, sum);
}

// x_i := (M x)_i, M triangular (a unit diagonal as 1): the additions of the row's nonzeros and
// one product each.
template <class T>
double trmv_tolerance(const Dense<T>& op, int i, const Strided<T>& x) {
  double sum = 0;
  int k = 1;
  for (int j = 0; j < op.n; ++j) {
    if (op(i, j) == 0) continue;
    ++k;
    sum += term(op(i, j), x.element(j));
  }
  return sum_tolerance<T>(k, sum);
}

// x := M^-1 b, M triangular. Substitution is backward stable row by row: the computed x is the
// exact solution of (M + dM) x = b with |dM| <= gamma_w |M|, w the most nonzeros a row of M has
// (Higham, Theorem 8.5; its proof holds for any order of each row's sum), so to first order
// |x - x_exact| <= gamma_w |M^-1| |M| |x|, and the two libraries' solutions differ by at most
// 2 gamma_w (|M^-1| |M| |x|)_i = w eps (...). The bound is condition-dependent; the tests use
// well_conditioned_triangular matrices, for which |M^-1| |M| is close to the identity. The
// constant kLevel2Room as for the sums; w denorm_min per entry of |M^-1| |M| for underflow.
// `abs_inverse_times_abs` is |M^-1| |M| (abs_inverse_product below), `x` the reference's
// solution.
template <class T>
double trsv_tolerance(const Dense<double>& abs_inverse_times_abs, int w, int i,
                      const Strided<T>& x) {
  double sum = 0;
  for (int j = 0; j < abs_inverse_times_abs.n; ++j) {
    // A zero coefficient (x_j does not reach x_i) adds nothing, even where x_j is NaN.
    if (abs_inverse_times_abs(i, j) != 0)
      sum += abs_inverse_times_abs(i, j) * std::fabs(double(x.element(j)));
  }
  return kLevel2Room * w * kEps<T> * sum + w * abs_inverse_times_abs.n * kDenormMin<T>;
}

// |M^-1| |M| for a triangular M with a nonzero diagonal, computed in long double (M^-1 by
// substitution, column by column).
template <class T>
Dense<double> abs_inverse_product(const Dense<T>& a) {
  const int n = a.n;
  bool upper = true;
  for (int j = 0; j < n && upper; ++j) {
    for (int i = j + 1; i < n; ++i) upper = upper && a(i, j) == 0;
  }
  std::vector<long double> inv(std::size_t(n) * n, 0);  // column-major
  for (int c = 0; c < n; ++c) {
    std::vector<long double> z(n, 0);
    // Solve a z = e_c.
    for (int s = 0; s < n; ++s) {
      const int i = upper ? n - 1 - s : s;
      long double r = i == c ? 1 : 0;
      for (int j = 0; j < n; ++j) {
        if ((upper && j > i) || (!upper && j < i)) r -= (long double)a(i, j) * z[j];
      }
      z[i] = r / a(i, i);
    }
    for (int i = 0; i < n; ++i) inv[std::size_t(i) + std::size_t(c) * n] = z[i];
  }
  Dense<double> p(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      long double s = 0;
      for (int l = 0; l < n; ++l)
        s += std::fabs(inv[std::size_t(i) + std::size_t(l) * n]) * std::fabs((long double)a(l, j));
      p(i, j) = double(s);
    }
  }
  return p;
}

// The most nonzeros a row of `a` has.
template <class T>
int max_row_nonzeros(const Dense<T>& a) {
  int w = 0;
  for (int i = 0; i < a.m; ++i) {
    int c = 0;
    for (int j = 0; j < a.n; ++j) c += a(i, j) != 0;
    w = c > w ? c : w;
  }
  return w;
}

}  // namespace exoblas_test
