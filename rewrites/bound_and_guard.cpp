// bound_and_guard: give a loop a fixed trip bound and guard its body with the old one, so a
// loop of data-dependent length (a tail `for i in seq(0, N % 16)`) takes the shape of a masked
// instruction's body (`for i in seq(0, 16): if i < n: ...`) and can be replaced by it.
//
//   for i in seq(lo, e):          for i in seq(lo, c):
//       s               -->           if i < e:
//                                         s
//
// Checks: `bound` parses as an integer expression in the loop's scope, and the checker proves
// e <= c (so the guarded loop runs exactly the old iterations), and that the loop writes nothing
// e reads (the guard evaluates e in every iteration: value_unchanged_by). A negative range
// (e < lo) stays empty: every i >= lo > e fails the guard.
// Forwarding: the loop stays; its body moves into the new if.
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

Proc bound_and_guard(const Proc& p, const CursorLike& loop, const std::string& bound) {
  return rw::run_op("bound_and_guard", [&]() -> Proc {
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    Expr c_bound = simplify_expr(parse_index_expr(c, bound, "the bound"));
    rw::require_unchanged(c, checker::Context::at(c), f->hi, {c.stmt()}, [&] {
      return "the upper bound '" + c.hi().to_string() +
             "', evaluated by the guard in every iteration,";
    });
    rw::require_proved(
        c, checker::always_true(checker::Context::at(c), mk_cmp(BinOpKind::Le, f->hi, c_bound)),
        [&] { return "the upper bound '" + c.hi().to_string() + "' is at most '" + bound + "'"; });

    // The body moves under the guard `i < hi`; the loop runs to the new bound.
    const BlockPath& path = c.loc().block;
    const int at = c.loc().lo;
    rw::Edit edit(p);
    edit.wrap(child_path(c), 0, static_cast<int>(f->body.size()), [&](const Block& b) {
      return IfNode::make(mk_cmp(BinOpKind::Lt, index_var(f->iter, f->srcinfo), f->hi), b, {},
                          f->srcinfo);
    });
    const Block guarded = stmt_at(edit.body(), path, at).as<ForNode>()->body;
    return edit
        .rewrite(path, at, at + 1,
                 {ForNode::make(f->iter, f->lo, c_bound, guarded, f->mode, f->srcinfo)})
        .done();
  });
}

}  // namespace exocpp
