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

INSTANTIATE_TEST_SUITE_P(Shapes, CudaGemmStage,
                         ::testing::Values(Sizes{16, 16, 16}, Sizes{32, 16, 48},
                                           Sizes{16, 48, 32}));

TEST(CudaGemm, EveryStageIsAKernelLaunch) {
  for (const Proc& p : cuda_gemm_example::all_stages()) {
    std::string text = to_string(p);
    EXPECT_NE(text.find("cuda_blocks"), std::string::npos) << text;
    EXPECT_NE(text.find("cuda_threads"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace exocpp
