// The CUDA GEMM schedule (examples/cuda_gemm): every stage computes what the plain proc computes
// in the interpreter (its kernels run as sequential loops, which the race rule makes their
// meaning), and each step of it was compared on random inputs (validation mode, this suite's
// EXOCPP_VALIDATE=1).
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "cuda_gemm_schedule.h"
#include "cuda_test_util.h"

namespace exocpp {
namespace {

struct Sizes {
  int64_t m, n, k;
};

// Each stage by its name (cuda_gemm_example::stage schedules only it): ctest runs every test in
// a process of its own, and validation mode compares each step of the schedule.
class CudaGemmStage : public ::testing::TestWithParam<std::tuple<std::string, Sizes>> {};

TEST_P(CudaGemmStage, MatchesThePlainProc) {
  const auto [stage, s] = GetParam();
  EXPECT_EQ(compare_procs(cuda_gemm_example::plain_gemm(), cuda_gemm_example::stage(stage),
                          {{"M", s.m}, {"N", s.n}, {"K", s.k}}),
            "");
}

INSTANTIATE_TEST_SUITE_P(Shapes, CudaGemmStage,
                         ::testing::Combine(::testing::ValuesIn(cuda_gemm_example::stage_names()),
                                            ::testing::Values(Sizes{128, 128, 32},
                                                              Sizes{256, 128, 64},
                                                              Sizes{128, 256, 32})),
                         [](const ::testing::TestParamInfo<std::tuple<std::string, Sizes>>& info) {
                           const Sizes s = std::get<1>(info.param);
                           return std::get<0>(info.param).substr(5) + "_" + std::to_string(s.m) +
                                  "x" + std::to_string(s.n) + "x" +
                                  std::to_string(s.k);  // without "gemm_"
                         });

TEST(CudaGemm, TheTensorCoreStageCallsOnlyTensorCoreInstructions) {
  std::string text = to_string(cuda_gemm_example::schedule_wmma(cuda_gemm_example::plain_gemm()));
  for (const char* instr :
       {"wmma_load_acc(", "wmma_load_a(", "wmma_load_b(", "wmma_mma(", "wmma_store_acc("})
    EXPECT_NE(text.find(instr), std::string::npos) << instr << "\n" << text;
  EXPECT_EQ(text.find(" = "), std::string::npos) << text;  // no plain assignment is left
}

TEST(CudaGemm, TheMmaStageCallsOnlyMmaSyncLdmatrixAndAsyncCopies) {
  std::string text = to_string(cuda_gemm_example::schedule_mma(cuda_gemm_example::plain_gemm()));
  for (const char* instr : {"mma_load_acc(", "mma_ldmatrix_a(", "mma_ldmatrix_b(", "mma_m16n8k16(",
                            "mma_store_acc(", "cp_async_f16x8("})
    EXPECT_NE(text.find(instr), std::string::npos) << instr << "\n" << text;
  EXPECT_EQ(text.find(" = "), std::string::npos) << text;  // no plain assignment is left
}

TEST(CudaGemm, ThePipelinedStageCopiesTheNextStepBeforeComputingThisOne) {
  std::string text =
      to_string(cuda_gemm_example::schedule_mma(cuda_gemm_example::plain_gemm(), true));
  // Two buffers per tile; step ko + 1's copies, into the other, before step ko's warps.
  EXPECT_NE(text.find("As: f16[2, 32, 16] @ CUDA_SHARED"), std::string::npos) << text;
  EXPECT_NE(text.find("Bs: f16[2, 16, 32] @ CUDA_SHARED"), std::string::npos) << text;
  const size_t next = text.find("cp_async_f16x8(As[(ko + 1) % 2");
  const size_t warps = text.find("mma_ldmatrix_a(Af[0:16, 0:16], As[ko % 2");
  ASSERT_NE(next, std::string::npos) << text;
  ASSERT_NE(warps, std::string::npos) << text;
  EXPECT_LT(next, warps) << text;
  EXPECT_EQ(text.find("cuda_syncthreads()"), std::string::npos) << text;  // one barrier per step
}

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
