// remove_loop: drop a loop whose body gives the same result however often it runs.
//
//   for i in seq(lo, hi):      s
//       s              -->
//
// Checks (checker): the body does not use i and is idempotent (loop_body_idempotent). When the
// checker cannot prove the loop runs at least once (always_true(lo < hi)), the body keeps a
// guard, as Exo's remove_loop does: `if hi > lo: s`, which runs s exactly when the loop ran
// it at least once (lo and hi are evaluated at the same point as before).
// Forwarding: cursors into the body move up one level (into the guard's body when there is
// one); the loop itself becomes invalid.
#include "checker/queries.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc remove_loop(const Proc& p, const CursorLike& loop) {
  return rw::run_op("remove_loop", [&]() -> Proc {
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    checker::Context ctx = checker::Context::at(c);
    rw::require_proved(c, checker::loop_body_idempotent(ctx, c.stmt()),
                       [&] { return "the body of loop " + f->iter.name() + " is idempotent"; });
    const BlockPath& path = c.loc().block;
    int at = c.loc().lo;
    rw::Edit edit(p);
    if (!checker::always_true(ctx, mk_cmp(BinOpKind::Lt, f->lo, f->hi)).proved()) {
      BlockPath body = path;
      body.push_back({at, BlockField::Body});
      Expr runs = mk_cmp(BinOpKind::Gt, f->hi, f->lo);
      edit.wrap(body, 0, static_cast<int>(f->body.size()),
                [&](const Block& b) { return IfNode::make(runs, b, {}, f->srcinfo); });
    }
    return edit.unwrap(path, at).done();
  });
}

}  // namespace exocpp
