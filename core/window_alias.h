// Which buffer a window views, and where: the one answer to "what storage does this name reach"
// for every layer (the checker's effects, the type checker's config and CUDA rules, codegen's
// written arguments and frees, the rewrites' alias and stride questions).
//
// The shared term, defined once:
//
//   A VIEW of buffer `root` maps indices of a name onto indices of `root`: one WAccess per
//   dimension of `root`. A point fixes that root dimension; an interval `lo:hi` keeps it, and
//   the next index i of the name lands at `lo + i`. No accesses at all is the IDENTITY view:
//   indices pass through unchanged (a buffer itself, or a callee parameter bound to a whole
//   buffer).
//
//   A window statement `w = x[acc...]` makes w a view of x's ROOT (x's own view composed with
//   acc); x is w's PARENT. Names no window statement binds (arguments, allocations) are their
//   own root, with the identity view.
//
// What stays at the call sites: the memory each name lives in (the root's, where a site needs
// it) and callee read/write summaries; this module knows names and indices, not memories or
// effects. Arithmetic on offsets is the caller's choice (IndexAdd): the checker adds plainly,
// the rewrites simplify.
#pragma once

#include <optional>
#include <unordered_map>
#include <vector>

#include "core/ir.h"

namespace exocpp {

// How an offset is added to an index: `add_offset` (plain), or a simplifying add.
using IndexAdd = Expr (*)(const Expr&, const Expr&);
// a + b, with a constant 0 on either side dropped (no other simplification).
Expr add_offset(const Expr& a, const Expr& b);

// The accesses of `outer[inner]`: `outer` is a window's accesses of its buffer, `inner` the
// accesses of a window of that window (one per interval of `outer`). Points of `outer` stay;
// each interval of `outer` takes the next access of `inner`, offset by its `lo`. An interval
// left over when `inner` runs out stays as it is (only ill-typed code has too few).
std::vector<WAccess> compose_accesses(const std::vector<WAccess>& outer,
                                      const std::vector<WAccess>& inner, IndexAdd add = add_offset);
// The indices of the buffer for indices `idx` of a window with accesses `accesses`: each
// point's expression, each interval's `lo + ` the next index (its `lo` alone once `idx` runs
// out).
std::vector<Expr> indices_through(const std::vector<WAccess>& accesses,
                                  const std::vector<Expr>& idx, IndexAdd add = add_offset);
// The dimension of the buffer that dimension `window_dim` of a window with accesses
// `accesses` is (the window_dim-th interval); nullopt when the window has no such dimension.
std::optional<int> dim_through(const std::vector<WAccess>& accesses, int window_dim);

struct WindowView {
  Sym root;
  std::vector<WAccess> dims;  // one per dimension of root; empty: the identity view

  bool is_identity() const { return dims.empty(); }
  // The number of dimensions of the name (the intervals); -1 for the identity view, whose rank
  // is its root's, which the view does not know.
  int rank() const;
  // The root dimensions the name keeps (its intervals), in order; empty for the identity view.
  std::vector<int> kept() const;
  // The root dimension that the name's dimension `window_dim` is; window_dim itself for the
  // identity view; nullopt when the name has no such dimension.
  std::optional<int> root_dim(int window_dim) const;
  // The root location of the name's element `idx` (see indices_through).
  std::vector<Expr> to_root(const std::vector<Expr>& idx, IndexAdd add = add_offset) const;
  // The view of `name[inner]`, for a name with this view: the identity view takes `inner` as
  // written; any other composes (compose_accesses).
  WindowView compose(const std::vector<WAccess>& inner, IndexAdd add = add_offset) const;
};

// The window bindings in force at a point of a proc: for each window name, its parent and its
// view of its root. Build it whole (of_proc) or walk the code binding each window statement as
// it is reached (bind; unbind where a scope ends). A binding is resolved when it is made: a later
// binding of the parent does not change it, as a window's bounds are evaluated once, at its
// statement.
class WindowAliases {
 public:
  // Every window statement of `p`'s body, in program order. A name bound by two statements
  // (copies of one statement) keeps its first binding; a site that needs the binding in force
  // at a point walks the code with bind/unbind instead.
  static WindowAliases of_proc(const ProcNode& p);
  static WindowAliases of_proc(const Proc& p);

  // `name = rhs` (a window statement): name's parent is rhs.name, its view rhs composed onto
  // rhs.name's view. A name bound before is bound anew.
  void bind(const Sym& name, const WindowExprNode& rhs);
  // `name` views `view.root` through `view` directly (its parent is view.root): a callee's
  // buffer parameter bound to a caller's buffer, window or element.
  void bind(const Sym& name, WindowView view);
  void unbind(const Sym& name);

  bool is_bound(const Sym& name) const { return bound_.count(name) > 0; }
  bool empty() const { return bound_.empty(); }

  // The buffer whose storage `name` reaches; `name` itself when unbound.
  Sym root(const Sym& name) const;
  // The name `name` is a window of; `name` itself when unbound.
  Sym parent(const Sym& name) const;
  // name, its parent, the parent's parent, ..., its root (one entry when unbound).
  std::vector<Sym> chain(const Sym& name) const;
  // The names through which code reaches `root`'s storage: `root` first, then every bound name
  // whose root is `root`, in binding order.
  std::vector<Sym> names_of(const Sym& root) const;

  // name's view of its root; the identity view of `name` when unbound.
  WindowView view(const Sym& name) const;
  // The view window expression `w` denotes: view(w.name) composed with w's accesses.
  WindowView view_of(const WindowExprNode& w, IndexAdd add = add_offset) const;
  // The view a call argument hands its callee: a window expression's, a buffer's or window's
  // passed whole, or an element `x[i, j]` (all points: a view of rank 0). nullopt for a control
  // value (a control variable, a constant, arithmetic).
  std::optional<WindowView> view_of_arg(const Expr& arg) const;

 private:
  struct Binding {
    Sym parent;
    WindowView view;
  };
  std::unordered_map<Sym, Binding, SymHash> bound_;
  std::vector<Sym> order_;  // bound names, in binding order (names_of)
};

}  // namespace exocpp
