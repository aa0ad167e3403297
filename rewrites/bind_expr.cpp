// bind_expr: bind equal data expressions to a new scalar buffer.
//
//   a = 32.0 * x[i] + 4.0           b : R @ DRAM
//                          -->      b = 32.0 * x[i]
//                                   a = b + 4.0
//
// The binding goes right before the statement holding the first expression when every other
// expression sits in a statement of that same list, at or after it; otherwise it is hoisted
// (below) before the statement of their innermost common list that holds the first one. Legality:
// the expressions are equal (same structure), of a data type, and the statements from the binding
// up to the last occurrence's statement commute with computing the expression
// (checker::stmts_commute): none of them writes a location it reads.
//
// Precision: the new buffer must hold the expression's value exactly (rw::store_keeps_value,
// rewrites/internal/precision.h): it gets the expression's own type when that keeps the value (any
// float expression, a read), else i32 for integer arithmetic (`x[i] * 2` in i8 is computed in
// 32-bit int and would wrap in an i8 buffer); a bare float literal that is not exact in every
// precision is refused, and so is a result that no longer type-checks (an i32 temporary in an
// i8 operation) or in which an operator or extern around an occurrence computes in another
// arithmetic (rw::require_arithmetic_kept: relu() of an i8 value rounds to i8, of an i32 one not).
//
// Hoisting (with `before`): the binding goes before statement `before` of an enclosing list,
// and the expressions may sit at any depth inside that statement or later ones of its list.
// Legality: the expression reads only names in scope at `before` (no loop variable or buffer
// bound inside those statements), and those statements, from `before` to the one holding the
// last occurrence, write nothing it reads (rw::require_inputs_unwritten): every occurrence then
// has the value it had at `before`.
//
// One more precision case keeps integer arithmetic in its own type even though the store
// may wrap it: when every occurrence reaches its statement's store only through +, - and *
// (unary minus too), and that statement assigns or reduces into an integer precision no wider
// than the expression's (`s_ui16 = (a + b) + c`: a + b bound into ui16). Those operations are
// computed modulo 2^32, so the stored value modulo 2^bits depends only on each operand modulo
// 2^bits, and the bound value is that operand modulo 2^bits: the store wraps to the same value.
#include <algorithm>

#include "checker/context.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/inline_expr.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace {

// Whether the expression at cursor `c` reaches its statement's store only through +, -, * and
// unary minus, the statement assigning or reducing into integer precision `to`.
bool wraps_into_store(const Cursor& c, ScalarKind* to) {
  const Stmt s = c.list()[static_cast<size_t>(c.loc().lo)];
  const std::vector<int>& steps = c.loc().expr;
  size_t rhs_index = 0;
  if (const AssignNode* a = s.as<AssignNode>()) {
    *to = a->type;
    rhs_index = a->idx.size();
  } else if (const ReduceNode* r = s.as<ReduceNode>()) {
    *to = r->type;
    rhs_index = r->idx.size();
  } else {
    return false;
  }
  if (!is_int_precision(*to) || steps.empty() || steps[0] != static_cast<int>(rhs_index))
    return false;
  Expr e = expr_at(s, {steps[0]});
  for (size_t k = 1; k < steps.size(); ++k) {
    if (const BinOpNode* b = e.as<BinOpNode>()) {
      if (b->op != BinOpKind::Add && b->op != BinOpKind::Sub && b->op != BinOpKind::Mul)
        return false;
    } else if (!e.as<USubNode>()) {
      return false;
    }
    e = expr_children(e)[static_cast<size_t>(steps[k])];
  }
  return true;
}

// The number of values of integer precision k (2^bits).
int64_t span(ScalarKind k) {
  auto [lo, hi] = int_precision_limits(k);
  return hi - lo + 1;
}

// Refuses a data expression `e` that is not a value (a tensor, a control value).
void require_data_value(const Cursor& first, const Expr& e) {
  if (!e.type().is_scalar() || !e.type().is_data())
    rw::fail(reason::kTargetWrongKind, first,
             "'" + to_string(e) + "' is not a data value (only data expressions can be bound)");
}

// Refuses an occurrence that differs from `e` or that is a call's buffer argument.
void require_bindable_occurrence(const Cursor& c, const Expr& e) {
  if (!expr_equal(c.expr(), e))
    rw::fail(reason::kArgInvalid, c,
             "'" + to_string(c.expr()) + "' differs from '" + to_string(e) + "'");
  if (rw::is_call_buffer_argument(c))
    rw::fail(reason::kTargetWrongKind, c,
             "'" + to_string(c.expr()) +
                 "' is a buffer argument of the call: the callee receives its location, not a "
                 "value, so the callee's writes would no longer reach it");
}

// The binding's type (binding_precision), or a refusal when no precision holds e's value.
Type binding_type(const Cursor& first, const std::vector<Cursor>& cs, const Expr& e);

// Type-checks the edited proc when the binding's precision differs from e's own: the new
// temporary must fit where e was used.
void typecheck_binding(rw::Edit& edit, const Expr& e, const Type& t, const SrcInfo& src) {
  if (t.base == e.type().base) return;
  rw::typecheck_candidate(edit.node(),
                          "'" + to_string(e) + "' of type " + to_string(e.type().base) +
                              " needs a " + to_string(t.base) +
                              " buffer to keep its value, but a " + to_string(t.base) +
                              " value does not fit where it is used",
                          &src);
}

// Every operator or extern around each occurrence keeps its arithmetic with the read `rd` of the
// binding in the occurrence's place (rw::require_arithmetic_kept): an i32 binding of i8
// arithmetic must not change the precision relu() rounds to, nor a literal's binding the
// precision of the operator it is an operand of.
void require_arithmetic_kept_at(const std::vector<Cursor>& cs, const Expr& rd) {
  for (const Cursor& c : cs) {
    const Stmt s = c.list()[static_cast<size_t>(c.loc().lo)];
    rw::require_arithmetic_kept(c, Block{s}, Block{replace_expr(s, c.loc().expr, rd)},
                                "reading '" + to_string(rd) + "' (" + to_string(rd.type().base) +
                                    ") where '" + to_string(c.expr()) + "' stood");
  }
}

}  // namespace

// The hoisted expression is evaluated at `at` even when the code holding it would not have
// evaluated it (a loop of no iterations): it must not fault there. Refuses an integer division
// or modulo of data (a zero divisor is an error) and proves every element it reads lies in its
// buffer at `at` (an index valid only inside the loop would read outside).
void rw::require_safe_to_evaluate_at(const Cursor& at, const Cursor& where, const Expr& e,
                                     const std::string& why) {
  const std::vector<ScopeVar> scope = rw::scope_at(at);
  struct Faults : IRVisitor {
    std::vector<const BinOpNode*> divisions;
    std::vector<const ReadNode*> reads;
    void visit_BinOp(const BinOpNode* n, const Expr& x) override {
      if ((n->op == BinOpKind::Div || n->op == BinOpKind::Mod) && x.type().is_data() &&
          !is_float(x.type().base))
        divisions.push_back(n);
      IRVisitor::visit_BinOp(n, x);
    }
    void visit_Read(const ReadNode* n, const Expr& x) override {
      if (!n->idx.empty()) reads.push_back(n);
      IRVisitor::visit_Read(n, x);
    }
  } f;
  f.visit(e);
  if (!f.divisions.empty())
    rw::fail(reason::kExprUnsafeToMove, where,
             "'" + to_string(e) +
                 "' divides integer data: hoisted, it could divide by zero where the original "
                 "never evaluated it");
  const checker::Context ctx = checker::Context::at(at);
  for (const ReadNode* r : f.reads) {
    const auto v = std::find_if(scope.begin(), scope.end(),
                                [&](const ScopeVar& s) { return s.sym == r->name; });
    if (v == scope.end() || v->type.shape.size() != r->idx.size())
      rw::fail(reason::kExprUnsafeToMove, where,
               "cannot check that the read of " + r->name.name() +
                   " lies in its buffer where the binding goes");
    for (size_t d = 0; d < r->idx.size(); ++d)
      rw::require_proved(
          where, checker::always_in_range(ctx, r->idx[d], rw::int_const(0), v->type.shape[d]),
          [&] {
            return "the read of " + r->name.name() + " at index '" + to_string(r->idx[d]) +
                   "' (dimension " + std::to_string(d) + ") lies in the buffer " + why;
          },
          reason::kExprUnsafeToMove);
  }
}

namespace {

// The precision of the binding: one that keeps the value, or the expression's own integer
// precision when every occurrence wraps into a store no wider (see above).
std::optional<ScalarKind> binding_precision(const std::vector<Cursor>& cs, const Expr& e) {
  const ScalarKind own = e.type().base;
  if (is_int_precision(own) && rw::is_integer_arith(e)) {
    bool all = true;
    for (const Cursor& c : cs) {
      ScalarKind to{};
      all = all && wraps_into_store(c, &to) && span(own) >= span(to);
    }
    if (all) return own;
  }
  return rw::precision_keeping(e);
}

Type binding_type(const Cursor& first, const std::vector<Cursor>& cs, const Expr& e) {
  std::optional<ScalarKind> prec = binding_precision(cs, e);
  if (!prec)
    rw::fail(reason::kPrecisionStore, first,
             "no buffer precision holds the value of '" + to_string(e) + "' (of type " +
                 to_string(e.type().base) +
                 ") exactly: storing it would round or wrap it where the original does not");
  return Type(*prec);
}
// The statement of the innermost statement list enclosing every cursor of `cs` that holds
// the first of them (cs sorted, non-empty).
Cursor common_statement(const Proc& p, const std::vector<Cursor>& cs) {
  BlockPath common = cs.front().loc().block;
  for (const Cursor& c : cs) {
    const BlockPath& b = c.loc().block;
    size_t n = 0;
    while (n < common.size() && n < b.size() && common[n] == b[n]) ++n;
    common.resize(n);
  }
  const Loc& first = cs.front().loc();
  const int k = first.block.size() == common.size() ? first.lo : first.block[common.size()].index;
  Loc at;
  at.kind = CursorKind::Stmt;
  at.block = common;
  at.lo = k;
  at.hi = k + 1;
  return Cursor(p, at);
}
}  // namespace

Proc bind_expr(const Proc& p, const CursorLike& expr, const std::string& new_name) {
  return bind_expr(p, std::vector<CursorLike>{expr}, new_name);
}

Proc bind_expr(const Proc& p, const std::vector<CursorLike>& exprs, const std::string& new_name) {
  return rw::run_op("bind_expr", [&]() -> Proc {
    if (exprs.empty()) rw::fail(reason::kArgInvalid, p->srcinfo, "no expression to bind");
    std::vector<Cursor> cs;
    for (const CursorLike& e : exprs) cs.push_back(rw::resolve_expr(p, e));
    std::sort(cs.begin(), cs.end(), [](const Cursor& a, const Cursor& b) {
      return a.loc().lo != b.loc().lo ? a.loc().lo < b.loc().lo : a.loc().expr < b.loc().expr;
    });
    const Cursor& first = cs.front();
    const Expr e = first.expr();
    const BlockPath path = first.loc().block;
    const int k0 = first.loc().lo;
    require_data_value(first, e);
    // Expressions in different statement lists (Exo's test_bind_expr_cse_2: one constant in two
    // loops): the binding is hoisted before the statement of their innermost common list that
    // holds the first one, with the hoisting checks.
    if (std::any_of(cs.begin(), cs.end(),
                    [&](const Cursor& c) { return !(c.loc().block == path); }))
      return bind_expr(p, exprs, new_name, common_statement(p, cs));
    for (const Cursor& c : cs) require_bindable_occurrence(c, e);
    for (size_t i = 1; i < cs.size(); ++i)
      if (cs[i].loc() == cs[i - 1].loc())
        rw::fail(reason::kArgInvalid, cs[i], "the same expression is named twice");
    const Block& list = first.list();
    const int k_last = cs.back().loc().lo;
    Sym b = rw::fresh_name(p, new_name, first);
    SrcInfo src = list[k0].srcinfo();
    const Type t = binding_type(first, cs, e);
    Stmt alloc = AllocNode::make(b, t, "DRAM", src);
    Stmt assign = AssignNode::make(b, t.base, {}, e, src);
    // Nothing between the binding and the last occurrence may change the expression's value:
    // computing it before those statements or after them must be the same (checker).
    if (k_last > k0) {
      Block between(list.begin() + k0, list.begin() + k_last);
      checker::Answer ans =
          checker::stmts_commute(checker::Context::at(p, between), between, Block{alloc, assign});
      rw::require_proved(cs.back(), ans, [&] {
        return "the statements between the binding and the last occurrence leave '" + to_string(e) +
               "' unchanged";
      });
    }

    // Build: alloc + assignment before statement k0; occurrences replaced by reads of b.
    Expr rd = ReadNode::make(b, {}, t, e.srcinfo());
    require_arithmetic_kept_at(cs, rd);
    Block stmts(list.begin() + k0, list.begin() + k_last + 1);
    for (const Cursor& c : cs) {
      int j = c.loc().lo - k0;
      stmts[j] = replace_expr(stmts[j], c.loc().expr, rd);
    }
    // The two new statements go before k0; the statements using `b` are rewritten in place.
    rw::Edit edit(p);
    edit.insert(path, k0, {alloc, assign}).rewrite(path, k0 + 2, k_last + 3, stmts);
    typecheck_binding(edit, e, t, src);
    return edit.done();
  });
}

Proc bind_expr(const Proc& p, const std::vector<CursorLike>& exprs, const std::string& new_name,
               const CursorLike& before) {
  return rw::run_op("bind_expr", [&]() -> Proc {
    if (exprs.empty()) rw::fail(reason::kArgInvalid, p->srcinfo, "no expression to bind");
    const Cursor at = rw::resolve_stmt(p, before);
    const BlockPath& path = at.loc().block;
    const int k0 = at.loc().lo;
    std::vector<Cursor> cs;
    for (const CursorLike& x : exprs) cs.push_back(rw::resolve_expr(p, x));
    const Expr e = cs.front().expr();
    require_data_value(cs.front(), e);
    // The statement of `before`'s list holding each occurrence.
    int k_last = k0;
    for (const Cursor& c : cs) {
      const Loc& l = c.loc();
      const bool same_list = l.block == path;
      const bool nested =
          l.block.size() > path.size() && std::equal(path.begin(), path.end(), l.block.begin());
      const int k = same_list ? l.lo : nested ? l.block[path.size()].index : -1;
      if (k < k0)
        rw::fail(reason::kStmtOrder, c,
                 "'" + to_string(c.expr()) +
                     "' is not inside the statement the binding goes "
                     "before, nor inside a later statement of its list");
      require_bindable_occurrence(c, e);
      k_last = std::max(k_last, k);
    }
    for (size_t i = 0; i < cs.size(); ++i)
      for (size_t j = i + 1; j < cs.size(); ++j)
        if (cs[i].loc() == cs[j].loc())
          rw::fail(reason::kArgInvalid, cs[j], "the same expression is named twice");
    // Only names visible at `before`.
    const std::vector<ScopeVar> scope = rw::scope_at(at);
    for (const Sym& name : uses_of(e).read)
      if (std::none_of(scope.begin(), scope.end(),
                       [&](const ScopeVar& v) { return v.sym == name; }))
        rw::fail(reason::kScopeNotVisible, cs.front(),
                 "'" + to_string(e) + "' reads '" + name.name() +
                     "', which is not visible before the statement the binding goes before");
    const Block& list = at.list();
    Block span(list.begin() + k0, list.begin() + k_last + 1);
    rw::require_inputs_unwritten(cs.front(), p, span, {e}, "between the binding and its last use");
    rw::require_safe_to_evaluate_at(
        at, cs.front(), e,
        "where the binding goes, since it is evaluated there even if the code holding it never "
        "runs");
    const Type t = binding_type(cs.front(), cs, e);
    Sym b = rw::fresh_name(p, new_name, at);
    const SrcInfo src = list[k0].srcinfo();
    Expr rd = ReadNode::make(b, {}, t, e.srcinfo());
    require_arithmetic_kept_at(cs, rd);
    rw::Edit edit(p);
    for (const Cursor& c : cs) edit.expr(c.loc(), rd);
    edit.insert(path, k0,
                {AllocNode::make(b, t, "DRAM", src), AssignNode::make(b, t.base, {}, e, src)});
    typecheck_binding(edit, e, t, src);
    return edit.done();
  });
}

}  // namespace exocpp
