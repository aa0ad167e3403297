// The GEMM example (examples/blas): the schedule is checked twice, as every rewrite is — the
// scheduled proc against the plain one in the reference interpreter, at both precisions, serial
// and parallel — and each emitted, compiled kernel against a plain C++ loop on every M, N, K
// up to a bound that covers two tiles and every edge, and on random larger shapes.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <unistd.h>

#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.h"
#include "schedule.h"

extern "C" {
#include "blas.h"
#include "blas_like.h"
}

using namespace exocpp;
using blas_example::kDouble;
using blas_example::kSingle;
using blas_example::Precision;

namespace {

// The parallel kernels' threads (OpenMP's; without OpenMP they run serially, still checked).
void use_two_threads() {
#ifdef _OPENMP
  omp_set_num_threads(2);
#endif
}

bool cpu_has_avx512() { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"); }

// C += A * B, loops ordered i, k, j so the reference itself is quick.
template <typename T>
void reference(int M, int N, int K, const T* A, const T* B, T* C) {
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++)
        C[size_t(i) * N + j] += A[size_t(i) * K + k] * B[size_t(k) * N + j];
}

// Integer-valued inputs: every partial sum is exact in float, so any summation order agrees.
template <typename T>
std::vector<T> random_matrix(std::mt19937& rng, size_t n) {
  std::uniform_int_distribution<int> d(-4, 4);
  std::vector<T> m(n);
  for (T& x : m) x = T(d(rng));
  return m;
}

// C += A * B on dense row-major matrices.
template <typename T>
using GemmFn = std::function<void(int M, int N, int K, const T* A, const T* B, T* C)>;

// A generated entry point (which takes windows: rows of any stride) on dense matrices.
template <typename T, typename ConstWin, typename Win>
GemmFn<T> dense(void (*gemm)(void*, int_fast32_t, int_fast32_t, int_fast32_t, ConstWin, ConstWin,
                             Win)) {
  return [gemm](int M, int N, int K, const T* A, const T* B, T* C) {
    gemm(nullptr, M, N, K, ConstWin{A, {K, 1}}, ConstWin{B, {N, 1}}, Win{C, {N, 1}});
  };
}

// "" or the first difference between `gemm` and the reference.
template <typename T>
std::string run_and_compare(GemmFn<T> gemm, std::mt19937& rng, int M, int N, int K) {
  std::vector<T> A = random_matrix<T>(rng, size_t(M) * K), B = random_matrix<T>(rng, size_t(K) * N);
  std::vector<T> C = random_matrix<T>(rng, size_t(M) * N), R = C;
  gemm(M, N, K, A.data(), B.data(), C.data());
  reference(M, N, K, A.data(), B.data(), R.data());
  for (size_t i = 0; i < C.size(); ++i)
    if (C[i] != R[i])
      return "M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K) +
             ": C[" + std::to_string(i / N) + ", " + std::to_string(i % N) +
             "] = " + std::to_string(C[i]) + ", expected " + std::to_string(R[i]);
  return "";
}

// Every shape with M, N, K in 1..bound; stops at the fifth failure.
template <typename T>
void check_every_shape_up_to(GemmFn<T> gemm, int bound) {
  std::mt19937 rng(1);
  int failures = 0;
  for (int M = 1; M <= bound && failures < 5; ++M)
    for (int N = 1; N <= bound && failures < 5; ++N)
      for (int K = 1; K <= bound && failures < 5; ++K) {
        std::string diff = run_and_compare(gemm, rng, M, N, K);
        if (!diff.empty()) {
          ADD_FAILURE() << diff;
          ++failures;
        }
      }
}

template <typename T>
void check_random_larger_shapes(GemmFn<T> gemm) {
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> d(71, 700);
  for (int t = 0; t < 12; ++t) {
    int M = d(rng), N = d(rng), K = d(rng);
    EXPECT_EQ(run_and_compare(gemm, rng, M, N, K), "");
  }
  EXPECT_EQ(run_and_compare(gemm, rng, 6, 64, 2048), "");
  EXPECT_EQ(run_and_compare(gemm, rng, 1, 1, 1100), "");
  EXPECT_EQ(run_and_compare(gemm, rng, 13, 33, 2100), "");  // more than one K block
  // Full blocks of packed panels, a partial last block and a right edge at either precision.
  EXPECT_EQ(run_and_compare(gemm, rng, 20, 2200, 1030), "");
}

// The interpreter shapes: both K parts (a small K block makes full blocks and a tail appear),
// one and two rows of tiles, full tiles and both edges at the precision's tile width, and
// (with blocks of 2 panels) a full block of packed panels beside a partial one.
std::vector<std::array<int, 3>> interpreter_shapes(const Precision& prec) {
  const int nr = prec.tile_columns();
  return {{6, nr, 8}, {13, nr + 6, 19}, {5, 17, 3}, {7, 2 * nr + 1, 9}, {12, 3 * nr + 5, 9}};
}

void expect_schedule_computes_plain(const Precision& prec,
                                    const blas_example::ScheduleOptions& opts) {
  Proc scheduled = blas_example::schedule_gemm(prec, opts);
  for (auto [M, N, K] : interpreter_shapes(prec))
    EXPECT_EQ(
        compare_procs(blas_example::plain_gemm(prec), scheduled, {{"M", M}, {"N", N}, {"K", K}}),
        "")
        << scheduled.name() << " at M=" << M << " N=" << N << " K=" << K;
}

}  // namespace

TEST(GemmSchedule, SgemmComputesThePlainOneInTheInterpreter) {
  expect_schedule_computes_plain(kSingle, {.kc = 8, .panels = 2});
}

TEST(GemmSchedule, DgemmComputesThePlainOneInTheInterpreter) {
  expect_schedule_computes_plain(kDouble, {.kc = 8, .panels = 2});
}

TEST(GemmSchedule, ParallelSgemmComputesThePlainOneInTheInterpreter) {
  expect_schedule_computes_plain(kSingle, {.kc = 8, .panels = 2, .parallel = true});
}

TEST(GemmSchedule, UnpackedVariantComputesThePlainOne) {
  Proc scheduled = blas_example::schedule_gemm(kSingle, {.kc = 8, .pack_b = false});
  EXPECT_EQ(compare_procs(blas_example::plain_gemm(kSingle), scheduled,
                          {{"M", 13}, {"N", 70}, {"K", 19}}),
            "");
}

TEST(GemmSchedule, DgemmIsMadeOfF64Kernels) {
  std::string text = to_string(blas_example::schedule_gemm(kDouble));
  for (const char* kernel : {"dgemm_tile_6_avx512(", "dgemm_tile_right_avx512(",
                             "dgemm_tile_bottom_avx512(", "dgemm_tile_1_avx512("})
    EXPECT_NE(text.find(kernel), std::string::npos) << kernel << " in\n" << text;
  EXPECT_EQ(text.find("f32"), std::string::npos) << text;
}

TEST(GemmSchedule, SgemmCallsTheAvx512Kernels) {
  std::string text = to_string(blas_example::schedule_gemm(kSingle));
  for (const char* kernel : {"sgemm_tile_6_avx512(", "sgemm_tile_right_avx512(",
                             "sgemm_tile_bottom_avx512(", "sgemm_tile_5_avx512("})
    EXPECT_NE(text.find(kernel), std::string::npos) << kernel << " in\n" << text;
}

TEST(GemmSchedule, ParallelVariantRunsTheRowTilesOfAPackedBlockInAParLoop) {
  std::string text = to_string(blas_example::schedule_gemm(kSingle, {.parallel = true}));
  EXPECT_NE(text.find("in par(0, M / 6)"), std::string::npos) << text;
}

TEST(GemmSchedule, CacheSizesArePositiveAndGrowWithTheLevel) {
  const long l1 = blas_example::cache_bytes(1), l2 = blas_example::cache_bytes(2),
             l3 = blas_example::cache_bytes(3);
  EXPECT_GT(l1, 0);
  EXPECT_LE(l1, l2);
  EXPECT_LE(l2, l3);
}

// A machine that reports no cache, or an absurd one (a virtual machine's 508 MiB L3), gets a
// size the block sizes can trust.
TEST(GemmSchedule, AReportedCacheSizeIsMadeSane) {
  EXPECT_EQ(blas_example::sane_cache_bytes(3, 508L << 20), 64L << 20);
  EXPECT_EQ(blas_example::sane_cache_bytes(3, 0), 8L << 20);
  EXPECT_EQ(blas_example::sane_cache_bytes(2, -1), 1L << 20);
  EXPECT_EQ(blas_example::sane_cache_bytes(1, 4096), 16L << 10);
  EXPECT_EQ(blas_example::sane_cache_bytes(2, 2L << 20), 2L << 20);  // a real size is kept
}

// The K block is a power of two whose packed panel fills at most a quarter of L2, and the next
// power of two would not.
TEST(GemmSchedule, KBlockFillsAtMostAQuarterOfL2) {
  const long l2 = blas_example::cache_bytes(2);
  for (const Precision* prec : {&kSingle, &kDouble}) {
    const int kc = blas_example::kc_for_this_machine(*prec);
    const long panel_row = long(prec->tile_columns()) * prec->bytes;
    EXPECT_EQ(kc & (kc - 1), 0) << kc;
    EXPECT_TRUE(kc == 64 || kc * panel_row <= l2 / 4) << kc;
    EXPECT_TRUE(kc == 8192 || 2 * kc * panel_row > l2 / 4) << kc;
  }
}

// A block of packed panels is a power of two of them, 2 to 64, that fills at most an eighth of
// L3, and twice as many would not.
TEST(GemmSchedule, PackedBlockFillsAtMostAnEighthOfL3) {
  const long l3 = blas_example::cache_bytes(3);
  for (const Precision* prec : {&kSingle, &kDouble}) {
    const int kc = blas_example::kc_for_this_machine(*prec);
    const int panels = blas_example::panels_for_this_machine(*prec, kc);
    const long block = long(panels) * kc * prec->tile_columns() * prec->bytes;
    EXPECT_EQ(panels & (panels - 1), 0) << panels;
    EXPECT_TRUE(panels == 2 || block <= l3 / 8) << panels;
    EXPECT_TRUE(panels == 64 || 2 * block > l3 / 8) << panels;
  }
}

TEST(GemmSchedule, ABlockOfOnePanelIsRefusedWithTheReason) {
  try {
    blas_example::schedule_gemm(kDouble, {.kc = 8, .panels = 1});
    FAIL() << "accepted panels = 1";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("panels must be"), std::string::npos) << e.what();
  }
}

// The right-edge kernel against its specification, at every vector count and around each
// boundary between them (one to four vectors, the last masked), at both precisions.
TEST(GemmSchedule, TheRightEdgeKernelComputesItsSpecificationForEveryWidth) {
  const Module m = parse_module(blas_example::gemm_source());
  for (const Precision* prec : {&kSingle, &kDouble}) {
    const blas_example::Tiles tiles = blas_example::Tiles::of(m, *prec);
    const Proc kernel = blas_example::schedule_kernel_right(tiles.right, *prec);
    const int L = prec->lanes;
    for (int n :
         {1, L - 1, L, L + 1, 2 * L - 1, 2 * L, 2 * L + 1, 3 * L - 1, 3 * L, 3 * L + 1, 4 * L - 1})
      EXPECT_EQ(compare_procs(tiles.right, kernel, {{"N", n}, {"K", 3}}), "")
          << kernel.name() << " at N = " << n;
  }
}

#define SKIP_WITHOUT_AVX512() \
  if (!cpu_has_avx512())      \
  GTEST_SKIP() << "this CPU has no AVX-512F/FMA: the generated kernel cannot run here"

TEST(GemmGenerated, SgemmCorrectForEveryShapeUpTo70) {
  SKIP_WITHOUT_AVX512();
  check_every_shape_up_to<float>(dense<float>(sgemm), 70);
}

TEST(GemmGenerated, DgemmCorrectForEveryShapeUpTo70) {
  SKIP_WITHOUT_AVX512();
  check_every_shape_up_to<double>(dense<double>(dgemm), 70);
}

// Every M up to 70 (one row of tiles, where the panel is not packed, to several: M >= 12 reaches
// the parallel loops) with N and K at every boundary of the tiling. Not every N and K as for the
// serial kernels, which are the same tiles: each call forks threads per panel, and 343,000 calls
// under `ctest -j2` (more threads than cores) took minutes.
template <typename T>
void check_parallel_shapes(GemmFn<T> gemm, int lanes) {
  std::mt19937 rng(4);
  const int nr = 4 * lanes;
  int failures = 0;
  for (int M = 1; M <= 70; ++M)
    for (int N : {1, lanes - 1, lanes + 1, nr - 1, nr, nr + 1, 2 * nr + lanes + 3})
      for (int K : {1, 2, 7, 33, 70}) {
        std::string diff = run_and_compare(gemm, rng, M, N, K);
        if (!diff.empty() && failures++ < 5) ADD_FAILURE() << diff;
      }
}

TEST(GemmGenerated, ParallelSgemmCorrectForEveryMAndEveryTileBoundaryOnTwoThreads) {
  SKIP_WITHOUT_AVX512();
  use_two_threads();
  check_parallel_shapes<float>(dense<float>(sgemm_parallel), kSingle.lanes);
}

TEST(GemmGenerated, ParallelDgemmCorrectForEveryMAndEveryTileBoundaryOnTwoThreads) {
  SKIP_WITHOUT_AVX512();
  use_two_threads();
  check_parallel_shapes<double>(dense<double>(dgemm_parallel), kDouble.lanes);
}

TEST(GemmGenerated, SgemmCorrectOnRandomLargerShapes) {
  SKIP_WITHOUT_AVX512();
  check_random_larger_shapes<float>(dense<float>(sgemm));
}

TEST(GemmGenerated, DgemmCorrectOnRandomLargerShapes) {
  SKIP_WITHOUT_AVX512();
  check_random_larger_shapes<double>(dense<double>(dgemm));
}

TEST(GemmGenerated, ParallelSgemmCorrectOnRandomLargerShapes) {
  SKIP_WITHOUT_AVX512();
  use_two_threads();
  check_random_larger_shapes<float>(dense<float>(sgemm_parallel));
}

TEST(GemmGenerated, ParallelDgemmCorrectOnRandomLargerShapes) {
  SKIP_WITHOUT_AVX512();
  use_two_threads();
  check_random_larger_shapes<double>(dense<double>(dgemm_parallel));
}

// ---- the BLAS interface (blas_like.h) ---------------------------------------------------------

namespace {

// X[r, c] of a matrix stored in `layout` with leading dimension ld.
template <typename T>
T& at(std::vector<T>& x, bool row_major, int ld, int r, int c) {
  return row_major ? x[size_t(r) * ld + c] : x[size_t(c) * ld + r];
}

// One call of the BLAS interface against the definition, element by element:
// C = alpha op(A) op(B) + beta C (C not read when beta is 0), every operand stored with a
// leading dimension 3 larger than it needs. Integer-valued data and alpha, beta in halves keep
// every sum exact, so any summation order agrees. "" or the first difference.
template <typename T, typename Gemm>
std::string check_blas_call(Gemm blas_gemm, std::mt19937& rng, bool row_major, bool ta, bool tb,
                            int M, int N, int K, T alpha, T beta) {
  // Rows and columns of each operand as stored.
  const int a_rows = ta ? K : M, a_cols = ta ? M : K, b_rows = tb ? N : K, b_cols = tb ? K : N;
  const int lda = (row_major ? a_cols : a_rows) + 3, ldb = (row_major ? b_cols : b_rows) + 3,
            ldc = (row_major ? N : M) + 3;
  auto storage = [&](int rows, int cols, int ld) {
    return random_matrix<T>(rng, size_t(ld) * size_t(std::max(row_major ? rows : cols, 1)));
  };
  std::vector<T> A = storage(a_rows, a_cols, lda), B = storage(b_rows, b_cols, ldb),
                 C = storage(M, N, ldc);
  if (beta == 0)  // BLAS does not read C then: NaNs in it must not reach the result
    for (T& x : C) x = std::nan("");
  std::vector<T> R = C;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      T sum = 0;
      for (int k = 0; k < K; k++)
        sum += (ta ? at(A, row_major, lda, k, i) : at(A, row_major, lda, i, k)) *
               (tb ? at(B, row_major, ldb, j, k) : at(B, row_major, ldb, k, j));
      T& r = at(R, row_major, ldc, i, j);
      r = alpha * sum + (beta == 0 ? T(0) : beta * r);
    }
  const int status = blas_gemm(row_major ? BlasRowMajor : BlasColMajor,
                               ta ? BlasTrans : BlasNoTrans, tb ? BlasTrans : BlasNoTrans, M, N, K,
                               alpha, A.data(), lda, B.data(), ldb, beta, C.data(), ldc);
  const std::string call = std::string(row_major ? "row" : "column") + "-major " +
                           (ta ? "A^T " : "A ") + (tb ? "B^T" : "B") + " M=" + std::to_string(M) +
                           " N=" + std::to_string(N) + " K=" + std::to_string(K) +
                           " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta);
  if (status != 0) return call + ": returned " + std::to_string(status);
  for (size_t e = 0; e < C.size(); ++e)
    if (!(C[e] == R[e] || (std::isnan(C[e]) && std::isnan(R[e]))))
      return call + ": element " + std::to_string(e) + " = " + std::to_string(C[e]) +
             ", expected " + std::to_string(R[e]);
  return "";
}

// Every layout and transposition, with alpha and beta in {0, 1, -1, 0.5, 2} pairs, on shapes
// from empty and single elements to ones with full tiles and both edges.
template <typename T, typename Gemm>
void check_blas_interface(Gemm blas_gemm) {
  std::mt19937 rng(3);
  const std::vector<std::array<int, 3>> shapes = {{0, 5, 3},    {4, 0, 3},    {1, 1, 1},
                                                  {3, 5, 0},    {7, 9, 5},    {13, 70, 19},
                                                  {20, 33, 64}, {70, 131, 77}};
  const std::vector<std::pair<T, T>> scalars = {{1, 1}, {1, 0}, {-1, 0.5}, {0.5, -1},
                                                {2, 1}, {0, 2}, {0, 0}};
  int failures = 0;
  for (bool row_major : {true, false})
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        for (auto [M, N, K] : shapes)
          for (auto [alpha, beta] : scalars) {
            std::string diff =
                check_blas_call<T>(blas_gemm, rng, row_major, ta, tb, M, N, K, alpha, beta);
            if (!diff.empty() && failures++ < 5) ADD_FAILURE() << diff;
          }
}

}  // namespace

TEST(GemmBlasInterface, SgemmMatchesTheDefinitionInEveryLayoutAndTransposition) {
  SKIP_WITHOUT_AVX512();
  use_two_threads();
  check_blas_interface<float>(blas_sgemm);
}

TEST(GemmBlasInterface, DgemmMatchesTheDefinitionInEveryLayoutAndTransposition) {
  SKIP_WITHOUT_AVX512();
  use_two_threads();
  check_blas_interface<double>(blas_dgemm);
}

// Invalid arguments are reported by position, as BLAS's xerbla does, and nothing is written.
TEST(GemmBlasInterface, InvalidArgumentsAreReportedByPositionAndWriteNothing) {
  std::vector<float> A(64, 1), B(64, 1), C(64, 7);
  auto call = [&](int layout, int ta, int M, int N, int K, int lda, int ldb, int ldc) {
    return blas_sgemm(blas_layout(layout), blas_transpose(ta), BlasNoTrans, M, N, K, 1, A.data(),
                      lda, B.data(), ldb, 0, C.data(), ldc);
  };
  EXPECT_EQ(call(100, BlasNoTrans, 2, 2, 2, 2, 2, 2), 1);
  EXPECT_EQ(call(BlasRowMajor, 7, 2, 2, 2, 2, 2, 2), 2);
  EXPECT_EQ(call(BlasRowMajor, BlasNoTrans, -1, 2, 2, 2, 2, 2), 4);
  EXPECT_EQ(call(BlasRowMajor, BlasNoTrans, 2, -1, 2, 2, 2, 2), 5);
  EXPECT_EQ(call(BlasRowMajor, BlasNoTrans, 2, 2, -1, 2, 2, 2), 6);
  EXPECT_EQ(call(BlasRowMajor, BlasNoTrans, 2, 2, 3, 2, 2, 2), 9);   // A's rows hold K = 3
  EXPECT_EQ(call(BlasRowMajor, BlasTrans, 3, 2, 2, 2, 2, 2), 9);     // A^T's rows hold M = 3
  EXPECT_EQ(call(BlasRowMajor, BlasNoTrans, 2, 3, 2, 2, 2, 3), 11);  // B's rows hold N = 3
  EXPECT_EQ(call(BlasColMajor, BlasNoTrans, 3, 2, 2, 3, 2, 2), 14);  // C's columns hold M = 3
  for (float x : C) EXPECT_EQ(x, 7);
}

// The helpers' schedules (the tiled transposed copy above all) against their specifications.
TEST(GemmSchedule, BlasHelpersComputeTheirSpecifications) {
  const Module m = parse_module(blas_example::gemm_source());
  for (const Precision* prec : {&kSingle, &kDouble}) {
    const std::vector<Proc> helpers = blas_example::schedule_blas_helpers(*prec);
    const std::vector<std::string> specs = {"gemm_scale", "gemm_copy", "gemm_copy_transposed"};
    ASSERT_EQ(helpers.size(), specs.size());
    for (size_t h = 0; h < helpers.size(); ++h) {
      const Proc spec = blas_example::instantiate(m.proc(specs[h]), *prec);
      const bool is_scale = specs[h] == "gemm_scale";
      for (auto [rows, cols] : {std::pair{1, 1}, {5, 17}, {33, 16}, {16, 40}})
        EXPECT_EQ(
            compare_procs(spec, helpers[h],
                          is_scale ? std::map<std::string, int64_t>{{"M", rows}, {"N", cols}}
                                   : std::map<std::string, int64_t>{{"R_", rows}, {"C_", cols}}),
            "")
            << helpers[h].name() << " at " << rows << " x " << cols;
    }
  }
}
