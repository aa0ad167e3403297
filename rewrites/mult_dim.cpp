// ============================================================================================
// mult_dim: merge two dimensions of a buffer into one (the inverse of divide_dim).
// ============================================================================================
//
//   mult_dim(p, "x", 0, 2)
//   x : R[n, m, 4] ; x[i, j, k]      -->     x : R[4 * n, m] ; x[4 * i + k, j]
//
// Legality: the low dimension is a constant (so `c * i + k` is a bijection onto the merged
// range); buffers passed whole, strides, and windows spanning either dimension are refused
// (rw::require_elementwise_uses). Forwarding: everything stays in place.
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/layout.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

Proc mult_dim(const Proc& p, const CursorLike& alloc, int hi_dim_idx, int lo_dim_idx) {
  return rw::run_op("mult_dim", [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(p, alloc);
    const AllocNode* an = a.stmt().as<AllocNode>();
    const int rank = an->type.rank();
    for (int d : {hi_dim_idx, lo_dim_idx})
      if (d < 0 || d >= rank)
        rw::fail(reason::kArgRange, a,
                 "dimension " + std::to_string(d) + " does not exist: '" + a.name() + "' has " +
                     std::to_string(rank) + " dimensions");
    if (hi_dim_idx == lo_dim_idx)
      rw::fail(reason::kArgInvalid, a, "the two dimensions must differ");
    const ConstNode* c = an->type.shape[lo_dim_idx].as<ConstNode>();
    if (!c || !c->is_int())
      rw::fail(reason::kBufferNotConstant, a,
               "dimension " + std::to_string(lo_dim_idx) + " of '" + a.name() +
                   "' must be a constant, not '" + to_string(an->type.shape[lo_dim_idx]) + "'");
    const Block& list = a.list();
    const int ai = a.loc().lo;
    Block rest(list.begin() + ai + 1, list.end());
    rw::require_elementwise_uses(a, rest, an->name, {hi_dim_idx, lo_dim_idx}, "merging dimensions");

    Expr cst = rw::int_const(c->int_val());
    std::vector<Expr> shape = an->type.shape;
    shape[hi_dim_idx] = rw::mk_mul(cst, shape[hi_dim_idx]);
    shape.erase(shape.begin() + lo_dim_idx);
    Stmt new_alloc = AllocNode::make(an->name, Type(an->type.base, shape), an->mem, an->srcinfo);
    auto merge = [&](const Expr& i, const Expr& k) {
      return rw::simplified_add(rw::mk_mul(cst, i), k);
    };
    rw::AccessMap m;
    m.buf = an->name;
    m.idx = [&](std::vector<Expr> i) {
      i[hi_dim_idx] = merge(i[hi_dim_idx], i[lo_dim_idx]);
      i.erase(i.begin() + lo_dim_idx);
      return i;
    };
    m.window = [&](std::vector<WAccess> w) {
      w[hi_dim_idx] = WAccess::point(merge(w[hi_dim_idx].lo, w[lo_dim_idx].lo));
      w.erase(w.begin() + lo_dim_idx);
      return w;
    };
    rw::Edit edit(p);
    edit.redeclare(a.loc().block, ai, new_alloc, m);
    rw::require_layout_observations_kept(a, p, edit.candidate(), {{an->name}, {an->name}, {}});
    return edit.done();
  });
}

}  // namespace exocpp
