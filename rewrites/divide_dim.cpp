// divide_dim and mult_dim: split one buffer dimension in two, or merge two into one.
//
//   divide_dim(p, "x", 1, 4)
//   x : R[n, 12, m] ; x[i, j, k]     -->     x : R[n, 3, 4, m] ; x[i, j / 4, j % 4, k]
//
//   mult_dim(p, "x", 0, 2)
//   x : R[n, m, 4] ; x[i, j, k]      -->     x : R[4 * n, m] ; x[4 * i + k, j]
//
// Legality: divide_dim needs the dimension divisible by the quotient (checker::
// always_divisible); mult_dim needs the low dimension to be a constant. Both refuse buffers
// passed whole, strides, and windows spanning the dimensions involved.
#include "checker/context.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace {

// Refuses uses of `buf` that cannot be rewritten index by index: whole, stride, or a window
// with an interval in one of `dims`.
void check_element_uses(const std::string& op, const Cursor& a, const Block& rest, const Sym& buf,
                        const std::vector<int>& dims, const std::string& why) {
  rw::BufferUses uses = rw::buffer_uses(rest, buf);
  if (uses.whole)
    rw::fail(op, a, "'" + a.name() + "' is passed whole to a call, which would see " + why);
  if (uses.stride)
    rw::fail(op, a,
             "the code takes a stride of '" + a.name() + "', which " + why + " would change");
  struct V : IRVisitor {
    Sym buf;
    std::vector<int> dims;
    std::string bad;
    void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
      if (n->name == buf)
        for (int d : dims)
          if (n->idx[d].is_interval && bad.empty()) bad = to_string(e);
      IRVisitor::visit_WindowExpr(n, e);
    }
  } v;
  v.buf = buf;
  v.dims = dims;
  v.visit(rest);
  if (!v.bad.empty())
    rw::fail(op, a, "the window '" + v.bad + "' spans a dimension that " + why + " changes");
}

Expr int_e(int64_t v) { return ConstNode::make_int(v); }

Expr mul(const Expr& a, const Expr& b) {
  const ConstNode *ca = a.as<ConstNode>(), *cb = b.as<ConstNode>();
  if (ca && cb && ca->is_int() && cb->is_int()) return int_e(ca->int_val() * cb->int_val());
  return BinOpNode::make(BinOpKind::Mul, a, b, b.srcinfo());
}

}  // namespace

Proc divide_dim(const Proc& p, const CursorLike& alloc, int dim_idx, int quotient) {
  const std::string op = "divide_dim";
  return rw::run_op(op, [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(op, p, alloc);
    const AllocNode* an = a.stmt().as<AllocNode>();
    if (dim_idx < 0 || dim_idx >= an->type.rank())
      rw::fail_argument(op, a,
                        "dimension " + std::to_string(dim_idx) + " does not exist: '" + a.name() +
                            "' has " + std::to_string(an->type.rank()) + " dimensions");
    if (quotient <= 0)
      rw::fail_argument(op, a, "the quotient must be positive, got " + std::to_string(quotient));
    const Block& list = a.list();
    const int ai = a.loc().lo;
    Block rest(list.begin() + ai + 1, list.end());
    check_element_uses(op, a, rest, an->name, {dim_idx}, "dividing a dimension");
    const Expr& n = an->type.shape[dim_idx];
    rw::require_proved(
        op, a, checker::always_divisible(checker::Context::at(p, a.stmt()), n, quotient), [&] {
          return "the dimension '" + to_string(n) + "' is divisible by " + std::to_string(quotient);
        });

    const ConstNode* nc = n.as<ConstNode>();
    Expr hi = nc && nc->is_int() ? int_e(nc->int_val() / quotient)
                                 : BinOpNode::make(BinOpKind::Div, n, int_e(quotient), n.srcinfo());
    std::vector<Expr> shape = an->type.shape;
    shape[dim_idx] = hi;
    shape.insert(shape.begin() + dim_idx + 1, int_e(quotient));
    Stmt new_alloc = AllocNode::make(an->name, Type(an->type.base, shape), an->mem, an->srcinfo);
    auto split = [quotient](const Expr& j) {
      return std::pair{BinOpNode::make(BinOpKind::Div, j, int_e(quotient), j.srcinfo()),
                       BinOpNode::make(BinOpKind::Mod, j, int_e(quotient), j.srcinfo())};
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
    return rw::Edit(p).redeclare(a.loc().block, ai, new_alloc, m).done();
  });
}

Proc mult_dim(const Proc& p, const CursorLike& alloc, int hi_dim_idx, int lo_dim_idx) {
  const std::string op = "mult_dim";
  return rw::run_op(op, [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(op, p, alloc);
    const AllocNode* an = a.stmt().as<AllocNode>();
    const int rank = an->type.rank();
    for (int d : {hi_dim_idx, lo_dim_idx})
      if (d < 0 || d >= rank)
        rw::fail(op, a,
                 "dimension " + std::to_string(d) + " does not exist: '" + a.name() + "' has " +
                     std::to_string(rank) + " dimensions");
    if (hi_dim_idx == lo_dim_idx) rw::fail_argument(op, a, "the two dimensions must differ");
    const ConstNode* c = an->type.shape[lo_dim_idx].as<ConstNode>();
    if (!c || !c->is_int())
      rw::fail(op, a,
               "dimension " + std::to_string(lo_dim_idx) + " of '" + a.name() +
                   "' must be a constant, not '" + to_string(an->type.shape[lo_dim_idx]) + "'");
    const Block& list = a.list();
    const int ai = a.loc().lo;
    Block rest(list.begin() + ai + 1, list.end());
    check_element_uses(op, a, rest, an->name, {hi_dim_idx, lo_dim_idx}, "merging dimensions");

    Expr cst = int_e(c->int_val());
    std::vector<Expr> shape = an->type.shape;
    shape[hi_dim_idx] = mul(cst, shape[hi_dim_idx]);
    shape.erase(shape.begin() + lo_dim_idx);
    Stmt new_alloc = AllocNode::make(an->name, Type(an->type.base, shape), an->mem, an->srcinfo);
    auto merge = [&](const Expr& i, const Expr& k) { return rw::simplified_add(mul(cst, i), k); };
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
    return rw::Edit(p).redeclare(a.loc().block, ai, new_alloc, m).done();
  });
}

}  // namespace exocpp
