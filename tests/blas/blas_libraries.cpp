// Loads the reference BLAS and the library under test with dlopen and binds their level-1 and
// level-2 symbols (blas_libraries.h).
#include "blas_libraries.h"

#include <dlfcn.h>

#ifndef EXOBLAS_LIBRARY
#error "EXOBLAS_LIBRARY (the path of the BLAS library under test) must be defined"
#endif

namespace exoblas_test {
namespace {

// Binds symbols of one library, recording those it lacks in `missing`.
class Binder {
 public:
  Binder(void* handle, BlasLibrary& lib, std::vector<std::string>& missing)
      : handle_(handle), lib_(lib), missing_(missing) {}

  template <class R, class... Args>
  void operator()(Symbol<R(Args...)>& symbol, const std::string& name) {
    // dlsym gives a data pointer; POSIX guarantees it converts to a function pointer.
    auto fn = reinterpret_cast<R (*)(Args...)>(dlsym(handle_, name.c_str()));
    if (!fn) missing_.push_back(name);
    symbol = Symbol<R(Args...)>(fn, name, &lib_.path);
  }
  void operator()(int*& variable, const std::string& name) {
    variable = static_cast<int*>(dlsym(handle_, name.c_str()));
    if (!variable) missing_.push_back(name);
  }

 private:
  void* handle_;
  BlasLibrary& lib_;
  std::vector<std::string>& missing_;
};

template <class T>
void bind_fortran(Binder& bind, FortranLevel1<T>& f, const std::string& p) {
  bind(f.asum, p + "asum_");
  bind(f.axpy, p + "axpy_");
  bind(f.copy, p + "copy_");
  bind(f.dot, p + "dot_");
  bind(f.nrm2, p + "nrm2_");
  bind(f.iamax, "i" + p + "amax_");
  bind(f.rot, p + "rot_");
  bind(f.rotg, p + "rotg_");
  bind(f.rotm, p + "rotm_");
  bind(f.rotmg, p + "rotmg_");
  bind(f.scal, p + "scal_");
  bind(f.swap, p + "swap_");
}

template <class T>
void bind_cblas(Binder& bind, CblasLevel1<T>& f, const std::string& p,
                const std::string& complex_p) {
  const std::string c = "cblas_";
  bind(f.asum, c + p + "asum");
  bind(f.axpy, c + p + "axpy");
  bind(f.copy, c + p + "copy");
  bind(f.dot, c + p + "dot");
  bind(f.nrm2, c + p + "nrm2");
  bind(f.iamax, c + "i" + p + "amax");
  bind(f.rot, c + p + "rot");
  bind(f.rotg, c + p + "rotg");
  bind(f.rotm, c + p + "rotm");
  bind(f.rotmg, c + p + "rotmg");
  bind(f.scal, c + p + "scal");
  bind(f.swap, c + p + "swap");
  bind(f.complex_asum, c + complex_p + "asum");  // cblas_scasum, cblas_dzasum
  bind(f.complex_nrm2, c + complex_p + "nrm2");  // cblas_scnrm2, cblas_dznrm2
}

template <class T>
void bind_fortran2(Binder& bind, FortranLevel2<T>& f, const std::string& p) {
  bind(f.gemv, p + "gemv_");
  bind(f.gbmv, p + "gbmv_");
  bind(f.symv, p + "symv_");
  bind(f.sbmv, p + "sbmv_");
  bind(f.spmv, p + "spmv_");
  bind(f.trmv, p + "trmv_");
  bind(f.tbmv, p + "tbmv_");
  bind(f.tpmv, p + "tpmv_");
  bind(f.trsv, p + "trsv_");
  bind(f.tbsv, p + "tbsv_");
  bind(f.tpsv, p + "tpsv_");
  bind(f.ger, p + "ger_");
  bind(f.syr, p + "syr_");
  bind(f.spr, p + "spr_");
  bind(f.syr2, p + "syr2_");
  bind(f.spr2, p + "spr2_");
}

template <class T>
void bind_cblas2(Binder& bind, CblasLevel2<T>& f, const std::string& p) {
  const std::string c = "cblas_" + p;
  bind(f.gemv, c + "gemv");
  bind(f.gbmv, c + "gbmv");
  bind(f.symv, c + "symv");
  bind(f.sbmv, c + "sbmv");
  bind(f.spmv, c + "spmv");
  bind(f.trmv, c + "trmv");
  bind(f.tbmv, c + "tbmv");
  bind(f.tpmv, c + "tpmv");
  bind(f.trsv, c + "trsv");
  bind(f.tbsv, c + "tbsv");
  bind(f.tpsv, c + "tpsv");
  bind(f.ger, c + "ger");
  bind(f.syr, c + "syr");
  bind(f.spr, c + "spr");
  bind(f.syr2, c + "syr2");
  bind(f.spr2, c + "spr2");
}

// Loads `path` once; a failure to load is remembered and thrown on every call.
class Loaded {
 public:
  explicit Loaded(const char* path) {
    lib_.path = path;
    void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!handle) {
      const char* why = dlerror();
      error_ = "cannot load the BLAS library " + lib_.path + ": " + (why ? why : "dlopen failed");
      return;
    }
    Binder bind(handle, lib_, lib_.missing);
    bind_fortran(bind, lib_.s, "s");
    bind_fortran(bind, lib_.d, "d");
    bind(lib_.sdsdot, "sdsdot_");
    bind(lib_.dsdot, "dsdot_");
    bind_cblas(bind, lib_.cblas_s, "s", "sc");
    bind_cblas(bind, lib_.cblas_d, "d", "dz");
    bind(lib_.cblas_sdsdot, "cblas_sdsdot");
    bind(lib_.cblas_dsdot, "cblas_dsdot");
    Binder bind2(handle, lib_, lib_.missing_level2);
    bind_fortran2(bind2, lib_.s2, "s");
    bind_fortran2(bind2, lib_.d2, "d");
    bind_cblas2(bind2, lib_.cblas_s2, "s");
    bind_cblas2(bind2, lib_.cblas_d2, "d");
    bind2(lib_.row_major_strg, "RowMajorStrg");
    bind2(lib_.cblas_call_from_c, "CBLAS_CallFromC");
  }
  const BlasLibrary& get() const {
    if (!error_.empty()) throw std::runtime_error(error_);
    return lib_;
  }

 private:
  BlasLibrary lib_;
  std::string error_;
};

}  // namespace

const BlasLibrary& reference_blas() {
  static const Loaded loaded(kReferenceBlasPath);
  return loaded.get();
}

const BlasLibrary& blas_under_test() {
  static const Loaded loaded(EXOBLAS_LIBRARY);
  return loaded.get();
}

}  // namespace exoblas_test
