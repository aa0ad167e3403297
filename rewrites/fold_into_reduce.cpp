// ============================================================================================
// fold_into_reduce: turn an accumulating assignment into a reduction.
// ============================================================================================
//
//   a = a + e   -->   a += e
//
// The left operand of `+` must read the very location written (indices syntactically equal or
// proved equal by the checker). Both forms evaluate e before writing, so e may read anything.
// Precision (internal/precision.h): `a + e` must compute in a's arithmetic (rw::arithmetic_of),
// where the reduction adds.
// Forwarding: the statement stays; a cursor to e follows it; other cursors into the old
// right-hand side become invalid.
#include "checker/queries.h"
#include "core/printer.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc fold_into_reduce(const Proc& p, const CursorLike& assign) {
  return rw::run_op("fold_into_reduce", [&]() -> Proc {
    Cursor c = rw::resolve_stmt(p, assign);
    const AssignNode* a = rw::stmt_as<AssignNode>(c, "an assignment");
    const BinOpNode* sum = a->rhs.as<BinOpNode>();
    if (!sum || sum->op != BinOpKind::Add)
      rw::fail(reason::kStmtForm, c,
               "the right-hand side of '" + c.to_string() + "' is not an addition");
    const ReadNode* rd = sum->lhs.as<ReadNode>();
    if (!rd || rd->name != a->name)
      rw::fail(reason::kStmtForm, c,
               "the left operand of the addition in '" + c.to_string() + "' is not a read of '" +
                   a->name.name() + "'");
    const Loc& l = c.loc();
    ScalarKind t = a->rhs.type().base;
    if (rw::arithmetic_of(t) != rw::arithmetic_of(a->type) && !rw::takes_context_precision(a->rhs))
      rw::fail(reason::kPrecisionRegroup, c,
               "'" + to_string(a->rhs) + "' computes in " + to_string(t) +
                   " before it is stored into '" + a->name.name() + "' (" + to_string(a->type) +
                   "); a reduction would not round it (it adds in " + to_string(a->type) + ")");
    checker::Context ctx = checker::Context::at(p, l.block, l.lo);
    rw::require_same_location(c, ctx, a->idx, rd->idx, [&] {
      return "the addition reads the location '" + c.to_string() + "' writes";
    });

    // The assignment becomes a reduction of `a + e`, whose right-hand side then keeps only e.
    Stmt red = ReduceNode::make(a->name, a->type, a->idx, a->rhs, c.stmt().srcinfo());
    Loc rhs = l;
    rhs.kind = CursorKind::Expr;
    rhs.hi = rhs.lo + 1;
    rhs.expr = {static_cast<int>(a->idx.size())};
    return rw::Edit(p).rewrite(l.block, l.lo, l.lo + 1, {red}).keep_child(rhs, 1).done();
  });
}

}  // namespace exocpp
