// The pipeline from scheduled procs to C text (driver/lower.h).
#include "driver/lower.h"

#include <functional>

#include "checker/frontend_checks.h"
#include "checker/queries.h"
#include "core/cuda.h"
#include "core/errors.h"
#include "core/typecheck.h"

namespace exocpp::driver {
namespace {

// Step 2: a tensor parameter is a plain pointer in C, so a window passed for it must be dense.
void require_dense_tensor_arguments(const Proc& p) {
  std::optional<checker::StridedTensorArgument> bad = checker::find_strided_tensor_argument(p);
  if (!bad) return;
  throw CodegenError(
      bad->where, "the window `" + bad->window + "` given for the tensor parameter '" + bad->param +
                      "' of '" + bad->callee + "' may be strided (" + bad->why +
                      "); a tensor parameter is a plain pointer: declare it as a window");
}

// Step 2: an instruction receives a window of a memory that keeps runs of elements together
// (a swizzled layout) only whole runs, which its template addresses as one.
void require_aligned_instr_windows(const Proc& p) {
  std::optional<checker::MisalignedInstrWindow> bad = checker::find_misaligned_instr_window(p);
  if (!bad) return;
  throw CodegenError(bad->where, "the window `" + bad->window + "` given for parameter '" +
                                     bad->param + "' of instruction '" + bad->instr +
                                     "' lives in memory " + bad->memory + ", which keeps runs of " +
                                     std::to_string(bad->granule) +
                                     " elements of the last dimension together, and does not "
                                     "cover whole runs: " +
                                     bad->why);
}

// Step 2 for CUDA: what the GPU's parallel run relies on. A parsed proc's parallel loops and
// kernels were never proved by an operation (operations prove the ones they make or change).
void require_parallel_loops_proved(const Proc& p) {
  auto refuse = [](const Stmt& s, const checker::Answer& a, const std::string& what) {
    std::string msg = what + ": " + (a.refuted() ? "refused: " : "could not prove it: ") + a.reason;
    if (!a.counterexample.empty()) msg += " (counterexample: " + a.counterexample + ")";
    throw CodegenError(s.srcinfo(), msg);
  };
  for (const ParallelLoopAt& at : parallel_loops(p.body())) {
    const ForNode* f = at.stmt.as<ForNode>();
    checker::Context ctx = checker::Context::at(p, at.path, at.index);
    checker::Answer a = checker::loop_is_parallelizable(ctx, at.stmt);
    if (!a.proved())
      refuse(at.stmt, a,
             "the iterations of " + std::string(to_string(f->mode)) + " loop '" + f->iter.name() +
                 "' must be independent");
    if (f->mode == LoopMode::CudaBlocks && !at.in_kernel) {
      a = checker::kernel_is_race_free(ctx, at.stmt);
      if (!a.proved())
        refuse(at.stmt, a, "the threads of kernel '" + f->iter.name() + "' must not race");
    }
  }
}

}  // namespace

CSource lower_to_c(const std::vector<Proc>& procs, const std::string& lib_name,
                   const codegen::LibraryOptions& opts) {
  for (const Proc& p : codegen::call_graph_order(procs)) {  // 1
    if (!p.defined() || p->instr) continue;
    require_dense_tensor_arguments(p);  // 2
    require_aligned_instr_windows(p);
    if (opts.cuda) {
      if (std::string why = cuda_structure_problem(p, true); !why.empty())
        throw CodegenError(p->srcinfo, "proc '" + p.name() + "' cannot run on a GPU: " + why);
      require_parallel_loops_proved(p);
    }
  }
  return codegen::emit_library(procs, lib_name, opts);  // 3
}

}  // namespace exocpp::driver
