// Helpers shared by the buffer operations: scopes, buffer uses, access rewriting, moves.
#include "rewrites/buffer_util.h"

#include <algorithm>

#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "rewrites/stmts_internal.h"

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

Expr parse_at(const Cursor& c, const std::string& text, bool allow_window) {
  return parse_user_expr(c, text, scope_at(c), {}, allow_window);
}

// ---- uses ---------------------------------------------------------------------------------------

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

// ---- access rewriting ---------------------------------------------------------------------------

namespace {

std::vector<Expr> simplified(std::vector<Expr> v) {
  for (Expr& e : v) e = simplify_expr(e);
  return v;
}

class AccessMutator : public IRMutator {
 public:
  explicit AccessMutator(const AccessMap& m) : m_(m) {}

 protected:
  const Sym& name() const { return m_.new_name.valid() ? m_.new_name : m_.buf; }
  std::vector<Expr> idx(const std::vector<Expr>& i) const {
    return m_.idx ? simplified(m_.idx(i)) : i;
  }

  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    Expr r = IRMutator::mutate_Read(n, e);
    const ReadNode* rn = r.as<ReadNode>();
    if (rn->name != m_.buf) return r;
    if (rn->idx.empty() && rn->type.is_tensor_or_window())
      return ReadNode::make(name(), {}, rn->type, rn->srcinfo);
    return ReadNode::make(name(), idx(rn->idx), rn->type, rn->srcinfo);
  }
  Expr mutate_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    Expr r = IRMutator::mutate_WindowExpr(n, e);
    const WindowExprNode* wn = r.as<WindowExprNode>();
    if (wn->name != m_.buf) return r;
    std::vector<WAccess> w = m_.window ? m_.window(wn->idx) : wn->idx;
    for (WAccess& a : w) {
      a.lo = simplify_expr(a.lo);
      if (a.is_interval) a.hi = simplify_expr(a.hi);
    }
    return WindowExprNode::make(name(), wn->type.base, std::move(w), wn->srcinfo);
  }
  Expr mutate_StrideExpr(const StrideExprNode* n, const Expr& e) override {
    if (n->name != m_.buf) return e;
    if (m_.stride) return m_.stride(n);
    return StrideExprNode::make(name(), n->dim, n->srcinfo);
  }
  Stmt mutate_Assign(const AssignNode* n, const Stmt& s) override {
    Stmt r = IRMutator::mutate_Assign(n, s);
    const AssignNode* a = r.as<AssignNode>();
    if (a->name != m_.buf) return r;
    return AssignNode::make(name(), a->type, idx(a->idx), a->rhs, a->srcinfo);
  }
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt& s) override {
    Stmt r = IRMutator::mutate_Reduce(n, s);
    const ReduceNode* a = r.as<ReduceNode>();
    if (a->name != m_.buf) return r;
    return ReduceNode::make(name(), a->type, idx(a->idx), a->rhs, a->srcinfo);
  }

 private:
  const AccessMap& m_;
};

}  // namespace

Block map_accesses(const Block& b, const AccessMap& m) {
  AccessMutator mut(m);
  return mut.mutate(b);
}
Stmt map_accesses(const Stmt& s, const AccessMap& m) {
  AccessMutator mut(m);
  return mut.mutate(s);
}

// ---- forwarding ---------------------------------------------------------------------------------

ForwardFn fwd_move_stmt(BlockPath from, int from_idx, BlockPath to, int to_idx) {
  ForwardFn rest =
      fwd_compose(fwd_replace(from, from_idx, from_idx + 1, 0), fwd_replace(to, to_idx, to_idx, 1));
  return [from, from_idx, to, to_idx, rest](const Loc& l) -> Loc {
    bool is_block = l.kind == CursorKind::Block || l.kind == CursorKind::Gap;
    if (!is_block && loc_within_stmt(l, from, from_idx))
      return loc_reroot(l, from, from_idx, to, to_idx);
    if (l.kind == CursorKind::Block && l.block.size() > from.size() &&
        loc_within_stmt(l, from, from_idx))
      return loc_reroot(l, from, from_idx, to, to_idx);
    return rest(l);
  };
}

// ---- index arithmetic
// -----------------------------------------------------------------------------

Expr zero() { return ConstNode::make_int(0); }

namespace {
const ConstNode* int_const(const Expr& e) {
  const ConstNode* c = e.as<ConstNode>();
  return c && c->is_int() ? c : nullptr;
}
}  // namespace

Expr add(const Expr& a, const Expr& b) {
  const ConstNode *ca = int_const(a), *cb = int_const(b);
  if (ca && cb) return ConstNode::make_int(ca->int_val() + cb->int_val(), a.srcinfo());
  if (cb && cb->int_val() == 0) return a;
  if (ca && ca->int_val() == 0) return b;
  return simplify_expr(BinOpNode::make(BinOpKind::Add, a, b, a.srcinfo()));
}

Expr sub(const Expr& a, const Expr& b) {
  const ConstNode *ca = int_const(a), *cb = int_const(b);
  if (ca && cb) return ConstNode::make_int(ca->int_val() - cb->int_val(), a.srcinfo());
  if (cb && cb->int_val() == 0) return a;
  if (expr_equal(a, b)) return ConstNode::make_int(0, a.srcinfo());
  // (x + c) - c  ->  x  and  (c + x) - c  ->  x
  if (const BinOpNode* s = a.as<BinOpNode>(); s && s->op == BinOpKind::Add) {
    if (expr_equal(s->rhs, b)) return s->lhs;
    if (expr_equal(s->lhs, b)) return s->rhs;
  }
  return simplify_expr(BinOpNode::make(BinOpKind::Sub, a, b, a.srcinfo()));
}

}  // namespace exocpp::rw

namespace exocpp::rw {

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

Sym fresh_iter(const Proc& p, const std::string& base, std::vector<std::string>& taken) {
  std::vector<std::string> bound = bound_names(p);
  auto used = [&](const std::string& n) {
    return std::find(bound.begin(), bound.end(), n) != bound.end() ||
           std::find(taken.begin(), taken.end(), n) != taken.end();
  };
  std::string name = base;
  for (int k = 1; used(name); ++k) name = base + "_" + std::to_string(k);
  taken.push_back(name);
  return Sym(name);
}

}  // namespace exocpp::rw

namespace exocpp::rw {

void require_size_expr(const std::string& op, const Cursor& where, const Expr& e,
                       const std::string& what) {
  struct V : IRVisitor {
    const Proc* p;
    std::string bad;
    void visit_Read(const ReadNode* n, const Expr& x) override {
      bool arg = false;
      for (const FnArg& a : p->args()) arg = arg || (a.name == n->name && a.type.is_control());
      if (!arg && bad.empty()) bad = n->name.name();
      IRVisitor::visit_Read(n, x);
    }
    void visit_ReadConfig(const ReadConfigNode* n, const Expr&) override {
      if (bad.empty()) bad = n->config->name + "." + n->field;
    }
  } v;
  v.p = &where.proc();
  v.visit(e);
  if (!v.bad.empty())
    fail(op, where,
         what + " '" + to_string(e) +
             "' must be built from size arguments and constants, but it uses '" + v.bad + "'");
}

}  // namespace exocpp::rw
