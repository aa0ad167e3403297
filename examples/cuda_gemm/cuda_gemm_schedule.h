// The CUDA GEMM schedules: the plain fp16 GEMM of gemm.exo (fp32 accumulation, C += A * B)
// scheduled onto an NVIDIA GPU in stages, each a proc of its own, with public scheduling
// operations only (every step checked, the kernel race rule included). Used by cuda_gemm_gen
// (gen.cpp) and the tests (tests/cuda/cuda_gemm_test.cpp).
//
//   naive        one thread per element of C: 16 x 16 blocks of threads, each thread
//                accumulating its dot product in a register.
//   smem_tiled   shared-memory tiling with register blocking: 128 x 128 tiles of C as blocks of
//                16 x 16 threads, each thread an 8 x 8 register tile; per 16-wide step of k the
//                block stages A's 128 x 16 tile (transposed) and B's 16 x 128 tile in shared
//                memory between two barriers.
//   wmma         tensor cores: 16 x 16 tiles of C as blocks of one warp, the tile in an
//                accumulator fragment; per 16-wide step of k the warp loads 16 x 16 fragments
//                of A and B from global memory and multiplies them (mma_sync).
//   wmma_smem    32 x 32 tiles of C as blocks of 4 warps (2 x 2 tiles of 16 x 16, their
//                accumulator fragments distributed over the warps); per 16-wide step of k the
//                block's 512 threads stage A's 32 x 16 and B's 16 x 32 tiles in shared memory,
//                and after a barrier each warp loads its fragments from there.
//   wmma_async   wmma_smem with the tiles copied asynchronously (cp.async, 8 elements per
//                thread) and a barrier that waits for the copies.
//   mma          PTX's mma.sync.m16n8k16: the blocks, warps and cp.async copies of wmma_async,
//                each warp's 16 x 16 tile of C as two 16 x 8 accumulators (a register tile);
//                per step of k a warp loads its A fragment and, in turn, its two B fragments
//                from shared memory with ldmatrix.
//   mma_pipelined  mma with a two-stage cp.async pipeline: two buffers per tile, step k + 1's
//                copies in flight while step k's warps compute from the other buffer; one
//                barrier per step, which waits for the copies.
//   wmma_large, mma_large  128 x 128 tiles of C as blocks of 8 warps, each warp a 64 x 32
//                register tile of accumulators; k in steps of 32 through the two-stage cp.async
//                pipeline (256 threads copying in passes). wmma_large pads the shared rows
//                against bank conflicts; mma_large keeps them in swizzled shared memory
//                (CUDA_SHARED_SWIZZLED) and loads with the swizzled ldmatrix instructions.
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

namespace cuda_gemm_example {

// The text of gemm.exo (embedded at build time) and its proc.
const std::string& gemm_source();
exocpp::Proc plain_gemm();

exocpp::Proc schedule_naive(const exocpp::Proc& plain);
exocpp::Proc schedule_smem_tiled(const exocpp::Proc& plain);
exocpp::Proc schedule_wmma(const exocpp::Proc& plain);
// `async_copies`: the tiles are staged with cp.async (16 bytes per thread) and the first barrier
// waits for the copies (the wmma_async stage).
exocpp::Proc schedule_wmma_smem(const exocpp::Proc& plain, bool async_copies = false);
// `pipelined`: two buffers per tile, and step k + 1's cp.async copies issued before step k's
// tensor-core work (rotate_loop, reorder_stmts), so that they overlap (the mma_pipelined stage).
exocpp::Proc schedule_mma(const exocpp::Proc& plain, bool pipelined = false);
// Need M % 128 == 0, N % 128 == 0 and K % 32 == 0 (gemm.exo asserts them).
exocpp::Proc schedule_wmma_large(const exocpp::Proc& plain);
exocpp::Proc schedule_mma_large(const exocpp::Proc& plain);

// Every stage, renamed gemm_<stage>, in the order above; their names; one of them by name
// (std::invalid_argument for an unknown one), scheduling only that one.
std::vector<exocpp::Proc> all_stages();
std::vector<std::string> stage_names();
exocpp::Proc stage(const std::string& name);

}  // namespace cuda_gemm_example
