// autofission: fission, then drop the loops the split made unnecessary.
//
//   for i in seq(0, N):          x = 0.0           (when x = 0.0 no longer needs loop i:
//       x = 0.0          -->     for i in seq(0, N):   remove_loop accepts it)
//       A[i] = x                     A[i] = x
//
// Runs fission(p, gap, {n_lifts}) with all of its checks, then tries remove_loop on every
// loop copy the split made; a copy remove_loop refuses stays.
// Forwarding: as fission, then as remove_loop for each loop removed.
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

Proc autofission(const Proc& p, const CursorLike& gap, const AutofissionOptions& opts) {
  return rw::run_op("autofission", [&]() -> Proc {
    Cursor g = rw::resolve_gap(p, gap);
    if (opts.n_lifts < 1)
      rw::fail(reason::kArgRange, g,
               "n_lifts must be at least 1, got " + std::to_string(opts.n_lifts));
    // Split level by level, remembering the two copies each level makes.
    Proc q = p;
    std::vector<Cursor> copies;
    for (int level = 0; level < opts.n_lifts; ++level) {
      Cursor cur = q.forward(g);
      try {
        q = fission(q, cur);
      } catch (const SchedulingError& e) {
        rw::rethrow_as_current(e);
      }
      BlockPath path(cur.loc().block.begin(), cur.loc().block.end() - 1);
      int at = cur.loc().block.back().index;
      copies.push_back(Cursor(q, Loc{CursorKind::Stmt, path, at, at + 1, {}}));
      copies.push_back(Cursor(q, Loc{CursorKind::Stmt, path, at + 1, at + 2, {}}));
      g = Cursor(q, Loc{CursorKind::Gap, path, at + 1, at + 1, {}});
    }
    for (const Cursor& c : copies) {
      Cursor now = q.forward(c);
      if (!now.is_valid() || !now.is_stmt() || !now.stmt().is<ForNode>()) continue;
      try {
        q = remove_loop(q, now);
      } catch (const SchedulingError& e) {
        // The copy still needs its loop (a refuted condition); a time-out is not a "no".
        if (e.code() != ErrorCode::NotProved) throw;
      }
    }
    return q;
  });
}

}  // namespace exocpp
