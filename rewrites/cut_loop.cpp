// cut_loop: split a loop's range in two at a point.
//
//   for i in seq(lo, hi):      for i in seq(lo, cut):
//       s              -->         s
//                              for i in seq(cut, hi):
//                                  s
//
// Checks: `cut_point` parses as an integer expression in the loop's scope, and the checker
// proves lo <= cut and cut <= hi (so lo <= hi: a cut of an empty or negative range is refused).
// The second loop evaluates cut and hi after the first ran, so the checker proves the loop
// writes nothing they read (value_unchanged_by).
// Forwarding: the loop and its body map to the first loop; later statements shift by one.
#include "checker/queries.h"
#include "core/simplify.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc cut_loop(const Proc& p, const CursorLike& loop, const std::string& cut_point) {
  return rw::run_op("cut_loop", [&]() -> Proc {
    // 1. Arguments and checks.
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    Expr cut = simplify_expr(parse_index_expr(c, cut_point, "the cut point"));
    checker::Context ctx = checker::Context::at(c);
    rw::require_unchanged(c, ctx, cut, {c.stmt()}, [&] {
      return "the cut point '" + cut_point + "', evaluated after the first loop,";
    });
    rw::require_unchanged(c, ctx, f->hi, {c.stmt()}, [&] {
      return "the upper bound '" + c.hi().to_string() + "', evaluated after the first loop,";
    });
    rw::require_proved(c, checker::always_true(ctx, mk_cmp(BinOpKind::Le, f->lo, cut)), [&] {
      return "the cut point '" + cut_point + "' is at least the lower bound '" +
             c.lo().to_string() + "'";
    });
    rw::require_proved(c, checker::always_true(ctx, mk_cmp(BinOpKind::Le, cut, f->hi)), [&] {
      return "the cut point '" + cut_point + "' is at most the upper bound '" + c.hi().to_string() +
             "'";
    });

    // 2. The two loops; the second binds fresh names.
    Stmt first = ForNode::make(f->iter, f->lo, cut, f->body, f->mode, f->srcinfo);
    Sym i2 = f->iter.copy();
    Stmt second = ForNode::make(
        i2, cut, f->hi, alpha_rename(substitute(f->body, {{f->iter, index_var(i2, f->srcinfo)}})),
        f->mode, f->srcinfo);

    // 3. The new proc.
    return rw::Edit(p).cut(c.loc().block, c.loc().lo, first, second).done();
  });
}

}  // namespace exocpp
