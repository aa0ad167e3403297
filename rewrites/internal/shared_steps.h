// Rewrite steps that more than one operation is built from, each defined in the file of the
// operation it belongs to. An operation that needs another's whole step calls it here rather
// than through the public API, so that its errors carry its own name.
#pragma once

#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "rewrites/replace.h"

namespace exocpp::rw {

// reorder_loops on a resolved outer-loop cursor (reorder_loops.cpp; lift_scope reports as
// `op`).
Proc reorder_at(const Proc& p, const Cursor& outer);

// expand_dim on parsed expressions (expand_dim.cpp; autolift_alloc too): a new dimension of size
// `dim`, first (or last when `append`), that existing accesses index with `idx`.
Proc expand_dim_with(const Proc& p, const Cursor& alloc, const Expr& dim, const Expr& idx,
                     bool append);

// set_loop_mode on a resolved loop cursor (set_loop_mode.cpp; parallelize_loop too).
Proc set_loop_mode_at(const Proc& p, const Cursor& loop, LoopMode mode);

// replace on a resolved block cursor (replace.cpp; replace_all too).
Proc replace_at(const Proc& p, const Cursor& blk, const Proc& sub, const ReplaceOptions& opts);

// replace_all's sweep (replace_all.cpp; replace_once too): for each subproc in turn, every block
// of the proc as long as its body, outermost first and in program order, replaced by a call to it
// where it unifies; with `once`, only the first that does. Refusals other than NotProved
// propagate, reported as `op`.
Proc replace_matches(const Proc& p, const std::vector<Proc>& subprocs, bool once);

// Refuses uses of `buf` in `rest` that cannot be rewritten index by index: the buffer passed
// whole, a stride of it, or a window with an interval in one of `dims` (divide_dim.cpp; mult_dim
// too). `why` says what changes ("merging dimensions").
void require_elementwise_uses(const Cursor& a, const Block& rest, const Sym& buf,
                              const std::vector<int>& dims, const std::string& why);

// Refuses to evaluate `e` at the place of `at` unless it cannot fault there, where fewer guards
// may hold than where it was (bind_expr.cpp: a hoisted expression; lift_scope and specialize
// too: a condition evaluated outside the if or loop that guarded its reads): an integer division
// of data (its divisor may be zero) is refused, and every element it reads must be proved inside
// its buffer (reason `expr.unsafe_to_move`). `where` is named in a refusal; `why` ends the
// description of the proof ("where the binding goes, since ...").
void require_safe_to_evaluate_at(const Cursor& at, const Cursor& where, const Expr& e,
                                 const std::string& why);

}  // namespace exocpp::rw
