// divide_dim: split one buffer dimension in two (mult_dim, its inverse, is in mult_dim.cpp).
//
//   divide_dim(p, "x", 1, 4)
//   x : R[n, 12, m] ; x[i, j, k]     -->     x : R[n, 3, 4, m] ; x[i, j / 4, j % 4, k]
//
// Legality: the dimension is divisible by the quotient (checker::always_divisible); buffers
// passed whole, strides, and windows spanning the dimension are refused
// (rw::require_elementwise_uses, shared with mult_dim).
#include "checker/context.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/layout.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace rw {

// Refuses uses of `buf` that cannot be rewritten index by index: whole, stride, or a window
// with an interval in one of `dims`.
void require_elementwise_uses(const Cursor& a, const Block& rest, const Sym& buf,
                              const std::vector<int>& dims, const std::string& why) {
  BufferUses uses = buffer_uses(rest, buf);
  if (uses.whole)
    fail(reason::kBufferLayoutUse, a,
         "'" + a.name() + "' is passed whole to a call, which would see " + why);
  if (uses.stride)
    fail(reason::kBufferLayoutUse, a,
         "the code takes a stride of '" + a.name() + "', which " + why + " would change");
  std::string bad;  // the first window that spans one of `dims`
  for_each_expr(rest, [&](const Expr& e) {
    const WindowExprNode* n = e.as<WindowExprNode>();
    if (n && n->name == buf)
      for (int d : dims)
        if (n->idx[d].is_interval && bad.empty()) bad = to_string(e);
  });
  if (!bad.empty())
    fail(reason::kBufferLayoutUse, a,
         "the window '" + bad + "' spans a dimension that " + why + " changes");
}

}  // namespace rw

Proc divide_dim(const Proc& p, const CursorLike& alloc, int dim_idx, int quotient) {
  return rw::run_op("divide_dim", [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(p, alloc);
    const AllocNode* an = a.stmt().as<AllocNode>();
    if (dim_idx < 0 || dim_idx >= an->type.rank())
      rw::fail(reason::kArgRange, a,
               "dimension " + std::to_string(dim_idx) + " does not exist: '" + a.name() + "' has " +
                   std::to_string(an->type.rank()) + " dimensions");
    if (quotient <= 0)
      rw::fail(reason::kArgRange, a,
               "the quotient must be positive, got " + std::to_string(quotient));
    const Block& list = a.list();
    const int ai = a.loc().lo;
    Block rest(list.begin() + ai + 1, list.end());
    rw::require_elementwise_uses(a, rest, an->name, {dim_idx}, "dividing a dimension");
    const Expr& n = an->type.shape[dim_idx];
    rw::require_proved(
        a, checker::always_divisible(checker::Context::at(p, a.stmt()), n, quotient), [&] {
          return "the dimension '" + to_string(n) + "' is divisible by " + std::to_string(quotient);
        });

    const ConstNode* nc = n.as<ConstNode>();
    Expr hi = nc && nc->is_int() ? rw::int_const(nc->int_val() / quotient)
                                 : rw::mk_div(n, rw::int_const(quotient, n.srcinfo()));
    std::vector<Expr> shape = an->type.shape;
    shape[dim_idx] = hi;
    shape.insert(shape.begin() + dim_idx + 1, rw::int_const(quotient));
    Stmt new_alloc = AllocNode::make(an->name, Type(an->type.base, shape), an->mem, an->srcinfo);
    auto split = [quotient](const Expr& j) {
      return std::pair{rw::mk_div(j, rw::int_const(quotient)),
                       rw::mk_mod(j, rw::int_const(quotient))};
    };
    rw::AccessMap m;
    m.buf = an->name;
    m.idx = [&](std::vector<Expr> i) {
      auto [q, r] = split(i[dim_idx]);
      i[dim_idx] = q;
      i.insert(i.begin() + dim_idx + 1, r);
      return i;
    };
    m.window = [&](std::vector<WAccess> w) {
      auto [q, r] = split(w[dim_idx].lo);
      w[dim_idx] = WAccess::point(q);
      w.insert(w.begin() + dim_idx + 1, WAccess::point(r));
      return w;
    };
    rw::Edit edit(p);
    edit.redeclare(a.loc().block, ai, new_alloc, m);
    rw::require_layout_observations_kept(a, p, edit.candidate(), {{an->name}, {an->name}, {}});
    return edit.done();
  });
}

}  // namespace exocpp
