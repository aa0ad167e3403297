// Index-expression builders (rewrites/internal/expr_build.h).
#include "rewrites/internal/expr_build.h"

#include "core/ir_visit.h"
#include "core/simplify.h"

namespace exocpp::rw {
namespace {

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

const ConstNode* int_const_node(const Expr& e) {
  const ConstNode* c = e.as<ConstNode>();
  return c && c->is_int() ? c : nullptr;
}

}  // namespace

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
Expr mk_cmp(BinOpKind op, const Expr& a, const Expr& b) { return mk_cmp(op, a, b, a.srcinfo()); }
Expr mk_cmp(BinOpKind op, const Expr& a, const Expr& b, const SrcInfo& si) {
  return BinOpNode::make(op, a, b, si);
}
Expr mk_and(const Expr& a, const Expr& b, const SrcInfo& si) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return BinOpNode::make(BinOpKind::And, a, b, si);
}
Expr mk_or(const Expr& a, const Expr& b, const SrcInfo& si) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return BinOpNode::make(BinOpKind::Or, a, b, si);
}
Expr mk_not(const Expr& cond) {
  return BinOpNode::make(BinOpKind::Eq, cond, ConstNode::make_bool(false), cond.srcinfo());
}
Expr exact_binop(BinOpKind op, const Expr& a, const Expr& b, const SrcInfo& si) {
  return BinOpNode::make(op, a, b, si);
}

Expr simplified_add(const Expr& a, const Expr& b) {
  const ConstNode *ca = int_const_node(a), *cb = int_const_node(b);
  if (ca && cb) return ConstNode::make_int(ca->int_val() + cb->int_val(), a.srcinfo());
  if (cb && cb->int_val() == 0) return a;
  if (ca && ca->int_val() == 0) return b;
  return simplify_expr(BinOpNode::make(BinOpKind::Add, a, b, a.srcinfo()));
}

Expr simplified_sub(const Expr& a, const Expr& b) {
  const ConstNode *ca = int_const_node(a), *cb = int_const_node(b);
  if (ca && cb) return ConstNode::make_int(ca->int_val() - cb->int_val(), a.srcinfo());
  if (cb && cb->int_val() == 0) return a;
  if (expr_equal(a, b)) return ConstNode::make_int(0, a.srcinfo());
  // (x + c) - c  ->  x  and  (c + x) - c  ->  x
  if (const BinOpNode* s = a.as<BinOpNode>(); s && s->op == BinOpKind::Add) {
    if (expr_equal(s->rhs, b)) return s->lhs;
    if (expr_equal(s->lhs, b)) return s->rhs;
  }
  return simplify_expr(BinOpNode::make(BinOpKind::Sub, a, b, a.srcinfo()));
}

}  // namespace exocpp::rw
