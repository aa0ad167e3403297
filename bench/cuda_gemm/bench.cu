// The CUDA GEMM stages against cuBLAS on one GPU, in one run (bench/cuda_gemm/run.sh builds and
// runs it): fp16 A and B, fp32 C, C += A * B at M = N = K (4096 unless given). For each stage:
// its time (best of the repetitions), TFLOP/s, its ratio to cublasGemmEx (fp16 in, fp32
// compute) and to cublasSgemm (fp32), and its largest difference from cuBLAS's result relative
// to the largest |C| (the stages sum k in order; cuBLAS in its own order).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cuda_gemm.h"

#define CHECK(x)                                                                        \
  do {                                                                                  \
    auto e_ = (x);                                                                      \
    if (e_ != 0) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #x, (int)e_); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

namespace {

// Milliseconds of the fastest of `reps` runs of `f` (after one warm-up run).
double best_ms(const std::function<void()>& f, int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  f();
  CHECK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    best = std::min(best, ms);
  }
  CHECK(cudaGetLastError());
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const long long n = argc > 1 ? std::atoll(argv[1]) : 4096;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n <= 0 || n % 128 != 0) {
    std::fprintf(stderr, "usage: bench [N (a multiple of 128)] [repetitions]\n");
    return 2;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, compute capability %d.%d\n", prop.name, prop.multiProcessorCount,
              prop.major, prop.minor);
  std::printf("gemm: M = N = K = %lld, fp16 A and B, fp32 C, best of %d runs\n", n, reps);

  const size_t nn = static_cast<size_t>(n * n);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<__half> ha(nn), hb(nn);
  std::vector<float> fa(nn), fb(nn);
  for (size_t i = 0; i < nn; ++i) {
    ha[i] = __float2half(dist(rng));
    hb[i] = __float2half(dist(rng));
    fa[i] = __half2float(ha[i]);
    fb[i] = __half2float(hb[i]);
  }
  __half *da, *db;
  float *dfa, *dfb, *dc, *dref;
  CHECK(cudaMalloc(&da, nn * sizeof(__half)));
  CHECK(cudaMalloc(&db, nn * sizeof(__half)));
  CHECK(cudaMalloc(&dfa, nn * sizeof(float)));
  CHECK(cudaMalloc(&dfb, nn * sizeof(float)));
  CHECK(cudaMalloc(&dc, nn * sizeof(float)));
  CHECK(cudaMalloc(&dref, nn * sizeof(float)));
  CHECK(cudaMemcpy(da, ha.data(), nn * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb.data(), nn * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dfa, fa.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dfb, fb.data(), nn * sizeof(float), cudaMemcpyHostToDevice));

  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  const float one = 1.0f;
  const int ni = static_cast<int>(n);
  // Row-major C += A * B is column-major C^T += B^T * A^T.
  auto gemm_ex = [&](float* c) {
    CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, db, CUDA_R_16F, ni, da,
                       CUDA_R_16F, ni, &one, c, CUDA_R_32F, ni, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
  };
  auto sgemm = [&] {
    CHECK(
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, dfb, ni, dfa, ni, &one, dc, ni));
  };
  const double flops = 2.0 * static_cast<double>(n) * n * n;
  const double ex_ms = best_ms([&] { gemm_ex(dc); }, reps);
  const double s_ms = best_ms(sgemm, reps);
  std::printf("%-24s %9.3f ms %8.2f TFLOP/s\n", "cublasGemmEx", ex_ms, flops / ex_ms * 1e-9);
  std::printf("%-24s %9.3f ms %8.2f TFLOP/s\n", "cublasSgemm", s_ms, flops / s_ms * 1e-9);

  // Reference result: one GemmEx from zero.
  CHECK(cudaMemset(dref, 0, nn * sizeof(float)));
  gemm_ex(dref);
  std::vector<float> ref(nn), got(nn);
  CHECK(cudaMemcpy(ref.data(), dref, nn * sizeof(float), cudaMemcpyDeviceToHost));
  float scale = 0;
  for (float v : ref) scale = std::max(scale, std::fabs(v));

  struct Stage {
    const char* name;
    void (*run)(void*, int_fast32_t, int_fast32_t, int_fast32_t, const exo_f16*, const exo_f16*,
                float*);
  };
  const Stage stages[] = {{"gemm_naive", gemm_naive},
                          {"gemm_smem_tiled", gemm_smem_tiled},
                          {"gemm_wmma", gemm_wmma},
                          {"gemm_wmma_smem", gemm_wmma_smem},
                          {"gemm_wmma_async", gemm_wmma_async},
                          {"gemm_mma", gemm_mma},
                          {"gemm_mma_pipelined", gemm_mma_pipelined},
                          {"gemm_wmma_large", gemm_wmma_large},
                          {"gemm_mma_large", gemm_mma_large}};
  for (const Stage& st : stages) {
    CHECK(cudaMemset(dc, 0, nn * sizeof(float)));
    st.run(nullptr, n, n, n, da, db, dc);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got.data(), dc, nn * sizeof(float), cudaMemcpyDeviceToHost));
    float err = 0;
    for (size_t i = 0; i < nn; ++i) err = std::max(err, std::fabs(got[i] - ref[i]));
    const double ms = best_ms([&] { st.run(nullptr, n, n, n, da, db, dc); }, reps);
    std::printf("%-24s %9.3f ms %8.2f TFLOP/s  %.3fx GemmEx  %.3fx Sgemm  max diff %.2e\n", st.name,
                ms, flops / ms * 1e-9, ex_ms / ms, s_ms / ms, scale > 0 ? err / scale : err);
  }
  CHECK(cublasDestroy(h));
  return 0;
}
