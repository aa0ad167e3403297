// remove_loop: drop a loop whose body gives the same result however often it runs.
//
//   for i in seq(lo, hi):      s
//       s              -->
//
// Checks (checker): the body does not use i and is idempotent (loop_body_idempotent), and
// the loop runs at least once (always_true(lo < hi)) - otherwise removing it would run s.
// Forwarding: cursors into the body move up one level; the loop itself becomes invalid.
#include "checker/queries.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc remove_loop(const Proc& p, const CursorLike& loop) {
  const char* op = "remove_loop";
  return rw::run_op(op, [&]() -> Proc {
    Cursor c = rw::resolve_loop(op, p, loop);
    const ForNode* f = rw::as_loop(op, c);
    checker::Context ctx = checker::Context::at(c);
    rw::require_proved(op, c, checker::loop_body_idempotent(ctx, c.stmt()),
                       [&] { return "the body of loop " + f->iter.name() + " is idempotent"; });
    rw::require_proved(op, c, checker::always_true(ctx, mk_cmp(BinOpKind::Lt, f->lo, f->hi)),
                       [&] { return "loop " + f->iter.name() + " runs at least once"; });
    const BlockPath& path = c.loc().block;
    int at = c.loc().lo;
    return rw::Edit(p).unwrap(path, at).done();
  });
}

}  // namespace exocpp
