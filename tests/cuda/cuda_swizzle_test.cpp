// CUDA_SHARED_SWIZZLED (hwlibs/cuda): the 128-byte XOR swizzle of mma_helpers.cuh, tested on the
// CPU (a bijection that keeps runs of 8 elements whole; ldmatrix's lane addresses point at the
// elements the tile's window names; the rows one ldmatrix phase reads fall in different banks),
// its emission (element accesses through the swizzle, allocation rules, no windows for plain
// code, instruction windows proved to cover whole runs) and, on a GPU, a kernel that copies a tile
// in with cp.async and reads it back through the swizzle.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/frontend_checks.h"
#include "cuda_test_util.h"
#include "hwlibs/cuda/mma_helpers.cuh"

namespace exocpp {
namespace {

using cuda_test::parse_cuda;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- the layout, on the CPU ----

TEST(CudaSwizzleLayout, IsAPermutationOfEach128ByteLine) {
  for (long line = 0; line < 16; ++line) {
    std::set<long> seen;
    for (long e = 0; e < 64; ++e) {
      const long s = exocpp_swizzle128(64 * line + e);
      EXPECT_EQ(s / 64, line) << "element " << 64 * line + e << " leaves its line";
      seen.insert(s);
    }
    EXPECT_EQ(seen.size(), 64u) << "line " << line;
  }
}

TEST(CudaSwizzleLayout, KeepsEveryAlignedRunOf8WholeAndInOrder) {
  for (long run = 0; run < 256; ++run) {
    const long first = exocpp_swizzle128(8 * run);
    EXPECT_EQ(first % 8, 0) << "run " << run;
    for (long e = 1; e < 8; ++e) EXPECT_EQ(exocpp_swizzle128(8 * run + e), first + e);
  }
}

// A row-major f16 tile of `rows` x `ld` elements stored through the swizzle: element (r, c) of
// the tile holds the value r * ld + c, at the swizzled index of its row-major index.
std::vector<long> swizzled_tile(long rows, long ld) {
  std::vector<long> smem(static_cast<size_t>(rows * ld), -1);
  for (long i = 0; i < rows * ld; ++i) smem[static_cast<size_t>(exocpp_swizzle128(i))] = i;
  return smem;
}

// ldmatrix reads 8 consecutive elements (16 bytes) at each lane's row address: for every lane of
// an A load (x4) and a B load (x2.trans) of windows at several places, those 8 elements are the
// row of the window that the plain layout's address would name.
TEST(CudaSwizzleLayout, LdmatrixLaneAddressesNameTheWindowsRows) {
  for (long ld : {32L, 64L, 128L}) {
    const std::vector<long> smem = swizzled_tile(64, ld);
    for (long r0 : {0L, 16L, 48L})
      for (long c0 = 0; c0 + 16 <= ld; c0 += 8) {
        const long offset = r0 * ld + c0;
        for (int lane = 0; lane < 32; ++lane) {
          const long a = exocpp_mma_a_ldmatrix_swizzled(lane, offset, ld);
          const long b = exocpp_mma_b_ldmatrix_swizzled(lane, offset, ld);
          const long a_row = r0 + exocpp_mma_a_ldmatrix_row(lane);
          const long a_col = c0 + exocpp_mma_a_ldmatrix_col(lane);
          const long b_row = r0 + exocpp_mma_b_ldmatrix_row(lane);
          for (long e = 0; e < 8; ++e) {
            ASSERT_EQ(smem[static_cast<size_t>(a + e)], a_row * ld + a_col + e)
                << "A: ld " << ld << ", window at (" << r0 << ", " << c0 << "), lane " << lane;
            ASSERT_EQ(smem[static_cast<size_t>(b + e)], b_row * ld + c0 + e)
                << "B: ld " << ld << ", window at (" << r0 << ", " << c0 << "), lane " << lane;
          }
        }
      }
  }
}

// The number of 16-byte chunks of one 128-byte bank line that two of the 8 addresses (element
// indices of 16-byte rows) of an ldmatrix phase share: 1 when all 8 rows are in different banks.
int worst_bank_sharing(const std::vector<long>& rows) {
  std::vector<int> per_chunk(8, 0);
  for (long r : rows) ++per_chunk[static_cast<size_t>((r / 8) % 8)];
  int worst = 0;
  for (int n : per_chunk) worst = std::max(worst, n);
  return worst;
}

// Each phase of ldmatrix (8 lanes, one 8 x 8 matrix) reads 8 rows of 16 bytes: swizzled, they
// fall in 8 different 16-byte bank groups for the rows of the GEMM's tiles (32, 64 and 128
// elements), wherever a 16-row tile starts; unswizzled, rows of 64 or 128 elements would all hit
// the same banks.
TEST(CudaSwizzleLayout, OneLdmatrixPhaseTouchesEveryBankOnce) {
  for (long ld : {32L, 64L, 128L})
    for (long r0 = 0; r0 < 64; r0 += 16)
      for (long c0 = 0; c0 + 16 <= ld; c0 += 8)
        for (int phase = 0; phase < 4; ++phase) {
          std::vector<long> swizzled, plain;
          for (int lane = 8 * phase; lane < 8 * phase + 8; ++lane) {
            swizzled.push_back(exocpp_mma_a_ldmatrix_swizzled(lane, r0 * ld + c0, ld));
            plain.push_back((r0 + exocpp_mma_a_ldmatrix_row(lane)) * ld + c0 +
                            exocpp_mma_a_ldmatrix_col(lane));
          }
          EXPECT_EQ(worst_bank_sharing(swizzled), 1)
              << "A: ld " << ld << ", tile at (" << r0 << ", " << c0 << "), phase " << phase;
          if (phase < 2) {  // ldmatrix.x2 for B: lanes 0-15
            std::vector<long> b;
            for (int lane = 8 * phase; lane < 8 * phase + 8; ++lane)
              b.push_back(exocpp_mma_b_ldmatrix_swizzled(lane, r0 * ld + c0, ld));
            EXPECT_EQ(worst_bank_sharing(b), 1)
                << "B: ld " << ld << ", tile at (" << r0 << ", " << c0 << "), phase " << phase;
          }
          if (ld >= 64) {
            EXPECT_EQ(worst_bank_sharing(plain), 8) << "ld " << ld;
          }
        }
}

// ---- emission ----

// A block copies a 32 x 64 f16 tile of A into swizzled shared memory with cp.async (8 elements
// a thread), waits, and writes its transpose to X with plain reads through the swizzle.
const char* kTranspose =
    "def p(N: size, A: f16[N, 32, 64] @ CUDA_GLOBAL, X: f16[N, 64, 32] @ CUDA_GLOBAL):\n"
    "    for b in cuda_blocks(0, N):\n"
    "        s: f16[32, 64] @ CUDA_SHARED_SWIZZLED\n"
    "        for r in cuda_threads(0, 32):\n"
    "            for c in cuda_threads(0, 8):\n"
    "                cp_async_f16x8_swizzled(s[r, 8 * c : 8 * c + 8], A[b, r, 8 * c : 8 * c + 8])\n"
    "        cp_async_wait_syncthreads()\n"
    "        for j in cuda_threads(0, 64):\n"
    "            for i in seq(0, 32):\n"
    "                X[b, j, i] = s[i, j]\n";

TEST(CudaSwizzle, ElementsAreAddressedThroughTheSwizzle) {
  const std::string cu = compile_procs_to_cuda({parse_cuda(kTranspose, "p")}, "lib").source;
  EXPECT_TRUE(contains(cu, "__shared__ __align__(128) exo_f16 s[2048];")) << cu;
  EXPECT_TRUE(contains(cu, "&s[exocpp_swizzle128(r * 64 + 8 * c)]")) << cu;
  EXPECT_TRUE(contains(cu, "s[exocpp_swizzle128(i * 64 + j)]")) << cu;
}

TEST(CudaSwizzle, AWindowThatSplitsARunIsRefusedWithACounterexample) {
  std::string src = kTranspose;
  src.replace(src.find("s[r, 8 * c : 8 * c + 8]"), 23, "s[r, 4 * c : 4 * c + 8]");
  const std::string err = cuda_test::emission_error(parse_cuda(src, "p"));
  EXPECT_TRUE(contains(err, "the window `s[r, 4 * c:4 * c + 8]`")) << err;
  EXPECT_TRUE(contains(err, "instruction 'cp_async_f16x8_swizzled'")) << err;
  EXPECT_TRUE(contains(err, "keeps runs of 8 elements")) << err;
  EXPECT_TRUE(contains(err, "its start 4 * c may not be a multiple of 8, e.g.")) << err;
}

// kTranspose with its copy's destination given through a window statement: `win` (such as
// "w = s[r, 4 * c : 4 * c + 8]") stands before the copy, which takes `dest` (such as "w").
std::string transpose_through_window(const std::string& win, const std::string& dest) {
  std::string src = kTranspose;
  const std::string copy = "cp_async_f16x8_swizzled(s[r, 8 * c : 8 * c + 8]";
  src.replace(src.find(copy), copy.size(),
              win + "\n                cp_async_f16x8_swizzled(" + dest);
  return src;
}

TEST(CudaSwizzle, AWindowVariableThatSplitsARunIsRefusedLikeTheWindowItNames) {
  const std::string src = transpose_through_window("w = s[r, 4 * c : 4 * c + 8]", "w");
  const std::string err = cuda_test::emission_error(parse_cuda(src, "p"));
  EXPECT_TRUE(contains(err, "the window `w` given for parameter")) << err;
  EXPECT_TRUE(contains(err, "its start 4 * c may not be a multiple of 8, e.g.")) << err;
}

TEST(CudaSwizzle, AWindowOfAWindowVariableThatSplitsARunIsRefusedInItsBuffersTerms) {
  const std::string src = transpose_through_window("w = s[r, 0:64]", "w[4 * c : 4 * c + 8]");
  const std::string err = cuda_test::emission_error(parse_cuda(src, "p"));
  EXPECT_TRUE(contains(err, "the window `w[4 * c:4 * c + 8]`")) << err;
  EXPECT_TRUE(contains(err, "its start 4 * c may not be a multiple of 8, e.g.")) << err;
}

TEST(CudaSwizzle, AWindowVariableOfAPointOfTheLastDimensionIsRefused) {
  const std::string src = transpose_through_window("w = s[0:8, 8 * c]", "w");
  const std::string err = cuda_test::emission_error(parse_cuda(src, "p"));
  EXPECT_TRUE(contains(err, "it takes a single element of the last dimension")) << err;
}

// The check passes an aligned window variable (emission then refuses any window struct of this
// memory for its own reason: PlainCodeGetsNoWindowOfIt).
TEST(CudaSwizzle, AnAlignedWindowVariableIsAccepted) {
  const std::string src = transpose_through_window("w = s[r, 8 * c : 8 * c + 8]", "w");
  std::optional<checker::MisalignedInstrWindow> bad =
      checker::find_misaligned_instr_window(parse_cuda(src, "p"));
  EXPECT_FALSE(bad.has_value()) << bad->why;
}

TEST(CudaSwizzle, OnlyF16ArraysOfWholeLinesAreAllocated) {
  struct Case {
    const char* shape;
    const char* why;
  };
  for (const Case& c : {Case{"f32[8, 64]", "it holds f16 elements, not float"},
                        Case{"f16[16, 12]", "its rows must be a multiple of 8 elements"},
                        Case{"f16[3, 8]", "it must hold a multiple of 64 elements"}}) {
    const std::string src = std::string("def p(N: size, X: f32[N] @ CUDA_GLOBAL):\n") +
                            "    for b in cuda_blocks(0, N):\n"
                            "        s: " +
                            c.shape +
                            " @ CUDA_SHARED_SWIZZLED\n"
                            "        for t in cuda_threads(0, 1):\n"
                            "            s[0, 0] = 1.0\n"
                            "            X[b] = s[0, 0]\n";
    const std::string err = cuda_test::emission_error(parse_cuda(src, "p"));
    EXPECT_TRUE(contains(err, "in CUDA_SHARED_SWIZZLED: " + std::string(c.why))) << err;
  }
}

TEST(CudaSwizzle, PlainCodeGetsNoWindowOfIt) {
  const std::string src =
      "def p(N: size, X: f16[N, 8] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        s: f16[8, 8] @ CUDA_SHARED_SWIZZLED\n"
      "        for t in cuda_threads(0, 8):\n"
      "            s[t, 0] = X[b, t]\n"
      "        cuda_syncthreads()\n"
      "        for t in cuda_threads(0, 1):\n"
      "            w = s[0:8, 0]\n"
      "            X[b, 0] = w[7]\n";
  const std::string err = cuda_test::emission_error(parse_cuda(src, "p"));
  EXPECT_TRUE(contains(err, "lives in memory CUDA_SHARED_SWIZZLED, which cannot be addressed"))
      << err;
}

class CudaSwizzleNvcc : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaSwizzleNvcc, TheTransposeKernelBuilds) {
  cuda_test::TempDir dir;
  emit_cuda({parse_cuda(kTranspose, "p")}, "lib", dir.path());
  cuda_test::CommandResult r = cuda_test::nvcc_compile(dir.path(), "lib.cu", GetParam());
  EXPECT_EQ(r.status, 0) << r.output;
}

INSTANTIATE_TEST_SUITE_P(Archs, CudaSwizzleNvcc, ::testing::Values("sm_80", "sm_90"));

// On a GPU: the transpose through the swizzled tile is exact.
TEST(CudaSwizzleGpu, TheTransposeThroughTheSwizzledTileIsExact) {
  cuda_test::TempDir dir;
  emit_cuda({parse_cuda(kTranspose, "p")}, "lib", dir.path());
  std::ofstream(dir.path() + "/main.cu") << R"(
#include <cstdio>
#include <vector>
#include "lib.h"
int main() {
  const int n = 5, tile = 32 * 64;
  std::vector<exo_f16> a(n * tile), x(n * tile);
  for (int i = 0; i < n * tile; ++i) a[i] = __float2half((float)(i % 2048));
  exo_f16 *da, *dx;
  if (cudaMalloc(&da, a.size() * 2) != cudaSuccess || cudaMalloc(&dx, x.size() * 2) != cudaSuccess)
    return 2;
  cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
  p(nullptr, n, da, dx);
  if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) return 3;
  cudaMemcpy(x.data(), dx, x.size() * 2, cudaMemcpyDeviceToHost);
  for (int b = 0; b < n; ++b)
    for (int j = 0; j < 64; ++j)
      for (int i = 0; i < 32; ++i)
        if (__half2float(x[b * tile + j * 32 + i]) != __half2float(a[b * tile + i * 64 + j])) {
          std::printf("X[%d, %d, %d]\n", b, j, i);
          return 1;
        }
  return 0;
}
)";
  cuda_test::CommandResult build =
      cuda_test::nvcc_build_program(dir.path(), "lib.cu main.cu", "run", "-Werror all-warnings");
  ASSERT_EQ(build.status, 0) << build.output;
  if (!cuda_test::gpu_present()) GTEST_SKIP() << cuda_test::kNoGpu;
  cuda_test::CommandResult run = cuda_test::run_command("'" + dir.path() + "/run' 2>&1");
  EXPECT_EQ(run.status, 0) << run.output;
}

}  // namespace
}  // namespace exocpp
