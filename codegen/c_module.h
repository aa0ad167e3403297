// Internal: assembly of a C library from procs (call graph, header, source), shared by the
// public emit functions and the compile-and-load helper.
#pragma once

#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "core/interpreter.h"

namespace exocpp::codegen {

struct LibraryOptions {
  // Also emit, for each public proc, `int <name>__packed(void **args)` that unpacks its
  // arguments (control values as int64_t*, buffers as pointers, windows as
  // struct exocpp_packed_win*), calls it and returns what it returns (0 for a void proc; for a
  // proc with index arguments, the position of one out of range), plus
  // `int64_t <lib>__context_size(void)`.
  bool packed_wrappers = false;
  // Emit CUDA C++ (`lib.cu`): kernels (outermost cuda_blocks loops) become __global__ functions
  // launched by the host functions, which take device pointers; helpers are __host__ __device__.
  bool cuda = false;
};

// A packed window argument as the wrappers read it (CompiledLibrary builds these).
struct PackedWindow {
  void* data;
  int64_t strides[8];
};
constexpr int kMaxPackedRank = 8;

// The C library for `procs` and their callees. Precondition (proved by the caller, since codegen
// does not depend on the checker): every window a call passes for a tensor parameter is dense
// (checker::find_strided_tensor_argument finds none). Throws CodegenError at the statement at
// fault for anything else C cannot express.
CSource emit_library(const std::vector<Proc>& procs, const std::string& lib_name,
                     const LibraryOptions& opts);

// Every proc `procs` calls, transitively, with the given ones, callees before callers
// (instructions included); deterministic for the same input.
std::vector<Proc> call_graph_order(const std::vector<Proc>& procs);

}  // namespace exocpp::codegen
