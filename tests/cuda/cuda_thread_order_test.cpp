// The race rule against an oracle: every kernel the rule accepts computes the same in the
// interpreter's loop-major order and in thread-major orders (each thread runs its part of a
// barrier-free run of lane loops before the next starts, forward and backward), which a GPU may
// choose; a kernel the rule refuses shows the difference the oracle can see.
#include <gtest/gtest.h>

#include "cuda_gemm_schedule.h"
#include "cuda_test_util.h"
#include "thread_order.h"

namespace exocpp {
namespace {

using cuda_test::parse_cuda;

bool accepted(const Proc& p) { return cuda_test::emission_error(p).empty(); }

void expect_orders_agree(const Proc& p, const std::map<std::string, int64_t>& sizes) {
  ASSERT_TRUE(accepted(p)) << p;
  EXPECT_EQ(compare_procs(p, cuda_test::thread_major(p, false), sizes), "") << p;
  EXPECT_EQ(compare_procs(p, cuda_test::thread_major(p, true), sizes), "") << p;
}

const char* kReverse =
    "def p(N: size, A: f32[N, 16] @ CUDA_GLOBAL):\n"
    "    for b in cuda_blocks(0, N):\n"
    "        s: f32[16] @ CUDA_SHARED\n"
    "        for t in cuda_threads(0, 16):\n"
    "            s[t] = A[b, t]\n"
    "        SYNC\n"
    "        for t in cuda_threads(0, 16):\n"
    "            A[b, t] = s[15 - t]\n";

std::string with_sync(const std::string& sync) {
  std::string s = kReverse;
  return s.replace(s.find("SYNC"), 4, sync);
}

TEST(CudaThreadOrder, AKernelWithABarrierAgreesInEveryOrder) {
  expect_orders_agree(parse_cuda(with_sync("cuda_syncthreads()"), "p"), {{"N", 3}});
}

TEST(CudaThreadOrder, TheOracleSeesTheRaceTheRuleRefuses) {
  Proc p = parse_cuda(with_sync("pass"), "p");
  EXPECT_FALSE(accepted(p));
  EXPECT_NE(compare_procs(p, cuda_test::thread_major(p, false), {{"N", 2}}), "");
}

TEST(CudaThreadOrder, LaneLoopsOfDifferentShapesWithoutABarrierAgree) {
  // Thread 16 * t + u writes the element that thread v = 16 * t + u reads: the same thread.
  expect_orders_agree(
      parse_cuda("def p(N: size, A: f32[N, 256] @ CUDA_GLOBAL, X: f32[N, 256] @ CUDA_GLOBAL):\n"
                 "    for b in cuda_blocks(0, N):\n"
                 "        s: f32[256] @ CUDA_SHARED\n"
                 "        for t in cuda_threads(0, 16):\n"
                 "            for u in cuda_threads(0, 16):\n"
                 "                s[16 * t + u] = A[b, 16 * t + u]\n"
                 "        for v in cuda_threads(0, 256):\n"
                 "            X[b, v] = s[v] * 2.0\n",
                 "p"),
      {{"N", 2}});
}

TEST(CudaThreadOrder, AsyncCopiesWithAWaitingBarrierAgree) {
  expect_orders_agree(
      parse_cuda("def p(N: size, A: f16[N, 128] @ CUDA_GLOBAL, X: f16[N, 16] @ CUDA_GLOBAL):\n"
                 "    for b in cuda_blocks(0, N):\n"
                 "        s: f16[128] @ CUDA_SHARED\n"
                 "        for t in cuda_threads(0, 16):\n"
                 "            cp_async_f16x8(s[8 * t : 8 * t + 8], A[b, 8 * t : 8 * t + 8])\n"
                 "        cp_async_wait_syncthreads()\n"
                 "        for t in cuda_threads(0, 16):\n"
                 "            X[b, t] = s[127 - 8 * t]\n",
                 "p"),
      {{"N", 2}});
}

class CudaThreadOrderGemm : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaThreadOrderGemm, TheGemmStageAgreesInEveryOrder) {
  expect_orders_agree(cuda_gemm_example::stage(GetParam()), {{"M", 128}, {"N", 128}, {"K", 32}});
}

INSTANTIATE_TEST_SUITE_P(Stages, CudaThreadOrderGemm,
                         ::testing::ValuesIn(cuda_gemm_example::stage_names()));

}  // namespace
}  // namespace exocpp
