// divide_with_recompute: split a loop into outer_hi overlapping chunks that together cover
// its range, recomputing the iterations where chunks overlap.
//
//   for i in seq(0, N):          for io in seq(0, outer_hi):
//       s                -->         for ii in seq(0, outer_stride + (N - outer_hi *
//       outer_stride)):
//                                        s[i -> outer_stride * io + ii]
//
// Checks: the loop starts at 0; outer_stride > 0; two distinct unused names; outer_hi parses
// as an integer expression in the loop's scope; the checker proves outer_hi > 0 and
// outer_hi * outer_stride <= N (so the chunks cover exactly [0, N)), that the loop's
// iterations commute (loop_iterations_commute: the overlap reorders them) and that one
// iteration run twice equals it run once (loop_body_idempotent on `for r in seq(0, 2): s`
// inside loop i). The inner bound evaluates N and outer_hi in every outer iteration where the
// loop evaluated N once, so the checker proves the loop writes nothing they read
// (value_unchanged_by).
// Forwarding: the body moves into the inner loop.
#include "checker/queries.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc divide_with_recompute(const Proc& p, const CursorLike& loop, const std::string& outer_hi,
                           int64_t outer_stride, const std::vector<std::string>& new_iters) {
  return rw::run_op("divide_with_recompute", [&]() -> Proc {
    // 1. Arguments and checks.
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    if (const_int(f->lo) != 0)
      rw::fail(reason::kLoopLowerBoundNotZero, c,
               "expected the lower bound of loop " + f->iter.name() + " to be 0, got '" +
                   c.lo().to_string() + "'");
    if (outer_stride <= 0)
      rw::fail(reason::kArgRange, c,
               "the outer stride must be positive, got " + std::to_string(outer_stride));
    if (new_iters.size() != 2 || new_iters[0] == new_iters[1])
      rw::fail(reason::kArgName, c, "expected two distinct new loop names (outer, inner)");
    Sym io = rw::fresh_name(p, new_iters[0], c, rw::NameScope::Statements),
        ii = rw::fresh_name(p, new_iters[1], c, rw::NameScope::Statements);
    Expr ohi = simplify_expr(parse_index_expr(c, outer_hi, "the outer bound"));
    rw::check_int_arg(c, "the outer stride", outer_stride, 1);
    const SrcInfo& si = f->srcinfo;
    Expr stride = int_const(outer_stride, si);
    Expr covered = simplify_expr(mk_mul(ohi, stride));
    checker::Context ctx = checker::Context::at(c);
    rw::require_proved(c, checker::always_true(ctx, mk_cmp(BinOpKind::Gt, ohi, int_const(0))),
                       [&] { return "the outer bound '" + outer_hi + "' is positive"; });
    rw::require_proved(c, checker::always_true(ctx, mk_cmp(BinOpKind::Le, covered, f->hi)), [&] {
      return "outer_hi * outer_stride is at most the loop's bound '" + c.hi().to_string() + "'";
    });
    rw::require_proved(c, checker::loop_iterations_commute(ctx, c.stmt()),
                       [&] { return "the iterations of loop " + f->iter.name() + " commute"; });
    Stmt twice = ForNode::make(Sym("repeat"), int_const(0, si), int_const(2, si), f->body,
                               LoopMode::Seq, si);
    rw::require_proved(c, checker::loop_body_idempotent(checker::Context::at(c.body()[0]), twice),
                       [&] {
                         return "running one iteration of loop " + f->iter.name() +
                                " twice is the same as running it once";
                       });

    Expr inner_hi = simplify_expr(mk_add(stride, mk_sub(f->hi, covered)));
    rw::require_unchanged(c, ctx, inner_hi, {c.stmt()}, [&] {
      return "the inner bound '" + to_string(inner_hi) + "', evaluated in every outer iteration,";
    });

    // 2. The overlapping chunks: the body, rewritten for the new index, moves into the inner
    // loop, and the loop becomes the outer one.
    Expr idx = simplify_expr(mk_add(mk_mul(stride, index_var(io, si)), index_var(ii, si)));
    const BlockPath& path = c.loc().block;
    const int at = c.loc().lo, n = static_cast<int>(f->body.size());
    rw::Edit edit(p);
    edit.rewrite(child_path(c), 0, n, substitute(f->body, {{f->iter, idx}}))
        .wrap(child_path(c), 0, n, [&](const Block& b) {
          return ForNode::make(ii, int_const(0, si), inner_hi, b, LoopMode::Seq, si);
        });
    const Block chunk = stmt_at(edit.body(), path, at).as<ForNode>()->body;
    return edit.rewrite(path, at, at + 1, {ForNode::make(io, f->lo, ohi, chunk, f->mode, si)})
        .done();
  });
}

}  // namespace exocpp
