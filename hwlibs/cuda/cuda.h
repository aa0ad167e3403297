// The CUDA hardware library: where a GPU kernel's buffers live, as memories, and as instructions
// the barriers a kernel synchronizes its threads with (cuda.exo), cp.async copies (cuda.exo) and
// tensor-core operations (wmma.exo, and mma.exo's mma.sync with ldmatrix). It uses only the public
// API:
//
//   #include "hwlibs/cuda/cuda.h"
//   p = set_loop_mode(p, "for i in _: _", "cuda_blocks");
//   p = set_memory(p, "As", cuda::CUDA_SHARED());
//   p = insert_noop_call(p, gap, cuda::instr("cuda_syncthreads"), {});
//
//   CUDA_GLOBAL  device global memory: a kernel's arguments, cudaMalloc'd on the host.
//   CUDA_SHARED  one array per thread block (__shared__), allocated in a kernel outside its
//                thread loops; its shape must be constant.
//   CUDA_SHARED_DYN  like CUDA_SHARED, in the kernel's dynamic shared memory: a kernel's arrays
//                here may take up to 227 KB (sm_90; 163 KB on sm_80), the launch passes their
//                size, and past 48 KB the host function opts in (cudaFuncSetAttribute).
//   CUDA_SHARED_SWIZZLED  like CUDA_SHARED, for f16 arrays, in a 128-byte XOR swizzle
//                (mma_helpers.cuh) that spares ldmatrix bank conflicts; instructions receive
//                only windows that start and span multiples of 8 elements in the last dimension
//                (proved before emission), and plain code no windows at all.
//   CUDA_REG     each thread's registers (a local array); allocated at a kernel's block level it
//                is distributed, one slice per thread (docs/gpu.md).
//   WMMA_A, WMMA_B, WMMA_ACC  tensor-core fragments: a 16 x 16 f16 operand (row-major) or f32
//                accumulator that one warp holds; allocated directly in a cuda_warps loop's body,
//                touched only by the warp-collective instructions of wmma.exo.
//   MMA_A, MMA_B, MMA_ACC  fragments of PTX's mma.sync.m16n8k16 (mma.exo): 16 x 16 f16 of A,
//                16 x 8 f16 of B, 16 x 8 f32 accumulator, in PTX's lane layout
//                (mma_helpers.cuh); placed like the WMMA fragments, and allowed as constant
//                arrays of fragments (a warp's register tile), a window naming one of them.
//
// docs/gpu.md describes the model (kernels, lane loops, the race rule) and the emitted CUDA.
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

namespace exocpp::cuda {

// The memories (registered on first use, thread-safely).
const Memory& CUDA_GLOBAL();
const Memory& CUDA_SHARED();
const Memory& CUDA_SHARED_DYN();
const Memory& CUDA_SHARED_SWIZZLED();
const Memory& CUDA_REG();
const Memory& WMMA_A();
const Memory& WMMA_B();
const Memory& WMMA_ACC();
const Memory& MMA_A();
const Memory& MMA_B();
const Memory& MMA_ACC();
// Registers the memories, so that .exo text naming them parses.
void register_memories();

// The library's instructions, parsed once from the embedded cuda.exo. Pass `library().procs` as
// ParseOptions::procs to call them from .exo text.
const Module& library();
// An instruction by name; throws InternalError when there is none.
const Proc& instr(const std::string& name);
std::vector<std::string> instruction_names();

// The device functions the mma.exo instructions call (mma_helpers.cuh), which the MMA fragment
// memories put into emitted CUDA; it is host C++ as well, for testing the lane layout on a CPU.
const std::string& mma_helpers_text();

}  // namespace exocpp::cuda
