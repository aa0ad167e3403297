// The pipeline from scheduled procs to C text (driver/lower.h).
#include "driver/lower.h"

#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

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

// The proc nodes require_proved_input has proved. A node is immutable, so its proof holds as
// long as it lives: a proc emitted again (CompiledLibrary after compile_procs_to_c, a callee
// of several libraries) is proved once. Keyed by address, with a weak pointer so that a new node
// at the address of a freed one is not taken for it; only the node itself is trusted, never a
// name or a history, which a user can make up.
class ProvedNodes {
 public:
  bool contains(const std::shared_ptr<const ProcNode>& n) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = nodes_.find(n.get());
    return it != nodes_.end() && it->second.lock() == n;
  }
  void add(const std::shared_ptr<const ProcNode>& n) {
    std::lock_guard<std::mutex> lock(mu_);
    if (nodes_.size() >= prune_at_) {
      std::erase_if(nodes_, [](const auto& kv) { return kv.second.expired(); });
      prune_at_ = 2 * nodes_.size() + 256;
    }
    nodes_[n.get()] = n;
  }

 private:
  std::mutex mu_;
  std::unordered_map<const ProcNode*, std::weak_ptr<const ProcNode>> nodes_;
  size_t prune_at_ = 256;
};

ProvedNodes& proved_nodes() {
  static ProvedNodes* nodes = new ProvedNodes;  // never destroyed: emission may run at exit
  return *nodes;
}

// Step 2, for every proc emitted: what the emitted program relies on and cannot check at run
// time. C checks no bounds and no asserts, and runs the iterations of a parallel loop at once
// (OpenMP threads, GPU threads). A proc handed to emission may come straight from the parser (or
// be built by hand), and an operation proves only what it changes, never what its input already
// held: so every proc is checked here, once per node (ProvedNodes).
//  - checker::check_proc_refutations, `exocpp check`'s rules where the checker finds values that
//    break them: an access out of bounds, a call that breaks its callee's asserts, asserts that
//    never hold. What the checker cannot decide (an index read from a config, which it does not
//    model) is left to the caller, as asserts are;
//  - every parallel loop's iterations are independent (checker::loop_is_parallelizable, the
//    query parallelize_loop asks), proved, not merely unrefuted; for CUDA also every kernel's
//    threads do not race. For C only `par` loops: emission refuses a CUDA loop in C itself.
// A refusal is a CodegenError at the statement at fault that names the proc, with the
// checker's counterexample; the checker's own error is nested in it.
void require_proved_input(const Proc& p, bool cuda) {
  if (proved_nodes().contains(p.ptr())) return;
  const std::string in = "proc '" + p.name() + "' cannot be emitted: ";
  try {
    checker::check_proc_refutations(p);
  } catch (const checker::CheckError& e) {
    std::string msg = in + e.reason();
    if (!e.counterexample().empty()) msg += " (counterexample: " + e.counterexample() + ")";
    std::throw_with_nested(CodegenError(e.loc(), msg));
  }
  auto refuse = [&](const Stmt& s, const checker::Answer& a, const std::string& what) {
    std::string msg =
        in + what + ": " + (a.refuted() ? "refused: " : "could not prove it: ") + a.reason;
    if (!a.counterexample.empty()) msg += " (counterexample: " + a.counterexample + ")";
    throw CodegenError(s.srcinfo(), msg);
  };
  for (const ParallelLoopAt& at : parallel_loops(p.body())) {
    const ForNode* f = at.stmt.as<ForNode>();
    if (!cuda && f->mode != LoopMode::Par) continue;
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
  proved_nodes().add(p.ptr());
}

}  // namespace

CSource lower_to_c(const std::vector<Proc>& procs, const std::string& lib_name,
                   const codegen::LibraryOptions& opts) {
  for (const Proc& p : codegen::call_graph_order(procs)) {  // 1
    if (!p.defined() || p->instr) continue;
    require_dense_tensor_arguments(p);  // 2
    require_aligned_instr_windows(p);
    if (opts.cuda)
      if (std::string why = cuda_structure_problem(p, true); !why.empty())
        throw CodegenError(p->srcinfo, "proc '" + p.name() + "' cannot run on a GPU: " + why);
    require_proved_input(p, opts.cuda);
  }
  return codegen::emit_library(procs, lib_name, opts);  // 3
}

}  // namespace exocpp::driver
