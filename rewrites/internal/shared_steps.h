// Rewrite steps that more than one operation is built from, each defined in the file of the
// operation it belongs to. An operation that needs another's whole step calls it here rather
// than through the public API, so that its errors carry its own name.
#pragma once

#include <string>

#include "core/cursor.h"
#include "core/ir.h"

namespace exocpp::rw {

// reorder_loops on a resolved outer-loop cursor (reorder_loops.cpp; lift_scope reports as
// `op`).
Proc reorder_at(const std::string& op, const Proc& p, const Cursor& outer);

// expand_dim on parsed expressions (expand_dim.cpp; autolift_alloc too): a new dimension of size
// `dim`, first (or last when `append`), that existing accesses index with `idx`.
Proc expand_dim_with(const std::string& op, const Proc& p, const Cursor& alloc, const Expr& dim,
                     const Expr& idx, bool append);

}  // namespace exocpp::rw
