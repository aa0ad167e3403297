// ============================================================================================
// sliding_window: Halide's sliding window and storage folding (store_at an outer loop,
// compute_at an inner one), written only with primitives.
// ============================================================================================
//
// See rewrites/composites.h for the rewrite rule. Built from cut_loop (the prologue: the first
// k rows), shift_loop (the rest to start at 0), fuse (each row just before the first consumer
// iteration that reads it; fuse proves no consumer iteration reads a row a later producer
// iteration writes) and, to fold, resize_dim with fold (the checker proves no row is
// overwritten while a later access still reads it). A refused step names its primitive.
#include "core/printer.h"
#include "core/simplify.h"
#include "core/uses.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/inline_expr.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

namespace {}  // namespace

Proc sliding_window(const Proc& p, const CursorLike& producer, const CursorLike& consumer,
                    const SlidingWindowOptions& opts) {
  return rw::run_op("sliding_window", [&]() -> Proc {
    const Cursor prod = rw::resolve_loop(p, producer);
    const Cursor cons = rw::resolve_loop(p, consumer);
    const ForNode* fp = prod.stmt().as<ForNode>();
    const ForNode* fc = cons.stmt().as<ForNode>();
    if (prod.loc().block != cons.loc().block || prod.loc().lo + 1 != cons.loc().lo)
      rw::fail(reason::kStmtOrder, prod,
               "the consumer loop must directly follow the producer loop");
    const AssignNode* a = rw::producer_nest(prod.stmt()).store;
    if (!a)
      rw::fail(reason::kStmtForm, prod,
               "the producer must be a loop nest ending in one assignment");
    // The halo: how many more rows the producer computes than the consumer's iterations.
    const Expr halo =
        simplify_expr(rw::mk_sub(rw::mk_sub(fp->hi, fp->lo), rw::mk_sub(fc->hi, fc->lo)));
    const ConstNode* k = halo.as<ConstNode>();
    if (!k || !k->is_int() || k->int_val() < 0)
      rw::fail(reason::kStmtForm, prod,
               "the producer must run a constant number of iterations more than the consumer "
               "(its halo), got '" +
                   to_string(halo) + "' more");
    // The dimension of the producer's buffer its loop walks: the one its iterator indexes.
    int dim = -1;
    for (size_t d = 0; d < a->idx.size(); ++d)
      if (mentions(a->idx[d], fp->iter)) dim = dim < 0 ? static_cast<int>(d) : -2;
    if (opts.fold && dim < 0)
      rw::fail(reason::kStmtForm, prod,
               "to fold, the producer's iterator '" + fp->iter.name() +
                   "' must index exactly "
                   "one dimension of '" +
                   a->name.name() + "'");
    const std::string kk = std::to_string(k->int_val());
    Proc q = p;
    Cursor main = prod;
    if (k->int_val() > 0) {
      q = cut_loop(q, prod,
                   to_string(simplify_expr(rw::mk_add(fp->lo, rw::int_const(k->int_val())))));
      main = q.forward(prod).next();
    }
    q = shift_loop(q, main, to_string(fc->lo));
    q = fuse(q, q.forward(main), q.forward(cons));
    if (opts.fold) {
      const int rows = opts.fold_rows > 0 ? opts.fold_rows : static_cast<int>(k->int_val()) + 1;
      q = resize_dim(q, q.find_alloc_or_arg(a->name.name()), dim, std::to_string(rows), "0",
                     {.fold = true});
    }
    return q;
  });
}

}  // namespace exocpp
