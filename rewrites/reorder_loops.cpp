// reorder_loops: interchange two directly nested loops.
//
//   for i in seq(a, b):          for j in seq(c, d):
//       for j in seq(c, d):  -->     for i in seq(a, b):
//           s                            s
//
// Checks: loop i holds exactly one statement, loop j; j's bounds do not mention i; and no two
// conflicting iterations change their order (checker::loops_can_interchange). j's bounds were
// evaluated in every iteration of i and are now evaluated once, i's once and now in every
// iteration of j: the checker proves the nest writes nothing either reads (value_unchanged_by).
// Each loop keeps its mode; a par loop j, now outside, runs its iterations in any order across
// all of i's, so the checker proves no two of them conflict (require_parallel).
// Forwarding: cursors follow the loops they name (a cursor to loop i, or to its bounds, points
// to loop i, now inner); the body stays where it was.
#include "checker/queries.h"
#include "core/printer.h"
#include "core/uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

namespace rw {

Proc reorder_at(const Proc& p, const Cursor& c) {
  // 1. Checks.
  const ForNode* outer = rw::as_loop(c);
  if (outer->body.size() != 1 || !outer->body[0].is<ForNode>())
    rw::fail(reason::kLoopNotAPerfectNest, c,
             "expected loop " + outer->iter.name() +
                 " to hold exactly one statement, a loop, but its body has " +
                 std::to_string(outer->body.size()) + " statement(s) starting with '" +
                 c.body()[0].to_string() + "'");
  const ForNode* inner = outer->body[0].as<ForNode>();
  if (mentions(inner->lo, outer->iter) || mentions(inner->hi, outer->iter))
    rw::fail(reason::kDepLoopVariant, c.body()[0],
             "the bounds of loop " + inner->iter.name() + " depend on " + outer->iter.name() +
                 ", so the loops cannot be interchanged");
  checker::Context ctx = checker::Context::at(c);
  for (const Expr& b : {outer->lo, outer->hi, inner->lo, inner->hi})
    rw::require_unchanged(c, ctx, b, {c.stmt()},
                          [&] { return "the loop bound '" + to_string(b) + "'"; });
  rw::require_proved(c, checker::loops_can_interchange(ctx, c.stmt()), [&] {
    return "interchanging loops " + outer->iter.name() + " and " + inner->iter.name() + " is safe";
  });

  // 2. The interchanged nest.
  Stmt new_inner =
      ForNode::make(outer->iter, outer->lo, outer->hi, inner->body, outer->mode, outer->srcinfo);
  Stmt new_outer =
      ForNode::make(inner->iter, inner->lo, inner->hi, {new_inner}, inner->mode, inner->srcinfo);
  // A par inner loop's iterations were apart for one outer iteration at a time; as the outer
  // loop they run in any order together with every iteration of the old outer loop.
  rw::require_parallel(c, ctx, new_outer,
                       [&] { return "loop " + inner->iter.name() + " (now outside)"; });

  // 3. The new proc: the two loop statements (and their bound expressions) trade places.
  return rw::Edit(p).interchange(c.loc().block, c.loc().lo, BlockField::Body, new_outer).done();
}

}  // namespace rw

Proc reorder_loops(const Proc& p, const CursorLike& nested_loops) {
  return rw::run_op("reorder_loops",
                    [&]() -> Proc { return reorder_at(p, resolve_loop_nest(p, nested_loops)); });
}

}  // namespace exocpp
