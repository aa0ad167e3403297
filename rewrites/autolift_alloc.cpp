// autolift_alloc: lift an allocation out of loops, giving it a dimension per loop where needed.
//
//   for i in seq(lo, hi):                  buf : T[hi - lo, ...]
//       buf : T[...]           -->         for i in seq(lo, hi):
//       s                                      s[ buf[...] -> buf[i - lo, ...] ]
//
// Repeated n_lifts times (ifs are lifted past as by lift_alloc). A loop adds a dimension
// (first with mode "row", last with "col"; of extent `size` when given) when one buffer could
// not serve every iteration (checker::can_lift_alloc refutes the plain lift), or always with
// keep_dims. Each step is expand_dim then lift_alloc, with their checks.
#include "checker/context.h"
#include "checker/queries.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc autolift_alloc(const Proc& p, const CursorLike& alloc, const AutoliftAllocOptions& opts) {
  return rw::run_op("autolift_alloc", [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(p, alloc);
    if (opts.n_lifts < 1)
      rw::fail(reason::kArgRange, a,
               "n_lifts must be at least 1, got " + std::to_string(opts.n_lifts));
    if (opts.mode != "row" && opts.mode != "col")
      rw::fail(reason::kArgInvalid, a,
               "mode must be \"row\" or \"col\", got \"" + opts.mode + "\"");
    if (opts.size < 0)
      rw::fail(reason::kArgRange, a, "size must be positive, got " + std::to_string(opts.size));
    if (static_cast<int>(a.loc().block.size()) < opts.n_lifts)
      rw::fail(reason::kArgInvalid, a,
               "cannot lift '" + a.name() + "' " + std::to_string(opts.n_lifts) + " times: only " +
                   std::to_string(a.loc().block.size()) + " loops or ifs enclose it");
    Proc cur = p;
    Cursor c = a;
    // Each step reuses expand_dim / lift_alloc; their refusals are reported as this operation's.
    try {
      for (int k = 0; k < opts.n_lifts; ++k) {
        BlockPath parent = c.loc().block;
        const int pi = parent.back().index;
        parent.pop_back();
        Stmt encl = stmt_at(cur.body(), parent, pi);
        if (const ForNode* f = encl.as<ForNode>()) {
          bool expand =
              opts.keep_dims ||
              !checker::can_lift_alloc(checker::Context::at(cur, encl), encl, c.stmt()).proved();
          if (expand) {
            Expr extent =
                opts.size > 0 ? rw::int_const(opts.size) : rw::simplified_sub(f->hi, f->lo);
            rw::require_size_expr(c, extent, "the extent of loop '" + f->iter.name() + "'");
            Expr idx = rw::simplified_sub(rw::index_var(f->iter), f->lo);
            cur = rw::expand_dim_with(cur, c, extent, idx, opts.mode == "col");
            c = cur.forward(c);
          }
        }
        cur = lift_alloc(cur, c);
        c = cur.forward(c);
      }
    } catch (const SchedulingError& e) {
      rw::rethrow_as_current(e);
    }
    return cur;
  });
}

}  // namespace exocpp
