// ============================================================================================
// simplify: simplify every expression of a proc's body (core/simplify.h).
// ============================================================================================
//
//   s   -->   s[ e -> simplify_expr(e) ] for every expression e
//
// Statements keep their places (the simplifier does not remove branches; eliminate_dead_code
// does). Forwarding: statement cursors stay; an expression cursor stays when the statement's
// top-level expression holding it was left unchanged, and becomes invalid otherwise.
#include "core/simplify.h"

#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc simplify(const Proc& p) {
  return rw::run_op("simplify", [&]() -> Proc {
    Block old_body = p.body();
    Block new_body = simplify_block(old_body, p->preds);
    ForwardFn fwd = [old_body, new_body](const Loc& l) -> Loc {
      if (l.kind != CursorKind::Expr || l.expr.empty()) return l;
      Stmt a = stmt_at(old_body, l.block, l.lo);
      Stmt b = stmt_at(new_body, l.block, l.lo);
      std::vector<Expr> ca = expr_children(a), cb = expr_children(b);
      size_t k = static_cast<size_t>(l.expr[0]);
      if (ca.size() != cb.size() || k >= ca.size()) return Loc::invalid();
      if (l.expr.size() == 1 || ca[k].same_as(cb[k])) return l;
      return Loc::invalid();
    };
    return rw::Edit(p).remap({}, 0, static_cast<int>(old_body.size()), new_body, fwd).done();
  });
}

}  // namespace exocpp
