// Buffer uses and read/write sets (rewrites/internal/code_uses.h).
#include "rewrites/internal/code_uses.h"

#include "core/ir_visit.h"
#include "core/uses.h"

namespace exocpp::rw {

BufferUses storage_uses(const Proc& p, const Block& b, const Sym& buf) {
  BufferUses all;
  for (const Sym& n : WindowAliases::of_proc(p).names_of(buf)) {
    BufferUses u = buffer_uses(b, n);
    all.read |= u.read;
    all.write |= u.write;
    all.reduce |= u.reduce;
    all.window |= u.window;
    all.whole |= u.whole;
    all.stride |= u.stride;
    all.stmts.insert(all.stmts.end(), u.stmts.begin(), u.stmts.end());
  }
  return all;
}

BufferUses storage_uses(const Proc& p, const Stmt& s, const Sym& buf) {
  return storage_uses(p, Block{s}, buf);
}

namespace {

class UseFinder : public IRVisitor {
 public:
  explicit UseFinder(Sym b) : buf(std::move(b)) {}
  Sym buf;
  BufferUses uses;
  bool hit = false;

  void visit(const Stmt& s) override {
    if (s.is<ForNode>() || s.is<IfNode>()) {
      IRVisitor::visit(s);
      return;
    }
    hit = false;
    IRVisitor::visit(s);
    if (hit) uses.stmts.push_back(s);
  }
  using IRVisitor::visit;

 protected:
  void mark() { hit = true; }
  void visit_Read(const ReadNode* n, const Expr& e) override {
    if (n->name == buf) {
      mark();
      if (n->idx.empty() && n->type.is_tensor_or_window())
        uses.whole = true;
      else
        uses.read = true;
    }
    IRVisitor::visit_Read(n, e);
  }
  void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    if (n->name == buf) {
      mark();
      uses.window = true;
    }
    IRVisitor::visit_WindowExpr(n, e);
  }
  void visit_StrideExpr(const StrideExprNode* n, const Expr&) override {
    if (n->name == buf) {
      mark();
      uses.stride = true;
    }
  }
  void visit_Assign(const AssignNode* n, const Stmt& s) override {
    if (n->name == buf) {
      mark();
      uses.write = true;
    }
    IRVisitor::visit_Assign(n, s);
  }
  void visit_Reduce(const ReduceNode* n, const Stmt& s) override {
    if (n->name == buf) {
      mark();
      uses.reduce = true;
    }
    IRVisitor::visit_Reduce(n, s);
  }
  void visit_Alloc(const AllocNode* n, const Stmt& s) override {
    for (const Expr& d : n->type.shape) visit(d);
    (void)s;
  }
  // A call may write what it is passed: an element (a scalar argument aliases it) or a window.
  void visit_Call(const CallNode* n, const Stmt& s) override {
    for (const Expr& a : n->args) {
      if (const ReadNode* r = a.as<ReadNode>(); r && r->name == buf && !r->idx.empty())
        uses.write = true;
      if (const WindowExprNode* w = a.as<WindowExprNode>(); w && w->name == buf) uses.write = true;
    }
    IRVisitor::visit_Call(n, s);
  }
  // An If/For whose own condition or bounds mention the buffer is its innermost use.
  void visit_If(const IfNode* n, const Stmt& s) override {
    hit = false;
    visit(n->cond);
    if (hit) uses.stmts.push_back(s);
    visit(n->body);
    visit(n->orelse);
  }
  void visit_For(const ForNode* n, const Stmt& s) override {
    hit = false;
    visit(n->lo);
    visit(n->hi);
    if (hit) uses.stmts.push_back(s);
    visit(n->body);
  }
};

}  // namespace

BufferUses buffer_uses(const Block& b, const Sym& buf) {
  UseFinder f(buf);
  f.visit(b);
  return f.uses;
}
BufferUses buffer_uses(const Stmt& s, const Sym& buf) { return buffer_uses(Block{s}, buf); }

namespace {

class AccessCollector : public IRVisitor {
 public:
  AccessCollector(const WindowAliases& windows, Access& out) : windows_(windows), out_(out) {}

 protected:
  void visit_Read(const ReadNode* n, const Expr& e) override {
    if (exocpp::is_data(e.type().base)) out_.reads.insert(windows_.root(n->name));
    IRVisitor::visit_Read(n, e);
  }
  void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    out_.reads.insert(windows_.root(n->name));
    IRVisitor::visit_WindowExpr(n, e);
  }
  void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
    out_.config_reads.insert(n->config->name + "." + n->field);
    IRVisitor::visit_ReadConfig(n, e);
  }
  void visit_Assign(const AssignNode* n, const Stmt& s) override {
    out_.writes.insert(windows_.root(n->name));
    IRVisitor::visit_Assign(n, s);
  }
  void visit_Reduce(const ReduceNode* n, const Stmt& s) override {
    out_.writes.insert(windows_.root(n->name));
    out_.reads.insert(windows_.root(n->name));
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
        out_.writes.insert(windows_.root(r->name));
      if (auto w = a.as<WindowExprNode>()) out_.writes.insert(windows_.root(w->name));
    }
    IRVisitor::visit_Call(n, s);
  }

 private:
  const WindowAliases& windows_;
  Access& out_;
};

}  // namespace

Access accesses(const Expr& e, const WindowAliases& windows) {
  Access a;
  AccessCollector c(windows, a);
  c.visit(e);
  return a;
}

Access accesses(const Block& b, const WindowAliases& windows) {
  Access a;
  AccessCollector c(windows, a);
  c.visit(b);
  return a;
}

std::string mem_of(const Proc& p, const Sym& buf) {
  // A window lives in its root buffer's memory.
  const Sym root = WindowAliases::of_proc(p).root(buf);
  for (const FnArg& a : p.args())
    if (a.name == root) return a.mem.empty() ? "DRAM" : a.mem;
  struct V : IRVisitor {
    Sym want;
    std::string mem;
    void visit_Alloc(const AllocNode* n, const Stmt& s) override {
      if (n->name == want) mem = n->mem;
      IRVisitor::visit_Alloc(n, s);
    }
  } v;
  v.want = root;
  v.visit(p.body());
  return v.mem.empty() ? "DRAM" : v.mem;
}

std::vector<std::string> bindings_used_after(const Block& b, const Block& rest) {
  Uses u = uses_of(rest);
  std::vector<std::string> out;
  for (const Stmt& s : b) {
    Sym name;
    if (const AllocNode* a = s.as<AllocNode>()) name = a->name;
    if (const WindowStmtNode* w = s.as<WindowStmtNode>()) name = w->name;
    if (name.valid() && u.mentions(name)) out.push_back(name.name());
  }
  return out;
}

bool is_call_buffer_argument(const Cursor& c) {
  if (!c.is_expr() || c.loc().expr.size() != 1) return false;
  const Block& list = c.list();
  if (c.loc().lo < 0 || c.loc().lo >= static_cast<int>(list.size())) return false;
  const CallNode* call = list[static_cast<size_t>(c.loc().lo)].as<CallNode>();
  if (!call) return false;
  size_t i = static_cast<size_t>(c.loc().expr[0]);
  return i < call->proc->args.size() && !call->proc->args[i].type.is_control();
}

}  // namespace exocpp::rw
