// add_loop: wrap a block in a new loop.
//
//   s   -->   for iter in seq(0, hi):        (guard:)  for iter in seq(0, hi):
//                 s                                         if iter == 0:
//                                                               s
//
// Checks: `iter` is a new name; `hi` parses as an integer expression in the block's scope and
// is provably positive (always_true(hi > 0)); without guard, running the block more than once
// must equal running it once (checker::loop_body_idempotent on the new loop).
// Forwarding: cursors into the block move into the new loop (and its guard).
#include "checker/queries.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc add_loop(const Proc& p, const CursorLike& block, const std::string& iter_name,
              const std::string& hi_expr, const AddLoopOptions& opts) {
  return rw::run_op("add_loop", [&]() -> Proc {
    // 1. Arguments and checks.
    Cursor c = rw::resolve_block(p, block);
    Cursor first = c[0];
    Sym iter = rw::fresh_name(p, iter_name, c, rw::NameScope::Statements);
    Expr hi = parse_index_expr(first, hi_expr, "the loop's upper bound");
    checker::Context ctx = checker::Context::at(first);
    rw::require_proved(first, checker::always_true(ctx, mk_cmp(BinOpKind::Gt, hi, int_const(0))),
                       [&] { return "the new loop's bound '" + hi_expr + "' is positive"; });
    const SrcInfo& si = first.stmt().srcinfo();
    Block body = c.stmts();
    Stmt candidate = ForNode::make(iter, int_const(0, si), hi, body, LoopMode::Seq, si);
    if (!opts.guard)
      rw::require_proved(first, checker::loop_body_idempotent(ctx, candidate),
                         "running the block more than once is the same as running it once");

    // 2. The block moves into the new loop (and under its guard, `iter == 0`).
    const BlockPath& path = c.loc().block;
    const int lo = c.loc().lo, n = c.loc().hi - lo;
    rw::Edit edit(p);
    edit.wrap(path, lo, c.loc().hi, [&](const Block& b) {
      return ForNode::make(iter, int_const(0, si), hi, b, LoopMode::Seq, si);
    });
    if (opts.guard) {
      BlockPath inner = path;
      inner.push_back({lo, BlockField::Body});
      edit.wrap(inner, 0, n, [&](const Block& b) {
        return IfNode::make(mk_cmp(BinOpKind::Eq, index_var(iter, si), int_const(0, si)), b, {},
                            si);
      });
    }
    return edit.done();
  });
}

}  // namespace exocpp
