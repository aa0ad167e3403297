// Generic traversal of the IR: a read-only visitor and a mutator that shares every subtree it
// did not change (so a rewrite copies only the path it touches).
#pragma once

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

// Structural equality: same node kinds, symbols, constants and children (types follow).
bool expr_equal(const Expr& a, const Expr& b);
bool expr_equal(const std::vector<Expr>& a, const std::vector<Expr>& b);

// True when the two lists hold the very same nodes.
bool same_nodes(const std::vector<Expr>& a, const std::vector<Expr>& b);
bool same_nodes(const Block& a, const Block& b);

}  // namespace exocpp
