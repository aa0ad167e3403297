// Generic traversal of the IR: a read-only visitor and a mutator that shares every subtree it
// did not change (so a rewrite copies only the path it touches).
#pragma once

#include <optional>
#include <type_traits>

#include "core/ir.h"

namespace exocpp {

// Walks every expression and statement. Override the visit_* methods you care about and call
// the base version to keep recursing.
class IRVisitor {
 public:
  virtual ~IRVisitor() = default;
  virtual void visit(const Expr& e);
  virtual void visit(const Stmt& s);
  void visit(const Block& b) {
    for (const Stmt& s : b) visit(s);
  }
  void visit_type(const Type& t) {
    for (const Expr& e : t.shape) visit(e);
  }
  // Visits args' shapes, preds and body.
  void visit_proc(const ProcNode& p);

 protected:
#define X(N) virtual void visit_##N(const N##Node* n, const Expr& e);
  EXOCPP_FOR_EACH_EXPR(X)
#undef X
#define X(N) virtual void visit_##N(const N##Node* n, const Stmt& s);
  EXOCPP_FOR_EACH_STMT(X)
#undef X
};

// Rebuilds the IR bottom-up. A node whose children all come back unchanged (same_as) is
// returned as is. Override the mutate_* methods for the nodes you rewrite.
class IRMutator {
 public:
  virtual ~IRMutator() = default;
  virtual Expr mutate(const Expr& e);
  virtual Stmt mutate(const Stmt& s);
  // A statement may become zero or several statements; the default wraps mutate(s).
  virtual Block mutate_to_block(const Stmt& s);
  Block mutate(const Block& b);
  Type mutate_type(const Type& t);
  std::vector<Expr> mutate(const std::vector<Expr>& es);
  // A new proc with mutated arg types, preds and body; the same proc if nothing changed.
  Proc mutate_proc(const Proc& p);

 protected:
#define X(N) virtual Expr mutate_##N(const N##Node* n, const Expr& e);
  EXOCPP_FOR_EACH_EXPR(X)
#undef X
#define X(N) virtual Stmt mutate_##N(const N##Node* n, const Stmt& s);
  EXOCPP_FOR_EACH_STMT(X)
#undef X
};

// One-off walks without a visitor class (Halide's visit_with): `f` is called on every
// expression (for_each_expr) or statement (for_each_stmt) of `code`, each node before its
// children, in program order, over what IRVisitor walks: indices, right-hand sides, loop bounds,
// conditions, window accesses, call arguments and allocation shapes. `code` is an Expr, a Stmt
// or a Block.
//
//   int reads = 0;
//   for_each_expr(body, [&](const Expr& e) { reads += e.is<ReadNode>(); });
template <class Code, class F>
void for_each_expr(const Code& code, F&& f);
template <class Code, class F>
void for_each_stmt(const Code& code, F&& f);

// A one-off rewrite without a mutator class: `f` is asked about every expression of `code`
// (what IRMutator reaches), each node before its children. Where it returns an expression, that
// replaces the node and the walk does not enter it; where it returns std::nullopt, the walk goes
// on into the node's children. Unchanged subtrees are shared (IRMutator). `code` is an Expr, a
// Stmt or a Block; the result has the same kind.
//
//   Block b2 = map_exprs(body, [&](const Expr& e) -> std::optional<Expr> {
//     if (const ReadNode* r = e.as<ReadNode>(); r && r->name == x) return value;
//     return std::nullopt;
//   });
template <class Code, class F>
Code map_exprs(const Code& code, F&& f);

// Structural equality: same node kinds, symbols, constants and children (types follow).
bool expr_equal(const Expr& a, const Expr& b);
bool expr_equal(const std::vector<Expr>& a, const std::vector<Expr>& b);

// True when the two lists hold the very same nodes.
bool same_nodes(const std::vector<Expr>& a, const std::vector<Expr>& b);
bool same_nodes(const Block& a, const Block& b);

namespace ir_visit_detail {
template <class F>
struct EachExpr : IRVisitor {
  F& f;
  explicit EachExpr(F& fn) : f(fn) {}
  using IRVisitor::visit;
  void visit(const Expr& e) override {
    if (!e.defined()) return;
    f(e);
    IRVisitor::visit(e);
  }
};
template <class F>
struct EachStmt : IRVisitor {
  F& f;
  explicit EachStmt(F& fn) : f(fn) {}
  using IRVisitor::visit;
  void visit(const Expr&) override {}  // statements only
  void visit(const Stmt& s) override {
    if (!s.defined()) return;
    f(s);
    IRVisitor::visit(s);
  }
};
template <class F>
struct MapExprs : IRMutator {
  F& f;
  explicit MapExprs(F& fn) : f(fn) {}
  using IRMutator::mutate;
  Expr mutate(const Expr& e) override {
    if (!e.defined()) return e;
    if (std::optional<Expr> r = f(e)) return *r;
    return IRMutator::mutate(e);
  }
};
}  // namespace ir_visit_detail

template <class Code, class F>
void for_each_expr(const Code& code, F&& f) {
  ir_visit_detail::EachExpr<std::remove_reference_t<F>> v(f);
  v.visit(code);
}
template <class Code, class F>
void for_each_stmt(const Code& code, F&& f) {
  ir_visit_detail::EachStmt<std::remove_reference_t<F>> v(f);
  v.visit(code);
}

template <class Code, class F>
Code map_exprs(const Code& code, F&& f) {
  ir_visit_detail::MapExprs<std::remove_reference_t<F>> m(f);
  return m.mutate(code);
}

}  // namespace exocpp
