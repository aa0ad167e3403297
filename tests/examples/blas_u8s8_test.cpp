// The int8 GEMM of the BLAS example (examples/blas/gemm_u8s8.exo): the emitted, compiled kernel
// (AVX512-VNNI) against a plain C++ loop on every M up to 20 and on random larger shapes, with
// bytes over their whole range and sums that wrap at 32 bits. The schedule itself:
// blas_dot_schedule_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

extern "C" {
#include "blas_u8s8.h"
}

namespace {

bool cpu_has_vnni() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni");
}

#define SKIP_WITHOUT_VNNI() \
  if (!cpu_has_vnni())      \
  GTEST_SKIP() << "this CPU has no AVX512-VNNI: the generated kernel cannot run here"

struct Problem {
  int M, N, K4;
  std::vector<uint8_t> A;  // M x 4 K4
  std::vector<int8_t> Bp;  // N / 64 x K4 x 64 x 4: B[k, n] = Bp[n / 64, k / 4, n % 64, k % 4]
  std::vector<int32_t> C;  // M x N
  int8_t b(int k, int n) const {
    return Bp[((size_t(n / 64) * K4 + k / 4) * 64 + n % 64) * 4 + k % 4];
  }
};

Problem random_problem(std::mt19937& rng, int M, int N, int K4) {
  std::uniform_int_distribution<int> byte(0, 255), sbyte(-128, 127), word(-1000000, 1000000);
  Problem p{M,
            N,
            K4,
            std::vector<uint8_t>(size_t(M) * 4 * K4),
            std::vector<int8_t>(size_t(K4) * N * 4),
            std::vector<int32_t>(size_t(M) * N)};
  for (uint8_t& x : p.A) x = uint8_t(byte(rng));
  for (int8_t& x : p.Bp) x = int8_t(sbyte(rng));
  for (int32_t& x : p.C) x = word(rng);
  return p;
}

// C += A * B with 32-bit wrap-around, the definition.
std::vector<int32_t> reference(const Problem& p) {
  std::vector<int32_t> C = p.C;
  for (int i = 0; i < p.M; i++)
    for (int j = 0; j < p.N; j++) {
      uint32_t sum = uint32_t(C[size_t(i) * p.N + j]);
      for (int k = 0; k < 4 * p.K4; k++)
        sum += uint32_t(int32_t(p.A[size_t(i) * 4 * p.K4 + k]) * int32_t(p.b(k, j)));
      C[size_t(i) * p.N + j] = int32_t(sum);
    }
  return C;
}

// "" or the first difference between the generated kernel and the definition.
std::string run_and_compare(Problem p) {
  const std::vector<int32_t> expected = reference(p);
  gemm_u8s8(nullptr, p.M, p.N / 64, p.K4, exo_win_2ui8c{p.A.data(), {4 * p.K4, 1}},
            exo_win_4i8c{p.Bp.data(), {256 * p.K4, 256, 4, 1}}, exo_win_2i32{p.C.data(), {p.N, 1}});
  for (size_t e = 0; e < expected.size(); ++e)
    if (p.C[e] != expected[e])
      return "M=" + std::to_string(p.M) + " N=" + std::to_string(p.N) +
             " K4=" + std::to_string(p.K4) + ": C[" + std::to_string(e / p.N) + ", " +
             std::to_string(e % p.N) + "] = " + std::to_string(p.C[e]) + ", expected " +
             std::to_string(expected[e]);
  return "";
}

}  // namespace

TEST(GemmU8s8Generated, CorrectForEveryMUpTo20) {
  SKIP_WITHOUT_VNNI();
  std::mt19937 rng(1);
  int failures = 0;
  for (int M = 1; M <= 20; ++M)
    for (int N : {64, 128, 192})
      for (int K4 = 1; K4 <= 9; ++K4) {
        std::string diff = run_and_compare(random_problem(rng, M, N, K4));
        if (!diff.empty() && failures++ < 5) ADD_FAILURE() << diff;
      }
}

TEST(GemmU8s8Generated, CorrectOnRandomLargerShapes) {
  SKIP_WITHOUT_VNNI();
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> m(1, 300), n(1, 8), k4(1, 300);
  for (int t = 0; t < 10; ++t)
    EXPECT_EQ(run_and_compare(random_problem(rng, m(rng), 64 * n(rng), k4(rng))), "");
}

// 255 x -128 over 80,000 products is -2.6e9: the sums wrap past INT32_MIN, in the kernel as in
// the definition (and as vpdpbusd does).
TEST(GemmU8s8Generated, SumsWrapAt32Bits) {
  SKIP_WITHOUT_VNNI();
  std::mt19937 rng(3);
  Problem p = random_problem(rng, 7, 64, 20000);
  for (uint8_t& x : p.A) x = 255;
  for (int8_t& x : p.Bp) x = -128;
  EXPECT_EQ(run_and_compare(p), "");
}
