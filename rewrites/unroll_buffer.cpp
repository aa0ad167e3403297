// unroll_buffer: split a constant dimension of a buffer into separate buffers.
//
//   unroll_buffer(p, "x", 0)
//   x : T[2, n] ; x[0, j] ; x[1, j]     -->     x_0 : T[n] ; x_1 : T[n] ; x_0[j] ; x_1[j]
//
// Only the entries used get a buffer. Refused unless the dimension is a constant and every
// access indexes it with a constant in range (unroll the loops first), and for buffers passed
// whole, strides, or windows spanning the dimension.
#include <map>

#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/layout.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace {

// Replaces every access of `buf` by an access of the buffer of its constant index.
class Unroller : public IRMutator {
 public:
  Unroller(Sym buf, int dim, const std::map<int64_t, Sym>& syms)
      : buf_(std::move(buf)), dim_(dim), syms_(syms) {}

 protected:
  const Sym& sym(const Expr& i) const { return syms_.at(i.as<ConstNode>()->int_val()); }
  std::vector<Expr> drop(std::vector<Expr> i) const {
    i.erase(i.begin() + dim_);
    return i;
  }
  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    Expr r = IRMutator::mutate_Read(n, e);
    const ReadNode* rn = r.as<ReadNode>();
    if (rn->name != buf_) return r;
    return ReadNode::make(sym(rn->idx[dim_]), drop(rn->idx), rn->type, rn->srcinfo);
  }
  Expr mutate_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    Expr r = IRMutator::mutate_WindowExpr(n, e);
    const WindowExprNode* wn = r.as<WindowExprNode>();
    if (wn->name != buf_) return r;
    std::vector<WAccess> w = wn->idx;
    Sym s = sym(w[dim_].lo);
    w.erase(w.begin() + dim_);
    return WindowExprNode::make(s, wn->type.base, std::move(w), wn->srcinfo);
  }
  Stmt mutate_Assign(const AssignNode* n, const Stmt& st) override {
    Stmt r = IRMutator::mutate_Assign(n, st);
    const AssignNode* a = r.as<AssignNode>();
    if (a->name != buf_) return r;
    return AssignNode::make(sym(a->idx[dim_]), a->type, drop(a->idx), a->rhs, a->srcinfo);
  }
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt& st) override {
    Stmt r = IRMutator::mutate_Reduce(n, st);
    const ReduceNode* a = r.as<ReduceNode>();
    if (a->name != buf_) return r;
    return ReduceNode::make(sym(a->idx[dim_]), a->type, drop(a->idx), a->rhs, a->srcinfo);
  }

 private:
  Sym buf_;
  int dim_;
  const std::map<int64_t, Sym>& syms_;
};

// The constant indices used in dimension `dim`; the text of the first non-constant one in `bad`.
struct IndexCollector : IRVisitor {
  Sym buf;
  int dim = 0;
  std::vector<Expr> idx;
  std::string bad_window;
  void visit_Read(const ReadNode* n, const Expr& e) override {
    if (n->name == buf && !n->idx.empty()) idx.push_back(n->idx[dim]);
    IRVisitor::visit_Read(n, e);
  }
  void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    if (n->name == buf) {
      if (n->idx[dim].is_interval) {
        if (bad_window.empty()) bad_window = to_string(e);
      } else {
        idx.push_back(n->idx[dim].lo);
      }
    }
    IRVisitor::visit_WindowExpr(n, e);
  }
  void visit_Assign(const AssignNode* n, const Stmt& s) override {
    if (n->name == buf) idx.push_back(n->idx[dim]);
    IRVisitor::visit_Assign(n, s);
  }
  void visit_Reduce(const ReduceNode* n, const Stmt& s) override {
    if (n->name == buf) idx.push_back(n->idx[dim]);
    IRVisitor::visit_Reduce(n, s);
  }
};

}  // namespace

Proc unroll_buffer(const Proc& p, const CursorLike& alloc, int dimension) {
  return rw::run_op("unroll_buffer", [&]() -> Proc {
    Cursor a = rw::resolve_alloc_stmt(p, alloc);
    const AllocNode* an = a.stmt().as<AllocNode>();
    if (an->type.rank() == 0)
      rw::fail(reason::kTargetWrongKind, a, "cannot unroll the scalar '" + a.name() + "'");
    if (dimension < 0 || dimension >= an->type.rank())
      rw::fail(reason::kArgRange, a,
               "dimension " + std::to_string(dimension) + " does not exist: '" + a.name() +
                   "' has " + std::to_string(an->type.rank()) + " dimensions");
    const ConstNode* n = an->type.shape[dimension].as<ConstNode>();
    if (!n || !n->is_int())
      rw::fail(reason::kBufferNotConstant, a,
               "dimension " + std::to_string(dimension) + " of '" + a.name() +
                   "' must be a constant, not '" + to_string(an->type.shape[dimension]) + "'");
    const Block& list = a.list();
    const int ai = a.loc().lo;
    Block rest(list.begin() + ai + 1, list.end());
    rw::BufferUses uses = rw::buffer_uses(rest, an->name);
    if (uses.whole)
      rw::fail(reason::kBufferLayoutUse, a, "'" + a.name() + "' is passed whole to a call");
    if (uses.stride)
      rw::fail(reason::kBufferLayoutUse, a, "the code takes a stride of '" + a.name() + "'");
    IndexCollector ic;
    ic.buf = an->name;
    ic.dim = dimension;
    ic.visit(rest);
    if (!ic.bad_window.empty())
      rw::fail(reason::kBufferLayoutUse, a,
               "the window '" + ic.bad_window + "' spans the dimension to unroll");
    std::map<int64_t, Sym> syms;
    for (const Expr& i : ic.idx) {
      const ConstNode* c = i.as<ConstNode>();
      if (!c || !c->is_int())
        rw::fail(reason::kBufferNotConstant, a,
                 "'" + a.name() + "' is indexed with '" + to_string(i) + "' in dimension " +
                     std::to_string(dimension) + "; expected a constant (unroll the loop first)");
      if (c->int_val() < 0 || c->int_val() >= n->int_val())
        rw::fail(reason::kBufferOutOfBounds, a,
                 "the index " + std::to_string(c->int_val()) + " is outside dimension " +
                     std::to_string(dimension) + " of '" + a.name() + "'");
      syms[c->int_val()];
    }
    for (auto& [k, s] : syms) s = rw::fresh_name(p, a.name() + "_" + std::to_string(k), a);

    std::vector<Expr> shape = an->type.shape;
    shape.erase(shape.begin() + dimension);
    Type t = shape.empty() ? Type(an->type.base) : Type(an->type.base, shape);
    Block allocs;
    for (const auto& [k, s] : syms) allocs.push_back(AllocNode::make(s, t, an->mem, an->srcinfo));
    Unroller u(an->name, dimension, syms);
    Block mapped = u.mutate(rest);
    // The allocation becomes one per index; the statements after it are rewritten in place.
    const int n_allocs = static_cast<int>(allocs.size());
    rw::Edit edit(p);
    edit.replace(a.loc().block, ai, ai + 1, allocs)
        .rewrite(a.loc().block, ai + n_allocs, ai + n_allocs + static_cast<int>(mapped.size()),
                 mapped);
    std::vector<Sym> parts;
    for (const auto& [k, s] : syms) parts.push_back(s);
    rw::require_layout_observations_kept(a, p, edit.candidate(), {{an->name}, parts, {}});
    return edit.done();
  });
}

}  // namespace exocpp
