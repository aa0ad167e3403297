// IRVisitor and IRMutator: the default recursion over every node kind.
#include "core/ir_visit.h"

namespace exocpp {

// ---- visitor ---------------------------------------------------------------------------------

void IRVisitor::visit(const Expr& e) {
  if (!e.defined()) return;
  switch (e.kind()) {
#define X(N)                       \
  case ExprKind::N:                \
    visit_##N(e.as<N##Node>(), e); \
    return;
    EXOCPP_FOR_EACH_EXPR(X)
#undef X
  }
}

void IRVisitor::visit(const Stmt& s) {
  if (!s.defined()) return;
  switch (s.kind()) {
#define X(N)                       \
  case StmtKind::N:                \
    visit_##N(s.as<N##Node>(), s); \
    return;
    EXOCPP_FOR_EACH_STMT(X)
#undef X
  }
}

void IRVisitor::visit_proc(const ProcNode& p) {
  for (const FnArg& a : p.args) visit_type(a.type);
  for (const Expr& e : p.preds) visit(e);
  visit(p.body);
}

void IRVisitor::visit_Read(const ReadNode* n, const Expr&) {
  for (const Expr& i : n->idx) visit(i);
}
void IRVisitor::visit_Const(const ConstNode*, const Expr&) {}
void IRVisitor::visit_USub(const USubNode* n, const Expr&) { visit(n->arg); }
void IRVisitor::visit_BinOp(const BinOpNode* n, const Expr&) {
  visit(n->lhs);
  visit(n->rhs);
}
void IRVisitor::visit_Extern(const ExternNode* n, const Expr&) {
  for (const Expr& a : n->args) visit(a);
}
void IRVisitor::visit_WindowExpr(const WindowExprNode* n, const Expr&) {
  for (const WAccess& w : n->idx) {
    visit(w.lo);
    if (w.is_interval) visit(w.hi);
  }
}
void IRVisitor::visit_StrideExpr(const StrideExprNode*, const Expr&) {}
void IRVisitor::visit_ReadConfig(const ReadConfigNode*, const Expr&) {}

void IRVisitor::visit_Assign(const AssignNode* n, const Stmt&) {
  for (const Expr& i : n->idx) visit(i);
  visit(n->rhs);
}
void IRVisitor::visit_Reduce(const ReduceNode* n, const Stmt&) {
  for (const Expr& i : n->idx) visit(i);
  visit(n->rhs);
}
void IRVisitor::visit_WriteConfig(const WriteConfigNode* n, const Stmt&) { visit(n->rhs); }
void IRVisitor::visit_Pass(const PassNode*, const Stmt&) {}
void IRVisitor::visit_If(const IfNode* n, const Stmt&) {
  visit(n->cond);
  visit(n->body);
  visit(n->orelse);
}
void IRVisitor::visit_For(const ForNode* n, const Stmt&) {
  visit(n->lo);
  visit(n->hi);
  visit(n->body);
}
void IRVisitor::visit_Alloc(const AllocNode* n, const Stmt&) { visit_type(n->type); }
void IRVisitor::visit_Call(const CallNode* n, const Stmt&) {
  for (const Expr& a : n->args) visit(a);
}
void IRVisitor::visit_WindowStmt(const WindowStmtNode* n, const Stmt&) { visit(n->rhs); }

// ---- structural equality ---------------------------------------------------------------------

bool expr_equal(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!expr_equal(a[i], b[i])) return false;
  return true;
}

bool expr_equal(const Expr& a, const Expr& b) {
  if (a.same_as(b)) return true;
  if (!a.defined() || !b.defined() || a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ExprKind::Read: {
      auto x = a.as<ReadNode>(), y = b.as<ReadNode>();
      return x->name == y->name && expr_equal(x->idx, y->idx);
    }
    case ExprKind::Const:
      return same_constant(*a.as<ConstNode>(), *b.as<ConstNode>());
    case ExprKind::USub:
      return expr_equal(a.as<USubNode>()->arg, b.as<USubNode>()->arg);
    case ExprKind::BinOp: {
      auto x = a.as<BinOpNode>(), y = b.as<BinOpNode>();
      return x->op == y->op && expr_equal(x->lhs, y->lhs) && expr_equal(x->rhs, y->rhs);
    }
    case ExprKind::Extern: {
      auto x = a.as<ExternNode>(), y = b.as<ExternNode>();
      return x->fn == y->fn && expr_equal(x->args, y->args);
    }
    case ExprKind::WindowExpr: {
      auto x = a.as<WindowExprNode>(), y = b.as<WindowExprNode>();
      if (x->name != y->name || x->idx.size() != y->idx.size()) return false;
      for (size_t i = 0; i < x->idx.size(); ++i) {
        if (x->idx[i].is_interval != y->idx[i].is_interval ||
            !expr_equal(x->idx[i].lo, y->idx[i].lo))
          return false;
        if (x->idx[i].is_interval && !expr_equal(x->idx[i].hi, y->idx[i].hi)) return false;
      }
      return true;
    }
    case ExprKind::StrideExpr:
      return a.as<StrideExprNode>()->name == b.as<StrideExprNode>()->name &&
             a.as<StrideExprNode>()->dim == b.as<StrideExprNode>()->dim;
    case ExprKind::ReadConfig:
      return a.as<ReadConfigNode>()->config == b.as<ReadConfigNode>()->config &&
             a.as<ReadConfigNode>()->field == b.as<ReadConfigNode>()->field;
  }
  return false;
}

// ---- mutator ---------------------------------------------------------------------------------

bool same_nodes(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!a[i].same_as(b[i])) return false;
  return true;
}
bool same_nodes(const Block& a, const Block& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!a[i].same_as(b[i])) return false;
  return true;
}

Expr IRMutator::mutate(const Expr& e) {
  if (!e.defined()) return e;
  switch (e.kind()) {
#define X(N)        \
  case ExprKind::N: \
    return mutate_##N(e.as<N##Node>(), e);
    EXOCPP_FOR_EACH_EXPR(X)
#undef X
  }
  return e;
}

Stmt IRMutator::mutate(const Stmt& s) {
  if (!s.defined()) return s;
  switch (s.kind()) {
#define X(N)        \
  case StmtKind::N: \
    return mutate_##N(s.as<N##Node>(), s);
    EXOCPP_FOR_EACH_STMT(X)
#undef X
  }
  return s;
}

Block IRMutator::mutate_to_block(const Stmt& s) { return {mutate(s)}; }

Block IRMutator::mutate(const Block& b) {
  Block out;
  out.reserve(b.size());
  for (const Stmt& s : b)
    for (Stmt& t : mutate_to_block(s)) out.push_back(std::move(t));
  return same_nodes(out, b) ? b : out;
}

std::vector<Expr> IRMutator::mutate(const std::vector<Expr>& es) {
  std::vector<Expr> out;
  out.reserve(es.size());
  for (const Expr& e : es) out.push_back(mutate(e));
  return same_nodes(out, es) ? es : out;
}

Type IRMutator::mutate_type(const Type& t) {
  if (t.shape.empty()) return t;
  std::vector<Expr> sh = mutate(t.shape);
  if (same_nodes(sh, t.shape)) return t;
  return Type(t.base, std::move(sh), t.window);
}

Proc IRMutator::mutate_proc(const Proc& p) {
  bool changed = false;
  std::vector<FnArg> args = p.args();
  for (FnArg& a : args) {
    Type t = mutate_type(a.type);
    if (!same_nodes(t.shape, a.type.shape)) {
      a.type = std::move(t);
      changed = true;
    }
  }
  std::vector<Expr> preds = mutate(p.preds());
  Block body = mutate(p.body());
  if (!changed && same_nodes(preds, p.preds()) && same_nodes(body, p.body())) return p;
  ProcNode n = *p.get();
  n.args = std::move(args);
  n.preds = std::move(preds);
  n.body = std::move(body);
  return Proc(ProcNode::make(std::move(n)));
}

Expr IRMutator::mutate_Read(const ReadNode* n, const Expr& e) {
  std::vector<Expr> idx = mutate(n->idx);
  if (same_nodes(idx, n->idx)) return e;
  return ReadNode::make(n->name, std::move(idx), n->type, n->srcinfo);
}
Expr IRMutator::mutate_Const(const ConstNode*, const Expr& e) { return e; }
Expr IRMutator::mutate_USub(const USubNode* n, const Expr& e) {
  Expr a = mutate(n->arg);
  if (a.same_as(n->arg)) return e;
  return USubNode::make(std::move(a), n->srcinfo);
}
Expr IRMutator::mutate_BinOp(const BinOpNode* n, const Expr& e) {
  Expr l = mutate(n->lhs), r = mutate(n->rhs);
  if (l.same_as(n->lhs) && r.same_as(n->rhs)) return e;
  return BinOpNode::make(n->op, std::move(l), std::move(r), n->srcinfo);
}
Expr IRMutator::mutate_Extern(const ExternNode* n, const Expr& e) {
  std::vector<Expr> a = mutate(n->args);
  if (same_nodes(a, n->args)) return e;
  return ExternNode::make(n->fn, std::move(a), n->srcinfo);
}
Expr IRMutator::mutate_WindowExpr(const WindowExprNode* n, const Expr& e) {
  bool changed = false;
  std::vector<WAccess> idx;
  for (const WAccess& w : n->idx) {
    WAccess m = w;
    m.lo = mutate(w.lo);
    if (w.is_interval) m.hi = mutate(w.hi);
    changed |= !m.lo.same_as(w.lo) || (w.is_interval && !m.hi.same_as(w.hi));
    idx.push_back(std::move(m));
  }
  if (!changed) return e;
  return WindowExprNode::make(n->name, n->type.base, std::move(idx), n->srcinfo);
}
Expr IRMutator::mutate_StrideExpr(const StrideExprNode*, const Expr& e) { return e; }
Expr IRMutator::mutate_ReadConfig(const ReadConfigNode*, const Expr& e) { return e; }

Stmt IRMutator::mutate_Assign(const AssignNode* n, const Stmt& s) {
  std::vector<Expr> idx = mutate(n->idx);
  Expr rhs = mutate(n->rhs);
  if (same_nodes(idx, n->idx) && rhs.same_as(n->rhs)) return s;
  return AssignNode::make(n->name, n->type, std::move(idx), std::move(rhs), n->srcinfo);
}
Stmt IRMutator::mutate_Reduce(const ReduceNode* n, const Stmt& s) {
  std::vector<Expr> idx = mutate(n->idx);
  Expr rhs = mutate(n->rhs);
  if (same_nodes(idx, n->idx) && rhs.same_as(n->rhs)) return s;
  return ReduceNode::make(n->name, n->type, std::move(idx), std::move(rhs), n->srcinfo);
}
Stmt IRMutator::mutate_WriteConfig(const WriteConfigNode* n, const Stmt& s) {
  Expr rhs = mutate(n->rhs);
  if (rhs.same_as(n->rhs)) return s;
  return WriteConfigNode::make(n->config, n->field, std::move(rhs), n->srcinfo);
}
Stmt IRMutator::mutate_Pass(const PassNode*, const Stmt& s) { return s; }
Stmt IRMutator::mutate_If(const IfNode* n, const Stmt& s) {
  Expr c = mutate(n->cond);
  Block b = mutate(n->body), o = mutate(n->orelse);
  if (c.same_as(n->cond) && same_nodes(b, n->body) && same_nodes(o, n->orelse)) return s;
  if (b.empty()) b.push_back(PassNode::make(n->srcinfo));
  return IfNode::make(std::move(c), std::move(b), std::move(o), n->srcinfo);
}
Stmt IRMutator::mutate_For(const ForNode* n, const Stmt& s) {
  Expr lo = mutate(n->lo), hi = mutate(n->hi);
  Block b = mutate(n->body);
  if (lo.same_as(n->lo) && hi.same_as(n->hi) && same_nodes(b, n->body)) return s;
  if (b.empty()) b.push_back(PassNode::make(n->srcinfo));
  return ForNode::make(n->iter, std::move(lo), std::move(hi), std::move(b), n->mode, n->srcinfo);
}
Stmt IRMutator::mutate_Alloc(const AllocNode* n, const Stmt& s) {
  Type t = mutate_type(n->type);
  if (same_nodes(t.shape, n->type.shape)) return s;
  return AllocNode::make(n->name, std::move(t), n->mem, n->srcinfo);
}
Stmt IRMutator::mutate_Call(const CallNode* n, const Stmt& s) {
  std::vector<Expr> a = mutate(n->args);
  if (same_nodes(a, n->args)) return s;
  return CallNode::make(n->proc, std::move(a), n->srcinfo);
}
Stmt IRMutator::mutate_WindowStmt(const WindowStmtNode* n, const Stmt& s) {
  Expr r = mutate(n->rhs);
  if (r.same_as(n->rhs)) return s;
  return WindowStmtNode::make(n->name, std::move(r), n->srcinfo);
}

}  // namespace exocpp
