// ============================================================================================
// left_reassociate_expr: regroup a sum or product to the left.
// ============================================================================================
//
//   a + (b + c)   -->   (a + b) + c          a * (b * c)   -->   (a * b) * c
//
// Both operators must be the same, `+` or `*`. Legal on control values (integers); float data
// values are treated as mathematical reals, as in Exo; integer data values (i8 .. i32) regroup
// exactly (32-bit wrap-around arithmetic) when every operand is integer arithmetic
// (rw::is_integer_arith, internal/precision.h): a float operand would be truncated at another
// point. Forwarding: cursors to a, b and c follow them; the old inner `b + c` is gone.
#include "core/printer.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

ForwardFn fwd_reassociate(const Loc& at) {
  const size_t n = at.expr.size();
  return [at, n](const Loc& l) -> Loc {
    if (l.kind != CursorKind::Expr || l.block != at.block || l.lo != at.lo) return l;
    if (l.expr.size() <= n) return l;
    for (size_t i = 0; i < n; ++i)
      if (l.expr[i] != at.expr[i]) return l;
    std::vector<int> head(l.expr.begin(), l.expr.begin() + static_cast<long>(n));
    std::vector<int> rest(l.expr.begin() + static_cast<long>(n), l.expr.end());
    std::vector<int> mapped;
    if (rest[0] == 0) {
      mapped = {0, 0};  // a
      mapped.insert(mapped.end(), rest.begin() + 1, rest.end());
    } else if (rest.size() == 1) {
      return Loc::invalid();  // b + c no longer exists
    } else if (rest[1] == 0) {
      mapped = {0, 1};  // b
      mapped.insert(mapped.end(), rest.begin() + 2, rest.end());
    } else {
      mapped = {1};  // c
      mapped.insert(mapped.end(), rest.begin() + 2, rest.end());
    }
    Loc out = l;
    out.expr = head;
    out.expr.insert(out.expr.end(), mapped.begin(), mapped.end());
    return out;
  };
}

}  // namespace

Proc left_reassociate_expr(const Proc& p, const CursorLike& expr) {
  const std::string op = "left_reassociate_expr";
  return rw::run_op(op, [&]() -> Proc {
    Cursor c = rw::resolve_expr(op, p, expr);
    const BinOpNode* b = c.expr().as<BinOpNode>();
    if (!b || (b->op != BinOpKind::Add && b->op != BinOpKind::Mul))
      rw::fail(op, c,
               "expected an addition or a multiplication, but '" + c.to_string() + "' is not one");
    const BinOpNode* r = b->rhs.as<BinOpNode>();
    if (!r || r->op != b->op)
      rw::fail(op, c,
               "the right operand of '" + c.to_string() + "' is not also a" +
                   (b->op == BinOpKind::Add ? "n addition" : " multiplication") +
                   ", so there is nothing to regroup");
    Expr left = BinOpNode::make(b->op, b->lhs, r->lhs, b->lhs.srcinfo());
    Expr out = BinOpNode::make(b->op, left, r->rhs, c.expr().srcinfo());
    return rw::replace_expr_in_proc(p, c, out, fwd_reassociate(c.loc()));
    if (is_data(c.expr().type().base) && !is_float(c.expr().type().base) &&
        !(rw::is_integer_arith(b->lhs) && rw::is_integer_arith(r->lhs) &&
          rw::is_integer_arith(r->rhs)))
      rw::fail(op, c,
               "'" + c.to_string() + "' is " + to_string(c.expr().type().base) +
                   " arithmetic with an operand that is not an integer value; regrouping would "
                   "truncate at "
                   "another point");
  });
}

}  // namespace exocpp
