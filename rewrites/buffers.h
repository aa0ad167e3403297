// Exo's buffer operations: staging a window into a new buffer, moving allocations, binding
// expressions, and reshaping buffers (expand, resize, rearrange), deleting and inlining.
// Each operation lives in rewrites/<op>.cpp with its rewrite rule; docs/scheduling/buffers.md
// lists them with examples.
#pragma once

#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "rewrites/common.h"

namespace exocpp {

// ---- stage_mem -------------------------------------------------------------------------------
struct StageMemOptions {
  bool accum = false;  // zero-initialise, accumulate, then `+=` back (block must only reduce)
};
// Stages the window `win_expr` (e.g. "A[i, 0:16]", parsed in the block's scope) of a buffer
// into a new buffer `new_name` around `block`.
Proc stage_mem(const Proc& p, const CursorLike& block, const std::string& win_expr,
               const std::string& new_name, const StageMemOptions& opts = {});

// ---- allocations -----------------------------------------------------------------------------
struct LiftAllocOptions {
  int n_lifts = 1;  // how many enclosing loops / ifs to move out of
};
Proc lift_alloc(const Proc& p, const CursorLike& alloc, const LiftAllocOptions& opts = {});
// Moves an allocation into the loop or if that immediately follows it.
Proc sink_alloc(const Proc& p, const CursorLike& alloc);
// Deletes an allocation that nothing uses.
Proc delete_buffer(const Proc& p, const CursorLike& alloc);

// ---- expressions and windows ------------------------------------------------------------------
// Binds the (equal) data expressions `exprs` to a new scalar `new_name` assigned just before
// the statement holding the first one.
Proc bind_expr(const Proc& p, const std::vector<CursorLike>& exprs, const std::string& new_name);
Proc bind_expr(const Proc& p, const CursorLike& expr, const std::string& new_name);
// Replaces a window statement `w = A[...]` by its definition at every use of w.
Proc inline_window(const Proc& p, const CursorLike& window_stmt);

// ---- reshaping buffers ------------------------------------------------------------------------
// Adds a new leading dimension of size `alloc_dim`; existing accesses use entry `indexing_expr`.
Proc expand_dim(const Proc& p, const CursorLike& alloc, const std::string& alloc_dim,
                const std::string& indexing_expr);
struct ResizeDimOptions {
  bool fold = false;  // not supported yet (refused)
};
// Resizes dimension `dim_idx` to `size`; accesses x[.., e, ..] become x[.., e - offset, ..].
Proc resize_dim(const Proc& p, const CursorLike& alloc, int dim_idx, const std::string& size,
                const std::string& offset, const ResizeDimOptions& opts = {});
// Permutes the dimensions: new dimension k is old dimension permute_vector[k].
Proc rearrange_dim(const Proc& p, const CursorLike& alloc, const std::vector<int>& permute_vector);

}  // namespace exocpp
