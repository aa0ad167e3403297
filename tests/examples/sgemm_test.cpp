// The SGEMM example: the schedule is checked twice, as every rewrite is — the scheduled proc
// against the plain one in the reference interpreter, and the emitted, compiled kernel against
// a plain C++ loop on every M, N, K in 1..70 and on random larger shapes.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "kernels.h"
#include "schedule.h"

extern "C" {
#include "sgemm.h"
}

using namespace exocpp;

namespace {

bool cpu_has_avx512() { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"); }

// C += A * B, loops ordered i, k, j so the reference itself is quick.
void reference(int M, int N, int K, const float* A, const float* B, float* C) {
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++)
        C[size_t(i) * N + j] += A[size_t(i) * K + k] * B[size_t(k) * N + j];
}

// Integer-valued inputs: every partial sum is exact in float, so any summation order agrees.
std::vector<float> random_matrix(std::mt19937& rng, size_t n) {
  std::uniform_int_distribution<int> d(-4, 4);
  std::vector<float> m(n);
  for (float& x : m) x = float(d(rng));
  return m;
}

// "" or the first difference.
std::string run_and_compare(std::mt19937& rng, int M, int N, int K) {
  std::vector<float> A = random_matrix(rng, size_t(M) * K), B = random_matrix(rng, size_t(K) * N);
  std::vector<float> C = random_matrix(rng, size_t(M) * N), R = C;
  sgemm(nullptr, M, N, K, A.data(), B.data(), C.data());
  reference(M, N, K, A.data(), B.data(), R.data());
  for (size_t i = 0; i < C.size(); ++i)
    if (C[i] != R[i])
      return "M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K) +
             ": C[" + std::to_string(i / N) + ", " + std::to_string(i % N) +
             "] = " + std::to_string(C[i]) + ", expected " + std::to_string(R[i]);
  return "";
}

Proc plain_sgemm() { return parse_module(sgemm_example::sgemm_source()).proc("sgemm"); }

}  // namespace

// A small K block makes both K parts (full blocks and the tail) appear at interpreter sizes.
TEST(SgemmSchedule, ScheduledProcComputesThePlainOneInTheInterpreter) {
  Proc scheduled = sgemm_example::schedule_sgemm({.kc = 8});
  const std::vector<std::array<int, 3>> shapes = {
      {6, 64, 8}, {13, 70, 19}, {5, 17, 3}, {7, 129, 9}};
  for (auto [M, N, K] : shapes)
    EXPECT_EQ(compare_procs(plain_sgemm(), scheduled, {{"M", M}, {"N", N}, {"K", K}}), "")
        << "M=" << M << " N=" << N << " K=" << K;
}

TEST(SgemmSchedule, UnpackedVariantComputesThePlainOne) {
  Proc scheduled = sgemm_example::schedule_sgemm({.kc = 8, .pack_b = false});
  EXPECT_EQ(compare_procs(plain_sgemm(), scheduled, {{"M", 13}, {"N", 70}, {"K", 19}}), "");
}

TEST(SgemmSchedule, ScheduledProcCallsTheAvx512Kernels) {
  std::string text = to_string(sgemm_example::schedule_sgemm());
  EXPECT_NE(text.find("gemm_6x64_avx512("), std::string::npos) << text;
  EXPECT_NE(text.find("gemm_6xn_avx512("), std::string::npos) << text;
  EXPECT_NE(text.find("gemm_edge_avx512("), std::string::npos) << text;
}

// The right-edge kernel against its specification, at every vector count and around each
// boundary between them (one to four vectors, the last masked).
TEST(SgemmSchedule, TheRightEdgeKernelComputesItsSpecificationForEveryWidth) {
  const Proc spec = parse_module(sgemm_example::sgemm_source()).proc("gemm_6xn");
  const Proc kernel = sgemm_example::schedule_kernel_6xn(spec);
  for (int n : {1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63})
    EXPECT_EQ(compare_procs(spec, kernel, {{"N", n}, {"K", 3}}), "") << "N = " << n;
}

TEST(SgemmGenerated, CorrectForEveryShapeUpTo70) {
  if (!cpu_has_avx512())
    GTEST_SKIP() << "this CPU has no AVX-512F/FMA: the generated kernel cannot run here";
  std::mt19937 rng(1);
  int failures = 0;
  for (int M = 1; M <= 70 && failures < 5; ++M)
    for (int N = 1; N <= 70 && failures < 5; ++N)
      for (int K = 1; K <= 70 && failures < 5; ++K) {
        std::string diff = run_and_compare(rng, M, N, K);
        if (!diff.empty()) {
          ADD_FAILURE() << diff;
          ++failures;
        }
      }
}

TEST(SgemmGenerated, CorrectOnRandomLargerShapes) {
  if (!cpu_has_avx512())
    GTEST_SKIP() << "this CPU has no AVX-512F/FMA: the generated kernel cannot run here";
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> d(71, 700);
  for (int t = 0; t < 12; ++t) {
    int M = d(rng), N = d(rng), K = d(rng);
    EXPECT_EQ(run_and_compare(rng, M, N, K), "");
  }
  EXPECT_EQ(run_and_compare(rng, 6, 64, 2048), "");
  EXPECT_EQ(run_and_compare(rng, 1, 1, 1100), "");
}
