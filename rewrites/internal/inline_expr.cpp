// See inline_expr.h.
#include "rewrites/internal/inline_expr.h"

#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"

namespace exocpp::rw {

ProducerNest producer_nest(const Stmt& s) {
  ProducerNest n;
  Stmt at = s;
  while (const ForNode* f = at.as<ForNode>()) {
    n.loops.push_back(f);
    n.body = f->body;
    if (f->body.size() != 1) break;
    at = f->body[0];
  }
  n.store = n.body.empty() ? nullptr : n.body.back().as<AssignNode>();
  return n;
}

void require_store_keeps_value(const Cursor& where, const Sym& buf, const Expr& e, ScalarKind to) {
  if (store_keeps_value(e, to)) return;
  fail(reason::kPrecisionStore, where,
       "'" + buf.name() + "' (" + to_string(to) + ") does not hold the value of '" + to_string(e) +
           "' (of type " + to_string(e.type().base) +
           ") exactly: the store rounds or wraps it, so the expression cannot stand for it");
}

void require_inputs_unwritten(const Cursor& where, const Proc& p, const Block& rest,
                              const std::vector<Expr>& inputs, const std::string& after) {
  WindowAliases roots = WindowAliases::of_proc(p);
  Access in_rest = accesses(rest, roots);
  for (const Expr& e : inputs) {
    Access in_e = accesses(e, roots);
    for (const Sym& b : in_e.reads)
      if (in_rest.writes.count(b))
        fail(reason::kDepReadWritten, where,
             "'" + to_string(e) + "' reads '" + b.name() + "', which is written " + after);
    for (const std::string& f : in_e.config_reads)
      if (in_rest.config_writes.count(f) || in_rest.config_writes.count("*"))
        fail(
            reason::kDepReadWritten, where,
            "'" + to_string(e) + "' reads config field '" + f + "', which may be written " + after);
  }
}

std::vector<std::vector<Expr>> own_reads(const Stmt& s, const Sym& buf) {
  struct V : OwnExprVisitor {
    Sym buf;
    std::vector<std::vector<Expr>> out;
    void visit_Read(const ReadNode* n, const Expr& e) override {
      if (n->name == buf) out.push_back(n->idx);
      IRVisitor::visit_Read(n, e);
    }
  } v;
  v.buf = buf;
  v.visit(s);
  return v.out;
}

void require_arithmetic_kept(const Cursor& where, const Block& before, const Block& after,
                             const std::string& what) {
  std::optional<ArithmeticChange> d = changed_arithmetic(before, after);
  if (!d) return;
  auto arith = [](const Expr& x) {
    if (takes_context_precision(x)) return std::string("the precision around it (literals only)");
    ScalarKind t = x.type().base;
    if (!is_data(t)) return std::string("control arithmetic (") + to_string(t) + ")";
    if (is_int_precision(t)) return std::string("32-bit int (") + to_string(t) + ")";
    return std::string(to_string(t));
  };
  fail(reason::kPrecisionContext, where,
       what + " changes how '" + to_string(d->first) + "' computes: it computed in " +
           arith(d->first) + ", and as '" + to_string(d->second) + "' it would compute in " +
           arith(d->second));
}

void typecheck_substituted(const Cursor& where, Edit& edit, const Sym& buf, const Expr& e,
                           ScalarKind to) {
  if (e.type().base == to) return;
  const SrcInfo at = where.stmt().srcinfo();
  typecheck_candidate(edit.node(), "'" + to_string(e) + "' cannot stand for '" + buf.name() + "'",
                      &at);
}

}  // namespace exocpp::rw
