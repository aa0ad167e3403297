// sgemm_gen: runs the SGEMM schedule and writes sgemm.c / sgemm.h into the given folder.
//
//   sgemm_gen OUT_DIR [--print]
//
// The emitted function is
//   void sgemm(void *ctxt, int_fast32_t M, int_fast32_t N, int_fast32_t K,
//              const float *A, const float *B, float *C);
// computing C += A * B for row-major A[M][K], B[K][N], C[M][N], any M, N, K >= 1.
#include <chrono>
#include <cstring>
#include <iostream>

#include "schedule.h"

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::cerr
        << "usage: sgemm_gen OUT_DIR [--print]\n"
           "Schedules the plain sgemm of examples/sgemm/sgemm.exo into an AVX-512 kernel and\n"
           "writes OUT_DIR/sgemm.c and OUT_DIR/sgemm.h.\n";
    return argc < 2 ? 2 : 0;
  }
  try {
    auto t0 = std::chrono::steady_clock::now();
    exocpp::Proc p = sgemm_example::schedule_sgemm();
    auto t1 = std::chrono::steady_clock::now();
    exocpp::emit_c({p}, "sgemm", argv[1]);
    auto t2 = std::chrono::steady_clock::now();
    if (argc > 2 && std::strcmp(argv[2], "--print") == 0) std::cout << p;
    auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::cerr << "sgemm_gen: scheduled in " << ms(t1 - t0) << " ms, emitted in " << ms(t2 - t1)
              << " ms: " << argv[1] << "/sgemm.c, " << argv[1] << "/sgemm.h\n";
    return 0;
  } catch (const exocpp::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
