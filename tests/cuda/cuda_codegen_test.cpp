// CUDA emission (codegen/cuda_kernel.cpp): kernels become __global__ functions launched from the
// host function, lane loops number the block's threads, distributed register buffers keep only
// each thread's slice, and nvcc builds the result for sm_80 and sm_90 with warnings as errors and
// no register spills.
#include <gtest/gtest.h>

#include <fstream>

#include "cuda_gemm_schedule.h"
#include "cuda_test_util.h"

namespace exocpp {
namespace {

using cuda_test::parse_cuda;

const char* kTiles =
    "def p(N: size, A: f32[N, 256] @ CUDA_GLOBAL):\n"
    "    for b in cuda_blocks(0, N):\n"
    "        r: f32[16, 16] @ CUDA_REG\n"
    "        for t in cuda_threads(0, 16):\n"
    "            for u in cuda_threads(0, 16):\n"
    "                r[t, u] = A[b, 16 * t + u]\n"
    "        for t in cuda_threads(0, 8):\n"
    "            A[b, t] = 0.0\n"
    "        cuda_syncthreads()\n"
    "        for t in cuda_threads(0, 16):\n"
    "            for u in cuda_threads(0, 16):\n"
    "                A[b, 16 * t + u] += r[t, u]\n";

std::string emitted(const std::string& src) {
  return compile_procs_to_cuda({parse_cuda(src, "p")}, "lib").source;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CudaCodegen, AKernelIsAGlobalFunctionWithItsBlockSize) {
  EXPECT_TRUE(contains(emitted(kTiles), "__global__ void __launch_bounds__(256) p_kernel0("));
}

TEST(CudaCodegen, TheHostFunctionLaunchesTheGridItsLoopSpans) {
  std::string cu = emitted(kTiles);
  EXPECT_TRUE(contains(cu, "const int_fast32_t b_blocks = (N) - (0);")) << cu;
  EXPECT_TRUE(contains(cu, "if (b_blocks > 0) {")) << cu;  // no launch of an empty grid
  EXPECT_TRUE(contains(cu, "p_kernel0<<<dim3((unsigned)b_blocks, 1u, 1u), 256>>>(A);")) << cu;
}

TEST(CudaCodegen, NestedLaneLoopsSplitTheThreadNumber) {
  std::string cu = emitted(kTiles);
  EXPECT_TRUE(contains(cu, "const int_fast32_t t = (int_fast32_t)threadIdx.x / 16;")) << cu;
  EXPECT_TRUE(contains(cu, "const int_fast32_t u = t_lane;")) << cu;
}

TEST(CudaCodegen, Bf16ValuesAreRefusedWithAReason) {
  const char* src =
      "def p(N: size, A: bf16[N] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        for t in cuda_threads(0, 1):\n"
      "            A[b] = A[b] * 2.0\n";
  try {
    emitted(src);
    FAIL() << "bf16 CUDA was emitted";
  } catch (const CodegenError& e) {
    EXPECT_TRUE(contains(e.what(), "bf16 values are emitted as C only")) << e.what();
  }
}

TEST(CudaCodegen, ALoopOverFewerThreadsIsEnteredOnlyByThem) {
  EXPECT_TRUE(contains(emitted(kTiles), "if ((int_fast32_t)threadIdx.x < 8) {"));
}

TEST(CudaCodegen, ADistributedRegisterBufferHoldsOnlyTheThreadsSlice) {
  std::string cu = emitted(kTiles);
  EXPECT_TRUE(contains(cu, "    float r;\n")) << cu;
  EXPECT_TRUE(contains(cu, "r = A[b * 256 + 16 * t + u];")) << cu;
}

// An instruction's template addresses a buffer parameter as its memory does: the code
// generator passes it only arguments addressed alike.
TEST(CudaCodegen, AnInstructionRefusesAnArgumentInAMemoryItAddressesDifferently) {
  // A thread's register array is no shared-memory address for cp.async.
  std::string err = cuda_test::emission_error(
      parse_cuda("def p(N: size, A: f16[N, 128] @ CUDA_GLOBAL, X: f16[N, 16] @ CUDA_GLOBAL):\n"
                 "    for b in cuda_blocks(0, N):\n"
                 "        for t in cuda_threads(0, 16):\n"
                 "            s: f16[8] @ CUDA_REG\n"
                 "            cp_async_f16x8(s[0:8], A[b, 8 * t : 8 * t + 8])\n"
                 "            X[b, t] = 0.0\n",
                 "p"));
  EXPECT_TRUE(contains(err,
                       "instruction 'cp_async_f16x8' takes parameter 'dst' in memory "
                       "CUDA_SHARED, but the argument lives in CUDA_REG"))
      << err;
}

TEST(CudaCodegen, AnInstructionTakesDynamicSharedMemoryForShared) {
  std::string cu = emitted(
      "def p(N: size, A: f16[N, 128] @ CUDA_GLOBAL, X: f16[N, 16] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        s: f16[128] @ CUDA_SHARED_DYN\n"
      "        for t in cuda_threads(0, 16):\n"
      "            cp_async_f16x8(s[8 * t : 8 * t + 8], A[b, 8 * t : 8 * t + 8])\n"
      "        cp_async_wait_syncthreads()\n"
      "        for t in cuda_threads(0, 16):\n"
      "            X[b, t] = s[127 - 8 * t]\n");
  EXPECT_TRUE(contains(cu, "__pipeline_memcpy_async(&s[8 * t], &A[b * 128 + 8 * t], 16);")) << cu;
}

TEST(CudaCodegen, AStrideHoleIsTheWindowsRowStride) {
  std::string cu = compile_procs_to_cuda({cuda_gemm_example::stage("gemm_wmma")}, "lib").source;
  EXPECT_TRUE(contains(cu,
                       "nvcuda::wmma::load_matrix_sync(Af, &A[(16 * io + 16 * w) * K + 16 * "
                       "ko], K);"))
      << cu;
}

// wmma_large keeps each warp's 4 x 2 accumulators as one array of fragments, named one by one.
TEST(CudaCodegen, AnArrayOfWmmaFragmentsIsACArrayOfFragments) {
  std::string cu =
      compile_procs_to_cuda({cuda_gemm_example::stage("gemm_wmma_large")}, "lib").source;
  EXPECT_TRUE(contains(cu,
                       "nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> "
                       "Cf[4][2];"))
      << cu;
  EXPECT_TRUE(contains(cu, "nvcuda::wmma::mma_sync(Cf[mf][nf], Af, Bf[nf], Cf[mf][nf]);")) << cu;
}

TEST(CudaCodegen, EmitCudaWritesTheSourceAndTheHeader) {
  cuda_test::TempDir dir;
  emit_cuda({parse_cuda(kTiles, "p")}, "lib", dir.path());
  std::ifstream cu(dir.path() + "/lib.cu"), h(dir.path() + "/lib.h");
  EXPECT_TRUE(cu.good());
  EXPECT_TRUE(h.good());
}

class CudaNvcc : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaNvcc, TheGemmStagesBuildWithoutWarningsOrSpills) {
  cuda_test::TempDir dir;
  emit_cuda(cuda_gemm_example::all_stages(), "cuda_gemm", dir.path());
  cuda_test::CommandResult r = cuda_test::nvcc_compile(dir.path(), "cuda_gemm.cu", GetParam());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(cuda_test::reports_spills(r.output)) << r.output;
  EXPECT_TRUE(contains(r.output, "gemm_smem_tiled_kernel0")) << r.output;
}

TEST_P(CudaNvcc, TheTensorCoreStageUsesTensorCoreInstructions) {
  cuda_test::TempDir dir;
  emit_cuda({cuda_gemm_example::stage("gemm_wmma")}, "cuda_gemm", dir.path());
  cuda_test::CommandResult r = cuda_test::run_command(
      "cd '" + dir.path() + "' && '" + cuda_test::nvcc() + "' -arch=" + GetParam() +
      " -fmad=false -ptx cuda_gemm.cu -o - | grep -c 'wmma.mma.sync'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_GT(std::stoi(r.output), 0) << r.output;
}

TEST_P(CudaNvcc, TheMmaStageUsesMmaSyncAndLdmatrix) {
  cuda_test::TempDir dir;
  emit_cuda({rename(cuda_gemm_example::schedule_mma(cuda_gemm_example::plain_gemm()), "gemm_mma")},
            "cuda_gemm", dir.path());
  for (const char* ptx : {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                          "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                          "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16"}) {
    cuda_test::CommandResult r = cuda_test::run_command(
        "cd '" + dir.path() + "' && '" + cuda_test::nvcc() + "' -arch=" + GetParam() +
        " -fmad=false -ptx cuda_gemm.cu -o - | grep -c '" + ptx + "'");
    ASSERT_EQ(r.status, 0) << ptx << "\n" << r.output;
    EXPECT_GT(std::stoi(r.output), 0) << ptx;
  }
}

TEST_P(CudaNvcc, AnAsyncCopyKernelBuilds) {
  const char* src =
      "def p(N: size, A: f16[N, 128] @ CUDA_GLOBAL, X: f16[N, 16] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        s: f16[128] @ CUDA_SHARED\n"
      "        for t in cuda_threads(0, 16):\n"
      "            cp_async_f16x8(s[8 * t : 8 * t + 8], A[b, 8 * t : 8 * t + 8])\n"
      "        cp_async_wait_syncthreads()\n"
      "        for t in cuda_threads(0, 16):\n"
      "            X[b, t] = s[127 - 8 * t]\n";
  cuda_test::TempDir dir;
  emit_cuda({parse_cuda(src, "p")}, "lib", dir.path());
  cuda_test::CommandResult r = cuda_test::nvcc_compile(dir.path(), "lib.cu", GetParam());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(contains(compile_procs_to_cuda({parse_cuda(src, "p")}, "lib").source,
                       "__pipeline_memcpy_async(&s[8 * t], &A[b * 128 + 8 * t], 16);"));
}

TEST_P(CudaNvcc, AKernelWithADistributedBufferBuilds) {
  cuda_test::TempDir dir;
  emit_cuda({parse_cuda(kTiles, "p")}, "lib", dir.path());
  cuda_test::CommandResult r = cuda_test::nvcc_compile(dir.path(), "lib.cu", GetParam());
  EXPECT_EQ(r.status, 0) << r.output;
}

INSTANTIATE_TEST_SUITE_P(Archs, CudaNvcc, ::testing::Values("sm_80", "sm_90"));

TEST(CudaBench, TheCublasBenchmarkBuildsWithTheStages) {
  ASSERT_FALSE(cuda_test::nvcc().empty()) << "nvcc was not found when the build was configured";
  cuda_test::TempDir dir;
  emit_cuda(cuda_gemm_example::all_stages(), "cuda_gemm", dir.path());
  cuda_test::CommandResult r = cuda_test::run_command(
      "cd '" + dir.path() + "' && '" + cuda_test::nvcc() + "' -O3 -arch=sm_80 -I. '" +
      EXOCPP_SOURCE_DIR + "/bench/cuda_gemm/bench.cu' cuda_gemm.cu -lcublas -o bench");
  EXPECT_EQ(r.status, 0) << r.output;
}

}  // namespace
}  // namespace exocpp
