// rotate_loop: move the first statements of a loop's body to the end of the iteration before,
// the step that lets a schedule overlap one iteration's work with the next one's (software
// pipelining: issue the next step's copies while this step computes).
//
//   for i in seq(lo, hi):          if lo < hi:
//       A                              A[i -> lo]
//       B              -->             for i in seq(lo, hi):
//                                          B
//                                          if i + 1 < hi:
//                                              A[i -> i + 1]
//
// Both run A(lo), B(lo), A(lo + 1), B(lo + 1), ..., B(hi - 1): the same statements in the same
// order, so no dependence needs proving. What the rewrite relies on, and checks:
//  - A and B are both non-empty (0 < n_stmts < the body's length);
//  - the loop is seq (a parallel loop's proof covered its old body);
//  - A binds no name at its top level (an allocation or window there would stop scoping B);
//  - lo and hi keep their values: the new loop evaluates them after A(lo) ran, and the guard
//    evaluates hi after each B(i), so the checker proves the loop writes nothing they read
//    (value_unchanged_by).
// Forwarding: the loop and B stay themselves (the loop now inside the guard); A's statements
// map to their places in the guarded tail of the body.
#include "checker/queries.h"
#include "core/simplify.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc rotate_loop(const Proc& p, const CursorLike& loop, int n_stmts) {
  return rw::run_op("rotate_loop", [&]() -> Proc {
    // 1. Arguments and checks.
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    const int n_body = static_cast<int>(f->body.size());
    if (n_stmts < 1 || n_stmts >= n_body)
      rw::fail(reason::kArgInvalid, c,
               "moves " + std::to_string(n_stmts) + " of the body's " + std::to_string(n_body) +
                   " statements; it must move at least one and leave at least one");
    if (f->mode != LoopMode::Seq)
      rw::fail(reason::kLoopMode, c,
               "loop '" + f->iter.name() + "' is " + to_string(f->mode) +
                   "; rotate_loop rotates seq loops (set the loop's mode after rotating)");
    for (int k = 0; k < n_stmts; ++k) {
      const Stmt& s = f->body[k];
      std::string bound;
      if (const AllocNode* a = s.as<AllocNode>()) bound = a->name.name();
      if (const WindowStmtNode* w = s.as<WindowStmtNode>()) bound = w->name.name();
      if (!bound.empty())
        rw::fail(reason::kScopeEscapes, c.body()[k],
                 "the moved statements declare '" + bound +
                     "', which would no longer be in scope for the rest of the body; move "
                     "the declaration out of the loop first (lift_alloc)");
    }
    checker::Context ctx = checker::Context::at(c);
    rw::require_unchanged(c, ctx, f->lo, {c.stmt()}, [&] {
      return "the lower bound '" + c.lo().to_string() + "', evaluated again after the first " +
             "iteration's moved statements,";
    });
    rw::require_unchanged(c, ctx, f->hi, {c.stmt()}, [&] {
      return "the upper bound '" + c.hi().to_string() + "', evaluated after every iteration,";
    });

    // 2. The new code: the guarded tail A(i + 1), the prologue A(lo), the guard around both.
    const SrcInfo& si = f->srcinfo;
    const Block moved(f->body.begin(), f->body.begin() + n_stmts);
    const Expr next = simplify_expr(mk_add(index_var(f->iter, si), int_const(1, si)));
    const Block prologue = alpha_rename(substitute(moved, {{f->iter, f->lo}}));
    const Expr runs = mk_cmp(BinOpKind::Lt, f->lo, f->hi);

    // 3. Edits, each with its forwarding: A to the end of the body, wrapped in the tail guard;
    // the prologue before the loop; the outer guard around both.
    const BlockPath& path = c.loc().block;
    const int at = c.loc().lo;
    const BlockPath body = child_path(c);
    rw::Edit e(p);
    for (int k = 0; k < n_stmts; ++k) e.move(body, 0, body, n_body - 1);
    e.wrap(body, n_body - n_stmts, n_body, [&](const Block&) {
      return IfNode::make(mk_cmp(BinOpKind::Lt, next, f->hi), substitute(moved, {{f->iter, next}}),
                          {}, si);
    });
    e.insert(path, at, prologue);
    e.wrap(path, at, at + n_stmts + 1,
           [&](const Block& both) { return IfNode::make(runs, both, {}, si); });
    return e.done();
  });
}

}  // namespace exocpp
