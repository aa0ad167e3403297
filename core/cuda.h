// The thread geometry of CUDA kernels, shared by the type checker (core/typecheck_cuda.cpp),
// the checker's race query and the CUDA code generator: how many threads a piece of kernel code
// occupies and which thread runs which iteration of a cuda_threads or cuda_warps loop.
//
// A kernel is an outermost `cuda_blocks` loop. Inside it, the block's threads are numbered
// 0 .. block_threads-1. A lane loop (cuda_threads, cuda_warps) hands each iteration a `unit` of
// consecutive threads: iteration lo + k runs on threads [k * unit, (k + 1) * unit) of the
// group that reaches the loop, and the body sees those threads as its own group 0 .. unit-1.
// A cuda_warps loop's unit is 32; a cuda_threads loop's unit is the footprint of its body.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/ir.h"
#include "core/loc.h"

namespace exocpp {

// The threads a warp holds.
inline constexpr int64_t kCudaWarpSize = 32;
// The most threads a CUDA block may hold.
inline constexpr int64_t kCudaMaxBlockThreads = 1024;

// The number of iterations of lane loop `f` when its bounds are integer constants
// (hi - lo, at least 0), else nullopt. Lane loops must have constant bounds (the type checker
// says so), which is what makes the geometry static.
std::optional<int64_t> cuda_lane_extent(const ForNode& f);
// The first iteration of lane loop `f` when its lower bound is an integer constant.
std::optional<int64_t> cuda_lane_lo(const ForNode& f);

// How many threads `b` occupies: the largest footprint of its statements, at least 1. A lane
// loop's footprint is extent * unit; a seq loop's or an if's is that of its bodies; any other
// statement's is 1. Lane loops whose bounds are not constant count as one iteration.
int64_t cuda_footprint(const Block& b);

// The threads each iteration of lane loop `f` runs on: 32 for cuda_warps, the footprint of
// the body for cuda_threads.
int64_t cuda_lane_unit(const ForNode& f);

// Whether `s` is a call of a barrier instruction (InstrInfo::sync not empty).
bool is_cuda_barrier(const Stmt& s);

// A loop of a body that is not seq (par, or a CUDA loop): statement `index` of list `path`,
// and whether a kernel (a cuda_blocks loop around it) contains it. The code generator and the
// scheduling operations prove each one independent, and each kernel race free.
struct ParallelLoopAt {
  BlockPath path;
  int index = 0;
  Stmt stmt;
  bool in_kernel = false;
};
// Every such loop of `body`, outer loops before the loops inside them.
std::vector<ParallelLoopAt> parallel_loops(const Block& body);

// The bytes of one element of a data type in emitted C and CUDA (R is float; f16 is 2 bytes).
int64_t cuda_element_bytes(ScalarKind k);
// The bytes the array `a` allocates when its shape is integer constants, else nullopt.
std::optional<int64_t> cuda_constant_bytes(const AllocNode& a);

// The most dynamic shared memory one block may have: 227 KB, what sm_90 allows (sm_80: 163 KB).
inline constexpr int64_t kCudaMaxDynamicSharedBytes = 227 * 1024;
// The dynamic shared memory a kernel may use without opting in (cudaFuncSetAttribute).
inline constexpr int64_t kCudaDefaultSharedBytes = 48 * 1024;

}  // namespace exocpp
