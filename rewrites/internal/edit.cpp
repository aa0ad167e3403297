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

void Edit::apply(const BlockPath& path, int lo, int hi, const Block& with, ForwardFn fwd) {
  node_.body = replace_stmts(node_.body, path, lo, hi, with);
  fwd_ = fwd_compose(fwd_, std::move(fwd));
}

Edit& Edit::replace(const BlockPath& path, int lo, int hi, Block with) {
  EXOCPP_ASSERT(0 <= lo && lo <= hi && hi <= list_size(node_.body, path),
                "Edit::replace: a range outside its list");
  const int n = static_cast<int>(with.size());
  apply(path, lo, hi, with, fwd_replace(path, lo, hi, n));
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

Edit& Edit::rewrite_exprs(const BlockPath& path, int lo, int hi, Block with) {
  EXOCPP_ASSERT(static_cast<int>(with.size()) == hi - lo,
                "Edit::rewrite_exprs: statements rewritten in place keep their count");
  EXOCPP_ASSERT(0 <= lo && hi <= list_size(node_.body, path),
                "Edit::rewrite_exprs: a range outside its list");
  Block old_body = node_.body;
  node_.body = replace_stmts(node_.body, path, lo, hi, with);
  // Locations are in the coordinates of the body before this verb, which has the same shape
  // as the one after it.
  auto keep = [old_body, new_body = node_.body, path, lo, hi](const Loc& l) -> bool {
    if (l.kind != CursorKind::Expr || l.expr.empty()) return true;
    bool within = false;
    for (int s = lo; s < hi && !within; ++s) within = loc_within_stmt(l, path, s);
    if (!within) return true;
    std::vector<Expr> ca = expr_children(stmt_at(old_body, l.block, l.lo));
    std::vector<Expr> cb = expr_children(stmt_at(new_body, l.block, l.lo));
    size_t k = static_cast<size_t>(l.expr[0]);
    if (ca.size() != cb.size() || k >= ca.size()) return false;
    return l.expr.size() == 1 || ca[k].same_as(cb[k]);
  };
  fwd_ = fwd_compose(fwd_, fwd_filter(keep));
  return *this;
}

Edit& Edit::insert(const BlockPath& path, int at, Block with) {
  return replace(path, at, at, std::move(with));
}

Edit& Edit::remove(const BlockPath& path, int lo, int hi) { return replace(path, lo, hi, {}); }

Edit& Edit::surround(const BlockPath& path, int lo, int hi, Block before, Block with, Block after) {
  EXOCPP_ASSERT(static_cast<int>(with.size()) == hi - lo,
                "Edit::surround: the surrounded statements keep their count");
  EXOCPP_ASSERT(0 <= lo && hi <= list_size(node_.body, path),
                "Edit::surround: a range outside its list");
  const int nb = static_cast<int>(before.size()), na = static_cast<int>(after.size());
  Block out = std::move(before);
  out.insert(out.end(), with.begin(), with.end());
  out.insert(out.end(), after.begin(), after.end());
  apply(path, lo, hi, out, fwd_surround(path, lo, hi, nb, na));
  return *this;
}

Edit& Edit::expand(const BlockPath& path, int at, Block with) {
  EXOCPP_ASSERT(0 <= at && at < list_size(node_.body, path),
                "Edit::expand: a statement outside its list");
  const int n = static_cast<int>(with.size());
  apply(path, at, at + 1, with, fwd_expand(path, at, n));
  return *this;
}

Edit& Edit::cut(const BlockPath& path, int at, Stmt first, Stmt second) {
  EXOCPP_ASSERT(0 <= at && at < list_size(node_.body, path),
                "Edit::cut: a statement outside its list");
  apply(path, at, at + 1, {std::move(first), std::move(second)}, fwd_cut(path, at));
  return *this;
}

Edit& Edit::wrap(const BlockPath& path, int lo, int hi,
                 const std::function<Stmt(const Block&)>& wrapper, BlockField field) {
  EXOCPP_ASSERT(0 <= lo && lo < hi && hi <= list_size(node_.body, path),
                "Edit::wrap: a range outside its list");
  Stmt w = wrapper(slice(node_.body, path, lo, hi));
  EXOCPP_ASSERT(static_cast<int>(field_list(w, field).size()) == hi - lo,
                "Edit::wrap: the wrapper must hold exactly the wrapped statements");
  apply(path, lo, hi, {w}, fwd_wrap(path, lo, hi, field));
  return *this;
}

Edit& Edit::unwrap(const BlockPath& path, int at, BlockField field) {
  Block inner = field_list(stmt_at(node_.body, path, at), field);
  const int n = static_cast<int>(inner.size());
  apply(path, at, at + 1, inner, fwd_unwrap(path, at, n, field));
  return *this;
}

Edit& Edit::split(const BlockPath& path, int at, BlockField field, int k, Stmt first, Stmt second) {
  EXOCPP_ASSERT(0 <= at && at < list_size(node_.body, path),
                "Edit::split: a statement outside its list");
  const int n = static_cast<int>(field_list(stmt_at(node_.body, path, at), field).size());
  EXOCPP_ASSERT(0 < k && k < n && static_cast<int>(field_list(first, field).size()) == k &&
                    static_cast<int>(field_list(second, field).size()) == n - k,
                "Edit::split: the copies must hold the statements before and after the gap");
  apply(path, at, at + 1, {std::move(first), std::move(second)}, fwd_split(path, at, field, k));
  return *this;
}

Edit& Edit::merge(const BlockPath& path, int at, Stmt merged, Second second) {
  EXOCPP_ASSERT(0 <= at && at + 2 <= list_size(node_.body, path),
                "Edit::merge: statements outside their list");
  const Stmt s1 = stmt_at(node_.body, path, at), s2 = stmt_at(node_.body, path, at + 1);
  auto size = [](const Stmt& s, BlockField f) {
    if (f == BlockField::Orelse && !s.is<IfNode>()) return 0;
    return static_cast<int>(field_list(s, f).size());
  };
  const bool append = second == Second::Appended;
  for (BlockField f : {BlockField::Body, BlockField::Orelse})
    EXOCPP_ASSERT(size(merged, f) == size(s1, f) + (append ? size(s2, f) : 0),
                  "Edit::merge: the merged statement must hold the lists of the first" +
                      std::string(append ? " followed by those of the second" : ""));
  apply(path, at, at + 2, {std::move(merged)},
        fwd_merge(path, at, append, size(s1, BlockField::Body), size(s1, BlockField::Orelse)));
  return *this;
}

Edit& Edit::interchange(const BlockPath& path, int at, BlockField field, Stmt with) {
  EXOCPP_ASSERT(0 <= at && at < list_size(node_.body, path),
                "Edit::interchange: a statement outside its list");
  EXOCPP_ASSERT(field_list(stmt_at(node_.body, path, at), field).size() == 1,
                "Edit::interchange: the statement must hold exactly one child");
  apply(path, at, at + 1, {std::move(with)}, fwd_interchange(path, at, field));
  return *this;
}

Edit& Edit::move(const BlockPath& from, int from_idx, const BlockPath& to, int to_idx) {
  Stmt s = stmt_at(node_.body, from, from_idx);
  node_.body = replace_stmts(node_.body, from, from_idx, from_idx + 1, {});
  EXOCPP_ASSERT(0 <= to_idx && to_idx <= list_size(node_.body, to),
                "Edit::move: a destination outside its list");
  apply(to, to_idx, to_idx, {s}, fwd_move_stmt(from, from_idx, to, to_idx));
  return *this;
}

Edit& Edit::swap(const BlockPath& path, int lo, int hi, int hi2) {
  EXOCPP_ASSERT(0 <= lo && lo < hi && hi < hi2 && hi2 <= list_size(node_.body, path),
                "Edit::swap: ranges outside their list");
  Block swapped = slice(node_.body, path, hi, hi2);
  for (const Stmt& s : slice(node_.body, path, lo, hi)) swapped.push_back(s);
  apply(path, lo, hi2, swapped, fwd_swap(path, lo, hi, hi2));
  return *this;
}

Edit& Edit::expr(const Loc& at, const Expr& with, ExprMoves inside) {
  EXOCPP_ASSERT(at.kind == CursorKind::Expr, "Edit::expr needs an expression location");
  Stmt s = stmt_at(node_.body, at.block, at.lo);
  apply(at.block, at.lo, at.lo + 1, {replace_expr(s, at.expr, with)},
        fwd_expr(at, std::move(inside)));
  return *this;
}

Edit& Edit::keep_child(const Loc& at, int child) {
  EXOCPP_ASSERT(at.kind == CursorKind::Expr, "Edit::keep_child needs an expression location");
  Stmt s = stmt_at(node_.body, at.block, at.lo);
  std::vector<Expr> children = expr_children(expr_at(s, at.expr));
  EXOCPP_ASSERT(0 <= child && child < static_cast<int>(children.size()),
                "Edit::keep_child: no such child");
  apply(at.block, at.lo, at.lo + 1,
        {replace_expr(s, at.expr, children[static_cast<size_t>(child)])},
        fwd_keep_child(at, child));
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

Proc Edit::candidate() const { return Proc(ProcNode::make(node_)); }

Proc Edit::done() const { return derive_proc(from_, ProcNode::make(node_), fwd_); }

BlockPath child_path(const Cursor& c, BlockField field) {
  BlockPath p = c.loc().block;
  p.push_back({c.loc().lo, field});
  return p;
}

}  // namespace exocpp::rw
