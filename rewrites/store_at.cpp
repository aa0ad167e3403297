// ============================================================================================
// store_at: Halide's store_at (and Exo's stdlib store_at), a buffer's storage moved into a loop
// and cut to the region one iteration touches, written only with primitives.
// ============================================================================================
//
//   f : T[H, W]                        for yo in seq(0, H / 8):
//   for yo in seq(0, H / 8):    -->        f : T[8, W]
//       ... f[8 * yo + yi, x] ...          ... f[yi, x] ...
//
// sink_alloc moves the allocation into the loop right after it (it proves no iteration reads a
// value an earlier one wrote and that nothing after the loop uses the buffer); then each
// dimension where the box one iteration touches (core/bounds_inference.h) is smaller than the
// buffer is cut to it by resize_dim (which proves every access lies in the new range). The box
// is only a proposal: the checker decides. Refused by name when the loop does not follow the
// allocation, when the box cannot be inferred, or when its size depends on the loop variable (an
// allocation's size is fixed where it is declared).
#include "core/bounds_inference.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "core/uses.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

Proc store_at(const Proc& p, const CursorLike& alloc, const CursorLike& loop) {
  return rw::run_op("store_at", [&]() -> Proc {
    const Cursor a = rw::resolve_alloc_stmt(p, alloc);
    const Cursor l = rw::resolve_loop(p, loop);
    const AllocNode* an = a.stmt().as<AllocNode>();
    const Cursor next = a.next();
    if (!next.is_valid() || !(next.loc() == l.loc()))
      rw::fail(reason::kArgInvalid, a,
               "the loop must be the statement right after the allocation of '" + an->name.name() +
                   "' (move the allocation next to it first)");
    Proc q = sink_alloc(p, a);
    // One iteration's code, after the allocation that now opens it.
    const Cursor sunk = q.forward(a);
    const Block& body = q.forward(l).stmt().as<ForNode>()->body;
    const Block rest(body.begin() + sunk.loc().lo + 1, body.end());
    std::string why;
    const std::optional<std::vector<BoxDim>> box = accessed_box(rest, an->name, &why);
    if (!box)
      rw::fail(reason::kRegionNotInferred, q.forward(l),
               "cannot infer the part of '" + an->name.name() + "' one iteration touches: " + why);
    const Sym iter = l.stmt().as<ForNode>()->iter;
    for (size_t d = 0; d < box->size(); ++d) {
      const Expr lo = simplify_expr((*box)[d].lo);
      const Expr size = simplify_expr(rw::mk_sub((*box)[d].hi, lo));
      const Expr& full = an->type.shape[d];
      if (expr_equal(size, simplify_expr(full)) && expr_equal(lo, rw::int_const(0)))
        continue;  // the iteration touches the whole dimension
      if (uses_of(size).mentions(iter))
        rw::fail(reason::kDepLoopVariant, q.forward(l),
                 "the part of '" + an->name.name() +
                     "' one iteration touches has a size that "
                     "depends on '" +
                     iter.name() + "' in dimension " + std::to_string(d) + " (" + to_string(size) +
                     "): an allocation's size is fixed where it is declared");
      q = resize_dim(q, q.forward(sunk), static_cast<int>(d), to_string(size), to_string(lo));
    }
    return simplify(q);
  });
}

}  // namespace exocpp
