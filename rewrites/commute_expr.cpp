// ============================================================================================
// commute_expr: swap the operands of `+` and `*`.
// ============================================================================================
//
//   a + b   -->   b + a          a * b   -->   b * a
//
// At each of the given expressions (all are resolved and checked before any is rewritten).
// Always legal: both operators are commutative on every type. Forwarding: cursors into `a`
// and `b` follow their operand to its new side.
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// The subexpressions below the two operands trade places.
std::optional<std::vector<int>> operands_swapped(std::vector<int> below) {
  below[0] = 1 - below[0];
  return below;
}

}  // namespace

Proc commute_expr(const Proc& p, const std::vector<CursorLike>& exprs) {
  return rw::run_op("commute_expr", [&]() -> Proc {
    if (exprs.empty()) rw::fail(reason::kArgInvalid, p->srcinfo, "no expression given to commute");
    // 1. Resolve and check every target in `p`.
    std::vector<Cursor> targets;
    for (const CursorLike& t : exprs) {
      Cursor c = rw::resolve_expr(p, t);
      const BinOpNode* b = c.expr().as<BinOpNode>();
      if (!b || (b->op != BinOpKind::Add && b->op != BinOpKind::Mul))
        rw::fail_wrong_kind(c, "an addition or a multiplication");
      targets.push_back(c);
    }
    // 2. Rewrite them one by one, each cursor forwarded through the earlier rewrites.
    Proc cur = p;
    for (const Cursor& t : targets) {
      Cursor c = cur.forward(t);
      const BinOpNode* b = c.expr().as<BinOpNode>();
      Expr swapped = rw::exact_binop(b->op, b->rhs, b->lhs, c.expr().srcinfo());
      cur = rw::Edit(cur).expr(c.loc(), swapped, operands_swapped).done();
    }
    return cur;
  });
}

}  // namespace exocpp
