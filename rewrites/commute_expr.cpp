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
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// Expression locations below `at` child 0 and child 1 trade places.
ForwardFn fwd_swap_operands(const Loc& at) {
  return [at](const Loc& l) -> Loc {
    if (l.kind != CursorKind::Expr || l.block != at.block || l.lo != at.lo) return l;
    if (l.expr.size() <= at.expr.size()) return l;
    for (size_t i = 0; i < at.expr.size(); ++i)
      if (l.expr[i] != at.expr[i]) return l;
    Loc out = l;
    out.expr[at.expr.size()] = 1 - l.expr[at.expr.size()];
    return out;
  };
}

}  // namespace

Proc commute_expr(const Proc& p, const std::vector<CursorLike>& exprs) {
  const std::string op = "commute_expr";
  return rw::run_op(op, [&]() -> Proc {
    if (exprs.empty()) rw::fail(op, p->srcinfo, "no expression given to commute");
    // 1. Resolve and check every target in `p`.
    std::vector<Cursor> targets;
    for (const CursorLike& t : exprs) {
      Cursor c = rw::resolve_expr(op, p, t);
      const BinOpNode* b = c.expr().as<BinOpNode>();
      if (!b || (b->op != BinOpKind::Add && b->op != BinOpKind::Mul))
        rw::fail(
            op, c,
            "expected an addition or a multiplication, but '" + c.to_string() + "' is not one");
      targets.push_back(c);
    }
    // 2. Rewrite them one by one, each cursor forwarded through the earlier rewrites.
    Proc cur = p;
    for (const Cursor& t : targets) {
      Cursor c = cur.forward(t);
      const BinOpNode* b = c.expr().as<BinOpNode>();
      Expr swapped = BinOpNode::make(b->op, b->rhs, b->lhs, c.expr().srcinfo());
      cur = rw::replace_expr_in_proc(cur, c, swapped, fwd_swap_operands(c.loc()));
    }
    return cur;
  });
}

}  // namespace exocpp
