// The structural rules of CUDA kernels (core/typecheck_cuda.cpp): each breach is refused with a
// located message naming what is wrong, at parse time (the type checker) or, for host code
// touching device memory, at CUDA emission.
#include <gtest/gtest.h>

#include "cuda_test_util.h"

namespace exocpp {
namespace {

using cuda_test::parse_cuda;

// The message of the TypeError that parsing `src` (whose proc is `p`) raises, or "".
std::string parse_error(const std::string& src) {
  try {
    parse_cuda(src, "p");
  } catch (const TypeError& e) {
    return e.what();
  }
  return "";
}

// A plain proc, for the call a kernel may not make.
const std::string kPrelude = "def q(x: [f32][1] @ CUDA_GLOBAL):\n    x[0] = 1.0\n\n";
const std::string kHeader = "def p(N: size, A: f32[N, 16] @ CUDA_GLOBAL, H: f32[16] @ DRAM):\n";

TEST(CudaStructure, AWellFormedKernelParses) {
  EXPECT_EQ(parse_error(kHeader + "    for b in cuda_blocks(0, N):\n"
                                  "        s: f32[16] @ CUDA_SHARED\n"
                                  "        r: f32[16] @ CUDA_REG\n"
                                  "        for t in cuda_threads(0, 16):\n"
                                  "            s[t] = A[b, t]\n"
                                  "        cuda_syncthreads()\n"
                                  "        for t in cuda_threads(0, 16):\n"
                                  "            r[t] = s[15 - t]\n"
                                  "            A[b, t] = r[t]\n"),
            "");
}

struct Breach {
  const char* name;
  std::string body;     // after kHeader
  const char* message;  // a part of the refusal
};

class CudaStructureBreach : public ::testing::TestWithParam<Breach> {};

TEST_P(CudaStructureBreach, IsRefusedWithItsReason) {
  std::string err = parse_error(kPrelude + kHeader + GetParam().body);
  EXPECT_NE(err.find(GetParam().message), std::string::npos) << err;
}

INSTANTIATE_TEST_SUITE_P(
    Rules, CudaStructureBreach,
    ::testing::Values(Breach{"LaneLoopOutsideAKernel",
                             "    for t in cuda_threads(0, 16):\n"
                             "        A[0, t] = 1.0\n",
                             "must stand inside a kernel"},
                      Breach{"WriteAtBlockLevel",
                             "    for b in cuda_blocks(0, N):\n"
                             "        A[b, 0] = 1.0\n",
                             "a write must run on one thread"},
                      Breach{"WriteRepeatedByAGroupOfThreads",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 2):\n"
                             "            A[b, t] = 1.0\n"
                             "            for u in cuda_threads(0, 8):\n"
                             "                A[b, 8 + u] = 2.0\n",
                             "whose every iteration runs on 8 threads"},
                      Breach{"BarrierUnderALaneLoop",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            cuda_syncthreads()\n",
                             "the block's threads would not all reach it"},
                      Breach{"BarrierOutsideAKernel", "    cuda_syncthreads()\n",
                             "stands outside a kernel"},
                      Breach{"WarpBarrierOutsideAWarp",
                             "    for b in cuda_blocks(0, N):\n"
                             "        cuda_syncwarp()\n",
                             "must stand directly in a cuda_warps loop's body"},
                      Breach{"SharedArrayUnderALaneLoop",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            s: f32[16] @ CUDA_SHARED\n"
                             "            s[t] = 1.0\n",
                             "one array per block"},
                      Breach{"SharedArrayOnTheHost",
                             "    s: f32[16] @ CUDA_SHARED\n"
                             "    for b in cuda_blocks(0, N):\n"
                             "        pass\n",
                             "exists only inside a kernel"},
                      Breach{"HostMemoryInAKernel",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            A[b, t] = H[t]\n",
                             "which is in DRAM (host memory)"},
                      Breach{"HostAllocationInAKernel",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            x: f32 @ DRAM\n"
                             "            x = 1.0\n",
                             "which a kernel cannot allocate"},
                      Breach{"ThreadExtentNotConstant",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, N):\n"
                             "            A[b, 0] = 1.0\n",
                             "must be integer constants"},
                      Breach{"TooManyThreads",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 2048):\n"
                             "            A[b, 0] = 1.0\n",
                             "a CUDA block holds at most 1024"},
                      Breach{"WarpBodyWiderThanAWarp",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for w in cuda_warps(0, 2):\n"
                             "            for t in cuda_threads(0, 64):\n"
                             "                A[b, 0] = 1.0\n",
                             "a warp has 32"},
                      Breach{"TriangularGrid",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for c in cuda_blocks(0, b):\n"
                             "            for t in cuda_threads(0, 16):\n"
                             "                A[b, t] = 1.0\n",
                             "a kernel's grid is a rectangle"},
                      Breach{"ParLoopInAKernel",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in par(0, 16):\n"
                             "            A[b, t] = 1.0\n",
                             "cannot stand inside a kernel's block"},
                      Breach{"SeparatedGridLoops",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            for c in cuda_blocks(0, 2):\n"
                             "                A[b, t] = 1.0\n",
                             "cannot stand inside a kernel's block"},
                      Breach{"DistributedBufferIndexedOtherwise",
                             "    for b in cuda_blocks(0, N):\n"
                             "        r: f32[16] @ CUDA_REG\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            r[15 - t] = 1.0\n",
                             "index 0 must be 't', the iterator of lane loop 1"},
                      Breach{"DistributedBufferReadByAnotherGeometry",
                             "    for b in cuda_blocks(0, N):\n"
                             "        r: f32[16, 16] @ CUDA_REG\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            for u in cuda_threads(0, 16):\n"
                             "                r[t, u] = 1.0\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            for u in cuda_threads(0, 16):\n"
                             "                A[b, 0] = r[t, u]\n"
                             "            for v in cuda_threads(0, 32):\n"
                             "                A[b, 1] = 2.0\n",
                             "another shape than at its first use"},
                      Breach{"RegisterBufferHeldByAGroup",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 2):\n"
                             "            r: f32[8] @ CUDA_REG\n"
                             "            for u in cuda_threads(0, 8):\n"
                             "                r[u] = 1.0\n",
                             "each of those threads would hold its own copy"},
                      Breach{"CollectiveInstructionOnOneThread",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for w in cuda_warps(0, 1):\n"
                             "            for t in cuda_threads(0, 32):\n"
                             "                f: f32[16, 16] @ WMMA_ACC\n"
                             "                wmma_zero_acc(f)\n",
                             "must be allocated directly in a cuda_warps loop's body"},
                      Breach{"CollectiveInstructionOutsideAWarp",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 32):\n"
                             "            wmma_store_acc(A[0:16, 0:16], A[0:16, 0:16])\n",
                             "is executed by a whole warp"},
                      Breach{"DistributedFragmentOfAnotherWarp",
                             "    for b in cuda_blocks(0, N):\n"
                             "        f: f32[2, 16, 16] @ WMMA_ACC\n"
                             "        for w in cuda_warps(0, 2):\n"
                             "            wmma_zero_acc(f[0, 0:16, 0:16])\n",
                             "index 0 must be 'w', the iterator of lane loop 1"},
                      Breach{"NonInstructionCallInAKernel",
                             "    for b in cuda_blocks(0, N):\n"
                             "        for t in cuda_threads(0, 16):\n"
                             "            q(A[b, t:t + 1])\n",
                             "which is not an instruction"}),
    [](const ::testing::TestParamInfo<Breach>& info) { return std::string(info.param.name); });

TEST(CudaStructure, HostCodeTouchingDeviceMemoryIsRefusedAtEmission) {
  Proc p = parse_cuda(kHeader + "    A[0, 0] = 1.0\n", "p");  // the interpreter runs it
  try {
    compile_procs_to_cuda({p}, "lib");
    FAIL() << "emitted host code that writes device memory";
  } catch (const CodegenError& e) {
    EXPECT_NE(std::string(e.what()).find("host code writes 'A', which is in CUDA_GLOBAL"),
              std::string::npos)
        << e.what();
  }
}

TEST(CudaStructure, KernelReadingConfigStateIsRefused) {
  std::string src = "config Cfg:\n    x: f32\n\n" + kHeader +
                    "    for b in cuda_blocks(0, N):\n"
                    "        for t in cuda_threads(0, 16):\n"
                    "            A[b, t] = Cfg.x\n";
  try {
    cuda::register_memories();
    ParseOptions opts;
    opts.procs = cuda::library().procs;
    parse_module(src, opts);
    FAIL() << "a kernel read configuration state";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("configuration state lives on the host"),
              std::string::npos)
        << e.what();
  }
}

TEST(CudaStructure, TheCBackendRefusesKernels) {
  Proc p = parse_cuda(kHeader +
                          "    for b in cuda_blocks(0, N):\n"
                          "        for t in cuda_threads(0, 16):\n"
                          "            A[b, t] = 1.0\n",
                      "p");
  try {
    compile_procs_to_c({p}, "lib");
    FAIL() << "the C backend emitted a kernel";
  } catch (const CodegenError& e) {
    EXPECT_NE(std::string(e.what()).find("emitted as CUDA (emit_cuda)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace exocpp
