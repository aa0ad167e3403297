// inline_window: replace a window statement by its definition at every use.
//
//   y = x[i, lo:hi]                    s[ y[j]       -> x[i, lo + j],
//   s                      -->            y[a:b]     -> x[i, lo + a : lo + b],
//                                         y          -> x[i, lo:hi],
//                                         stride(y, 0) -> stride(x, 1) ]
//
// A window is only another name for part of its buffer, but its bounds are evaluated once, at
// the window statement, and the rewritten code evaluates them at every use: the checker proves
// that the statements after the window statement write nothing the window's expression reads
// (a config field, checker::value_unchanged_by).
#include "checker/context.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/window_alias.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace {

// Substitutes the window's accesses of its buffer for every access of the window name.
class WindowInliner : public IRMutator {
 public:
  WindowInliner(Sym w, const WindowExprNode& def, Expr def_e)
      : w_(std::move(w)), def_(def), def_e_(std::move(def_e)) {}

 protected:
  // The buffer indices for window indices `idx` (one per interval dimension of the window).
  std::vector<Expr> full_idx(const std::vector<Expr>& idx) const {
    return indices_through(def_.idx, idx, rw::simplified_add);
  }
  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    Expr r = IRMutator::mutate_Read(n, e);
    const ReadNode* rn = r.as<ReadNode>();
    if (rn->name != w_) return r;
    if (rn->idx.empty() && rn->type.is_tensor_or_window()) return def_e_;
    return ReadNode::make(def_.name, full_idx(rn->idx), rn->type, rn->srcinfo);
  }
  Expr mutate_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    Expr r = IRMutator::mutate_WindowExpr(n, e);
    const WindowExprNode* wn = r.as<WindowExprNode>();
    if (wn->name != w_) return r;
    return WindowExprNode::make(def_.name, wn->type.base,
                                compose_accesses(def_.idx, wn->idx, rw::simplified_add),
                                wn->srcinfo);
  }
  Expr mutate_StrideExpr(const StrideExprNode* n, const Expr& e) override {
    if (n->name != w_) return e;
    std::optional<int> d = dim_through(def_.idx, n->dim);
    return d ? StrideExprNode::make(def_.name, *d, n->srcinfo) : e;
  }
  Stmt mutate_Assign(const AssignNode* n, const Stmt& s) override {
    Stmt r = IRMutator::mutate_Assign(n, s);
    const AssignNode* a = r.as<AssignNode>();
    if (a->name != w_) return r;
    return AssignNode::make(def_.name, a->type, full_idx(a->idx), a->rhs, a->srcinfo);
  }
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt& s) override {
    Stmt r = IRMutator::mutate_Reduce(n, s);
    const ReduceNode* a = r.as<ReduceNode>();
    if (a->name != w_) return r;
    return ReduceNode::make(def_.name, a->type, full_idx(a->idx), a->rhs, a->srcinfo);
  }

 private:
  Sym w_;
  const WindowExprNode& def_;
  Expr def_e_;
};

}  // namespace

Proc inline_window(const Proc& p, const CursorLike& window_stmt) {
  return rw::run_op("inline_window", [&]() -> Proc {
    Cursor c = rw::resolve_stmt(p, window_stmt);
    const WindowStmtNode* ws =
        rw::stmt_as<WindowStmtNode>(c, "a window statement such as 'y = x[i, 0:16]'");
    const BlockPath path = c.loc().block;
    const int wi = c.loc().lo;
    const Block& list = c.list();
    Block rest(list.begin() + wi + 1, list.end());
    rw::require_unchanged(c, checker::Context::at(p, path, wi), ws->rhs, rest, [&] {
      return "the window `" + to_string(ws->rhs) + "`, evaluated at every use of " +
             ws->name.name() + " instead of once,";
    });
    WindowInliner inl(ws->name, *ws->rhs.as<WindowExprNode>(), ws->rhs);
    Block new_rest = inl.mutate(rest);
    // The window statement disappears; the statements after it move up, rewritten in place.
    return rw::Edit(p)
        .remove(path, wi, wi + 1)
        .rewrite(path, wi, wi + static_cast<int>(new_rest.size()), new_rest)
        .done();
  });
}

}  // namespace exocpp
