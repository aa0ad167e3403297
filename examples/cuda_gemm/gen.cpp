// cuda_gemm_gen OUT_DIR: writes OUT_DIR/cuda_gemm.cu and OUT_DIR/cuda_gemm.h, every stage of the
// CUDA GEMM schedule (cuda_gemm_schedule.h) as a host function taking device pointers:
//   void gemm_<stage>(void *ctxt, int_fast32_t M, int_fast32_t N, int_fast32_t K,
//                     const exo_f16 *A, const exo_f16 *B, float *C);
// Build the .cu with nvcc -fmad=false for the interpreter's rounding.
#include <iostream>

#include "cuda_gemm_schedule.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cuda_gemm_gen OUT_DIR\n";
    return 2;
  }
  try {
    exocpp::emit_cuda(cuda_gemm_example::all_stages(), "cuda_gemm", argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "cuda_gemm_gen: " << e.what() << "\n";
    return 1;
  }
  std::cout << "wrote " << argv[1] << "/cuda_gemm.cu and " << argv[1] << "/cuda_gemm.h\n";
  return 0;
}
