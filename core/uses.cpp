// The uses of a piece of IR (core/uses.h): one visitor for every "which names does this read".
#include "core/uses.h"

#include <map>

#include "core/ir_visit.h"

namespace exocpp {
namespace {

class UseCollector : public IRVisitor {
 public:
  Uses uses;

 protected:
  void visit_Read(const ReadNode* n, const Expr& e) override {
    uses.read.insert(n->name);
    if (!n->idx.empty() || !n->type.is_control()) uses.reads_data = true;
    IRVisitor::visit_Read(n, e);
  }
  void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    uses.read.insert(n->name);
    uses.reads_data = true;
    IRVisitor::visit_WindowExpr(n, e);
  }
  void visit_StrideExpr(const StrideExprNode* n, const Expr& e) override {
    uses.read.insert(n->name);
    IRVisitor::visit_StrideExpr(n, e);
  }
  void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
    uses.config_reads.insert({n->config.get(), n->field});
    uses.reads_data = true;
    IRVisitor::visit_ReadConfig(n, e);
  }
  void visit_For(const ForNode* n, const Stmt& s) override {
    uses.bound.insert(n->iter);
    IRVisitor::visit_For(n, s);
  }
  void visit_Alloc(const AllocNode* n, const Stmt& s) override {
    uses.bound.insert(n->name);
    IRVisitor::visit_Alloc(n, s);
  }
  void visit_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
    uses.bound.insert(n->name);
    IRVisitor::visit_WindowStmt(n, s);
  }
  void visit_Assign(const AssignNode* n, const Stmt& s) override {
    uses.written.insert(n->name);
    IRVisitor::visit_Assign(n, s);
  }
  void visit_Reduce(const ReduceNode* n, const Stmt& s) override {
    uses.written.insert(n->name);
    uses.reduced.insert(n->name);
    IRVisitor::visit_Reduce(n, s);
  }
  void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
    uses.config_writes.insert({n->config.get(), n->field});
    IRVisitor::visit_WriteConfig(n, s);
  }
  void visit_Call(const CallNode* n, const Stmt& s) override {
    uses.callees.insert(n->proc.get());
    for (const Expr& a : n->args) {
      if (const WindowExprNode* w = a.as<WindowExprNode>()) uses.passed.insert(w->name);
      if (const ReadNode* r = a.as<ReadNode>(); r && !r->type.is_control())
        uses.passed.insert(r->name);
    }
    const std::set<ConfigFieldRef>& callee = callee_config_writes(*n->proc);
    uses.config_writes.insert(callee.begin(), callee.end());
    IRVisitor::visit_Call(n, s);
  }

 private:
  // A call writes every config field its callee (transitively) writes. Summarised once per
  // callee: walking a call chain per call would cost the number of paths through it.
  const std::set<ConfigFieldRef>& callee_config_writes(const ProcNode& callee) {
    auto it = callee_writes_.find(&callee);
    if (it != callee_writes_.end()) return it->second;
    UseCollector inner;
    inner.callee_writes_.swap(callee_writes_);
    inner.visit(callee.body);
    callee_writes_.swap(inner.callee_writes_);
    return callee_writes_.emplace(&callee, std::move(inner.uses.config_writes)).first->second;
  }
  std::map<const ProcNode*, std::set<ConfigFieldRef>> callee_writes_;
};

}  // namespace

Uses uses_of(const Expr& e) {
  UseCollector c;
  c.visit(e);
  return std::move(c.uses);
}
Uses uses_of(const Block& b) {
  UseCollector c;
  c.visit(b);
  return std::move(c.uses);
}
Uses uses_of(const Stmt& s) {
  UseCollector c;
  c.visit(s);
  return std::move(c.uses);
}
Uses uses_of(const Type& t) {
  UseCollector c;
  c.visit_type(t);
  return std::move(c.uses);
}

bool mentions(const Expr& e, const Sym& s) { return uses_of(e).mentions(s); }
bool mentions(const Block& b, const Sym& s) { return uses_of(b).mentions(s); }
bool mentions(const Type& t, const Sym& s) { return uses_of(t).mentions(s); }

}  // namespace exocpp
