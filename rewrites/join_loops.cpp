// join_loops: join two adjacent loops with the same body over consecutive ranges.
//
//   for i in seq(lo, mid): s
//   for j in seq(mid, hi): s[i -> j]   -->   for i in seq(lo, hi): s
//
// Checks: loop2 directly follows loop1; the bodies are the same once j is renamed i (compared
// as printed code: both lie in the same scope, so equal text means equal code); the checker
// proves loop1's hi equals loop2's lo and lo <= mid <= hi (always_true; with mid outside
// [lo, hi] one loop is empty and the joined loop runs a different range). loop2's bounds were
// evaluated after loop1 ran and are now evaluated before it: the checker proves loop1 writes
// nothing they read (value_unchanged_by). Both loops have one mode; a par joined loop runs the
// iterations of both in any order, so the checker proves no two of them conflict
// (require_parallel).
// Forwarding: loop1 and its body stay; loop2 and everything in it become invalid.
#include "checker/queries.h"
#include "core/printer.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

Proc join_loops(const Proc& p, const CursorLike& loop1, const CursorLike& loop2) {
  return rw::run_op("join_loops", [&]() -> Proc {
    Cursor c1 = rw::resolve_loop(p, loop1), c2 = rw::resolve_loop(p, loop2);
    const ForNode *f1 = rw::as_loop(c1), *f2 = rw::as_loop(c2);
    if (c1.loc().block != c2.loc().block || c2.loc().lo != c1.loc().lo + 1)
      rw::fail(reason::kTargetNotAdjacent, c2,
               "expected the second loop to directly follow the first");
    Block renamed = substitute(f2->body, {{f2->iter, index_var(f1->iter, f2->srcinfo)}});
    if (to_string(renamed) != to_string(f1->body))
      rw::fail(reason::kStmtForm, c2,
               "the bodies of loops " + f1->iter.name() + " and " + f2->iter.name() + " differ");
    rw::require_proved(
        c2, checker::always_true(checker::Context::at(c1), mk_cmp(BinOpKind::Eq, f1->hi, f2->lo)),
        [&] {
          return "the first loop ends ('" + c1.hi().to_string() + "') where the second begins ('" +
                 c2.lo().to_string() + "')";
        });
    if (f1->mode != f2->mode)
      rw::fail(reason::kLoopMode, c2,
               std::string("the loops differ in mode (") + to_string(f1->mode) + " and " +
                   to_string(f2->mode) + ")");
    checker::Context ctx = checker::Context::at(c1);
    rw::require_unchanged(c2, ctx, f2->lo, {c1.stmt()}, [&] {
      return "the lower bound '" + c2.lo().to_string() + "' of the second loop";
    });
    rw::require_unchanged(c2, ctx, f2->hi, {c1.stmt()}, [&] {
      return "the upper bound '" + c2.hi().to_string() + "' of the second loop";
    });
    rw::require_proved(c1, checker::always_true(ctx, mk_cmp(BinOpKind::Le, f1->lo, f1->hi)), [&] {
      return "the first loop's range is not negative ('" + c1.lo().to_string() + "' <= '" +
             c1.hi().to_string() + "')";
    });
    rw::require_proved(c2, checker::always_true(ctx, mk_cmp(BinOpKind::Le, f2->lo, f2->hi)), [&] {
      return "the second loop's range is not negative ('" + c2.lo().to_string() + "' <= '" +
             c2.hi().to_string() + "')";
    });
    Stmt s = ForNode::make(f1->iter, f1->lo, f2->hi, f1->body, f1->mode, f1->srcinfo);
    // Two par loops ran one after the other; joined, an iteration of the first may run after one
    // of the second.
    rw::require_parallel(c1, ctx, s, [&] { return "the joined loop " + f1->iter.name(); });
    return rw::Edit(p).merge(c1.loc().block, c1.loc().lo, s, Edit::Second::Dropped).done();
  });
}

}  // namespace exocpp
