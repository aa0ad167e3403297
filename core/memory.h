// Memories: where a buffer lives. A memory is a C++ class registered by name; the IR refers to
// memories by that name. DRAM, DRAM_STATIC and DRAM_STACK are built in; hardware libraries
// register their own (AVX512, GEMM_SCRATCH, ...) without touching the compiler.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/srcinfo.h"

namespace exocpp {

// Where a buffer lives when a proc runs on an NVIDIA GPU (docs/gpu.md). Host: CPU memory, which
// kernel code cannot touch. Global: device global memory, which kernels read and write and host
// code only passes on. Block: one array per thread block (CUDA shared memory), allocated in a
// kernel outside its thread loops. Thread: each thread's own registers. Warp: one value per warp
// spread over its 32 threads' registers (a tensor-core fragment), allocated directly in a
// cuda_warps loop's body and touched only by warp-collective instructions.
enum class DeviceScope { Host, Global, Block, Thread, Warp };

class Memory {
 public:
  virtual ~Memory() = default;
  virtual std::string name() const = 0;

  // May plain (non-instruction) code read and write buffers in this memory element by
  // element? False for registers and scratchpads only instructions can touch.
  virtual bool can_read() const { return true; }

  // Global C code (includes, type definitions) needed by any proc using this memory.
  virtual std::string global() const { return ""; }
  // C code declaring and allocating buffer `new_name` of C element type `prim_type` with the
  // given C shape expressions. The default is heap allocation with malloc.
  virtual std::string alloc(const std::string& new_name, const std::string& prim_type,
                            const std::vector<std::string>& shape, const SrcInfo& where) const;
  // C code freeing what alloc() made.
  virtual std::string free(const std::string& new_name, const std::string& prim_type,
                           const std::vector<std::string>& shape, const SrcInfo& where) const;
  // C expression for the element of `baseptr` at `indices` (C index expressions) with C
  // `strides`. The default is plain pointer arithmetic: baseptr[i0*s0 + i1*s1 + ...].
  virtual std::string window(const std::string& basetyp, const std::string& baseptr,
                             const std::vector<std::string>& indices,
                             const std::vector<std::string>& strides, const SrcInfo& where) const;
  // Whether this memory addresses buffers through pointers that windows can offset.
  virtual bool addressable() const { return true; }
  // How many consecutive elements of the last dimension this memory keeps together, side by
  // side in that order (its layout may move such runs as wholes, as an XOR swizzle does): a
  // window of a buffer here that an instruction receives must start at a multiple of it in
  // its last dimension and span a multiple of it, which is proved before emission
  // (checker::find_misaligned_instr_window). 1: any window.
  virtual int64_t window_granule() const { return 1; }
  // Whether an array allocated here is one storage shared by every execution of the
  // allocation (C `static`, a fixed scratchpad region): its shape must be constant, and the
  // iterations of a `par` loop (OpenMP threads) around it would all share it — a data race.
  virtual bool static_storage() const { return false; }
  // Where the buffer lives on a GPU; Host for every CPU memory.
  virtual DeviceScope device_scope() const { return DeviceScope::Host; }
  // For a Block memory: whether its arrays are carved out of the kernel's dynamic shared
  // memory (one `extern __shared__` buffer whose size the launch passes), which may exceed the
  // 48 KB a kernel's static arrays are limited to. The CUDA code generator lays such arrays
  // out (constant shapes, 128-byte aligned) instead of calling alloc() and free().
  virtual bool dynamic_shared() const { return false; }
  // Whether a buffer here may be passed where a proc or instruction declares `@ DRAM`: its
  // arrays are plain C arrays of host memory, addressed as DRAM's are (DRAM itself,
  // DRAM_STATIC, DRAM_STACK, and library memories that only place or align host arrays).
  virtual bool passes_as_dram() const { return false; }
};

// The C expression for the element offset of `indices` (C index expressions) with C `strides`:
// "i * K + j", a unit stride or a zero index dropping out; "0" when every term does.
std::string linear_offset(const std::vector<std::string>& indices,
                          const std::vector<std::string>& strides);

// Registers `mem` under mem->name(), replacing any earlier memory of that name.
void register_memory(std::shared_ptr<const Memory> mem);
// nullptr when no memory of that name is registered.
const Memory* find_memory(const std::string& name);
std::vector<std::string> memory_names();

// The built-in memories.
const Memory& DRAM();
const Memory& DRAM_STATIC();
const Memory& DRAM_STACK();

}  // namespace exocpp
