// The pipeline from scheduled procs to C text (driver/lower.h).
#include "driver/lower.h"

#include <functional>

#include "checker/frontend_checks.h"
#include "checker/queries.h"
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

// Step 2 for CUDA: what the GPU's parallel run relies on. A parsed proc's parallel loops and
// kernels were never proved by an operation (operations prove the ones they make or change).
void require_parallel_loops_proved(const Proc& p) {
  auto refuse = [](const Stmt& s, const checker::Answer& a, const std::string& what) {
    std::string msg = what + ": " + (a.refuted() ? "refused: " : "could not prove it: ") + a.reason;
    if (!a.counterexample.empty()) msg += " (counterexample: " + a.counterexample + ")";
    throw CodegenError(s.srcinfo(), msg);
  };
  std::function<void(const Block&, BlockPath&, bool)> walk = [&](const Block& b, BlockPath& path,
                                                                 bool in_kernel) {
    for (size_t k = 0; k < b.size(); ++k) {
      const Stmt& s = b[k];
      const int idx = static_cast<int>(k);
      if (const ForNode* f = s.as<ForNode>()) {
        if (is_parallel(f->mode)) {
          checker::Context ctx = checker::Context::at(p, path, idx);
          checker::Answer a = checker::loop_is_parallelizable(ctx, s);
          if (!a.proved())
            refuse(s, a,
                   "the iterations of " + std::string(to_string(f->mode)) + " loop '" +
                       f->iter.name() + "' must be independent");
          if (f->mode == LoopMode::CudaBlocks && !in_kernel) {
            a = checker::kernel_is_race_free(ctx, s);
            if (!a.proved())
              refuse(s, a, "the threads of kernel '" + f->iter.name() + "' must not race");
          }
        }
        path.push_back({idx, BlockField::Body});
        walk(f->body, path, in_kernel || f->mode == LoopMode::CudaBlocks);
        path.pop_back();
      } else if (const IfNode* i = s.as<IfNode>()) {
        path.push_back({idx, BlockField::Body});
        walk(i->body, path, in_kernel);
        path.back().field = BlockField::Orelse;
        walk(i->orelse, path, in_kernel);
        path.pop_back();
      }
    }
  };
  BlockPath path;
  walk(p.body(), path, false);
}

}  // namespace

CSource lower_to_c(const std::vector<Proc>& procs, const std::string& lib_name,
                   const codegen::LibraryOptions& opts) {
  for (const Proc& p : codegen::call_graph_order(procs)) {  // 1
    if (!p.defined() || p->instr) continue;
    require_dense_tensor_arguments(p);  // 2
    if (opts.cuda) {
      if (std::string why = cuda_structure_problem(p, true); !why.empty())
        throw CodegenError(p->srcinfo, "proc '" + p.name() + "' cannot run on a GPU: " + why);
      require_parallel_loops_proved(p);
    }
  }
  return codegen::emit_library(procs, lib_name, opts);  // 3
}

}  // namespace exocpp::driver
