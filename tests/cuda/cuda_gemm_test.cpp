// The CUDA GEMM schedule (examples/cuda_gemm): every stage computes what the plain proc computes
// in the interpreter (its kernels run as sequential loops, which the race rule makes their
// meaning), and each step of it was compared on random inputs (validation mode, this suite's
// EXOCPP_VALIDATE=1).
#include <gtest/gtest.h>

#include "cuda_gemm_schedule.h"
#include "cuda_test_util.h"

namespace exocpp {
namespace {

struct Sizes {
  int64_t m, n, k;
};

class CudaGemmStage : public ::testing::TestWithParam<Sizes> {};

TEST_P(CudaGemmStage, NaiveMatchesThePlainProc) {
  Proc plain = cuda_gemm_example::plain_gemm();
  const Sizes s = GetParam();
  EXPECT_EQ(compare_procs(plain, cuda_gemm_example::schedule_naive(plain),
                          {{"M", s.m}, {"N", s.n}, {"K", s.k}}),
            "");
}

TEST_P(CudaGemmStage, SharedMemoryTilingMatchesThePlainProc) {
  Proc plain = cuda_gemm_example::plain_gemm();
  const Sizes s = GetParam();
  EXPECT_EQ(compare_procs(plain, cuda_gemm_example::schedule_smem_tiled(plain),
                          {{"M", s.m}, {"N", s.n}, {"K", s.k}}),
            "");
}

TEST_P(CudaGemmStage, TensorCoresMatchThePlainProc) {
  Proc plain = cuda_gemm_example::plain_gemm();
  const Sizes s = GetParam();
  EXPECT_EQ(compare_procs(plain, cuda_gemm_example::schedule_wmma(plain),
                          {{"M", s.m}, {"N", s.n}, {"K", s.k}}),
            "");
}

TEST_P(CudaGemmStage, TensorCoresFromSharedMemoryMatchThePlainProc) {
  Proc plain = cuda_gemm_example::plain_gemm();
  const Sizes s = GetParam();
  EXPECT_EQ(compare_procs(plain, cuda_gemm_example::schedule_wmma_smem(plain),
                          {{"M", s.m}, {"N", s.n}, {"K", s.k}}),
            "");
}

TEST_P(CudaGemmStage, AsynchronousCopiesMatchThePlainProc) {
  Proc plain = cuda_gemm_example::plain_gemm();
  const Sizes s = GetParam();
  EXPECT_EQ(compare_procs(plain, cuda_gemm_example::schedule_wmma_smem(plain, true),
                          {{"M", s.m}, {"N", s.n}, {"K", s.k}}),
            "");
}

TEST(CudaGemm, TheTensorCoreStageCallsOnlyTensorCoreInstructions) {
  std::string text = to_string(cuda_gemm_example::schedule_wmma(cuda_gemm_example::plain_gemm()));
  for (const char* instr :
       {"wmma_load_acc(", "wmma_load_a(", "wmma_load_b(", "wmma_mma(", "wmma_store_acc("})
    EXPECT_NE(text.find(instr), std::string::npos) << instr << "\n" << text;
  EXPECT_EQ(text.find(" = "), std::string::npos) << text;  // no plain assignment is left
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaGemmStage,
                         ::testing::Values(Sizes{32, 32, 16}, Sizes{64, 32, 48},
                                           Sizes{32, 64, 32}));

TEST(CudaGemm, EveryStageIsAKernelLaunch) {
  for (const Proc& p : cuda_gemm_example::all_stages()) {
    std::string text = to_string(p);
    EXPECT_NE(text.find("cuda_blocks"), std::string::npos) << text;
    EXPECT_TRUE(text.find("cuda_threads") != std::string::npos ||
                text.find("cuda_warps") != std::string::npos)
        << text;
  }
}

}  // namespace
}  // namespace exocpp
