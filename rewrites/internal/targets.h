// Resolving an operation's target (a CursorLike) in the proc it acts on, through core's one
// resolver (core/pattern.h, find_target / as_target): patterns use the same shorthand grammar
// and pre-order for every operation, cursors from an ancestor proc are forwarded, and a target
// of the wrong kind is refused naming the operation, the kind expected and what was found.
#pragma once

#include <string>

#include "core/cursor.h"
#include "core/ir.h"
#include "core/pattern.h"
#include "rewrites/target.h"

namespace exocpp::rw {

// Resolves `target` in `p` as a target of `kind`. Throws SchedulingError(op) when nothing
// matches, the cursor is invalid in `p`, or the target is of another kind.
Cursor resolve(const Proc& p, const CursorLike& target, TargetKind kind = TargetKind::Any);

// Shorthands of resolve(p, target, kind) for the kinds operations take.
inline Cursor resolve_stmt(const Proc& p, const CursorLike& t) {
  return resolve(p, t, TargetKind::Stmt);
}
inline Cursor resolve_loop(const Proc& p, const CursorLike& t) {
  return resolve(p, t, TargetKind::Loop);
}
inline Cursor resolve_loop_nest(const Proc& p, const CursorLike& t) {
  return resolve(p, t, TargetKind::LoopNest);
}
inline Cursor resolve_block(const Proc& p, const CursorLike& t) {
  return resolve(p, t, TargetKind::Block);
}
inline Cursor resolve_gap(const Proc& p, const CursorLike& t) {
  return resolve(p, t, TargetKind::Gap);
}
inline Cursor resolve_alloc(const Proc& p, const CursorLike& t) {
  return resolve(p, t, TargetKind::Alloc);
}
inline Cursor resolve_expr(const Proc& p, const CursorLike& t) {
  return resolve(p, t, TargetKind::Expr);
}

// An allocation statement (an argument is refused: only allocations can be reshaped).
Cursor resolve_alloc_stmt(const Proc& p, const CursorLike& alloc);

}  // namespace exocpp::rw
