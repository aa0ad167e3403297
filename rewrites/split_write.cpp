// ============================================================================================
// split_write: split a write of a sum into two writes (the inverse of merge_writes' last two
// cases).
// ============================================================================================
//
//   a = b + c    -->   a = b ; a += c
//   a += b + c   -->   a += b ; a += c
//
// `c` must not read the buffer `a` (after the split it would see the first write). Precision
// (internal/precision.h): the sum computes in the arithmetic of b + c, the two writes in a's;
// b and c must be operands of a's arithmetic (rw::sum_regroups_in: of a's float type or literals
// alone; integer arithmetic in an integer buffer, whose sums wrap alike), or every value exact.
// Forwarding: a block holding the statement grows by one; cursors to the statement and inside
// it become invalid.
#include "core/printer.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc split_write(const Proc& p, const CursorLike& stmt) {
  return rw::run_op("split_write", [&]() -> Proc {
    Cursor c = rw::resolve_stmt(p, stmt);
    Stmt s = c.stmt();
    const AssignNode* a = s.as<AssignNode>();
    const ReduceNode* r = s.as<ReduceNode>();
    if (!a && !r) rw::fail_wrong_kind(c, "an assignment or a reduction");
    Sym name = a ? a->name : r->name;
    ScalarKind type = a ? a->type : r->type;
    const std::vector<Expr>& idx = a ? a->idx : r->idx;
    const BinOpNode* sum = (a ? a->rhs : r->rhs).as<BinOpNode>();
    if (!sum || sum->op != BinOpKind::Add)
      rw::fail(reason::kStmtForm, c,
               "the right-hand side of '" + c.to_string() + "' is not an addition");
    WindowAliases roots = WindowAliases::of_proc(p);
    if (rw::accesses(sum->rhs, roots).reads.count(roots.root(name)))
      rw::fail(reason::kDepReadWritten, c,
               "the second operand of the addition reads '" + name.name() +
                   "', which would then see the first write");

    if (!rw::sum_regroups_in(sum->lhs, sum->rhs, type))
      rw::fail(reason::kPrecisionRegroup, c,
               "storing '" + to_string(sum->lhs) + "' into '" + name.name() + "' (" +
                   to_string(type) +
                   ") first would round or wrap it, or add in another "
                   "arithmetic, where '" +
                   c.to_string() + "' does not");

    Stmt first = a ? AssignNode::make(name, type, idx, sum->lhs, s.srcinfo())
                   : ReduceNode::make(name, type, idx, sum->lhs, s.srcinfo());
    Stmt second = ReduceNode::make(name, type, idx, sum->rhs, s.srcinfo());
    const Loc& l = c.loc();
    return rw::Edit(p).replace(l.block, l.lo, l.lo + 1, {first, second}).done();
  });
}

}  // namespace exocpp
