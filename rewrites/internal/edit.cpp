// Building a rewrite's new code and its forwarding (rewrites/internal/edit.h).
#include "rewrites/internal/edit.h"

#include "core/ir_visit.h"
#include "core/simplify.h"

namespace exocpp::rw {

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
    if (rn->name != m_.buf || (m_.leave && m_.leave(n))) return r;
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
    if (a->name != m_.buf || (m_.leave && m_.leave(n))) return r;
    return AssignNode::make(name(), a->type, idx(a->idx), a->rhs, a->srcinfo);
  }
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt& s) override {
    Stmt r = IRMutator::mutate_Reduce(n, s);
    const ReduceNode* a = r.as<ReduceNode>();
    if (a->name != m_.buf || (m_.leave && m_.leave(n))) return r;
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

// ---- Edit ------------------------------------------------------------------------------------

namespace {
const Block& field_list(const Stmt& s, BlockField field) {
  if (const ForNode* f = s.as<ForNode>()) {
    EXOCPP_ASSERT(field == BlockField::Body, "a loop has no else branch");
    return f->body;
  }
  const IfNode* i = s.as<IfNode>();
  EXOCPP_ASSERT(i != nullptr, "only a loop or an if holds statements");
  return field == BlockField::Body ? i->body : i->orelse;
}

int list_size(const Block& body, const BlockPath& path) {
  if (path.empty()) return static_cast<int>(body.size());
  BlockPath parent(path.begin(), path.end() - 1);
  return static_cast<int>(
      field_list(stmt_at(body, parent, path.back().index), path.back().field).size());
}

Block slice(const Block& body, const BlockPath& path, int lo, int hi) {
  Block out;
  for (int k = lo; k < hi; ++k) out.push_back(stmt_at(body, path, k));
  return out;
}
}  // namespace

Edit::Edit(const Proc& p) : from_(p), node_(*p.get()), fwd_(fwd_identity()) {}

Edit& Edit::replace(const BlockPath& path, int lo, int hi, Block with, ForwardFn inside) {
  EXOCPP_ASSERT(0 <= lo && lo <= hi && hi <= list_size(node_.body, path),
                "Edit::replace: a range outside its list");
  const int n = static_cast<int>(with.size());
  node_.body = replace_stmts(node_.body, path, lo, hi, with);
  fwd_ = fwd_compose(fwd_, fwd_replace(path, lo, hi, n, std::move(inside)));
  return *this;
}

Edit& Edit::rewrite(const BlockPath& path, int lo, int hi, Block with) {
  EXOCPP_ASSERT(static_cast<int>(with.size()) == hi - lo,
                "Edit::rewrite: statements rewritten in place keep their count");
  EXOCPP_ASSERT(0 <= lo && hi <= list_size(node_.body, path),
                "Edit::rewrite: a range outside its list");
  node_.body = replace_stmts(node_.body, path, lo, hi, with);
  return *this;
}

Edit& Edit::insert(const BlockPath& path, int at, Block with) {
  return replace(path, at, at, std::move(with));
}

Edit& Edit::remove(const BlockPath& path, int lo, int hi) { return replace(path, lo, hi, {}); }

Edit& Edit::wrap(const BlockPath& path, int lo, int hi,
                 const std::function<Stmt(const Block&)>& wrapper, BlockField field) {
  EXOCPP_ASSERT(0 <= lo && lo < hi && hi <= list_size(node_.body, path),
                "Edit::wrap: a range outside its list");
  Stmt w = wrapper(slice(node_.body, path, lo, hi));
  EXOCPP_ASSERT(static_cast<int>(field_list(w, field).size()) == hi - lo,
                "Edit::wrap: the wrapper must hold exactly the wrapped statements");
  node_.body = replace_stmts(node_.body, path, lo, hi, {w});
  fwd_ = fwd_compose(fwd_, fwd_wrap(path, lo, hi, field));
  return *this;
}

Edit& Edit::unwrap(const BlockPath& path, int at, BlockField field) {
  Block inner = field_list(stmt_at(node_.body, path, at), field);
  const int n = static_cast<int>(inner.size());
  node_.body = replace_stmts(node_.body, path, at, at + 1, inner);
  fwd_ = fwd_compose(fwd_, fwd_unwrap(path, at, n, field));
  return *this;
}

Edit& Edit::move(const BlockPath& from, int from_idx, const BlockPath& to, int to_idx) {
  Stmt s = stmt_at(node_.body, from, from_idx);
  node_.body = replace_stmts(node_.body, from, from_idx, from_idx + 1, {});
  EXOCPP_ASSERT(0 <= to_idx && to_idx <= list_size(node_.body, to),
                "Edit::move: a destination outside its list");
  node_.body = replace_stmts(node_.body, to, to_idx, to_idx, {s});
  fwd_ = fwd_compose(fwd_, fwd_move_stmt(from, from_idx, to, to_idx));
  return *this;
}

Edit& Edit::swap(const BlockPath& path, int lo, int hi, int hi2) {
  EXOCPP_ASSERT(0 <= lo && lo < hi && hi < hi2 && hi2 <= list_size(node_.body, path),
                "Edit::swap: ranges outside their list");
  Block swapped = slice(node_.body, path, hi, hi2);
  for (const Stmt& s : slice(node_.body, path, lo, hi)) swapped.push_back(s);
  node_.body = replace_stmts(node_.body, path, lo, hi2, swapped);
  fwd_ = fwd_compose(fwd_, fwd_swap(path, lo, hi, hi2));
  return *this;
}

Edit& Edit::expr(const Loc& at, const Expr& with, ExprMoves inside) {
  EXOCPP_ASSERT(at.kind == CursorKind::Expr, "Edit::expr needs an expression location");
  Stmt s = stmt_at(node_.body, at.block, at.lo);
  node_.body =
      replace_stmts(node_.body, at.block, at.lo, at.lo + 1, {replace_expr(s, at.expr, with)});
  const size_t n = at.expr.size();
  ForwardFn moved = [at, n, inside = std::move(inside)](const Loc& l) -> Loc {
    if (l.kind != CursorKind::Expr || l.block != at.block || l.lo != at.lo) return l;
    if (l.expr.size() <= n || !std::equal(at.expr.begin(), at.expr.end(), l.expr.begin())) return l;
    if (!inside) return Loc::invalid();
    std::optional<std::vector<int>> below =
        inside(std::vector<int>(l.expr.begin() + static_cast<long>(n), l.expr.end()));
    if (!below) return Loc::invalid();
    Loc out = l;
    out.expr.resize(n);
    out.expr.insert(out.expr.end(), below->begin(), below->end());
    return out;
  };
  fwd_ = fwd_compose(fwd_, std::move(moved));
  return *this;
}

Edit& Edit::rewrite_body(Block with) {
  return rewrite({}, 0, static_cast<int>(node_.body.size()), std::move(with));
}

Edit& Edit::declaration(const Cursor& decl,
                        const std::function<void(Type&, std::string&)>& change) {
  if (decl.is_arg()) {
    FnArg& a = node_.args[static_cast<size_t>(decl.loc().lo)];
    change(a.type, a.mem);
    return *this;
  }
  const AllocNode* a = decl.stmt().as<AllocNode>();
  EXOCPP_ASSERT(a != nullptr, "Edit::declaration needs an allocation or an argument");
  Type t = a->type;
  std::string mem = a->mem;
  change(t, mem);
  const Loc& l = decl.loc();
  return rewrite(l.block, l.lo, l.lo + 1, {AllocNode::make(a->name, t, mem, a->srcinfo)});
}

Edit& Edit::redeclare(const BlockPath& path, int at, const Stmt& new_alloc, const AccessMap& m) {
  EXOCPP_ASSERT(stmt_at(node_.body, path, at).is<AllocNode>() && new_alloc.is<AllocNode>(),
                "Edit::redeclare needs an allocation");
  const int n = list_size(node_.body, path);
  Block out{new_alloc};
  for (const Stmt& s : map_accesses(slice(node_.body, path, at + 1, n), m)) out.push_back(s);
  return rewrite(path, at, n, out);
}

Edit& Edit::remap(const BlockPath& path, int lo, int hi, Block with, ForwardFn fwd) {
  EXOCPP_ASSERT(0 <= lo && lo <= hi && hi <= list_size(node_.body, path),
                "Edit::remap: a range outside its list");
  node_.body = replace_stmts(node_.body, path, lo, hi, with);
  fwd_ = fwd_compose(fwd_, std::move(fwd));
  return *this;
}

Proc Edit::candidate() const { return Proc(ProcNode::make(node_)); }

Proc Edit::done() const { return derive_proc(from_, ProcNode::make(node_), fwd_); }

BlockPath child_path(const Cursor& c, BlockField field) {
  BlockPath p = c.loc().block;
  p.push_back({c.loc().lo, field});
  return p;
}

}  // namespace exocpp::rw
