// ============================================================================================
// rewrite_expr: replace an expression by one the checker proves equal to it.
// ============================================================================================
//
//   s   -->   s[ e -> new_expr ]      when e == new_expr under the context
//
// `new_expr` is parsed in the scope of the statement holding e (arguments, enclosing loop
// variables, earlier allocations and windows). The equality is decided by
// checker::always_true under the proc's asserts and the enclosing loops and if-conditions, so
// it works for control (index, size, bool) expressions; data expressions are outside what the
// checker models and are refused. Forwarding: cursors inside e become invalid.
#include "checker/queries.h"
#include "core/printer.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc rewrite_expr(const Proc& p, const CursorLike& expr, const std::string& new_expr) {
  return rw::run_op("rewrite_expr", [&]() -> Proc {
    // 1. The target and the new expression.
    Cursor c = rw::resolve_expr(p, expr);
    Expr old_e = c.expr();
    const Loc& l = c.loc();
    ParseOptions po;
    Expr new_e = rw::parse_user_expr(c, new_expr, rw::scope_at(p, l.block, l.lo), po);
    const bool is_call_arg =
        stmt_at(p.body(), l.block, l.lo).kind() == StmtKind::Call && l.expr.size() == 1;
    const Type& ot = old_e.type();
    const Type& nt = new_e.type();
    if (!ot.is_scalar() || !nt.is_scalar())
      rw::fail(reason::kTargetWrongKind, c,
               "only scalar expressions can be rewritten, not '" + c.to_string() + "'");
    bool both_bool = ot.base == ScalarKind::Bool && nt.base == ScalarKind::Bool;
    bool both_index = is_indexable(ot.base) && is_indexable(nt.base);
    bool both_stride = ot.base == ScalarKind::Stride && nt.base == ScalarKind::Stride;
    if (is_call_arg && ot.base != nt.base) both_index = false;
    if (!both_bool && !both_index && !both_stride)
      rw::fail(reason::kArgType, c,
               "'" + to_string(new_e) + "' (" + to_string(nt) + ") cannot replace '" +
                   c.to_string() + "' (" + to_string(ot) +
                   "): only control expressions of matching kind (the same type for a call "
                   "argument), whose equality the checker decides, can be rewritten");

    // 2. Legality: e == new_expr everywhere the statement runs.
    checker::Context ctx = checker::Context::at(p, l.block, l.lo);
    Expr eq = rw::mk_cmp(BinOpKind::Eq, old_e, new_e, old_e.srcinfo());
    rw::require_proved(c, checker::always_true(ctx, eq),
                       [&] { return "'" + c.to_string() + "' == '" + to_string(new_e) + "'"; });

    // 3. The rewrite.
    return rw::Edit(p).expr(l, new_e).done();
  });
}

}  // namespace exocpp
