// Dynamic shared memory (CUDA_SHARED_DYN, codegen/cuda_kernel.cpp): a kernel's arrays there are
// laid out in one `extern __shared__` buffer at 128-byte aligned offsets, the launch passes the
// buffer's size, and past 48 KB the host function opts in with cudaFuncSetAttribute first.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cuda_test_util.h"

namespace exocpp {
namespace {

using cuda_test::parse_cuda;

// A block reverses a row of `n` f32 through shared memory of `n` f32 plus 8 more (which it
// uses too, so that both are declared): 1024 threads, n / 1024 elements each.
std::string reverse_rows(int n) {
  const std::string last = std::to_string(n - 1), steps = std::to_string(n / 1024);
  return "def p(N: size, A: f32[N, " + std::to_string(n) + "] @ CUDA_GLOBAL, X: f32[N, " +
         std::to_string(n) + "] @ CUDA_GLOBAL):\n" +
         "    for b in cuda_blocks(0, N):\n"
         "        s: f32[" +
         std::to_string(n) +
         "] @ CUDA_SHARED_DYN\n"
         "        h: f32[8] @ CUDA_SHARED_DYN\n"
         "        for r in seq(0, " +
         steps +
         "):\n"
         "            for t in cuda_threads(0, 1024):\n"
         "                s[1024 * r + t] = A[b, 1024 * r + t]\n"
         "        for t in cuda_threads(0, 8):\n"
         "            h[t] = 0.0\n"
         "        cuda_syncthreads()\n"
         "        for r in seq(0, " +
         steps +
         "):\n"
         "            for t in cuda_threads(0, 1024):\n"
         "                X[b, 1024 * r + t] = s[" +
         last + " - 1024 * r - t] + h[t % 8]\n";
}

std::string emitted(const std::string& src) {
  return compile_procs_to_cuda({parse_cuda(src, "p")}, "lib").source;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CudaDynamicShared, ArraysAreCarvedFromOneExternBufferAtAlignedOffsets) {
  const std::string cu = emitted(reverse_rows(16384));
  EXPECT_TRUE(
      contains(cu, "extern __shared__ __align__(128) unsigned char exocpp_dynamic_shared[];"))
      << cu;
  EXPECT_TRUE(contains(cu, "float *s = (float *)(exocpp_dynamic_shared + 0);")) << cu;
  EXPECT_TRUE(contains(cu, "float *h = (float *)(exocpp_dynamic_shared + 65536);")) << cu;
}

TEST(CudaDynamicShared, TheLaunchPassesTheBytesAndOptsInPast48KB) {
  const std::string cu = emitted(reverse_rows(16384));  // 65,536 + 128 bytes
  EXPECT_TRUE(contains(cu, "1024, 65664>>>(A, X);")) << cu;
  EXPECT_TRUE(contains(cu,
                       "(void)cudaFuncSetAttribute(p_kernel0, "
                       "cudaFuncAttributeMaxDynamicSharedMemorySize, 65664);"))
      << cu;
}

TEST(CudaDynamicShared, UpTo48KBTheLaunchNeedsNoOptIn) {
  const std::string cu = emitted(reverse_rows(8192));  // 32,768 + 128 bytes
  EXPECT_TRUE(contains(cu, "1024, 32896>>>(A, X);")) << cu;
  EXPECT_FALSE(contains(cu, "cudaFuncSetAttribute")) << cu;
}

TEST(CudaDynamicShared, MoreThanABlockMayHaveIsRefused) {
  const std::string err = cuda_test::emission_error(parse_cuda(reverse_rows(65536), "p"));
  EXPECT_TRUE(contains(err, "needs 262272 bytes of dynamic shared memory")) << err;
  EXPECT_TRUE(contains(err, "at most 232448")) << err;
}

TEST(CudaDynamicShared, AShapeThatIsNotConstantIsRefused) {
  const std::string err =
      cuda_test::emission_error(parse_cuda("def p(N: size, A: f32[N] @ CUDA_GLOBAL):\n"
                                           "    for b in cuda_blocks(0, 1):\n"
                                           "        s: f32[N] @ CUDA_SHARED_DYN\n"
                                           "        for t in cuda_threads(0, 1):\n"
                                           "            s[0] = A[0]\n"
                                           "            A[0] = s[0]\n",
                                           "p"));
  EXPECT_TRUE(contains(err, "'s' (CUDA_SHARED_DYN, dynamic shared memory) needs a constant shape"))
      << err;
}

class CudaDynamicSharedNvcc : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaDynamicSharedNvcc, AKernelWith64KBBuildsWithoutStaticSharedMemory) {
  cuda_test::TempDir dir;
  emit_cuda({parse_cuda(reverse_rows(16384), "p")}, "lib", dir.path());
  cuda_test::CommandResult r = cuda_test::nvcc_compile(dir.path(), "lib.cu", GetParam());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(contains(r.output, "bytes smem")) << r.output;  // nothing static
}

INSTANTIATE_TEST_SUITE_P(Archs, CudaDynamicSharedNvcc, ::testing::Values("sm_80", "sm_90"));

// On a GPU: the 64 KB kernel reverses rows (which needs the opt-in to launch at all).
TEST(CudaDynamicSharedGpu, A64KBKernelRunsAndComputesTheReversal) {
  cuda_test::TempDir dir;
  emit_cuda({parse_cuda(reverse_rows(16384), "p")}, "lib", dir.path());
  std::ofstream(dir.path() + "/main.cu") << R"(
#include <cstdio>
#include <vector>
#include "lib.h"
int main() {
  const int n = 16384, rows = 3;
  std::vector<float> a(rows * n), x(rows * n);
  for (int i = 0; i < rows * n; ++i) a[i] = (float)(i % 1000);
  float *da, *dx;
  if (cudaMalloc(&da, a.size() * 4) != cudaSuccess || cudaMalloc(&dx, x.size() * 4) != cudaSuccess)
    return 2;
  cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  p(nullptr, rows, da, dx);
  if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) return 3;
  cudaMemcpy(x.data(), dx, x.size() * 4, cudaMemcpyDeviceToHost);
  for (int b = 0; b < rows; ++b)
    for (int i = 0; i < n; ++i)
      if (x[b * n + i] != a[b * n + n - 1 - i]) { std::printf("X[%d, %d]\n", b, i); return 1; }
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
