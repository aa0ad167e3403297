// The pipeline from scheduled procs to C text (driver/lower.h).
#include "driver/lower.h"

#include "checker/frontend_checks.h"
#include "core/errors.h"

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

}  // namespace

CSource lower_to_c(const std::vector<Proc>& procs, const std::string& lib_name,
                   const codegen::LibraryOptions& opts) {
  for (const Proc& p : codegen::call_graph_order(procs))              // 1
    if (p.defined() && !p->instr) require_dense_tensor_arguments(p);  // 2
  return codegen::emit_library(procs, lib_name, opts);                // 3
}

}  // namespace exocpp::driver
