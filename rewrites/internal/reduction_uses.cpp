// reduction_uses (rewrites/internal/reduction_uses.h).
#include "rewrites/internal/reduction_uses.h"

#include "core/ir_visit.h"

namespace exocpp::rw {

namespace {

class Collect : public IRVisitor {
 public:
  ReductionUses out;

 protected:
  void visit_Reduce(const ReduceNode* n, const Stmt& s) override {
    out.uses[n->name].reductions.push_back(n);
    IRVisitor::visit_Reduce(n, s);  // its indices and terms
  }
  void visit_Assign(const AssignNode* n, const Stmt& s) override {
    out.uses[n->name].other = true;
    IRVisitor::visit_Assign(n, s);
  }
  void visit_Read(const ReadNode* n, const Expr& e) override {
    out.uses[n->name].other = true;
    IRVisitor::visit_Read(n, e);
  }
  void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    out.uses[n->name].other = true;
    IRVisitor::visit_WindowExpr(n, e);
  }
  void visit_For(const ForNode* n, const Stmt& s) override {
    out.bound.insert(n->iter);
    IRVisitor::visit_For(n, s);
  }
  void visit_Alloc(const AllocNode* n, const Stmt& s) override {
    out.bound.insert(n->name);
    IRVisitor::visit_Alloc(n, s);
  }
  void visit_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
    out.bound.insert(n->name);
    IRVisitor::visit_WindowStmt(n, s);
  }
};

}  // namespace

ReductionUses reduction_uses(const Block& body) {
  Collect c;
  for (const Stmt& s : body) c.visit(s);
  return c.out;
}

}  // namespace exocpp::rw
