// Private helpers of the operations that replace reads of a buffer by the expression stored in
// it (inline_assign, compute_inline): the checks that the expression may stand for the stored
// value at the reads, and the reads a statement makes of the buffer (with the visitor of a
// statement's own expressions, which resize_dim uses too).
#pragma once

#include <string>
#include <vector>

#include "core/cursor.h"
#include "core/ir.h"
#include "core/ir_visit.h"
#include "rewrites/internal/edit.h"

namespace exocpp::rw {

// A producer nest, as compute_inline and the composites built on it take it: loops each holding
// one statement, down to an innermost body (several statements or one non-loop). `loops` gets
// the loops, outermost first, and `body` that innermost body; the result is its last statement
// when that is an assignment (the store of the produced buffer), else null.
struct ProducerNest {
  std::vector<const ForNode*> loops;
  Block body;
  const AssignNode* store = nullptr;
};
ProducerNest producer_nest(const Stmt& s);

// Refuses (as `op`, at `where`) unless storing `e` in `buf`'s element type `to` keeps its value
// (store_keeps_value): a rounded or wrapped store cannot be replaced by the expression.
void require_store_keeps_value(const Cursor& where, const Sym& buf, const Expr& e, ScalarKind to);

// Refuses unless `rest` writes nothing that `inputs` read (buffers, also through the windows of
// `p`, and config fields; a call counts as writing every buffer it is passed and every config
// field), so that the expressions keep their values while `rest` runs. `after` names the point
// in the messages ("later in the block", "after the producer").
void require_inputs_unwritten(const Cursor& where, const Proc& p, const Block& rest,
                              const std::vector<Expr>& inputs, const std::string& after);

// A visitor of a statement's own expressions: a loop's bounds and an if's condition, not the
// statements nested in them (each of those is analysed in its own context).
struct OwnExprVisitor : IRVisitor {
  void visit_For(const ForNode* n, const Stmt&) override {
    visit(n->lo);
    visit(n->hi);
  }
  void visit_If(const IfNode* n, const Stmt&) override { visit(n->cond); }
};

// The index lists of the reads of `buf` made by statement `s` itself (its expressions, a
// loop's bounds, an if's condition; not the statements nested in it).
std::vector<std::vector<Expr>> own_reads(const Stmt& s, const Sym& buf);

// Refuses (code NotProved, reason id "precision.context") when a substitution that turned
// `before` into `after` (the same statements, some reads or expressions replaced by others of
// equal value) changed the arithmetic of an operator or extern above a replaced part
// (changed_arithmetic, internal/precision.h): `x: f32 = a_i8[i]; c = x / 2.0` must not become the
// integer division `a_i8[i] / 2.0`. `what` names the replacement in the message.
void require_arithmetic_kept(const Cursor& where, const Block& before, const Block& after,
                             const std::string& what);

// When `e`'s type differs from `buf`'s element type `to`, type-checks the edited proc, whose
// reads of `buf` now read `e` (refusing with the reason if `e` cannot stand there).
void typecheck_substituted(const Cursor& where, Edit& edit, const Sym& buf, const Expr& e,
                           ScalarKind to);

}  // namespace exocpp::rw
