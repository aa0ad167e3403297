// Target resolution (rewrites/internal/targets.h).
#include "rewrites/internal/targets.h"

#include "rewrites/internal/operation.h"

namespace exocpp::rw {

Cursor resolve(const std::string& op, const Proc& p, const CursorLike& target, TargetKind kind) {
  if (target.is_pattern()) return find_target(p, target.pattern(), kind, op);
  Cursor c;
  try {
    c = p.forward(target.cursor());
  } catch (const InvalidCursorError& e) {
    fail(ErrorCode::NotFound, "target.removed", op, p->srcinfo, e.reason());
  }
  if (!c.is_valid())
    fail(ErrorCode::NotFound, "target.removed", op, p->srcinfo,
         "the cursor's target no longer exists in proc '" + p.name() + "' (a rewrite removed it)");
  return as_target(c, kind, target.describe(), op);
}

Cursor resolve_alloc_stmt(const std::string& op, const Proc& p, const CursorLike& alloc) {
  Cursor a = resolve_alloc(op, p, alloc);
  if (a.is_arg())
    fail(ErrorCode::BadArgument, "target.wrong_kind", op, a,
         "'" + a.name() + "' is an argument; only allocations can be reshaped");
  return a;
}

}  // namespace exocpp::rw
