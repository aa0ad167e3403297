// The bf16 GEMM of the BLAS example (examples/blas/gemm_bf16.exo): the emitted, compiled kernel
// (AVX512-BF16) against a plain C++ loop that sums as the specification says (K in pairs, the
// odd one first, each a fused multiply-add rounded to f32), bit for bit, on every M up to 20
// and on random larger shapes. The schedule itself: blas_dot_schedule_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

extern "C" {
#include "blas_bf16.h"
}

namespace {

bool cpu_has_bf16() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16");
}

#define SKIP_WITHOUT_BF16() \
  if (!cpu_has_bf16())      \
  GTEST_SKIP() << "this CPU has no AVX512-BF16: the generated kernel cannot run here"

struct Problem {
  int M, N, K2;
  std::vector<exo_bf16> A;   // M x 2 K2
  std::vector<exo_bf16> Bp;  // N / 64 x K2 x 64 x 2: B[k, n] = Bp[n / 64, k / 2, n % 64, k % 2]
  std::vector<float> C;      // M x N
  float a(int i, int k) const { return exo_bf16_to_float(A[size_t(i) * 2 * K2 + k]); }
  float b(int k, int n) const {
    return exo_bf16_to_float(Bp[((size_t(n / 64) * K2 + k / 2) * 64 + n % 64) * 2 + k % 2]);
  }
};

// Values m * 2^e with |m| < 256 and e in [-8, 0]: exact in bf16, of both signs and many
// magnitudes, and no sum of their products comes near f32's subnormals (which vdpbf16ps flushes
// to zero and the specification keeps).
Problem random_problem(std::mt19937& rng, int M, int N, int K2) {
  std::uniform_int_distribution<int> mant(-255, 255), exp(-8, 0);
  std::uniform_real_distribution<float> acc(-100.0f, 100.0f);
  auto value = [&] { return exo_bf16_from_float(std::ldexp(float(mant(rng)), exp(rng))); };
  Problem p{M,
            N,
            K2,
            std::vector<exo_bf16>(size_t(M) * 2 * K2),
            std::vector<exo_bf16>(size_t(K2) * N * 2),
            std::vector<float>(size_t(M) * N)};
  for (exo_bf16& x : p.A) x = value();
  for (exo_bf16& x : p.Bp) x = value();
  for (float& x : p.C) x = acc(rng);
  return p;
}

// The definition: C += A * B, each pair of K summed odd one first, each a fused multiply-add: the
// exact product (in double, even past f32's range) added and the sum rounded to f32 once.
std::vector<float> reference(const Problem& p) {
  std::vector<float> C = p.C;
  for (int i = 0; i < p.M; i++)
    for (int j = 0; j < p.N; j++) {
      float sum = C[size_t(i) * p.N + j];
      for (int ko = 0; ko < p.K2; ko++)
        for (int k : {2 * ko + 1, 2 * ko})
          sum = float(double(sum) + double(p.a(i, k)) * double(p.b(k, j)));
      C[size_t(i) * p.N + j] = sum;
    }
  return C;
}

// "" or the first difference between the generated kernel and the definition.
std::string run_and_compare(Problem p) {
  const std::vector<float> expected = reference(p);
  gemm_bf16(nullptr, p.M, p.N / 64, p.K2, exo_win_2bf16c{p.A.data(), {2 * p.K2, 1}},
            exo_win_4bf16c{p.Bp.data(), {128 * p.K2, 128, 2, 1}},
            exo_win_2f32{p.C.data(), {p.N, 1}});
  for (size_t e = 0; e < expected.size(); ++e)
    if (std::memcmp(&p.C[e], &expected[e], sizeof(float)) != 0 &&
        !(std::isnan(p.C[e]) && std::isnan(expected[e])))
      return "M=" + std::to_string(p.M) + " N=" + std::to_string(p.N) +
             " K2=" + std::to_string(p.K2) + ": C[" + std::to_string(e / p.N) + ", " +
             std::to_string(e % p.N) + "] = " + std::to_string(p.C[e]) + ", expected " +
             std::to_string(expected[e]);
  return "";
}

}  // namespace

TEST(GemmBf16Generated, CorrectForEveryMUpTo20) {
  SKIP_WITHOUT_BF16();
  std::mt19937 rng(1);
  int failures = 0;
  for (int M = 1; M <= 20; ++M)
    for (int N : {64, 128, 192})
      for (int K2 = 1; K2 <= 9; ++K2) {
        std::string diff = run_and_compare(random_problem(rng, M, N, K2));
        if (!diff.empty() && failures++ < 5) ADD_FAILURE() << diff;
      }
}

TEST(GemmBf16Generated, CorrectOnRandomLargerShapes) {
  SKIP_WITHOUT_BF16();
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> m(1, 300), n(1, 8), k2(1, 600);
  for (int t = 0; t < 10; ++t)
    EXPECT_EQ(run_and_compare(random_problem(rng, m(rng), 64 * n(rng), k2(rng))), "");
}

// The largest bf16 values' products are past f32's range. The first of a pair makes the sum -inf;
// the second, added exactly (fused), leaves it -inf: had the product been rounded to f32 first,
// it would be +inf and the sum NaN.
TEST(GemmBf16Generated, ProductsPastF32sRangeAreAddedFusedAsTheDefinitionSays) {
  SKIP_WITHOUT_BF16();
  std::mt19937 rng(3);
  Problem p = random_problem(rng, 7, 64, 3);
  const exo_bf16 big = exo_bf16_from_float(std::ldexp(255.0f, 120));
  for (exo_bf16& x : p.A) x = big;
  for (size_t e = 0; e < p.Bp.size(); ++e)
    p.Bp[e] = e % 2 == 0 ? big : exo_bf16_from_float(std::ldexp(-255.0f, 120));
  const std::vector<float> expected = reference(p);
  EXPECT_TRUE(std::isinf(expected[0]) && expected[0] < 0);
  EXPECT_EQ(run_and_compare(p), "");
}
