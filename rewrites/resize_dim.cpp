// resize_dim: change the size of one dimension of a buffer, shifting its accesses.
//
//   x : T[.., n, ..] ; s     -->     x : T[.., size, ..] ; s[ x[.., e, ..] -> x[.., e - offset, ..]
//   ]
//
// size and offset are parsed in the scope of the allocation. Legality (checker): size > 0 and
// every access's index in that dimension lies in [offset, offset + size). The offset is
// evaluated at every access: the code after the allocation writes nothing it reads
// (checker::value_unchanged_by).
//
// fold = true makes the dimension a circular buffer (storage folding):
//
//   x : T[.., n, ..] ; s     -->     x : T[.., size, ..] ; s[ x[.., e, ..] -> x[.., e % size, ..] ]
//
// size is a positive integer constant and the offset 0. Legality (checker::can_fold_dim): no
// access touches an index `size` or more below one an earlier access touched, so no live
// value shares a slot with a later write. The buffer may not be windowed, passed to a call or
// asked for a stride (those would see the folded layout).
#include <functional>

#include "checker/context.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/inline_expr.h"
#include "rewrites/internal/layout.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace {

// The indices (in dimension `dim`) with which statement `s` itself accesses `buf`; window
// intervals contribute lo and hi - 1.
std::vector<Expr> dim_indices(const Stmt& s, const Sym& buf, int dim) {
  struct V : rw::OwnExprVisitor {  // the statement itself: nested ones are checked on their own
    Sym buf;
    int dim;
    std::vector<Expr> out;
    void visit_Read(const ReadNode* n, const Expr& e) override {
      if (n->name == buf && static_cast<int>(n->idx.size()) > dim) out.push_back(n->idx[dim]);
      IRVisitor::visit_Read(n, e);
    }
    void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
      if (n->name == buf) {
        const WAccess& a = n->idx.at(dim);
        out.push_back(a.lo);
        if (a.is_interval) out.push_back(rw::simplified_sub(a.hi, rw::int_const(1)));
      }
      IRVisitor::visit_WindowExpr(n, e);
    }
    void visit_Assign(const AssignNode* n, const Stmt& st) override {
      if (n->name == buf) out.push_back(n->idx.at(dim));
      IRVisitor::visit_Assign(n, st);
    }
    void visit_Reduce(const ReduceNode* n, const Stmt& st) override {
      if (n->name == buf) out.push_back(n->idx.at(dim));
      IRVisitor::visit_Reduce(n, st);
    }
  } v;
  v.buf = buf;
  v.dim = dim;
  v.visit(s);
  return v.out;
}
// `p` with allocation `a`'s dimension `dim_idx` of size `sz`, every index in that dimension
// mapped by `idx` (and, for windows, `window`).
Proc redeclared(const Proc& p, const Cursor& a, int dim_idx, const Expr& sz,
                const std::function<Expr(const Expr&)>& idx,
                std::function<std::vector<WAccess>(std::vector<WAccess>)> window) {
  const AllocNode* an = a.stmt().as<AllocNode>();
  std::vector<Expr> shape = an->type.shape;
  shape[dim_idx] = sz;
  Stmt new_alloc = AllocNode::make(an->name, Type(an->type.base, shape), an->mem, an->srcinfo);
  rw::AccessMap m;
  m.buf = an->name;
  m.idx = [&idx, dim_idx](std::vector<Expr> i) {
    i[dim_idx] = idx(i[dim_idx]);
    return i;
  };
  m.window = std::move(window);
  rw::Edit edit(p);
  edit.redeclare(a.loc().block, a.loc().lo, new_alloc, m);
  rw::require_layout_observations_kept(a, p, edit.candidate(), {{an->name}, {an->name}, {}});
  return edit.done();
}

// resize_dim with fold = true (see the top of the file).
Proc fold_dim(const Proc& p, const Cursor& a, int dim_idx, const Expr& sz, const Expr& off) {
  const AllocNode* an = a.stmt().as<AllocNode>();
  const std::optional<int64_t> size = rw::const_int(sz);
  if (!size || *size <= 0)
    rw::fail(reason::kArgInvalid, a,
             "a folded dimension's size must be a positive integer constant, got '" +
                 to_string(sz) + "'");
  const std::optional<int64_t> offset = rw::const_int(off);
  if (!offset || *offset != 0)
    rw::fail(reason::kArgInvalid, a,
             "a folded dimension keeps index e at e % size: the offset must be 0, got '" +
                 to_string(off) + "'");
  const Block& list = a.list();
  Block rest(list.begin() + a.loc().lo + 1, list.end());
  rw::BufferUses uses = rw::buffer_uses(rest, an->name);
  const std::string why = "folding would change the layout it sees";
  if (uses.whole)
    rw::fail(reason::kBufferLayoutUse, a, "'" + a.name() + "' is passed whole to a call: " + why);
  if (uses.window)
    rw::fail(reason::kBufferLayoutUse, a, "a window of '" + a.name() + "' is taken: " + why);
  if (uses.stride)
    rw::fail(reason::kBufferLayoutUse, a, "the code takes a stride of '" + a.name() + "': " + why);
  checker::Context actx = checker::Context::at(p, a.stmt());
  rw::require_proved(a, checker::can_fold_dim(actx, rest, an->name, dim_idx, *size), [&] {
    return "dimension " + std::to_string(dim_idx) + " of '" + a.name() + "' can fold to " +
           std::to_string(*size) + " entries";
  });
  return redeclared(
      p, a, dim_idx, sz, [&sz](const Expr& i) { return rw::mk_mod(i, sz); },
      [](std::vector<WAccess> w) { return w; });  // windows are refused above
}

}  // namespace

Proc resize_dim(const Proc& p, const CursorLike& alloc, int dim_idx, const std::string& size,
                const std::string& offset, const ResizeDimOptions& opts) {
  return rw::run_op("resize_dim", [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(p, alloc);
    const AllocNode* an = a.stmt().as<AllocNode>();
    if (dim_idx < 0 || dim_idx >= an->type.rank())
      rw::fail(reason::kArgRange, a,
               "dimension " + std::to_string(dim_idx) + " does not exist: '" + a.name() + "' has " +
                   std::to_string(an->type.rank()) + " dimensions");
    Expr sz = rw::parse_index_expr(a, size, "the size");
    Expr off = rw::parse_index_expr(a, offset, "the offset");
    rw::require_size_expr(a, sz, "the new size");
    if (opts.fold) return fold_dim(p, a, dim_idx, sz, off);
    const int ai = a.loc().lo;
    const Block& list = a.list();
    Block rest(list.begin() + ai + 1, list.end());
    rw::BufferUses uses = rw::buffer_uses(rest, an->name);
    if (uses.whole)
      rw::fail(reason::kBufferLayoutUse, a,
               "'" + a.name() + "' is passed whole to a call, which would see the new size");
    if (uses.stride)
      rw::fail(reason::kBufferLayoutUse, a,
               "the code takes a stride of '" + a.name() + "', which resizing would change");
    checker::Context actx = checker::Context::at(p, a.stmt());
    rw::require_proved(a,
                       checker::always_true(actx, rw::mk_cmp(BinOpKind::Gt, sz, rw::int_const(0))),
                       [&] { return "the new size '" + to_string(sz) + "' is positive"; });
    rw::require_unchanged(a, actx, off, rest, [&] {
      return "the offset '" + to_string(off) + "', evaluated at every access of '" + a.name() +
             "',";
    });
    Expr end = rw::simplified_add(off, sz);
    for (const Stmt& s : uses.stmts) {
      checker::Context ctx = checker::Context::at(p, s);
      for (const Expr& e : dim_indices(s, an->name, dim_idx))
        rw::require_proved(a, checker::always_in_range(ctx, e, off, end), [&] {
          return "every access of '" + a.name() + "' in dimension " + std::to_string(dim_idx) +
                 " lies in [" + to_string(off) + ", " + to_string(end) + ")";
        });
    }

    return redeclared(
        p, a, dim_idx, sz, [&off](const Expr& i) { return rw::simplified_sub(i, off); },
        [&off, dim_idx](std::vector<WAccess> w) {
          WAccess& x = w[dim_idx];
          x = x.is_interval
                  ? WAccess::interval(rw::simplified_sub(x.lo, off), rw::simplified_sub(x.hi, off))
                  : WAccess::point(rw::simplified_sub(x.lo, off));
          return w;
        });
  });
}

}  // namespace exocpp
