// The two BLAS libraries the level-1 tests compare: the library under test (EXOBLAS_LIBRARY,
// exoblas's libexoblas.so) and netlib's reference BLAS (Debian's libblas3 at its own path, not
// the alternatives link, which may point at OpenBLAS). Both are dlopen'ed RTLD_LOCAL |
// RTLD_DEEPBIND, so neither's symbols stand in for the other's, and each symbol is a typed
// function pointer; calling a symbol the library lacks throws, naming the symbol and library.
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
};

// Loaded on first use; throws std::runtime_error with dlerror()'s message (every time it is
// called) when the library cannot be loaded.
const BlasLibrary& reference_blas();
const BlasLibrary& blas_under_test();

}  // namespace exoblas_test
