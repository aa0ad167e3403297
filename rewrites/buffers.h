// Exo's buffer operations: staging a window into a new buffer, moving allocations, binding
// expressions, and reshaping buffers (expand, resize, rearrange), deleting and inlining.
// Each operation lives in rewrites/<op>.cpp with its rewrite rule; docs/scheduling/buffers.md
// lists them with examples.
#pragma once

#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "rewrites/target.h"

namespace exocpp {

// ---- stage_mem -------------------------------------------------------------------------------
struct StageMemOptions {
  bool accum = false;  // zero-initialise, accumulate, then `+=` back (block must only reduce)
};
// Stages the window `win_expr` (e.g. "A[i, 0:16]", parsed in the block's scope) of a buffer
// into a new buffer `new_name` around `block`.
Proc stage_mem(const Proc& p, const CursorLike& block, const std::string& win_expr,
               const std::string& new_name, const StageMemOptions& opts = {});
// Exo's stage_window: the window expression `window` (a call's argument, or a window
// statement's value) staged by stage_mem around its statement into `new_name`, which is then
// put in `memory` when one is named.
Proc stage_window(const Proc& p, const CursorLike& window, const std::string& new_name,
                  const std::string& memory = "");

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
// the statement holding the first one; when they lie in different statement lists, before the
// statement of their innermost common list that holds the first (as the overload below).
Proc bind_expr(const Proc& p, const std::vector<CursorLike>& exprs, const std::string& new_name);
Proc bind_expr(const Proc& p, const CursorLike& expr, const std::string& new_name);
// The same, assigned before statement `before` instead, which is or precedes (in the same list)
// a statement holding each expression, at any depth: a loop-invariant value computed once
// outside the loops that use it. The expression may read nothing bound inside those statements
// (their loop variables, allocations), and they may write nothing it reads.
Proc bind_expr(const Proc& p, const std::vector<CursorLike>& exprs, const std::string& new_name,
               const CursorLike& before);
// Replaces a window statement `w = A[...]` by its definition at every use of w.
Proc inline_window(const Proc& p, const CursorLike& window_stmt);

// ---- reshaping buffers ------------------------------------------------------------------------
// Adds a new leading dimension of size `alloc_dim`; existing accesses use entry `indexing_expr`.
Proc expand_dim(const Proc& p, const CursorLike& alloc, const std::string& alloc_dim,
                const std::string& indexing_expr);
struct ResizeDimOptions {
  // A circular buffer: index e kept at e % size (size a constant, offset 0), when no access
  // touches an index size or more below one an earlier access touched.
  bool fold = false;
};
// Resizes dimension `dim_idx` to `size`; accesses x[.., e, ..] become x[.., e - offset, ..].
Proc resize_dim(const Proc& p, const CursorLike& alloc, int dim_idx, const std::string& size,
                const std::string& offset, const ResizeDimOptions& opts = {});
// Permutes the dimensions: new dimension k is old dimension permute_vector[k].
Proc rearrange_dim(const Proc& p, const CursorLike& alloc, const std::vector<int>& permute_vector);

// Splits dimension `dim_idx` into (size / quotient, quotient): x[.., j, ..] -> x[.., j / q, j % q,
// ..].
Proc divide_dim(const Proc& p, const CursorLike& alloc, int dim_idx, int quotient);
// Merges dimension `lo_dim_idx` (a constant c) into `hi_dim_idx`: x[.., i, .., k, ..] -> x[.., c *
// i + k, ..].
Proc mult_dim(const Proc& p, const CursorLike& alloc, int hi_dim_idx, int lo_dim_idx);
// Splits a constant dimension into one buffer per entry (x_0, x_1, ...); every access must use
// a constant index there.
Proc unroll_buffer(const Proc& p, const CursorLike& alloc, int dimension);
// Uses buffer `buf` in place of the allocation `replace` (same type and memory), which goes away.
Proc reuse_buffer(const Proc& p, const CursorLike& buf, const CursorLike& replace);

struct AutoliftAllocOptions {
  int n_lifts = 1;
  std::string mode = "row";  // "row": new dimensions first; "col": last
  int size = 0;              // > 0: every new dimension has this extent instead of the loop's
  bool keep_dims = false;    // add a dimension for every loop lifted past, even where not needed
};
// Lifts an allocation out of n_lifts loops/ifs, giving it a dimension per loop (indexed by the
// loop variable) where one buffer could not serve every iteration (or always, with keep_dims).
Proc autolift_alloc(const Proc& p, const CursorLike& alloc, const AutoliftAllocOptions& opts = {});

}  // namespace exocpp
