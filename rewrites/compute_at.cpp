// ============================================================================================
// compute_at: move a producer loop down to its consumer and fuse them, written only with
// primitives.
// ============================================================================================
//
// See rewrites/composites.h for the rewrite rule. The producer moves down by reorder_stmts, one
// statement at a time, then fuse merges it into the consumer; each step is checked by its
// primitive and names it in a refusal.
#include "rewrites/composites.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc compute_at(const Proc& p, const CursorLike& producer, const CursorLike& consumer) {
  return rw::run_op("compute_at", [&]() -> Proc {
    Cursor prod = rw::resolve_loop(p, producer);
    Cursor cons = rw::resolve_loop(p, consumer);
    if (prod.loc().block != cons.loc().block || prod.loc().lo >= cons.loc().lo)
      rw::fail(reason::kStmtOrder, prod,
               "the producer loop must come before the consumer loop in the same statement list");
    const Loc cons_loc = cons.loc();
    Proc q = p;
    // 1. Move the producer down to just before the consumer.
    for (int k = prod.loc().lo; k + 1 < cons_loc.lo; ++k) {
      Loc l = prod.loc();
      l.lo = k;
      l.hi = k + 1;
      q = reorder_stmts(q, Cursor(q, l));
    }
    // 2. Fuse.
    Loc pl = cons_loc;
    pl.lo = cons_loc.lo - 1;
    pl.hi = cons_loc.lo;
    return fuse(q, Cursor(q, pl), Cursor(q, cons_loc));
  });
}

}  // namespace exocpp
