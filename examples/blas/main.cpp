// blas_gen: runs the GEMM schedules (both float precisions, serial and parallel; the int8 one)
// and the bf16 one) and writes blas.c / blas.h, blas_u8s8.c / blas_u8s8.h and blas_bf16.c /
// blas_bf16.h into the given folder.
//
//   blas_gen OUT_DIR [--print]
//
// The emitted functions are, for row-major A[M][K], B[K][N], C[M][N] and any M, N, K >= 1,
//   void sgemm(void *ctxt, int_fast32_t M, int_fast32_t N, int_fast32_t K,
//              const float *A, const float *B, float *C);          C += A * B
//   void dgemm(...)                                                the same in double
//   void sgemm_parallel(...), dgemm_parallel(...)                  the same on OpenMP's threads
// (the parallel ones run serially when the C file is built without OpenMP), the BLAS helpers
// (sgemm_scale, ...: blas_like.h), and in blas_u8s8.c / blas_u8s8.h
//   void gemm_u8s8(void *ctxt, int_fast32_t M, int_fast32_t NB, int_fast32_t K4,
//                  A (uint8_t[M][4 K4]), Bp (int8_t[NB][K4][64][4]), C (int32_t[M][64 NB]))
//     C += A * B with B[k][n] = Bp[n / 64][k / 4][n % 64][k % 4]
// (AVX512-VNNI; see gemm_u8s8.exo), and in blas_bf16.c / blas_bf16.h
//   void gemm_bf16(void *ctxt, int_fast32_t M, int_fast32_t NB, int_fast32_t K2,
//                  A (exo_bf16[M][2 K2]), Bp (exo_bf16[NB][K2][64][2]), C (float[M][64 NB]))
//     C += A * B with B[k][n] = Bp[n / 64][k / 2][n % 64][k % 2]
// (AVX512-BF16; see gemm_bf16.exo).
#include <chrono>
#include <cstring>
#include <iostream>
#include <vector>

#include "schedule.h"
#include "schedule_dot.h"

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::cerr << "usage: blas_gen OUT_DIR [--print]\n"
                 "Schedules the plain gemm of examples/blas/gemm.exo into AVX-512 SGEMM and "
                 "DGEMM kernels (serial and\nparallel) and an int8 GEMM into AVX512-VNNI, and "
                 "writes OUT_DIR/blas.c, blas.h,\nblas_u8s8.c, blas_u8s8.h and a bf16 GEMM into "
                 "AVX512-BF16: blas_bf16.c, blas_bf16.h.\n";
    return argc < 2 ? 2 : 0;
  }
  using blas_example::kDouble, blas_example::kSingle;
  try {
    auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::vector<exocpp::Proc> procs;
    for (bool parallel : {false, true})
      for (const blas_example::Precision* prec : {&kSingle, &kDouble}) {
        auto t0 = std::chrono::steady_clock::now();
        procs.push_back(blas_example::schedule_gemm(*prec, {.parallel = parallel}));
        std::cerr << "blas_gen: " << procs.back().name() << " scheduled in "
                  << ms(std::chrono::steady_clock::now() - t0) << " ms\n";
      }
    for (const blas_example::Precision* prec : {&kSingle, &kDouble})
      for (const exocpp::Proc& helper : blas_example::schedule_blas_helpers(*prec))
        procs.push_back(helper);
    std::vector<exocpp::Proc> dots;
    for (const blas_example::DotGemm* g :
         {&blas_example::u8s8_gemm(), &blas_example::bf16_gemm()}) {
      auto t0 = std::chrono::steady_clock::now();
      dots.push_back(blas_example::schedule_dot_gemm(*g));
      std::cerr << "blas_gen: " << dots.back().name() << " scheduled in "
                << ms(std::chrono::steady_clock::now() - t0) << " ms\n";
    }
    auto t1 = std::chrono::steady_clock::now();
    exocpp::emit_c(procs, "blas", argv[1]);
    // The VNNI and BF16 kernels in files of their own, built with -mavx512vnni and -mavx512bf16:
    // the flags must not let the compiler put those instructions into the float kernels, which
    // run without them.
    exocpp::emit_c({dots[0]}, "blas_u8s8", argv[1]);
    exocpp::emit_c({dots[1]}, "blas_bf16", argv[1]);
    std::cerr << "blas_gen: emitted in " << ms(std::chrono::steady_clock::now() - t1)
              << " ms: " << argv[1]
              << "/blas.c, blas.h, blas_u8s8.c, blas_u8s8.h, blas_bf16.c, blas_bf16.h\n";
    procs.insert(procs.end(), dots.begin(), dots.end());
    if (argc > 2 && std::strcmp(argv[2], "--print") == 0)
      for (const exocpp::Proc& p : procs) std::cout << p << "\n";
    return 0;
  } catch (const exocpp::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
