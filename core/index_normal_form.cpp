// Exo's normal form of index expressions (core/index_normal_form.h). The steps follow Exo's
// `_DoNormalize` and `DoSimplify` (src/exo/rewrite/LoopIR_scheduling.py) so that the printed
// result is the one Exo prints; each is an identity of floor-division arithmetic.
#include "core/index_normal_form.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/int_arith.h"
#include "core/ir_visit.h"

namespace exocpp {

namespace {

bool is_int_const(const Expr& e, int64_t v) {
  const ConstNode* c = e.as<ConstNode>();
  return c && c->type.base != ScalarKind::Bool && !is_data(c->type.base) && c->int_val() == v;
}
const ConstNode* control_const(const Expr& e) {
  const ConstNode* c = e.as<ConstNode>();
  return c && !is_data(c->type.base) ? c : nullptr;
}

// ---- ranges ------------------------------------------------------------------------------

std::optional<int64_t> add_end(std::optional<int64_t> a, std::optional<int64_t> b) {
  int64_t s;
  if (!a || !b || !checked_add(*a, *b, &s)) return std::nullopt;
  return s;
}

IndexRange scale(const IndexRange& r, int64_t c) {
  auto mul = [c](std::optional<int64_t> x) -> std::optional<int64_t> {
    int64_t p;
    if (!x || !checked_mul(*x, c, &p)) return std::nullopt;
    return p;
  };
  if (c == 0) return {0, 0};
  if (c > 0) return {mul(r.lo), mul(r.hi)};
  return {mul(r.hi), mul(r.lo)};
}

// ---- affine maps -------------------------------------------------------------------------

// A variable's read (as written, keeping its type) and its coefficient.
using Term = std::pair<Expr, int64_t>;
const Sym& var_of(const Term& t) { return t.first.as<ReadNode>()->name; }

// constant + sum of coeff * var (Exo's coefficient map); terms in first-appearance order.
struct Affine {
  int64_t constant = 0;
  std::vector<Term> terms;

  bool add(const Expr& read, int64_t c) {
    const Sym& v = read.as<ReadNode>()->name;
    for (auto& t : terms)
      if (var_of(t) == v) return checked_add(t.second, c, &t.second);
    terms.emplace_back(read, c);
    return true;
  }
  bool is_constant() const {
    return std::all_of(terms.begin(), terms.end(), [](const auto& t) { return t.second == 0; });
  }
};

std::optional<Affine> affine_of(const Expr& e) {
  if (auto r = e.as<ReadNode>()) {
    if (!r->idx.empty() || !is_indexable(r->type.base)) return std::nullopt;
    Affine a;
    a.add(e, 1);
    return a;
  }
  if (auto c = control_const(e); c && c->type.base != ScalarKind::Bool) {
    Affine a;
    a.constant = c->int_val();
    return a;
  }
  if (auto u = e.as<USubNode>()) {
    auto a = affine_of(u->arg);
    if (!a || !checked_mul(a->constant, -1, &a->constant)) return std::nullopt;
    for (auto& t : a->terms)
      if (!checked_mul(t.second, -1, &t.second)) return std::nullopt;
    return a;
  }
  auto b = e.as<BinOpNode>();
  if (!b) return std::nullopt;
  auto l = affine_of(b->lhs), r = affine_of(b->rhs);
  if (!l || !r) return std::nullopt;
  switch (b->op) {
    case BinOpKind::Add:
    case BinOpKind::Sub: {
      const int64_t sign = b->op == BinOpKind::Sub ? -1 : 1;
      int64_t c;
      if (!checked_mul(r->constant, sign, &c) || !checked_add(l->constant, c, &l->constant))
        return std::nullopt;
      for (const auto& [v, k] : r->terms)
        if (!checked_mul(k, sign, &c) || !l->add(v, c)) return std::nullopt;
      return l;
    }
    case BinOpKind::Mul: {
      // One side must be a constant (Exo's normaliser refuses a product of variables).
      if (!r->terms.empty() && !l->terms.empty()) return std::nullopt;
      const Affine& konst = r->terms.empty() ? *r : *l;
      Affine out = r->terms.empty() ? *l : *r;
      if (!checked_mul(out.constant, konst.constant, &out.constant)) return std::nullopt;
      for (auto& t : out.terms)
        if (!checked_mul(t.second, konst.constant, &t.second)) return std::nullopt;
      return out;
    }
    default:
      return std::nullopt;
  }
}

// Exo's generate_loopIR: `constant + c1 * v1 - c2 * v2 ...`, terms sorted by (coefficient,
// name, symbol) and zero coefficients dropped; the peephole rules then tidy `0 + ` and `1 * `.
Expr generate(int64_t constant, std::vector<Term> terms, const Expr& like) {
  const SrcInfo& s = like.srcinfo();
  std::erase_if(terms, [](const Term& t) { return t.second == 0; });
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) {
    if (a.second != b.second) return a.second < b.second;
    const Sym &x = var_of(a), &y = var_of(b);
    if (x.name() != y.name()) return x.name() < y.name();
    return x.id() < y.id();
  });
  Expr out = ConstNode::make_int(constant, s);
  for (const auto& [read, c] : terms) {
    Expr term = BinOpNode::make(BinOpKind::Mul, ConstNode::make_int(c > 0 ? c : -c, s), read, s);
    out = BinOpNode::make(c > 0 ? BinOpKind::Add : BinOpKind::Sub, out, term, s);
  }
  return out;
}

bool has_div_mod_config(const Expr& e) {
  if (e.is<ReadConfigNode>()) return true;
  if (auto u = e.as<USubNode>()) return has_div_mod_config(u->arg);
  if (auto b = e.as<BinOpNode>())
    return b->op == BinOpKind::Div || b->op == BinOpKind::Mod || has_div_mod_config(b->lhs) ||
           has_div_mod_config(b->rhs);
  return false;
}

class ExoNormaliser {
 public:
  explicit ExoNormaliser(const IndexRangeOf& range_of) : range_of_(range_of) {}

  // Exo's index_start: the parts first, then the whole.
  std::optional<Expr> normalise(const Expr& e) {
    if (auto b = e.as<BinOpNode>()) {
      auto l = normalise(b->lhs), r = normalise(b->rhs);
      if (!l || !r) return std::nullopt;
      Expr whole = BinOpNode::make(b->op, *l, *r, e.srcinfo());
      if (b->op == BinOpKind::Div || b->op == BinOpKind::Mod) {
        const ConstNode* k = control_const(*r);
        if (!k || k->int_val() <= 0) return whole;
        if (has_div_mod_config(*l)) return b->op == BinOpKind::Div ? merge_divisors(whole) : whole;
        return b->op == BinOpKind::Div ? divide_or_split(*l, k->int_val(), whole)
                                       : modulo(*l, k->int_val(), whole);
      }
      if (has_div_mod_config(whole)) return whole;
      auto a = affine_of(whole);
      if (!a) return std::nullopt;
      return generate(a->constant, a->terms, whole);
    }
    if (auto u = e.as<USubNode>()) {
      if (has_div_mod_config(u->arg)) return e;
      auto a = affine_of(e);
      if (!a) return std::nullopt;
      return generate(a->constant, a->terms, e);
    }
    if (e.is<ReadNode>() || e.is<ConstNode>() || e.is<ReadConfigNode>()) return e;
    return std::nullopt;
  }

 private:
  bool within(const Expr& e, int64_t lo, int64_t hi_exclusive) const {
    IndexRange r = index_range(e, range_of_);
    return r.lo && r.hi && *r.lo >= lo && *r.hi < hi_exclusive;
  }

  // `lhs / d`: exact when every coefficient is a multiple of d; otherwise the terms d does not
  // divide (with the constant, or without it when d divides it) are dropped when their value
  // lies in [0, d). nullopt when nothing could be dropped.
  std::optional<Expr> divide(const Expr& lhs, int64_t d) {
    auto a = affine_of(lhs);
    if (!a) return std::nullopt;
    std::vector<Term> divisible, rest;
    for (const auto& t : a->terms) {
      if (t.second == 0) continue;
      (t.second % d == 0 ? divisible : rest).push_back(t);
    }
    for (auto& t : divisible) t.second /= d;
    if (rest.empty()) return generate(floor_div(a->constant, d), divisible, lhs);
    if (a->constant % d == 0) {
      if (within(generate(0, rest, lhs), 0, d)) return generate(a->constant / d, divisible, lhs);
    } else if (within(generate(a->constant, rest, lhs), 0, d)) {
      return generate(0, divisible, lhs);
    }
    return std::nullopt;
  }

  // Exo's division_simplification_and_try_spliting_denominator: when `lhs / d` does not
  // simplify, a factor f of d for which `lhs / f` does gives `(lhs / f) / (d / f)`.
  Expr divide_or_split(const Expr& lhs, int64_t d, const Expr& whole) {
    if (auto q = divide(lhs, d)) return *q;
    auto a = affine_of(lhs);
    if (!a) return whole;
    Expr regenerated = generate(a->constant, a->terms, lhs);
    const SrcInfo& s = whole.srcinfo();
    for (int64_t f = 2; f * f <= d; ++f) {
      if (d % f != 0) continue;
      for (int64_t first : {f, d / f})
        if (auto q = divide(regenerated, first))
          return BinOpNode::make(BinOpKind::Div, *q, ConstNode::make_int(d / first, s), s);
    }
    return BinOpNode::make(BinOpKind::Div, regenerated, ConstNode::make_int(d, s), s);
  }

  // (X / c1) / c2 is X / (c1 * c2) for positive constants.
  static Expr merge_divisors(Expr e) {
    while (true) {
      auto outer = e.as<BinOpNode>();
      auto inner = outer ? outer->lhs.as<BinOpNode>() : nullptr;
      const ConstNode* c2 = outer ? control_const(outer->rhs) : nullptr;
      const ConstNode* c1 =
          inner && inner->op == BinOpKind::Div ? control_const(inner->rhs) : nullptr;
      int64_t k;
      if (!outer || outer->op != BinOpKind::Div || !c1 || !c2 || c1->int_val() <= 0 ||
          c2->int_val() <= 0 || !checked_mul(c1->int_val(), c2->int_val(), &k))
        return e;
      e = BinOpNode::make(BinOpKind::Div, inner->lhs, ConstNode::make_int(k, e.srcinfo()),
                          e.srcinfo());
    }
  }

  // `lhs % m`: terms m divides are dropped, the constant too when m divides it; the modulo
  // itself goes when what is left lies in [0, m).
  Expr modulo(const Expr& lhs, int64_t m, const Expr& whole) {
    auto a = affine_of(lhs);
    if (!a) return whole;
    std::vector<Term> rest;
    for (const auto& t : a->terms)
      if (t.second % m != 0) rest.push_back(t);
    if (rest.empty()) return ConstNode::make_int(floor_mod(a->constant, m), lhs.srcinfo());
    const int64_t c = a->constant % m == 0 ? 0 : a->constant;
    Expr reduced = generate(c, rest, lhs);
    if (within(reduced, 0, m)) return reduced;
    return BinOpNode::make(BinOpKind::Mod, reduced, whole.as<BinOpNode>()->rhs, whole.srcinfo());
  }

  const IndexRangeOf& range_of_;
};

// N % K + K * (N / K) (either order of the sum and of the product) is N.
std::optional<Expr> quotient_remainder(const Expr& l, const Expr& r) {
  for (auto [rem, quot] : {std::pair{l, r}, std::pair{r, l}}) {
    auto m = rem.as<BinOpNode>();
    auto p = quot.as<BinOpNode>();
    if (!m || m->op != BinOpKind::Mod || !p || p->op != BinOpKind::Mul) continue;
    for (auto [k, d] : {std::pair{p->lhs, p->rhs}, std::pair{p->rhs, p->lhs}}) {
      auto div = d.as<BinOpNode>();
      if (div && div->op == BinOpKind::Div && expr_equal(k, m->rhs) &&
          expr_equal(div->lhs, m->lhs) && expr_equal(div->rhs, m->rhs) && k.is<ConstNode>())
        return m->lhs;
    }
  }
  return std::nullopt;
}

std::optional<Expr> fold_constants(BinOpKind op, const ConstNode* l, const ConstNode* r,
                                   const SrcInfo& s) {
  if (l->type.base == ScalarKind::Bool || r->type.base == ScalarKind::Bool) {
    if (op == BinOpKind::And) return ConstNode::make_bool(l->val != 0 && r->val != 0, s);
    if (op == BinOpKind::Or) return ConstNode::make_bool(l->val != 0 || r->val != 0, s);
    return std::nullopt;
  }
  const int64_t a = l->int_val(), b = r->int_val();
  int64_t v;
  switch (op) {
    case BinOpKind::Add:
      if (!checked_add(a, b, &v)) return std::nullopt;
      return ConstNode::make_int(v, s);
    case BinOpKind::Sub:
      if (__builtin_sub_overflow(a, b, &v)) return std::nullopt;
      return ConstNode::make_int(v, s);
    case BinOpKind::Mul:
      if (!checked_mul(a, b, &v)) return std::nullopt;
      return ConstNode::make_int(v, s);
    case BinOpKind::Div:
      if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
      return ConstNode::make_int(floor_div(a, b), s);
    case BinOpKind::Mod:
      if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
      return ConstNode::make_int(floor_mod(a, b), s);
    case BinOpKind::Lt:
      return ConstNode::make_bool(a < b, s);
    case BinOpKind::Gt:
      return ConstNode::make_bool(a > b, s);
    case BinOpKind::Le:
      return ConstNode::make_bool(a <= b, s);
    case BinOpKind::Ge:
      return ConstNode::make_bool(a >= b, s);
    case BinOpKind::Eq:
      return ConstNode::make_bool(a == b, s);
    default:
      return std::nullopt;
  }
}

class Peephole : public IRMutator {
 public:
  using IRMutator::mutate;

 protected:
  Expr mutate_BinOp(const BinOpNode* n, const Expr& e) override {
    Expr l = mutate(n->lhs), r = mutate(n->rhs);
    const SrcInfo& s = e.srcinfo();
    if (is_data(e.type().base) || is_data(l.type().base) || is_data(r.type().base))
      return l.same_as(n->lhs) && r.same_as(n->rhs) ? e : BinOpNode::make(n->op, l, r, s);
    const ConstNode *cl = control_const(l), *cr = control_const(r);
    if (cl && cr)
      if (auto folded = fold_constants(n->op, cl, cr, s)) return *folded;
    auto is_bool = [](const ConstNode* c, bool v) {
      return c && c->type.base == ScalarKind::Bool && (c->val != 0) == v;
    };
    switch (n->op) {
      case BinOpKind::Add:
        if (is_int_const(l, 0)) return r;
        if (is_int_const(r, 0)) return l;
        if (auto q = quotient_remainder(l, r)) return *q;
        break;
      case BinOpKind::Sub:
        if (is_int_const(r, 0)) return l;
        if (is_int_const(l, 0)) return USubNode::make(r, s);
        if (auto sum = l.as<BinOpNode>(); sum && sum->op == BinOpKind::Add) {
          if (expr_equal(sum->lhs, r)) return sum->rhs;
          if (expr_equal(sum->rhs, r)) return sum->lhs;
        }
        break;
      case BinOpKind::Mul:
        if (is_int_const(l, 0) || is_int_const(r, 0)) return ConstNode::make_int(0, s);
        if (is_int_const(l, 1)) return r;
        if (is_int_const(r, 1)) return l;
        break;
      case BinOpKind::Div:
        if (is_int_const(r, 1)) return l;
        break;
      case BinOpKind::Mod:
        if (is_int_const(r, 1)) return ConstNode::make_int(0, s);
        break;
      case BinOpKind::And:
      case BinOpKind::Or: {
        const bool is_and = n->op == BinOpKind::And;
        for (auto [c, other] : {std::pair{cl, r}, std::pair{cr, l}}) {
          if (is_bool(c, !is_and)) return ConstNode::make_bool(!is_and, s);
          if (is_bool(c, is_and)) return other;
        }
        break;
      }
      default:
        break;
    }
    return l.same_as(n->lhs) && r.same_as(n->rhs) ? e : BinOpNode::make(n->op, l, r, s);
  }
};

class ComplexityCounter : public IRVisitor {
 public:
  int count = 0;

 protected:
  void visit_Read(const ReadNode* n, const Expr& e) override {
    ++count;
    IRVisitor::visit_Read(n, e);
  }
  void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
    ++count;
    IRVisitor::visit_ReadConfig(n, e);
  }
  void visit_StrideExpr(const StrideExprNode* n, const Expr& e) override {
    ++count;
    IRVisitor::visit_StrideExpr(n, e);
  }
  void visit_BinOp(const BinOpNode* n, const Expr& e) override {
    if (n->op == BinOpKind::Div || n->op == BinOpKind::Mod || n->op == BinOpKind::Mul) {
      // A product by a constant is a coefficient, not work of its own.
      if (n->op != BinOpKind::Mul || !(n->lhs.is<ConstNode>() || n->rhs.is<ConstNode>())) ++count;
    }
    IRVisitor::visit_BinOp(n, e);
  }
};

}  // namespace

IndexRange index_range(const Expr& e, const IndexRangeOf& range_of) {
  if (auto c = control_const(e); c && c->type.base != ScalarKind::Bool)
    return {c->int_val(), c->int_val()};
  if (auto r = e.as<ReadNode>()) {
    if (!r->idx.empty() || !is_indexable(r->type.base)) return {};
    return range_of(r->name);
  }
  if (auto u = e.as<USubNode>()) return scale(index_range(u->arg, range_of), -1);
  auto b = e.as<BinOpNode>();
  if (!b) return {};
  IndexRange l = index_range(b->lhs, range_of), r = index_range(b->rhs, range_of);
  auto single = [](const IndexRange& x) -> std::optional<int64_t> {
    if (x.lo && x.hi && *x.lo == *x.hi) return *x.lo;
    return std::nullopt;
  };
  switch (b->op) {
    case BinOpKind::Add:
      return {add_end(l.lo, r.lo), add_end(l.hi, r.hi)};
    case BinOpKind::Sub: {
      IndexRange nr = scale(r, -1);
      return {add_end(l.lo, nr.lo), add_end(l.hi, nr.hi)};
    }
    case BinOpKind::Mul:
      if (auto k = single(r)) return scale(l, *k);
      if (auto k = single(l)) return scale(r, *k);
      return {};
    case BinOpKind::Div: {
      auto k = single(r);
      if (!k || *k <= 0) return {};
      IndexRange out;
      if (l.lo) out.lo = floor_div(*l.lo, *k);
      if (l.hi) out.hi = floor_div(*l.hi, *k);
      return out;
    }
    case BinOpKind::Mod: {
      auto k = single(r);
      if (!k || *k <= 0) return {};
      if (l.lo && l.hi && floor_div(*l.lo, *k) == floor_div(*l.hi, *k))
        return {floor_mod(*l.lo, *k), floor_mod(*l.hi, *k)};
      return {0, *k - 1};
    }
    default:
      return {};
  }
}

std::optional<Expr> exo_index_normal_form(const Expr& e, const IndexRangeOf& range_of) {
  std::optional<Expr> n = ExoNormaliser(range_of).normalise(e);
  if (!n) return std::nullopt;
  return exo_peephole(*n);
}

Expr exo_peephole(const Expr& e) { return Peephole().mutate(e); }

int index_complexity(const Expr& e) {
  ComplexityCounter c;
  c.visit(e);
  return c.count;
}

}  // namespace exocpp
