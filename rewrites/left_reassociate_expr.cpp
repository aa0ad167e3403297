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
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// Where a subexpression of `a + (b + c)`, given by its child steps, is in `(a + b) + c`.
std::optional<std::vector<int>> moves_of_reassociation(const std::vector<int>& rest) {
  std::vector<int> mapped;
  if (rest[0] == 0) {
    mapped = {0, 0};  // a
    mapped.insert(mapped.end(), rest.begin() + 1, rest.end());
  } else if (rest.size() == 1) {
    return std::nullopt;  // b + c no longer exists
  } else if (rest[1] == 0) {
    mapped = {0, 1};  // b
    mapped.insert(mapped.end(), rest.begin() + 2, rest.end());
  } else {
    mapped = {1};  // c
    mapped.insert(mapped.end(), rest.begin() + 2, rest.end());
  }
  return mapped;
}

}  // namespace

Proc left_reassociate_expr(const Proc& p, const CursorLike& expr) {
  return rw::run_op("left_reassociate_expr", [&]() -> Proc {
    Cursor c = rw::resolve_expr(p, expr);
    const BinOpNode* b = c.expr().as<BinOpNode>();
    if (!b || (b->op != BinOpKind::Add && b->op != BinOpKind::Mul))
      rw::fail_wrong_kind(c, "an addition or a multiplication");
    const BinOpNode* r = b->rhs.as<BinOpNode>();
    if (!r || r->op != b->op)
      rw::fail(reason::kStmtForm, c,
               "the right operand of '" + c.to_string() + "' is not also a" +
                   (b->op == BinOpKind::Add ? "n addition" : " multiplication") +
                   ", so there is nothing to regroup");
    Expr left = rw::exact_binop(b->op, b->lhs, r->lhs, b->lhs.srcinfo());
    Expr out = rw::exact_binop(b->op, left, r->rhs, c.expr().srcinfo());
    if (is_data(c.expr().type().base) && !is_float(c.expr().type().base) &&
        !(rw::is_integer_arith(b->lhs) && rw::is_integer_arith(r->lhs) &&
          rw::is_integer_arith(r->rhs)))
      rw::fail(reason::kPrecisionRegroup, c,
               "'" + c.to_string() + "' is " + to_string(c.expr().type().base) +
                   " arithmetic with an operand that is not an integer value; regrouping would "
                   "round it at another point");
    return rw::Edit(p).expr(c.loc(), out, moves_of_reassociation).done();
  });
}

}  // namespace exocpp
