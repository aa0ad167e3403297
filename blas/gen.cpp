// exoblas_gen: schedules every exoblas kernel (routine.h) and writes exoblas_kernels.c / .h.
//
//   exoblas_gen OUT_DIR [--print]
//
// Each kernel is the routine's plain proc in one precision, scheduled: a window argument of
// any stride, and the unit-stride case vectorized with AVX-512 (the emitted C needs -mavx512f
// -mfma). --print writes every scheduled proc to stdout as text.
#include <chrono>
#include <cstring>
#include <iostream>
#include <vector>

#include "routine.h"

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::cerr << "usage: exoblas_gen OUT_DIR [--print]\n"
                 "Schedules exoblas's kernels and writes OUT_DIR/exoblas_kernels.c and .h.\n";
    return argc < 2 ? 2 : 0;
  }
  const bool print = argc > 2 && std::strcmp(argv[2], "--print") == 0;
  try {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<exocpp::Proc> procs;
    std::vector<exoblas::Routine> routines = exoblas::level1();
    for (exoblas::Routine& r : exoblas::level2()) routines.push_back(std::move(r));
    for (const exoblas::Routine& r : routines)
      for (const exoblas::Variant& v : r.variants) {
        procs.push_back(exoblas::build(r, v));
        if (print) std::cout << procs.back() << "\n";
      }
    exocpp::emit_c(procs, "exoblas_kernels", argv[1]);
    std::cerr << "exoblas_gen: " << procs.size() << " kernels scheduled and emitted in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
              << " s: " << argv[1] << "/exoblas_kernels.c, exoblas_kernels.h\n";
    return 0;
  } catch (const exocpp::Error& e) {
    std::cerr << "exoblas_gen: " << e.what() << "\n";
    return 1;
  }
}
