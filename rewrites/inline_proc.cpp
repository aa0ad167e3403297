// ============================================================================================
// inline_proc: replace a call by the body of the proc it calls.
// ============================================================================================
//
//   def f(n: size, a: [f32][n]):          for k in seq(0, 8):
//       for i in seq(0, n):         -->       for i in seq(0, 4):
//           a[i] = 0.0                            A[k, 2 + i] = 0.0
//   ...
//   for k in seq(0, 8):
//       f(4, A[k, 2:6])
//
// The call's meaning is its callee's body run on the arguments. The callee's asserts held at
// the call (the call was checked when it was made) and are dropped. The call evaluates its
// argument expressions once; the inlined body evaluates them at every use: the checker proves
// that the callee's body (run at the call) writes nothing a control argument, or a bound or
// index of a buffer argument, reads (checker::value_unchanged_by).
//
// Also CallSubst (rewrites/internal/call_subst.h), the argument substitution call_eqv shares.
#include <set>

#include "core/printer.h"
#include "core/simplify.h"
#include "core/window_alias.h"
#include "rewrites/internal/call_subst.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"
#include "rewrites/subprocs.h"

namespace exocpp {

namespace rw {

CallSubst::CallSubst(const ProcNode& callee, const std::vector<Expr>& actuals,
                     std::unordered_map<Sym, Sym, SymHash> renames)
    : renames_(std::move(renames)) {
  EXOCPP_ASSERT(callee.args.size() == actuals.size(), "CallSubst: argument count");
  for (size_t i = 0; i < actuals.size(); ++i) actual_[callee.args[i].name] = actuals[i];
}

const WindowExprNode* CallSubst::window_of(const Sym& name) const {
  auto it = actual_.find(name);
  return it == actual_.end() ? nullptr : it->second.as<WindowExprNode>();
}

Sym CallSubst::target(const Sym& name) const {
  auto it = actual_.find(name);
  if (it != actual_.end()) {
    if (const WindowExprNode* w = it->second.as<WindowExprNode>()) return w->name;
    if (const ReadNode* r = it->second.as<ReadNode>()) return r->name;
  }
  auto rn = renames_.find(name);
  return rn == renames_.end() ? name : rn->second;
}

std::vector<Expr> CallSubst::indices(const Sym& name, const std::vector<Expr>& idx) const {
  auto it = actual_.find(name);
  if (it == actual_.end()) return idx;
  std::vector<Expr> out;
  if (const WindowExprNode* w = it->second.as<WindowExprNode>())
    return indices_through(w->idx, idx, simplified_add);
  if (const ReadNode* r = it->second.as<ReadNode>())
    out = r->idx;  // an element as a scalar argument
  out.insert(out.end(), idx.begin(), idx.end());
  return out;
}

std::vector<Expr> CallSubst::mutate_idx(const std::vector<Expr>& idx) {
  std::vector<Expr> out;
  for (const Expr& e : idx) {
    Expr m = mutate(e);
    out.push_back(m.same_as(e) ? e : simplify_expr(m));
  }
  return out;
}

Expr CallSubst::mutate_Read(const ReadNode* n, const Expr& e) {
  std::vector<Expr> idx = mutate_idx(n->idx);
  auto it = actual_.find(n->name);
  if (it != actual_.end()) {
    // A control argument, or a whole buffer passed on to another call: the call's expression.
    if (n->idx.empty() && (n->type.is_control() || n->type.is_tensor_or_window()))
      return it->second;
    return ReadNode::make(target(n->name), indices(n->name, idx), n->type, n->srcinfo);
  }
  Type t = mutate_type(n->type);
  Sym name = target(n->name);
  if (name == n->name && same_nodes(idx, n->idx) && same_nodes(t.shape, n->type.shape)) return e;
  return ReadNode::make(name, std::move(idx), std::move(t), n->srcinfo);
}

Expr CallSubst::mutate_WindowExpr(const WindowExprNode* n, const Expr& e) {
  std::vector<WAccess> acc;
  bool changed = false;
  for (const WAccess& a : n->idx) {
    std::vector<Expr> b =
        mutate_idx(a.is_interval ? std::vector<Expr>{a.lo, a.hi} : std::vector<Expr>{a.lo});
    changed = changed || !b[0].same_as(a.lo) || (a.is_interval && !b[1].same_as(a.hi));
    acc.push_back(a.is_interval ? WAccess::interval(b[0], b[1]) : WAccess::point(b[0]));
  }
  Sym name = target(n->name);
  if (const WindowExprNode* w = window_of(n->name)) {
    acc = compose_accesses(w->idx, acc, simplified_add);
  } else if (auto it = actual_.find(n->name); it != actual_.end()) {
    std::vector<WAccess> out;
    if (const ReadNode* r = it->second.as<ReadNode>())
      for (const Expr& i : r->idx) out.push_back(WAccess::point(i));
    out.insert(out.end(), acc.begin(), acc.end());
    acc = std::move(out);
  } else if (!changed && name == n->name) {
    return e;
  }
  return WindowExprNode::make(name, n->type.base, std::move(acc), n->srcinfo);
}

Expr CallSubst::mutate_StrideExpr(const StrideExprNode* n, const Expr& e) {
  Sym name = target(n->name);
  if (const WindowExprNode* w = window_of(n->name)) {
    std::optional<int> d = dim_through(w->idx, n->dim);
    return d ? StrideExprNode::make(name, *d, n->srcinfo) : e;  // e: not for a type-checked call
  }
  if (auto it = actual_.find(n->name); it != actual_.end()) {
    const ReadNode* r = it->second.as<ReadNode>();
    int skip = r ? static_cast<int>(r->idx.size()) : 0;
    return StrideExprNode::make(name, n->dim + skip, n->srcinfo);
  }
  return name == n->name ? e : StrideExprNode::make(name, n->dim, n->srcinfo);
}

Stmt CallSubst::mutate_Assign(const AssignNode* n, const Stmt& s) {
  std::vector<Expr> idx = mutate_idx(n->idx);
  Expr rhs = mutate(n->rhs);
  Sym name = target(n->name);
  if (name == n->name && same_nodes(idx, n->idx) && rhs.same_as(n->rhs)) return s;
  return AssignNode::make(name, n->type, indices(n->name, idx), rhs, n->srcinfo);
}

Stmt CallSubst::mutate_Reduce(const ReduceNode* n, const Stmt& s) {
  std::vector<Expr> idx = mutate_idx(n->idx);
  Expr rhs = mutate(n->rhs);
  Sym name = target(n->name);
  if (name == n->name && same_nodes(idx, n->idx) && rhs.same_as(n->rhs)) return s;
  return ReduceNode::make(name, n->type, indices(n->name, idx), rhs, n->srcinfo);
}

Stmt CallSubst::mutate_For(const ForNode* n, const Stmt& s) {
  std::vector<Expr> bounds = mutate_idx({n->lo, n->hi});
  Block body = mutate(n->body);
  Sym iter = target(n->iter);
  if (iter == n->iter && bounds[0].same_as(n->lo) && bounds[1].same_as(n->hi) &&
      same_nodes(body, n->body))
    return s;
  return ForNode::make(iter, bounds[0], bounds[1], std::move(body), n->mode, n->srcinfo);
}

Stmt CallSubst::mutate_Alloc(const AllocNode* n, const Stmt& s) {
  Type t = mutate_type(n->type);
  Sym name = target(n->name);
  if (name == n->name && same_nodes(t.shape, n->type.shape)) return s;
  return AllocNode::make(name, std::move(t), n->mem, n->srcinfo);
}

Stmt CallSubst::mutate_WindowStmt(const WindowStmtNode* n, const Stmt& s) {
  Expr rhs = mutate(n->rhs);
  Sym name = target(n->name);
  if (name == n->name && rhs.same_as(n->rhs)) return s;
  return WindowStmtNode::make(name, rhs, n->srcinfo);
}

}  // namespace rw

namespace {

// Collects the symbols a block binds (loops, allocations, windows), in order, and every name
// it binds.
struct Binders : IRVisitor {
  std::vector<Sym> syms;
  std::set<std::string> names;
  void add(const Sym& s) {
    syms.push_back(s);
    names.insert(s.name());
  }
  void visit_For(const ForNode* n, const Stmt& s) override {
    add(n->iter);
    IRVisitor::visit_For(n, s);
  }
  void visit_Alloc(const AllocNode* n, const Stmt& s) override {
    add(n->name);
    IRVisitor::visit_Alloc(n, s);
  }
  void visit_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
    add(n->name);
    IRVisitor::visit_WindowStmt(n, s);
  }
};

// A fresh symbol for every name the callee binds. A name visible at the call, or bound later in
// the call's statement list, would shadow or be shadowed: it gets the first free suffix
// (`i` -> `i_1`), free meaning bound nowhere in the caller nor the callee.
std::unordered_map<Sym, Sym, SymHash> fresh_binders(const Cursor& call, const Block& callee_body) {
  std::set<std::string> clash;
  for (const ScopeVar& v : rw::scope_at(call)) clash.insert(v.sym.name());
  Binders later;
  const Block& list = call.list();
  for (size_t i = static_cast<size_t>(call.loc().lo) + 1; i < list.size(); ++i)
    later.visit(list[i]);
  clash.insert(later.names.begin(), later.names.end());

  Binders inner;
  inner.visit(callee_body);
  std::set<std::string> taken = inner.names;
  for (const std::string& n : rw::bound_names(call.proc())) taken.insert(n);
  taken.insert(clash.begin(), clash.end());

  std::map<std::string, std::string> new_name;
  std::unordered_map<Sym, Sym, SymHash> out;
  for (const Sym& s : inner.syms) {
    auto it = new_name.find(s.name());
    if (it == new_name.end()) {
      std::string n = s.name();
      if (clash.count(n)) {
        int k = 1;
        while (taken.count(s.name() + "_" + std::to_string(k))) ++k;
        n = s.name() + "_" + std::to_string(k);
        taken.insert(n);
      }
      it = new_name.emplace(s.name(), n).first;
    }
    out.emplace(s, Sym(it->second));
  }
  return out;
}

}  // namespace

Proc inline_proc(const Proc& p, const CursorLike& call) {
  return rw::run_op("inline_proc", [&]() -> Proc {
    Cursor c = rw::resolve_stmt(p, call);
    const CallNode* cn = rw::stmt_as<CallNode>(c, "a call such as 'f(n, A[0:4])'");
    const ProcNode& callee = *cn->proc;
    if (callee.args.size() != cn->args.size())
      rw::fail(reason::kCallSignature, c,
               "the call passes " + std::to_string(cn->args.size()) + " arguments but '" +
                   callee.name + "' takes " + std::to_string(callee.args.size()));

    const checker::Context ctx = checker::Context::at(p, c.loc().block, c.loc().lo);
    for (size_t i = 0; i < cn->args.size(); ++i) {
      const Expr& a = cn->args[i];
      std::string what =
          "the argument `" + to_string(a) + "` for '" + callee.args[i].name.name() + "'";
      if (callee.args[i].type.is_control() || a.is<WindowExprNode>()) {
        rw::require_unchanged(c, ctx, a, {c.stmt()}, [&] {
          return what + ", evaluated at every use in the inlined body,";
        });
      } else if (const ReadNode* r = a.as<ReadNode>()) {
        for (const Expr& x : r->idx)
          rw::require_unchanged(c, ctx, x, {c.stmt()}, [&] {
            return "the index `" + to_string(x) + "` of " + what + ", evaluated at every use,";
          });
      }
    }
    rw::CallSubst subst(callee, cn->args, fresh_binders(c, callee.body));
    Block body = subst.mutate(callee.body);

    // A cursor to the call itself becomes the inlined block; cursors into its arguments die.
    return rw::Edit(p).expand(c.loc().block, c.loc().lo, body).done();
  });
}

}  // namespace exocpp
