// Private helpers of the loop and scope operations: substitution, alpha-renaming, folding
// index builders, scopes and parsing at a statement (see rewrites/loops_util.h).
#include "rewrites/loops_util.h"

#include <map>
#include <memory>
#include <set>

#include "core/ir_visit.h"
#include "core/simplify.h"
#include "core/uses.h"
#include "rewrites/common.h"

namespace exocpp::rw::loops {

namespace {

class Substituter : public IRMutator {
 public:
  explicit Substituter(const SymMap& env) : env_(env) {}

 protected:
  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    if (n->idx.empty()) {
      auto it = env_.find(n->name);
      if (it != env_.end()) return it->second;
      return e;
    }
    std::vector<Expr> idx = mutate(n->idx);
    if (same_nodes(idx, n->idx)) return e;
    for (Expr& x : idx) x = simplify_expr(x);
    return ReadNode::make(n->name, std::move(idx), n->type, n->srcinfo);
  }

 private:
  const SymMap& env_;
};

class Renamer : public IRMutator {
 public:
  std::unordered_map<Sym, Sym, SymHash> map;

 protected:
  Sym rn(const Sym& s) const {
    auto it = map.find(s);
    return it == map.end() ? s : it->second;
  }
  Expr mutate_Read(const ReadNode* n, const Expr&) override {
    return ReadNode::make(rn(n->name), mutate(n->idx), n->type, n->srcinfo);
  }
  Expr mutate_WindowExpr(const WindowExprNode* n, const Expr&) override {
    std::vector<WAccess> idx;
    for (const WAccess& w : n->idx)
      idx.push_back(w.is_interval ? WAccess::interval(mutate(w.lo), mutate(w.hi))
                                  : WAccess::point(mutate(w.lo)));
    return WindowExprNode::make(rn(n->name), n->type.base, std::move(idx), n->srcinfo);
  }
  Expr mutate_StrideExpr(const StrideExprNode* n, const Expr&) override {
    return StrideExprNode::make(rn(n->name), n->dim, n->srcinfo);
  }
  Stmt mutate_Assign(const AssignNode* n, const Stmt&) override {
    return AssignNode::make(rn(n->name), n->type, mutate(n->idx), mutate(n->rhs), n->srcinfo);
  }
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt&) override {
    return ReduceNode::make(rn(n->name), n->type, mutate(n->idx), mutate(n->rhs), n->srcinfo);
  }
  Stmt mutate_For(const ForNode* n, const Stmt&) override {
    Sym it = n->iter.copy();
    map[n->iter] = it;
    Expr lo = mutate(n->lo), hi = mutate(n->hi);
    return ForNode::make(it, lo, hi, mutate(n->body), n->mode, n->srcinfo);
  }
  Stmt mutate_Alloc(const AllocNode* n, const Stmt&) override {
    Type t = mutate_type(n->type);
    Sym s = n->name.copy();
    map[n->name] = s;
    return AllocNode::make(s, std::move(t), n->mem, n->srcinfo);
  }
  Stmt mutate_WindowStmt(const WindowStmtNode* n, const Stmt&) override {
    Expr r = mutate(n->rhs);
    Sym s = n->name.copy();
    map[n->name] = s;
    return WindowStmtNode::make(s, std::move(r), n->srcinfo);
  }
};

Expr fold(BinOpKind op, const Expr& a, const Expr& b) {
  auto x = const_int(a), y = const_int(b);
  SrcInfo si = a.srcinfo();
  if (x && y) {
    switch (op) {
      case BinOpKind::Add:
        return int_const(*x + *y, si);
      case BinOpKind::Sub:
        return int_const(*x - *y, si);
      case BinOpKind::Mul:
        return int_const(*x * *y, si);
      case BinOpKind::Div:
        if (*y > 0) return int_const(*x >= 0 ? *x / *y : -((-*x + *y - 1) / *y), si);
        break;
      case BinOpKind::Mod:
        if (*y > 0) return int_const(((*x % *y) + *y) % *y, si);
        break;
      default:
        break;
    }
  }
  return BinOpNode::make(op, a, b, si);
}

}  // namespace

Block substitute(const Block& b, const SymMap& env) {
  Substituter s(env);
  Block out = s.mutate(b);
  return same_nodes(out, b) ? b : simplify_block(out);
}
Expr substitute(const Expr& e, const SymMap& env) {
  Substituter s(env);
  Expr out = s.mutate(e);
  return out.same_as(e) ? e : simplify_expr(out);
}

Block alpha_rename(const Block& b) {
  Renamer r;
  return r.mutate(b);
}

Expr index_var(const Sym& s, const SrcInfo& si) {
  return ReadNode::make(s, {}, Type(ScalarKind::Index), si);
}
Expr int_const(int64_t v, const SrcInfo& si) { return ConstNode::make_int(v, si); }

std::optional<int64_t> const_int(const Expr& e) {
  if (const ConstNode* c = e.as<ConstNode>(); c && c->is_int()) return c->int_val();
  return std::nullopt;
}

Expr mk_add(const Expr& a, const Expr& b) {
  if (const_int(b) == 0) return a;
  if (const_int(a) == 0) return b;
  if (auto y = const_int(b); y && *y < 0 && !const_int(a))
    return fold(BinOpKind::Sub, a, int_const(-*y, b.srcinfo()));
  return fold(BinOpKind::Add, a, b);
}
Expr mk_sub(const Expr& a, const Expr& b) {
  if (const_int(b) == 0) return a;
  return fold(BinOpKind::Sub, a, b);
}
Expr mk_mul(const Expr& a, const Expr& b) {
  if (const_int(a) == 1) return b;
  if (const_int(b) == 1) return a;
  return fold(BinOpKind::Mul, a, b);
}
Expr mk_div(const Expr& a, const Expr& b) {
  if (const_int(b) == 1) return a;
  return fold(BinOpKind::Div, a, b);
}
Expr mk_mod(const Expr& a, const Expr& b) { return fold(BinOpKind::Mod, a, b); }
Expr mk_cmp(BinOpKind op, const Expr& a, const Expr& b) {
  return BinOpNode::make(op, a, b, a.srcinfo());
}

BlockPath child_path(const Cursor& c, BlockField field) {
  BlockPath p = c.loc().block;
  p.push_back({c.loc().lo, field});
  return p;
}

checker::Context context_of(const Cursor& c) {
  (void)c.stmt();  // a statement cursor
  return checker::Context::at(c.proc(), c.loc().block, c.loc().lo);
}

namespace {}  // namespace

Expr parse_in_scope(const std::string& op, const Cursor& c, const std::string& text,
                    const std::string& want) {
  Expr e = parse_user_expr(c, text, scope_at(c));
  const Type& t = e.type();
  bool ok = want == "bool" ? (t.is_scalar() && t.base == ScalarKind::Bool)
                           : (t.is_scalar() && is_indexable(t.base));
  if (!ok)
    fail(op, c,
         "expected " +
             std::string(want == "bool" ? "a condition" : "an integer (index) expression") +
             ", but '" + text + "' has type " + to_string(t));
  return e;
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

}  // namespace exocpp::rw::loops
