// Window views and the bindings of window names (core/window_alias.h).
#include "core/window_alias.h"

#include <algorithm>

#include "core/ir_visit.h"

namespace exocpp {

Expr add_offset(const Expr& a, const Expr& b) {
  if (const ConstNode* c = a.as<ConstNode>(); c && c->is_int() && c->int_val() == 0) return b;
  if (const ConstNode* c = b.as<ConstNode>(); c && c->is_int() && c->int_val() == 0) return a;
  return BinOpNode::make(BinOpKind::Add, a, b, b.srcinfo());
}

std::vector<WAccess> compose_accesses(const std::vector<WAccess>& outer,
                                      const std::vector<WAccess>& inner, IndexAdd add) {
  std::vector<WAccess> out;
  out.reserve(outer.size());
  size_t k = 0;
  for (const WAccess& d : outer) {
    if (!d.is_interval || k >= inner.size()) {
      out.push_back(d);
      continue;
    }
    const WAccess& m = inner[k++];
    out.push_back(m.is_interval ? WAccess::interval(add(d.lo, m.lo), add(d.lo, m.hi))
                                : WAccess::point(add(d.lo, m.lo)));
  }
  return out;
}

std::vector<Expr> indices_through(const std::vector<WAccess>& accesses,
                                  const std::vector<Expr>& idx, IndexAdd add) {
  std::vector<Expr> out;
  out.reserve(accesses.size());
  size_t k = 0;
  for (const WAccess& d : accesses)
    out.push_back(!d.is_interval || k >= idx.size() ? d.lo : add(d.lo, idx[k++]));
  return out;
}

std::optional<int> dim_through(const std::vector<WAccess>& accesses, int window_dim) {
  int k = 0;
  for (size_t d = 0; d < accesses.size(); ++d)
    if (accesses[d].is_interval && k++ == window_dim) return static_cast<int>(d);
  return std::nullopt;
}

int WindowView::rank() const {
  if (is_identity()) return -1;
  return static_cast<int>(kept().size());
}

std::vector<int> WindowView::kept() const {
  std::vector<int> out;
  for (size_t d = 0; d < dims.size(); ++d)
    if (dims[d].is_interval) out.push_back(static_cast<int>(d));
  return out;
}

std::optional<int> WindowView::root_dim(int window_dim) const {
  if (window_dim < 0) return std::nullopt;
  if (is_identity()) return window_dim;
  return dim_through(dims, window_dim);
}

std::vector<Expr> WindowView::to_root(const std::vector<Expr>& idx, IndexAdd add) const {
  if (is_identity()) return idx;
  return indices_through(dims, idx, add);
}

WindowView WindowView::compose(const std::vector<WAccess>& inner, IndexAdd add) const {
  if (is_identity()) return WindowView{root, inner};
  return WindowView{root, compose_accesses(dims, inner, add)};
}

WindowAliases WindowAliases::of_proc(const ProcNode& p) {
  WindowAliases out;
  for_each_stmt(p.body, [&](const Stmt& s) {
    const WindowStmtNode* n = s.as<WindowStmtNode>();
    const WindowExprNode* w = n ? n->rhs.as<WindowExprNode>() : nullptr;
    if (w != nullptr && !out.is_bound(n->name)) out.bind(n->name, *w);
  });
  return out;
}

WindowAliases WindowAliases::of_proc(const Proc& p) { return of_proc(*p.get()); }

void WindowAliases::bind(const Sym& name, const WindowExprNode& rhs) {
  WindowView v = view_of(rhs);
  unbind(name);
  bound_.emplace(name, Binding{rhs.name, std::move(v)});
  order_.push_back(name);
}

void WindowAliases::bind(const Sym& name, WindowView view) {
  Sym parent = view.root;
  unbind(name);
  bound_.emplace(name, Binding{std::move(parent), std::move(view)});
  order_.push_back(name);
}

void WindowAliases::unbind(const Sym& name) {
  if (bound_.erase(name) == 0) return;
  order_.erase(std::find(order_.begin(), order_.end(), name));
}

Sym WindowAliases::root(const Sym& name) const {
  auto it = bound_.find(name);
  return it == bound_.end() ? name : it->second.view.root;
}

Sym WindowAliases::parent(const Sym& name) const {
  auto it = bound_.find(name);
  return it == bound_.end() ? name : it->second.parent;
}

std::vector<Sym> WindowAliases::chain(const Sym& name) const {
  std::vector<Sym> out{name};
  // Each step moves to a name bound earlier, so the walk ends; the bound guards against a
  // cycle all the same (a name rebound to a window of itself).
  for (size_t guard = 0; guard < bound_.size(); ++guard) {
    auto it = bound_.find(out.back());
    if (it == bound_.end() || it->second.parent == out.back()) break;
    out.push_back(it->second.parent);
  }
  return out;
}

std::vector<Sym> WindowAliases::names_of(const Sym& root_sym) const {
  std::vector<Sym> out{root_sym};
  for (const Sym& n : order_)
    if (n != root_sym && root(n) == root_sym) out.push_back(n);
  return out;
}

WindowView WindowAliases::view(const Sym& name) const {
  auto it = bound_.find(name);
  return it == bound_.end() ? WindowView{name, {}} : it->second.view;
}

WindowView WindowAliases::view_of(const WindowExprNode& w, IndexAdd add) const {
  return view(w.name).compose(w.idx, add);
}

std::optional<WindowView> WindowAliases::view_of_arg(const Expr& arg) const {
  if (const WindowExprNode* w = arg.as<WindowExprNode>()) return view_of(*w);
  const ReadNode* r = arg.as<ReadNode>();
  if (r == nullptr || r->type.is_control()) return std::nullopt;
  if (r->idx.empty()) return view(r->name);
  WindowView v = view(r->name);
  WindowView out{v.root, {}};
  for (const Expr& e : v.to_root(r->idx)) out.dims.push_back(WAccess::point(e));
  return out;
}

}  // namespace exocpp
