// Buffer uses and read/write sets (rewrites/internal/code_uses.h).
#include "rewrites/internal/code_uses.h"

#include "core/ir_visit.h"
#include "core/uses.h"

namespace exocpp::rw {

std::vector<Sym> names_of_storage(const Proc& p, const Sym& buf) {
  std::vector<Sym> out{buf};
  auto roots = window_roots(p);
  for (const auto& [w, parent] : roots)
    if (w != buf && root_of(roots, w) == buf) out.push_back(w);
  return out;
}

BufferUses storage_uses(const Proc& p, const Block& b, const Sym& buf) {
  BufferUses all;
  for (const Sym& n : names_of_storage(p, buf)) {
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

std::string mem_of(const Proc& p, const Sym& buf) {
  for (const FnArg& a : p.args())
    if (a.name == buf) return a.mem.empty() ? "DRAM" : a.mem;
  struct V : IRVisitor {
    Sym want;
    std::string mem;
    Sym root;
    void visit_Alloc(const AllocNode* n, const Stmt& s) override {
      if (n->name == want) mem = n->mem;
      IRVisitor::visit_Alloc(n, s);
    }
    void visit_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
      if (n->name == want) root = n->rhs.as<WindowExprNode>()->name;
      IRVisitor::visit_WindowStmt(n, s);
    }
  } v;
  v.want = buf;
  v.visit(p.body());
  if (!v.mem.empty()) return v.mem;
  if (v.root.valid() && v.root != buf) return mem_of(p, v.root);
  return "DRAM";
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
