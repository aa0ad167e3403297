// shift_loop: make a loop start at a new lower bound.
//
//   for i in seq(lo, hi):      for i in seq(new_lo, new_lo + (hi - lo)):
//       s              -->         s[i -> i + (lo - new_lo)]
//
// Checks: `new_lo` parses as an integer expression in the loop's scope and the checker proves
// new_lo >= 0 (as Exo requires). The body evaluates `lo - new_lo` in every iteration where the
// loop evaluated lo once, so the checker proves the loop writes nothing lo or new_lo reads
// (value_unchanged_by). A negative range (hi < lo) stays negative: no assumption on hi.
// Forwarding: nothing moves.
#include "checker/queries.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "core/uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc shift_loop(const Proc& p, const CursorLike& loop, const std::string& new_lo) {
  return rw::run_op("shift_loop", [&]() -> Proc {
    Cursor c = rw::resolve_loop(p, loop);
    const ForNode* f = rw::as_loop(c);
    Expr lo2 = simplify_expr(parse_index_expr(c, new_lo, "the new lower bound"));
    rw::require_proved(
        c, checker::always_true(checker::Context::at(c), mk_cmp(BinOpKind::Ge, lo2, int_const(0))),
        [&] { return "the new lower bound '" + new_lo + "' is non-negative"; });

    const SrcInfo& si = f->srcinfo;
    Expr delta = simplify_expr(mk_sub(f->lo, lo2));
    if (mentions(f->body, f->iter))
      rw::require_unchanged(c, checker::Context::at(c), delta, {c.stmt()}, [&] {
        return "the offset '" + to_string(delta) + "', evaluated by the body in every iteration,";
      });
    Expr hi2 = simplify_expr(mk_add(lo2, mk_sub(f->hi, f->lo)));
    Expr shifted = simplify_expr(mk_add(index_var(f->iter, si), mk_sub(f->lo, lo2)));
    Stmt s =
        ForNode::make(f->iter, lo2, hi2, substitute(f->body, {{f->iter, shifted}}), f->mode, si);
    const BlockPath& path = c.loc().block;
    int at = c.loc().lo;
    return rw::Edit(p).rewrite(path, at, at + 1, {s}).done();
  });
}

}  // namespace exocpp
