// ============================================================================================
// reorder_stmts: swap two consecutive statements.
// ============================================================================================
//
//   s1 ; s2   -->   s2 ; s1
//
// The target is a block of two statements (or a statement, meaning it and the next one).
// Legal when the checker proves the two commute (checker::stmts_commute): no location one
// writes is read or written by the other (reductions into one location commute), and s2 does
// not use a buffer or window s1 defines. Forwarding: the two statements trade places.
#include "checker/queries.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc reorder_stmts(const Proc& p, const CursorLike& block) {
  return rw::run_op("reorder_stmts", [&]() -> Proc {
    // 1. The two statements.
    Cursor c = rw::resolve_block(p, block);
    if (c.is_block() && c.size() == 1) c = c[0];
    if (c.is_stmt()) {
      Cursor nx = c.next();
      if (!nx.is_valid())
        rw::fail(reason::kStmtNoNext, c,
                 "there is no statement after '" + c.to_string() + "' to swap it with");
      c = c.as_block().expand(0, 1);
    }
    if (!c.is_block())
      rw::fail(reason::kTargetWrongKind, c,
               "expected a block of two statements, but " + block.describe() + " is a " +
                   to_string(c.kind()));
    if (c.size() != 2)
      rw::fail(reason::kTargetWrongKind, c,
               "expected a block of two statements, but the block has " + std::to_string(c.size()));
    const Loc& l = c.loc();
    Stmt s1 = c[0].stmt(), s2 = c[1].stmt();

    // 2. Legality.
    checker::Context ctx = checker::Context::at(p, l.block, l.lo);
    rw::require_proved(c, checker::stmts_commute(ctx, s1, s2), "the two statements commute");

    // 3. The rewrite.
    return rw::Edit(p).swap(l.block, l.lo, l.lo + 1, l.lo + 2).done();
  });
}

}  // namespace exocpp
