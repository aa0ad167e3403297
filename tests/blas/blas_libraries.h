// The two BLAS libraries the level-1 and level-2 tests compare: the library under test
// (EXOBLAS_LIBRARY, exoblas's libexoblas.so) and netlib's reference BLAS (Debian's libblas3 at
// its own path, not the alternatives link, which may point at OpenBLAS). Both are dlopen'ed
// RTLD_LOCAL | RTLD_DEEPBIND, so neither's symbols stand in for the other's (each library's
// routines also call its own xerbla_ and cblas_xerbla, whatever the test program defines), and
// each symbol is a typed function pointer; calling a symbol the library lacks throws, naming the
// symbol and library.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace exoblas_test {

constexpr const char* kReferenceBlasPath = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3";

// One exported function. Calling it when the library lacks the symbol throws
// std::runtime_error("<library> has no symbol <name>").
template <class F>
class Symbol;
template <class R, class... Args>
class Symbol<R(Args...)> {
 public:
  Symbol() = default;
  Symbol(R (*fn)(Args...), std::string name, const std::string* library)
      : fn_(fn), name_(std::move(name)), library_(library) {}
  R operator()(Args... args) const {
    if (!fn_) throw std::runtime_error(*library_ + " has no symbol " + name_);
    return fn_(args...);
  }
  bool present() const { return fn_ != nullptr; }
  const std::string& name() const { return name_; }

 private:
  R (*fn_)(Args...) = nullptr;
  std::string name_;
  const std::string* library_ = nullptr;
};

// The Fortran level-1 routines of one precision T (gfortran ABI: every argument by pointer,
// INTEGER is int, a REAL / DOUBLE PRECISION function returns float / double).
template <class T>
struct FortranLevel1 {
  Symbol<T(const int* n, const T* x, const int* incx)> asum;
  Symbol<void(const int* n, const T* alpha, const T* x, const int* incx, T* y, const int* incy)>
      axpy;
  Symbol<void(const int* n, const T* x, const int* incx, T* y, const int* incy)> copy;
  Symbol<T(const int* n, const T* x, const int* incx, const T* y, const int* incy)> dot;
  Symbol<T(const int* n, const T* x, const int* incx)> nrm2;
  Symbol<int(const int* n, const T* x, const int* incx)> iamax;
  Symbol<void(const int* n, T* x, const int* incx, T* y, const int* incy, const T* c, const T* s)>
      rot;
  Symbol<void(T* a, T* b, T* c, T* s)> rotg;
  Symbol<void(const int* n, T* x, const int* incx, T* y, const int* incy, const T* param)> rotm;
  Symbol<void(T* d1, T* d2, T* x1, const T* y1, T* param)> rotmg;
  Symbol<void(const int* n, const T* alpha, T* x, const int* incx)> scal;
  Symbol<void(const int* n, T* x, const int* incx, T* y, const int* incy)> swap;
};

// The CBLAS level-1 routines of one precision T (standard netlib cblas.h signatures, 32-bit
// integers; cblas_i?amax returns a 0-based size_t).
template <class T>
struct CblasLevel1 {
  Symbol<T(int n, const T* x, int incx)> asum;
  Symbol<void(int n, T alpha, const T* x, int incx, T* y, int incy)> axpy;
  Symbol<void(int n, const T* x, int incx, T* y, int incy)> copy;
  Symbol<T(int n, const T* x, int incx, const T* y, int incy)> dot;
  Symbol<T(int n, const T* x, int incx)> nrm2;
  Symbol<std::size_t(int n, const T* x, int incx)> iamax;
  Symbol<void(int n, T* x, int incx, T* y, int incy, T c, T s)> rot;
  Symbol<void(T* a, T* b, T* c, T* s)> rotg;
  Symbol<void(int n, T* x, int incx, T* y, int incy, const T* param)> rotm;
  Symbol<void(T* d1, T* d2, T* x1, T y1, T* param)> rotmg;
  Symbol<void(int n, T alpha, T* x, int incx)> scal;
  Symbol<void(int n, T* x, int incx, T* y, int incy)> swap;
  // ?casum / ?cnrm2 of the complex vector of this real precision (scasum, dzasum, ...).
  Symbol<T(int n, const void* x, int incx)> complex_asum;
  Symbol<T(int n, const void* x, int incx)> complex_nrm2;
};

// The Fortran level-2 routines of one precision T (gfortran ABI: every argument by pointer, and
// the length of each CHARACTER argument appended, in order, as a size_t).
template <class T>
struct FortranLevel2 {
  using Len = std::size_t;
  Symbol<void(const char* trans, const int* m, const int* n, const T* alpha, const T* a,
              const int* lda, const T* x, const int* incx, const T* beta, T* y, const int* incy,
              Len)>
      gemv;
  Symbol<void(const char* trans, const int* m, const int* n, const int* kl, const int* ku,
              const T* alpha, const T* a, const int* lda, const T* x, const int* incx,
              const T* beta, T* y, const int* incy, Len)>
      gbmv;
  Symbol<void(const char* uplo, const int* n, const T* alpha, const T* a, const int* lda,
              const T* x, const int* incx, const T* beta, T* y, const int* incy, Len)>
      symv;
  Symbol<void(const char* uplo, const int* n, const int* k, const T* alpha, const T* a,
              const int* lda, const T* x, const int* incx, const T* beta, T* y, const int* incy,
              Len)>
      sbmv;
  Symbol<void(const char* uplo, const int* n, const T* alpha, const T* ap, const T* x,
              const int* incx, const T* beta, T* y, const int* incy, Len)>
      spmv;
  // trmv and trsv
  using Full = void(const char* uplo, const char* trans, const char* diag, const int* n, const T* a,
                    const int* lda, T* x, const int* incx, Len, Len, Len);
  // tbmv and tbsv
  using Band = void(const char* uplo, const char* trans, const char* diag, const int* n,
                    const int* k, const T* a, const int* lda, T* x, const int* incx, Len, Len, Len);
  // tpmv and tpsv
  using Packed = void(const char* uplo, const char* trans, const char* diag, const int* n,
                      const T* ap, T* x, const int* incx, Len, Len, Len);
  Symbol<Full> trmv, trsv;
  Symbol<Band> tbmv, tbsv;
  Symbol<Packed> tpmv, tpsv;
  Symbol<void(const int* m, const int* n, const T* alpha, const T* x, const int* incx, const T* y,
              const int* incy, T* a, const int* lda)>
      ger;
  Symbol<void(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, T* a,
              const int* lda, Len)>
      syr;
  Symbol<void(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx, T* ap,
              Len)>
      spr;
  Symbol<void(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx,
              const T* y, const int* incy, T* a, const int* lda, Len)>
      syr2;
  Symbol<void(const char* uplo, const int* n, const T* alpha, const T* x, const int* incx,
              const T* y, const int* incy, T* ap, Len)>
      spr2;
};

// The CBLAS level-2 routines of one precision T (netlib cblas.h signatures; the enumerations
// CBLAS_LAYOUT, CBLAS_TRANSPOSE, CBLAS_UPLO and CBLAS_DIAG are passed as the ints they are:
// level2_harness.h has their values).
template <class T>
struct CblasLevel2 {
  Symbol<void(int layout, int trans, int m, int n, T alpha, const T* a, int lda, const T* x,
              int incx, T beta, T* y, int incy)>
      gemv;
  Symbol<void(int layout, int trans, int m, int n, int kl, int ku, T alpha, const T* a, int lda,
              const T* x, int incx, T beta, T* y, int incy)>
      gbmv;
  Symbol<void(int layout, int uplo, int n, T alpha, const T* a, int lda, const T* x, int incx,
              T beta, T* y, int incy)>
      symv;
  Symbol<void(int layout, int uplo, int n, int k, T alpha, const T* a, int lda, const T* x,
              int incx, T beta, T* y, int incy)>
      sbmv;
  Symbol<void(int layout, int uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y,
              int incy)>
      spmv;
  using Full = void(int layout, int uplo, int trans, int diag, int n, const T* a, int lda, T* x,
                    int incx);
  using Band = void(int layout, int uplo, int trans, int diag, int n, int k, const T* a, int lda,
                    T* x, int incx);
  using Packed = void(int layout, int uplo, int trans, int diag, int n, const T* ap, T* x,
                      int incx);
  Symbol<Full> trmv, trsv;
  Symbol<Band> tbmv, tbsv;
  Symbol<Packed> tpmv, tpsv;
  Symbol<void(int layout, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,
              int lda)>
      ger;
  Symbol<void(int layout, int uplo, int n, T alpha, const T* x, int incx, T* a, int lda)> syr;
  Symbol<void(int layout, int uplo, int n, T alpha, const T* x, int incx, T* ap)> spr;
  Symbol<void(int layout, int uplo, int n, T alpha, const T* x, int incx, const T* y, int incy,
              T* a, int lda)>
      syr2;
  Symbol<void(int layout, int uplo, int n, T alpha, const T* x, int incx, const T* y, int incy,
              T* ap)>
      spr2;
};

struct BlasLibrary {
  std::string path;
  FortranLevel1<float> s;
  FortranLevel1<double> d;
  Symbol<float(const int* n, const float* sb, const float* x, const int* incx, const float* y,
               const int* incy)>
      sdsdot;
  Symbol<double(const int* n, const float* x, const int* incx, const float* y, const int* incy)>
      dsdot;
  CblasLevel1<float> cblas_s;
  CblasLevel1<double> cblas_d;
  Symbol<float(int n, float sb, const float* x, int incx, const float* y, int incy)> cblas_sdsdot;
  Symbol<double(int n, const float* x, int incx, const float* y, int incy)> cblas_dsdot;

  template <class T>
  const FortranLevel1<T>& fortran() const {
    if constexpr (sizeof(T) == sizeof(float)) {
      return s;
    } else {
      return d;
    }
  }
  template <class T>
  const CblasLevel1<T>& cblas() const {
    if constexpr (sizeof(T) == sizeof(float)) {
      return cblas_s;
    } else {
      return cblas_d;
    }
  }
  // The level-1 symbols above (Fortran and CBLAS) that the library does not export.
  std::vector<std::string> missing;

  FortranLevel2<float> s2;
  FortranLevel2<double> d2;
  CblasLevel2<float> cblas_s2;
  CblasLevel2<double> cblas_d2;
  // netlib CBLAS's globals (cblas_globals.c), which its CBLAS testers' cblas_xerbla reads: null
  // when the library does not export them.
  int* row_major_strg = nullptr;
  int* cblas_call_from_c = nullptr;

  template <class T>
  const FortranLevel2<T>& fortran2() const {
    if constexpr (sizeof(T) == sizeof(float)) {
      return s2;
    } else {
      return d2;
    }
  }
  template <class T>
  const CblasLevel2<T>& cblas2() const {
    if constexpr (sizeof(T) == sizeof(float)) {
      return cblas_s2;
    } else {
      return cblas_d2;
    }
  }
  // The level-2 symbols above (Fortran, CBLAS and the two globals) that the library does not
  // export.
  std::vector<std::string> missing_level2;
};

// Loaded on first use; throws std::runtime_error with dlerror()'s message (every time it is
// called) when the library cannot be loaded.
const BlasLibrary& reference_blas();
const BlasLibrary& blas_under_test();

}  // namespace exoblas_test
