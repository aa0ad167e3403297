// expand_dim: give a buffer a new leading dimension.
//
//   x : T[...] ; s        -->        x : T[alloc_dim, ...] ; s[ x[...] -> x[indexing_expr, ...] ]
//
// Both strings are parsed in the scope of the allocation. Legality (checker): alloc_dim > 0
// and 0 <= indexing_expr < alloc_dim, and the code after the allocation writes nothing
// indexing_expr reads (it is evaluated at every access: checker::value_unchanged_by).
#include "checker/context.h"
#include "checker/queries.h"
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/layout.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace rw {
Proc expand_dim_with(const Proc& p, const Cursor& a, const Expr& dim, const Expr& idx,
                     bool append) {
  const AllocNode* an = a.stmt().as<AllocNode>();
  const BlockPath path = a.loc().block;
  const int ai = a.loc().lo;
  const Block& list = a.list();
  Block rest(list.begin() + ai + 1, list.end());
  BufferUses uses = buffer_uses(rest, an->name);
  if (uses.whole)
    fail(reason::kBufferLayoutUse, a,
         "'" + a.name() + "' is passed whole to a call, which would see the new dimension");
  if (uses.stride && append)
    fail(reason::kBufferLayoutUse, a,
         "the code takes a stride of '" + a.name() + "', which a new last dimension would change");
  checker::Context ctx = checker::Context::at(p, a.stmt());
  require_proved(a, checker::always_true(ctx, mk_cmp(BinOpKind::Gt, dim, int_const(0))),
                 [&] { return "the new dimension's size '" + to_string(dim) + "' is positive"; });
  require_proved(a, checker::always_in_range(ctx, idx, int_const(0), dim), [&] {
    return "the indexing expression '" + to_string(idx) + "' is in [0, " + to_string(dim) + ")";
  });

  require_unchanged(a, ctx, idx, rest, [&] {
    return "the indexing expression '" + to_string(idx) + "', evaluated at every access of '" +
           a.name() + "',";
  });
  std::vector<Expr> shape = an->type.shape;
  shape.insert(append ? shape.end() : shape.begin(), dim);
  Stmt new_alloc = AllocNode::make(an->name, Type(an->type.base, shape), an->mem, an->srcinfo);
  AccessMap m;
  m.buf = an->name;
  m.idx = [&idx, append](std::vector<Expr> i) {
    i.insert(append ? i.end() : i.begin(), idx);
    return i;
  };
  m.window = [&idx, append](std::vector<WAccess> w) {
    w.insert(append ? w.end() : w.begin(), WAccess::point(idx));
    return w;
  };
  m.stride = [](const StrideExprNode* n) {
    return StrideExprNode::make(n->name, n->dim + 1, n->srcinfo);
  };
  rw::Edit edit(p);
  edit.redeclare(path, ai, new_alloc, m);
  require_layout_observations_kept(a, p, edit.candidate(), {{an->name}, {an->name}, {}});
  return edit.done();
}
}  // namespace rw

Proc expand_dim(const Proc& p, const CursorLike& alloc, const std::string& alloc_dim,
                const std::string& indexing_expr) {
  return rw::run_op("expand_dim", [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(p, alloc);
    Expr dim = rw::parse_index_expr(a, alloc_dim, "the new dimension's size");
    Expr idx = rw::parse_index_expr(a, indexing_expr, "the indexing expression");
    rw::require_size_expr(a, dim, "the new dimension's size");
    return rw::expand_dim_with(p, a, dim, idx, /*append=*/false);
  });
}

}  // namespace exocpp
