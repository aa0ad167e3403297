// The kernel race rule (checker::kernel_is_race_free): between two barriers, no two threads of a
// block touch one location where one writes; no two blocks do. Refusals name both accesses and
// the threads' lane indices; operations are refused when their result would race.
#include <gtest/gtest.h>

#include "cuda_test_util.h"

namespace exocpp {
namespace {

using cuda_test::emission_error;
using cuda_test::parse_cuda;

// A block reverses a row of A through shared memory; `sync` is the statement between the two
// lane loops.
std::string reverse_rows(const std::string& sync) {
  return "def p(N: size, A: f32[N, 16] @ CUDA_GLOBAL):\n"
         "    for b in cuda_blocks(0, N):\n"
         "        s: f32[16] @ CUDA_SHARED\n"
         "        for t in cuda_threads(0, 16):\n"
         "            s[t] = A[b, t]\n"
         "        " +
         sync +
         "\n"
         "        for t in cuda_threads(0, 16):\n"
         "            A[b, t] = s[15 - t]\n";
}

TEST(CudaRace, ABarrierBetweenWriteAndReadMakesTheKernelRaceFree) {
  EXPECT_EQ(emission_error(parse_cuda(reverse_rows("cuda_syncthreads()"), "p")), "");
}

TEST(CudaRace, AMissingBarrierIsRefusedWithBothAccessesAndThreads) {
  std::string err = emission_error(parse_cuda(reverse_rows("pass"), "p"));
  EXPECT_NE(err.find("no barrier separates them"), std::string::npos) << err;
  // Both accesses, in whichever order the solver's counterexample runs them.
  EXPECT_NE(err.find("writes s["), std::string::npos) << err;
  EXPECT_NE(err.find("reads s["), std::string::npos) << err;
  EXPECT_NE(err.find("one thread "), std::string::npos) << err;
  EXPECT_NE(err.find("another thread "), std::string::npos) << err;
  EXPECT_NE(err.find("(t = "), std::string::npos) << err;  // the lane index of each
}

TEST(CudaRace, TheNextIterationOverwritingWhatThisOneReadsIsARace) {
  // One barrier per step: step k + 1 overwrites s while step k's readers may still read it.
  Proc p = parse_cuda(
      "def p(N: size, K: size, A: f32[N, 16] @ CUDA_GLOBAL, X: f32[K, 16] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        for k in seq(0, K):\n"
      "            s: f32[16] @ CUDA_SHARED\n"
      "            for t in cuda_threads(0, 16):\n"
      "                s[t] = X[k, t]\n"
      "            cuda_syncthreads()\n"
      "            for t in cuda_threads(0, 16):\n"
      "                A[b, t] += s[15 - t]\n",
      "p");
  std::string err = emission_error(p);
  EXPECT_NE(err.find("no barrier separates them"), std::string::npos) << err;
}

TEST(CudaRace, TwoBlocksWritingOneLocationAreRefused) {
  Proc p = parse_cuda(
      "def p(N: size, A: f32[N, 16] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        for t in cuda_threads(0, 16):\n"
      "            A[0, t] = 1.0\n",
      "p");
  std::string err = emission_error(p);
  EXPECT_NE(err.find("iterations of cuda_blocks loop 'b' must be independent"), std::string::npos)
      << err;
}

TEST(CudaRace, TwoThreadsReducingIntoOneLocationAreRefused) {
  Proc p = parse_cuda(
      "def p(N: size, A: f32[N, 16] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        for t in cuda_threads(0, 16):\n"
      "            A[b, 0] += 1.0\n",
      "p");
  EXPECT_NE(emission_error(p).find("one thread reduces into A[0, 0]"), std::string::npos);
}

TEST(CudaRace, SetLoopModeRefusesThreadsThatConflict) {
  Proc p = parse_cuda(
      "def p(N: size, A: f32[N, 17] @ CUDA_GLOBAL):\n"
      "    for b in seq(0, N):\n"
      "        for t in seq(0, 16):\n"
      "            A[b, t + 1] = A[b, t]\n",
      "p");
  try {
    set_loop_mode(p, "for t in _: _", "cuda_threads");
    FAIL() << "a loop-carried dependence became threads";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.reason_id(), "checker.par_conflict") << e.what();
  }
}

TEST(CudaRace, AnOperationThatMovesAWriteAcrossTheBarrierIsRefused) {
  // Swapping the barrier and the loop before it is legal for the sequential proc (a barrier
  // changes no value) but leaves the write unordered with the reads.
  Proc p = parse_cuda(reverse_rows("cuda_syncthreads()"), "p");
  try {
    reorder_stmts(p, p.find("for t in _: _ #0").expand(0, 1));
    FAIL() << "the barrier moved above the writes it orders";
  } catch (const SchedulingError& e) {
    EXPECT_EQ(e.reason_id(), "checker.cuda_race") << e.what();
  }
}

TEST(CudaRace, TwoWarpsStoringOneTileAreRefused) {
  Proc p = parse_cuda(
      "def p(N: size, C: f32[N, 16] @ CUDA_GLOBAL):\n"
      "    assert N % 16 == 0\n"
      "    for b in cuda_blocks(0, N / 16):\n"
      "        for w in cuda_warps(0, 2):\n"
      "            f: f32[16, 16] @ WMMA_ACC\n"
      "            wmma_zero_acc(f)\n"
      "            wmma_store_acc(C[16 * b : 16 * b + 16, 0:16], f)\n",
      "p");
  std::string err = emission_error(p);
  EXPECT_NE(err.find("must not race"), std::string::npos) << err;
}

TEST(CudaRace, WarpsStoringTheirOwnTilesAreRaceFree) {
  Proc p = parse_cuda(
      "def p(N: size, C: f32[N, 32] @ CUDA_GLOBAL):\n"
      "    assert N % 16 == 0\n"
      "    for b in cuda_blocks(0, N / 16):\n"
      "        for w in cuda_warps(0, 2):\n"
      "            f: f32[16, 16] @ WMMA_ACC\n"
      "            wmma_zero_acc(f)\n"
      "            wmma_store_acc(C[16 * b : 16 * b + 16, 16 * w : 16 * w + 16], f)\n",
      "p");
  EXPECT_EQ(emission_error(p), "");
}

// A block copies a row of A into shared memory asynchronously, 8 elements per thread; `sync`
// stands between the copies and the reads, which take another thread's elements when `mine` is
// false.
std::string async_copy(const std::string& sync, bool mine) {
  return "def p(N: size, A: f16[N, 128] @ CUDA_GLOBAL, X: f16[N, 16] @ CUDA_GLOBAL):\n"
         "    for b in cuda_blocks(0, N):\n"
         "        s: f16[128] @ CUDA_SHARED\n"
         "        for t in cuda_threads(0, 16):\n"
         "            cp_async_f16x8(s[8 * t : 8 * t + 8], A[b, 8 * t : 8 * t + 8])\n"
         "        " +
         sync +
         "\n"
         "        for t in cuda_threads(0, 16):\n"
         "            X[b, t] = s[" +
         (mine ? "8 * t" : "127 - 8 * t") + "]\n";
}

TEST(CudaRace, AnAsyncCopyReadAfterAWaitingBarrierIsRaceFree) {
  EXPECT_EQ(emission_error(parse_cuda(async_copy("cp_async_wait_syncthreads()", false), "p")), "");
}

TEST(CudaRace, AnAsyncCopyReadAfterAPlainBarrierIsRefused) {
  std::string err = emission_error(parse_cuda(async_copy("cuda_syncthreads()", false), "p"));
  EXPECT_NE(err.find("must not race"), std::string::npos) << err;
}

TEST(CudaRace, AThreadReadingItsOwnAsyncCopyBeforeWaitingIsRefused) {
  std::string err = emission_error(parse_cuda(async_copy("cuda_syncthreads()", true), "p"));
  EXPECT_NE(err.find("must not race"), std::string::npos) << err;
}

TEST(CudaRace, ReadsBeforeTheNextCopyNeedOnlyAPlainBarrier) {
  Proc p = parse_cuda(
      "def p(N: size, K: size, A: f16[K, 128] @ CUDA_GLOBAL, X: f16[N, 16] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        s: f16[128] @ CUDA_SHARED\n"
      "        for k in seq(0, K):\n"
      "            for t in cuda_threads(0, 16):\n"
      "                cp_async_f16x8(s[8 * t : 8 * t + 8], A[k, 8 * t : 8 * t + 8])\n"
      "            cp_async_wait_syncthreads()\n"
      "            for t in cuda_threads(0, 16):\n"
      "                X[b, t] += s[127 - 8 * t]\n"
      "            cuda_syncthreads()\n",
      "p");
  EXPECT_EQ(emission_error(p), "");
}

TEST(CudaRace, TheNextCopyOverwritingUnreadDataIsRefused) {
  Proc p = parse_cuda(
      "def p(N: size, K: size, A: f16[K, 128] @ CUDA_GLOBAL, X: f16[N, 16] @ CUDA_GLOBAL):\n"
      "    for b in cuda_blocks(0, N):\n"
      "        s: f16[128] @ CUDA_SHARED\n"
      "        for k in seq(0, K):\n"
      "            for t in cuda_threads(0, 16):\n"
      "                cp_async_f16x8(s[8 * t : 8 * t + 8], A[k, 8 * t : 8 * t + 8])\n"
      "            cp_async_wait_syncthreads()\n"
      "            for t in cuda_threads(0, 16):\n"
      "                X[b, t] += s[127 - 8 * t]\n",
      "p");
  EXPECT_NE(emission_error(p).find("must not race"), std::string::npos);
}

TEST(CudaRace, TheBlockIndexOfTheCounterexampleIsGiven) {
  std::string err = emission_error(parse_cuda(reverse_rows("pass"), "p"));
  EXPECT_NE(err.find("b = "), std::string::npos) << err;
}

// A two-stage pipeline: step k + 1's asynchronous copies go into the other half of s while step
// k's threads read theirs; the wait at the top of each step orders both. `copy_half`,
// `read_half` and `wait` vary it.
std::string pipeline(const std::string& copy_half, const std::string& read_half,
                     const std::string& wait) {
  return "def p(K: size, A: f16[K, 128] @ CUDA_GLOBAL, X: f16[K, 128] @ CUDA_GLOBAL):\n"
         "    for b in cuda_blocks(0, 1):\n"
         "        s: f16[2, 128] @ CUDA_SHARED\n"
         "        if 0 < K:\n"
         "            for t in cuda_threads(0, 16):\n"
         "                cp_async_f16x8(s[0, 8 * t : 8 * t + 8], A[0, 8 * t : 8 * t + 8])\n"
         "            for k in seq(0, K):\n"
         "                " +
         wait +
         "\n"
         "                if k + 1 < K:\n"
         "                    for t in cuda_threads(0, 16):\n"
         "                        cp_async_f16x8(s[" +
         copy_half +
         ", 8 * t : 8 * t + 8], A[k + 1, 8 * t : 8 * t + 8])\n"
         "                for t in cuda_threads(0, 16):\n"
         "                    X[k, t] = s[" +
         read_half + ", 127 - 8 * t]\n";
}

// Emission of `p` refuses a race between the threads of a block.
void expect_thread_race(const Proc& p) {
  std::string err = emission_error(p);
  EXPECT_NE(err.find("no barrier separates them"), std::string::npos) << err;
}

TEST(CudaRace, ATwoStagePipelineOverTwoBuffersIsRaceFree) {
  EXPECT_EQ(emission_error(
                parse_cuda(pipeline("(k + 1) % 2", "k % 2", "cp_async_wait_syncthreads()"), "p")),
            "");
}

TEST(CudaRace, APipelineCopyingIntoTheHalfBeingReadIsRefused) {
  expect_thread_race(parse_cuda(pipeline("k % 2", "k % 2", "cp_async_wait_syncthreads()"), "p"));
}

TEST(CudaRace, APipelineReadingTheHalfInFlightIsRefused) {
  expect_thread_race(
      parse_cuda(pipeline("(k + 1) % 2", "(k + 1) % 2", "cp_async_wait_syncthreads()"), "p"));
}

TEST(CudaRace, APipelineWithoutItsWaitIsRefused) {
  expect_thread_race(parse_cuda(pipeline("(k + 1) % 2", "k % 2", "pass"), "p"));
}

TEST(CudaRace, APipelineWhosePlainBarrierDoesNotWaitForCopiesIsRefused) {
  expect_thread_race(parse_cuda(pipeline("(k + 1) % 2", "k % 2", "cuda_syncthreads()"), "p"));
}

// A step's copies made in two passes of one lane loop (a seq loop around it, as when a tile has
// more rows than the block has threads), each step's reads after a waiting barrier; `rows` is the
// row pass h's copy writes, and `after` what follows the reads.
std::string copies_in_passes(const std::string& rows, const std::string& after) {
  return "def p(K: size, A: f16[K, 256] @ CUDA_GLOBAL, X: f16[K, 32] @ CUDA_GLOBAL):\n"
         "    for b in cuda_blocks(0, 1):\n"
         "        s: f16[2, 128] @ CUDA_SHARED\n"
         "        for k in seq(0, K):\n"
         "            for h in seq(0, 2):\n"
         "                for t in cuda_threads(0, 16):\n"
         "                    cp_async_f16x8(s[" +
         rows +
         ", 8 * t : 8 * t + 8], A[k, 128 * h + 8 * t : 128 * h + 8 * t + 8])\n"
         "            cp_async_wait_syncthreads()\n"
         "            for t in cuda_threads(0, 32):\n"
         "                X[k, t] = s[t % 2, 127 - 4 * (t / 2)]\n"
         "            " +
         after + "\n";
}

// The passes' back edge joins their copies without a barrier, but only within one step: the
// copies of different steps are ordered by the barriers between, so the kernel is race free.
TEST(CudaRace, CopiesInPassesOfOneStepAreNotComparedAcrossSteps) {
  EXPECT_EQ(emission_error(parse_cuda(copies_in_passes("h", "cuda_syncthreads()"), "p")), "");
}

TEST(CudaRace, TwoPassesCopyingIntoOneRowAreRefused) {
  expect_thread_race(parse_cuda(copies_in_passes("0", "cuda_syncthreads()"), "p"));
}

TEST(CudaRace, CopiesInPassesThatOverwriteUnreadRowsAreRefused) {
  expect_thread_race(parse_cuda(copies_in_passes("h", "pass"), "p"));
}

// fission leaves two lane loops binding one iterator: the rule must tell them apart. Here the
// first writes s and a second lane loop reads it with no barrier between (a race); the loop
// sharing the first one's iterator stands after a barrier, where it would be race free.
TEST(CudaRace, LaneLoopsSharingAnIteratorAreToldApart) {
  Proc p = parse_cuda(
      "def p(N: size, A: f32[N, 16] @ CUDA_GLOBAL, X: f32[N, 16] @ CUDA_GLOBAL, Y: f32[N, 16] "
      "@ CUDA_GLOBAL):\n"
      "    for b in seq(0, N):\n"
      "        s: f32[16] @ DRAM\n"
      "        for t in seq(0, 16):\n"
      "            s[t] = A[b, t]\n"
      "            Y[b, t] = 1.0\n"
      "        for u in seq(0, 16):\n"
      "            X[b, u] = s[15 - u]\n",
      "p");
  p = fission(p, p.find("Y[_] = _").before());  // for t: s[t] = .. ; for t: Y[..] = ..
  p = reorder_stmts(p, p.find_loop("t #1"));    // ... the reading loop between them
  p = insert_noop_call(p, p.find_loop("t #1").before(), cuda::instr("cuda_syncthreads"), {});
  p = set_memory(p, "s", cuda::CUDA_SHARED());
  for (const char* lane : {"t #0", "t #1", "u"}) p = set_loop_mode(p, lane, "cuda_threads");
  try {
    set_loop_mode(p, "b", "cuda_blocks");
    FAIL() << "the race between the first t loop and the u loop was accepted:\n" << p;
  } catch (const SchedulingError& e) {
    EXPECT_NE(std::string(e.what()).find("no barrier separates them"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace exocpp
