// lift_alloc: move an allocation out of the loops and ifs around it.
//
//   for i in _:                    buf : T
//       buf : T          -->       for i in _:
//       s                              s
//
// Repeated n_lifts times. Legality (per loop lifted past): checker::can_lift_alloc — the shape
// of buf does not depend on the loop variable, and no iteration reads a value of buf that an
// earlier iteration wrote (one buffer then serves every iteration). Lifting out of an if is
// always legal. The shape is then evaluated before the loop or if instead of inside it: the
// checker proves the loop or if writes nothing the shape reads (checker::value_unchanged_by),
// and that every extent is non-negative there (the allocation now runs even when the body
// would not).
#include "checker/context.h"
#include "checker/queries.h"
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc lift_alloc(const Proc& p, const CursorLike& alloc, const LiftAllocOptions& opts) {
  return rw::run_op("lift_alloc", [&]() -> Proc {
    Cursor a = rw::resolve_alloc(p, alloc);
    if (a.is_arg())
      rw::fail(reason::kTargetWrongKind, a, "'" + a.name() + "' is an argument, not an allocation");
    if (opts.n_lifts < 1)
      rw::fail(reason::kArgRange, a,
               "n_lifts must be at least 1, got " + std::to_string(opts.n_lifts));
    const Stmt alloc_stmt = a.stmt();
    const std::string name = a.name();
    if (static_cast<int>(a.loc().block.size()) < opts.n_lifts)
      rw::fail(reason::kArgInvalid, a,
               "cannot lift '" + name + "' " + std::to_string(opts.n_lifts) + " times: only " +
                   std::to_string(a.loc().block.size()) + " loops or ifs enclose it");
    // One lift at a time; each is checked before it is built, and a refusal discards the
    // earlier steps (the caller's proc is never changed).
    Proc cur = p;
    Loc loc = a.loc();
    for (int k = 0; k < opts.n_lifts; ++k) {
      BlockPath parent = loc.block;
      const int pi = parent.back().index;
      parent.pop_back();
      Stmt encl = stmt_at(cur.body(), parent, pi);
      if (const ForNode* f = encl.as<ForNode>(); f && is_parallel(f->mode))
        rw::fail(reason::kAllocSharedByParallel, Cursor(cur, loc),
                 "cannot lift '" + name + "' out of the " + to_string(f->mode) + " loop '" +
                     f->iter.name() + "': its parallel iterations would share one buffer");
      for (const Expr& d : alloc_stmt.as<AllocNode>()->type.shape)
        rw::require_unchanged(Cursor(cur, loc), checker::Context::at(cur, encl), d, {encl}, [&] {
          return "the extent '" + to_string(d) + "' of '" + name +
                 "', evaluated before the enclosing " + (encl.is<ForNode>() ? "loop" : "if") +
                 " instead of inside it,";
        });
      if (encl.is<ForNode>()) {
        checker::Answer ans =
            checker::can_lift_alloc(checker::Context::at(cur, encl), encl, alloc_stmt);
        rw::require_proved(Cursor(cur, loc), ans, [&] {
          return "one '" + name + "' can serve every iteration of loop '" +
                 encl.as<ForNode>()->iter.name() + "'";
        });
      }
      // The allocation now runs even where the loop or if would not run its body (a loop of
      // no iterations): an extent that is negative there would fail where the input runs.
      for (const Expr& d : alloc_stmt.as<AllocNode>()->type.shape)
        rw::require_proved(Cursor(cur, loc),
                           checker::always_true(checker::Context::at(cur, encl),
                                                rw::mk_cmp(BinOpKind::Le, rw::int_const(0), d)),
                           [&] {
                             return "the extent '" + to_string(d) + "' of '" + name +
                                    "' is not negative before the enclosing " +
                                    (encl.is<ForNode>() ? "loop" : "if") +
                                    ", which may not run its body";
                           });
      cur = rw::Edit(cur).move(loc.block, loc.lo, parent, pi).done();
      loc = Loc{CursorKind::Stmt, parent, pi, pi + 1, {}};
    }
    return cur;
  });
}

}  // namespace exocpp
