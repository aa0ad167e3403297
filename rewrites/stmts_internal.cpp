// Private helpers of the statement and expression operations: contexts and scopes along a
// path, read/write sets, structural equality and expression-edit forwarding.
#include "rewrites/stmts_internal.h"

#include "checker/queries.h"
#include "core/ir_visit.h"
#include "rewrites/common.h"

namespace exocpp::rw {

checker::Context context_at(const Proc& p, const BlockPath& path, int index) {
  return checker::Context::at(p, path, index);
}

Stmt stmt_of_expr(const Cursor& c) { return stmt_at(c.proc().body(), c.loc().block, c.loc().lo); }

std::vector<std::pair<Sym, Sym>> window_roots(const Proc& p) {
  struct V : IRVisitor {
    std::vector<std::pair<Sym, Sym>> out;
    void visit_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
      if (auto w = n->rhs.as<WindowExprNode>()) out.push_back({n->name, w->name});
      IRVisitor::visit_WindowStmt(n, s);
    }
  } v;
  v.visit(p.body());
  return v.out;
}

Sym root_of(const std::vector<std::pair<Sym, Sym>>& roots, const Sym& s) {
  Sym cur = s;
  for (size_t guard = 0; guard <= roots.size(); ++guard) {
    bool moved = false;
    for (const auto& [w, r] : roots)
      if (w == cur) {
        cur = r;
        moved = true;
        break;
      }
    if (!moved) break;
  }
  return cur;
}

namespace {

class AccessCollector : public IRVisitor {
 public:
  AccessCollector(const std::vector<std::pair<Sym, Sym>>& roots, Access& out)
      : roots_(roots), out_(out) {}

 protected:
  void visit_Read(const ReadNode* n, const Expr& e) override {
    if (exocpp::is_data(e.type().base)) out_.reads.insert(root_of(roots_, n->name));
    IRVisitor::visit_Read(n, e);
  }
  void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    out_.reads.insert(root_of(roots_, n->name));
    IRVisitor::visit_WindowExpr(n, e);
  }
  void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
    out_.config_reads.insert(n->config->name + "." + n->field);
    IRVisitor::visit_ReadConfig(n, e);
  }
  void visit_Assign(const AssignNode* n, const Stmt& s) override {
    out_.writes.insert(root_of(roots_, n->name));
    IRVisitor::visit_Assign(n, s);
  }
  void visit_Reduce(const ReduceNode* n, const Stmt& s) override {
    out_.writes.insert(root_of(roots_, n->name));
    out_.reads.insert(root_of(roots_, n->name));
    IRVisitor::visit_Reduce(n, s);
  }
  void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
    out_.config_writes.insert(n->config->name + "." + n->field);
    IRVisitor::visit_WriteConfig(n, s);
  }
  void visit_Call(const CallNode* n, const Stmt& s) override {
    out_.has_call = true;
    out_.config_writes.insert("*");
    out_.config_reads.insert("*");
    for (const Expr& a : n->args) {
      if (auto r = a.as<ReadNode>(); r && r->idx.empty() && exocpp::is_data(a.type().base))
        out_.writes.insert(root_of(roots_, r->name));
      if (auto w = a.as<WindowExprNode>()) out_.writes.insert(root_of(roots_, w->name));
    }
    IRVisitor::visit_Call(n, s);
  }

 private:
  const std::vector<std::pair<Sym, Sym>>& roots_;
  Access& out_;
};

}  // namespace

Access accesses(const Expr& e, const std::vector<std::pair<Sym, Sym>>& roots) {
  Access a;
  AccessCollector c(roots, a);
  c.visit(e);
  return a;
}

Access accesses(const Block& b, const std::vector<std::pair<Sym, Sym>>& roots) {
  Access a;
  AccessCollector c(roots, a);
  c.visit(b);
  return a;
}

void require_same_location(const std::string& op, const Cursor& where, const checker::Context& ctx,
                           const std::vector<Expr>& a, const std::vector<Expr>& b,
                           const std::string& what) {
  if (a.size() != b.size())
    fail(op, where, "requires that " + what + ", but the index counts differ");
  Expr all;
  for (size_t i = 0; i < a.size(); ++i) {
    if (expr_equal(a[i], b[i])) continue;
    Expr eq = BinOpNode::make(BinOpKind::Eq, a[i], b[i], a[i].srcinfo());
    all = all.defined() ? BinOpNode::make(BinOpKind::And, all, eq, a[i].srcinfo()) : eq;
  }
  if (!all.defined()) return;
  require_proved(op, where, checker::always_true(ctx, all), what);
}

ForwardFn fwd_expr_edit(const Loc& at) {
  return [at](const Loc& l) -> Loc {
    if (l.kind != CursorKind::Expr || l.block != at.block || l.lo != at.lo) return l;
    if (l.expr.size() <= at.expr.size()) return l;
    for (size_t i = 0; i < at.expr.size(); ++i)
      if (l.expr[i] != at.expr[i]) return l;
    return Loc::invalid();
  };
}

Proc replace_expr_in_proc(const Proc& p, const Cursor& at, const Expr& with, ForwardFn fwd) {
  const Loc& l = at.loc();
  Stmt s = stmt_at(p.body(), l.block, l.lo);
  Stmt ns = replace_expr(s, l.expr, with);
  return derive_proc(p, replace_stmts(p.body(), l.block, l.lo, l.lo + 1, {ns}), std::move(fwd));
}

}  // namespace exocpp::rw
