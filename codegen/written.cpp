// Which arguments a proc writes, directly, through window variables, or by passing them to a
// callee that writes them: those stay non-const in the C signature.
#include "codegen/c_proc.h"
#include "core/ir_visit.h"
#include "core/window_alias.h"

namespace exocpp::codegen {
namespace {

class WriteFinder : public IRVisitor {
 public:
  explicit WriteFinder(const WrittenParams& callees) : callees_(callees) {}
  std::set<uint64_t> written;

 protected:
  void visit_Assign(const AssignNode* n, const Stmt& s) override {
    written.insert(windows_.root(n->name).id());
    IRVisitor::visit_Assign(n, s);
  }
  void visit_Reduce(const ReduceNode* n, const Stmt& s) override {
    written.insert(windows_.root(n->name).id());
    IRVisitor::visit_Reduce(n, s);
  }
  void visit_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
    if (const WindowExprNode* w = n->rhs.as<WindowExprNode>()) windows_.bind(n->name, *w);
    IRVisitor::visit_WindowStmt(n, s);
  }
  void visit_Call(const CallNode* n, const Stmt& s) override {
    auto it = callees_.find(n->proc.get());
    for (size_t i = 0; i < n->args.size() && i < n->proc->args.size(); ++i) {
      if (it == callees_.end() || !it->second.count(n->proc->args[i].name.id())) continue;
      if (const ReadNode* r = n->args[i].as<ReadNode>())
        written.insert(windows_.root(r->name).id());
      if (const WindowExprNode* w = n->args[i].as<WindowExprNode>())
        written.insert(windows_.root(w->name).id());
    }
    IRVisitor::visit_Call(n, s);
  }

 private:
  const WrittenParams& callees_;
  WindowAliases windows_;  // the window statements visited so far
};

}  // namespace

std::set<uint64_t> written_args(const ProcNode& p, const WrittenParams& callees) {
  WriteFinder f(callees);
  f.visit(p.body);
  std::set<uint64_t> out;
  for (const FnArg& a : p.args)
    if (f.written.count(a.name.id())) out.insert(a.name.id());
  return out;
}

}  // namespace exocpp::codegen
