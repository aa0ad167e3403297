// Target resolution (rewrites/internal/targets.h).
#include "rewrites/internal/targets.h"

#include "rewrites/internal/operation.h"

namespace exocpp::rw {

Cursor resolve(const Proc& p, const CursorLike& target, TargetKind kind) {
  if (target.is_pattern()) return find_target(p, target.pattern(), kind, current_op());
  Cursor c;
  try {
    c = p.forward(target.cursor());
  } catch (const InvalidCursorError& e) {
    fail(reason::kTargetRemoved, p->srcinfo, e.reason());
  }
  if (!c.is_valid())
    fail(reason::kTargetRemoved, p->srcinfo,
         "the cursor's target no longer exists in proc '" + p.name() + "' (a rewrite removed it)");
  return as_target(c, kind, target.describe(), current_op());
}

Cursor resolve_alloc_stmt(const Proc& p, const CursorLike& alloc) {
  Cursor a = resolve_alloc(p, alloc);
  if (a.is_arg())
    fail(reason::kTargetWrongKind, a,
         "'" + a.name() + "' is an argument; only allocations can be reshaped");
  return a;
}

}  // namespace exocpp::rw
