// Resolving an operation's target (a CursorLike) in the proc it acts on: patterns are matched
// (core/pattern.h), cursors from an ancestor proc are forwarded, and a target of the wrong kind
// is refused naming the operation.
#pragma once

#include <string>

#include "core/cursor.h"
#include "core/ir.h"
#include "rewrites/target.h"

namespace exocpp::rw {

// Resolves `target` in `p`: a pattern by find(), a cursor by forwarding it into `p`. Throws
// SchedulingError when nothing matches or the cursor is invalid in `p`.
Cursor resolve(const std::string& op, const Proc& p, const CursorLike& target);
// The same, requiring a statement cursor (a one-statement block is accepted).
Cursor resolve_stmt(const std::string& op, const Proc& p, const CursorLike& target);
// A loop: patterns may use the "i" / "i #n" shorthand of find_loop.
Cursor resolve_loop(const std::string& op, const Proc& p, const CursorLike& target);
// A block (a statement cursor becomes a one-statement block).
Cursor resolve_block(const std::string& op, const Proc& p, const CursorLike& target);
// A gap (a statement cursor means the gap after it, as Exo's fission does).
Cursor resolve_gap(const std::string& op, const Proc& p, const CursorLike& target);
// An allocation (or argument) named by a name, "x: _" pattern or cursor.
Cursor resolve_alloc(const std::string& op, const Proc& p, const CursorLike& target);
// An expression.
Cursor resolve_expr(const std::string& op, const Proc& p, const CursorLike& target);
// An allocation statement (an argument is refused: only allocations can be reshaped).
Cursor resolve_alloc_stmt(const std::string& op, const Proc& p, const CursorLike& alloc);

}  // namespace exocpp::rw
